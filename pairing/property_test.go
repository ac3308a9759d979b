package pairing

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// minRematches is the fewest rematches that pairing the players of mask
// takes (an even number of them): every way of pairing the lowest with
// another, tried.
func minRematches(met [][]bool, mask uint32, memo map[uint32]int) int {
	if mask == 0 {
		return 0
	}
	if m, ok := memo[mask]; ok {
		return m
	}
	i := 0
	for mask&(1<<i) == 0 {
		i++
	}
	rest := mask &^ (1 << i)
	best := -1
	for j := i + 1; j < len(met); j++ {
		if rest&(1<<j) == 0 {
			continue
		}
		c := minRematches(met, rest&^(1<<j), memo)
		if met[i][j] {
			c++
		}
		if best < 0 || c < best {
			best = c
			if best == 0 {
				break
			}
		}
	}
	memo[mask] = best
	return best
}

// event is a Swiss played with random results.
type event struct {
	players []Player
	rounds  []Round
}

// randomEvent makes a field of n players with random ratings, some of
// them equal.
func randomEvent(rng *rand.Rand, n int) *event {
	e := &event{}
	for i := range n {
		rating := float64(1000 + 50*rng.IntN(25))
		e.players = append(e.players, Player{Handle: fmt.Sprintf("p%02d", i), Rating: rating})
	}
	return e
}

// play gives every game of the last round a random result: wins more
// often than draws.
func (e *event) play(rng *rand.Rand) {
	rd := e.rounds[len(e.rounds)-1]
	for i := range rd.Games {
		rd.Games[i].Result = []Result{WhiteWon, WhiteWon, BlackWon, BlackWon, Drawn}[rng.IntN(5)]
	}
}

// TestSwissProperties pairs 1,000 random Swiss events of 4 to 16
// players, each its default number of rounds (M33) with random results,
// one in four with a player withdrawing mid-round (their game left
// unfinished, so lost). Each round it checks that every player still in
// is paired once or has the bye and nobody withdrawn is paired; that the
// round has exactly as many rematches as the fewest any pairing could
// (found by trying every pairing, with every player who could have had
// the bye out), and so none when one can be avoided; that Rematches
// lists them; that the bye goes to a player with no bye if there is one;
// and after the round that every player's whites and blacks differ by at
// most 2.
func TestSwissProperties(t *testing.T) {
	t.Parallel()
	events := 1000
	if testing.Short() {
		events = 200
	}
	swissProperties(t, rand.New(rand.NewPCG(36, 37)), events, 4, 16, false, bruteFewest)
}

// TestSwissPropertiesLarge is TestSwissProperties for fields too large
// to pair by trying every pairing, 21 to 40 players, with any number of
// rounds up to one less than the players: late rounds run short of
// opponents not yet met. Rematches are counted against a maximum
// matching; the colours' balance is not checked, as there pairing keeps
// it only where no rematch is needed.
func TestSwissPropertiesLarge(t *testing.T) {
	t.Parallel()
	events := 100
	if testing.Short() {
		events = 10
	}
	swissProperties(t, rand.New(rand.NewPCG(38, 39)), events, 21, 40, true, matchingFewest)
}

// swissProperties plays random events of lo to hi players, checking
// each round; long events have up to one round less than players,
// others the default number.
func swissProperties(t *testing.T, rng *rand.Rand, events, lo, hi int, long bool, fewest fewestFunc) {
	t.Helper()
	rematched := 0
	for ev := range events {
		n := lo + rng.IntN(hi-lo+1)
		e := randomEvent(rng, n)
		rounds := SwissRounds(n)
		if long {
			rounds += rng.IntN(n - rounds)
		}
		withdrawAt := -1
		if rng.IntN(4) == 0 {
			withdrawAt = rng.IntN(rounds)
		}
		for r := range rounds {
			p, err := PairSwiss(e.players, e.rounds)
			if err != nil {
				t.Fatalf("event %d round %d: PairSwiss: %v", ev, r+1, err)
			}
			where := fmt.Sprintf("event %d (%d players) round %d: %v\nafter\n%s", ev, n, r+1, p, tableString(e.rounds))
			if err := e.checkPairing(p, fewest); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			e.rounds = append(e.rounds, p.Round)
			if len(p.Rematches) > 0 {
				rematched++
			}
			e.play(rng)
			if r == withdrawAt {
				rd := e.rounds[r]
				if len(rd.Games) > 0 {
					g := &rd.Games[rng.IntN(len(rd.Games))]
					g.Result = Unfinished
					for i := range e.players {
						if e.players[i].Handle == g.White {
							e.players[i].Withdrawn = true
						}
					}
				}
			}
			if err := e.checkColours(!long); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
		}
	}
	t.Logf("%d events, %d rounds that could not avoid a rematch", events, rematched)
}

// fewestFunc is the fewest rematches that pairing the players of mask
// takes, given who has met whom.
type fewestFunc func(met [][]bool, mask uint64) int

// bruteFewest tries every pairing, for up to 16 players.
func bruteFewest(met [][]bool, mask uint64) int {
	return minRematches(met, uint32(mask), map[uint32]int{})
}

// matchingFewest is half the players less a maximum matching of those
// who have not met: the rest must meet again.
func matchingFewest(met [][]bool, mask uint64) int {
	fresh := square(len(met))
	var vs []int
	for i := range met {
		if mask&(1<<i) != 0 {
			vs = append(vs, i)
		}
		for j := range met {
			fresh[i][j] = i != j && !met[i][j]
		}
	}
	return len(vs)/2 - newMatcher(fresh).size(vs, false)
}

// checkPairing checks p, the next round of e, against the rounds before.
func (e *event) checkPairing(p Pairing, fewestRematches fewestFunc) error {
	t, err := tally(Swiss, e.players, e.rounds)
	if err != nil {
		return err
	}
	idx := map[string]int{}
	var active []int
	for i, pl := range e.players {
		idx[pl.Handle] = i
		if !pl.Withdrawn {
			active = append(active, i)
		}
	}
	met := square(len(e.players))
	for i, rec := range t {
		for _, g := range rec.games {
			met[i][g.opp] = true
		}
	}
	seen := map[int]bool{}
	rematches := 0
	for _, g := range p.Games {
		w, b := idx[g.White], idx[g.Black]
		for _, x := range []int{w, b} {
			if seen[x] || e.players[x].Withdrawn {
				return fmt.Errorf("%s paired twice or withdrawn", e.players[x].Handle)
			}
			seen[x] = true
		}
		if met[w][b] {
			rematches++
		}
	}
	if rematches != len(p.Rematches) {
		return fmt.Errorf("%d rematches, Rematches lists %d", rematches, len(p.Rematches))
	}
	fewest := 1 << 30
	for _, i := range active {
		fewest = min(fewest, t[i].byes)
	}
	var byes []int // who may have the bye
	if len(active)%2 == 1 {
		b, ok := idx[p.Bye]
		if !ok || seen[b] || e.players[b].Withdrawn {
			return fmt.Errorf("bye %q", p.Bye)
		}
		seen[b] = true
		if t[b].byes != fewest {
			return fmt.Errorf("bye to %s, who had %d, and some had %d", p.Bye, t[b].byes, fewest)
		}
		for _, i := range active {
			if t[i].byes == fewest {
				byes = append(byes, i)
			}
		}
	} else if p.Bye != "" {
		return fmt.Errorf("bye %q in an even field", p.Bye)
	}
	if len(seen) != len(active) {
		return fmt.Errorf("%d of %d players paired", len(seen), len(active))
	}
	var mask uint64
	for _, i := range active {
		mask |= 1 << i
	}
	best := -1
	if byes == nil {
		best = fewestRematches(met, mask)
	}
	for _, b := range byes {
		if c := fewestRematches(met, mask&^(1<<b)); best < 0 || c < best {
			best = c
		}
	}
	if rematches != best {
		return fmt.Errorf("%d rematches, %d would do", rematches, best)
	}
	return nil
}

// checkColours checks that nobody has had two byes and, with balance,
// that nobody's whites and blacks differ by more than 2.
func (e *event) checkColours(balance bool) error {
	t, err := tally(Swiss, e.players, e.rounds)
	if err != nil {
		return err
	}
	for i, rec := range t {
		w, b := 0, 0
		for _, g := range rec.games {
			if g.colour == white {
				w++
			} else {
				b++
			}
		}
		if balance && (w-b > 2 || b-w > 2) {
			return fmt.Errorf("%s has %d whites and %d blacks", e.players[i].Handle, w, b)
		}
		if rec.byes > 1 {
			return fmt.Errorf("%s has %d byes", e.players[i].Handle, rec.byes)
		}
	}
	return nil
}
