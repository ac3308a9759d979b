package pairing

import (
	"cmp"
	"math/bits"
	"slices"
	"strings"
)

// Pairing is a Swiss round as PairSwiss pairs it.
type Pairing struct {
	Round
	// Rematches are the games of Round whose players have met before:
	// there are none unless no pairing without a rematch exists, and
	// then as few as can be. The director is to be told (M36).
	Rematches []Game
}

// PairSwiss pairs the next round of a Swiss (M36) after the rounds
// played, which should all have ended: an unfinished game scores nothing
// (unless a withdrawal forfeits it, as in Standings) but its players
// have met. Withdrawn players are paired no further.
//
// The players still playing are ranked by points, then rating, then
// handle. With an odd number, the lowest-ranked player who has had no
// bye (if all have, who has had the fewest) has the round's bye, worth
// 1 point; a player is passed over only when, with them out, the others
// could not be paired by the rules below, and with another's bye they
// could (or with fewer rematches).
//
// The others are paired within score groups from the top. Each group,
// with the players floated down from the group above it, forms a
// bracket. An odd bracket floats its lowest-ranked player down to the
// next; a bracket that cannot be paired without a rematch floats as few
// players as it must, the lowest-ranked it can (the usual float). In the
// bracket, its players ranked, the top half meets the bottom half, 1 v
// k+1, 2 v k+2, ... (in round 1 all players form one bracket, so this is
// M36's first round): the top player takes the top of the bottom half,
// or if they have met, the next down the bottom half, then up the top
// half from its lowest, and so on for each player left. Every choice
// looks ahead: no pairing is made after which the players left could no
// longer be paired without a rematch. Nor may two players meet whose
// colours would then run out of balance: whites and blacks differing by
// more than 2. Only when no pairing keeps both rules is one given up:
// the balance first; then, if even that is not enough, rematches, as
// few as can be. In a field of up to 20 players the pairing then also
// breaks the balance for as few pairs as it can; in a larger one it
// only prefers balanced pairs.
//
// Colours: the player with fewer whites has White; with as many, the
// one who had Black in the last round while the other did not; then the
// one with more blacks (they have had more games); then, when both have
// had the same, the higher-ranked (as in round 1). Before all of these,
// if only one way round keeps both players' whites and blacks within 2
// of each other, it is that way round.
func PairSwiss(players []Player, played []Round) (Pairing, error) {
	t, err := tally(Swiss, players, played)
	if err != nil {
		return Pairing{}, err
	}
	var ranked []int // indices of the players still playing, best first
	for i, p := range players {
		if !p.Withdrawn {
			ranked = append(ranked, i)
		}
	}
	slices.SortFunc(ranked, func(a, b int) int {
		if c := cmp.Compare(t[b].points, t[a].points); c != 0 {
			return c
		}
		if c := cmp.Compare(players[b].Rating, players[a].Rating); c != 0 {
			return c
		}
		return strings.Compare(players[a].Handle, players[b].Handle)
	})
	s := newSwiss(t, ranked)
	var out Pairing
	all := make([]int, len(ranked)) // from here on players are ranks
	for i := range all {
		all[i] = i
	}
	if len(all)%2 == 1 {
		bye := s.chooseBye(all)
		out.Bye = players[ranked[bye]].Handle
		all = slices.Delete(all, bye, bye+1)
	}
	for _, pr := range s.pair(all) {
		a, b := pr[0], pr[1]
		if !s.whiteFirst(a, b) {
			a, b = b, a
		}
		g := Game{White: players[ranked[a]].Handle, Black: players[ranked[b]].Handle}
		out.Games = append(out.Games, g)
		if s.met[a][b] {
			out.Rematches = append(out.Rematches, g)
		}
	}
	return out, nil
}

// swiss is the state of pairing one round, its players numbered by rank.
type swiss struct {
	points   []float64
	byes     []int
	whites   []int
	blacks   []int
	last     []colour
	met      [][]bool
	balanced [][]bool // not met, and the colours can keep their balance
	fresh    [][]bool // not met
	m        *matcher
	mode     int     // how pairs are weighed: balancedOnly, exact or freshOnly
	memo     []int32 // for exact: the lightest pairing of each set of players, or -1
	tries    int     // bracket floats tried, against maxFloatTries
}

// maxFloatTries bounds the search for a bracket's floaters: past it a
// bracket that could not be paired floats whole into the next. Only a
// bracket of many players who have nearly all met comes near it.
const maxFloatTries = 5000

func newSwiss(t []record, ranked []int) *swiss {
	n := len(ranked)
	s := &swiss{
		points: make([]float64, n), byes: make([]int, n),
		whites: make([]int, n), blacks: make([]int, n), last: make([]colour, n),
		met: square(n), balanced: square(n), fresh: square(n),
	}
	s.m = newMatcher(nil)
	rank := make(map[int]int, n)
	for r, i := range ranked {
		rank[i] = r
	}
	for r, i := range ranked {
		s.points[r], s.byes[r], s.last[r] = t[i].points, t[i].byes, t[i].last
		for _, g := range t[i].games {
			if g.colour == white {
				s.whites[r]++
			} else {
				s.blacks[r]++
			}
			if o, ok := rank[g.opp]; ok {
				s.met[r][o] = true
			}
		}
	}
	for a := range n {
		for b := range n {
			if a != b && !s.met[a][b] {
				s.fresh[a][b] = true
				s.balanced[a][b] = s.balance(a, b, true) || s.balance(a, b, false)
			}
		}
	}
	return s
}

func square(n int) [][]bool {
	cells := make([]bool, n*n)
	m := make([][]bool, n)
	for i := range m {
		m[i] = cells[i*n : (i+1)*n]
	}
	return m
}

// balance reports whether a game of a and b, a White when aWhite, leaves
// each with whites and blacks within 2 of each other.
func (s *swiss) balance(a, b int, aWhite bool) bool {
	if !aWhite {
		a, b = b, a
	}
	within := func(whites, blacks int) bool { return whites-blacks <= 2 && blacks-whites <= 2 }
	return within(s.whites[a]+1, s.blacks[a]) && within(s.whites[b], s.blacks[b]+1)
}

// whiteFirst reports whether a has White against b, as PairSwiss says.
func (s *swiss) whiteFirst(a, b int) bool {
	if ab, ba := s.balance(a, b, true), s.balance(a, b, false); ab != ba {
		return ab
	}
	if s.whites[a] != s.whites[b] {
		return s.whites[a] < s.whites[b]
	}
	if (s.last[a] == black) != (s.last[b] == black) {
		return s.last[a] == black
	}
	if s.blacks[a] != s.blacks[b] {
		return s.blacks[a] > s.blacks[b]
	}
	return a < b
}

// How pairing weighs its pairs, from the strictest.
const (
	// balancedOnly pairs only those who have not met and can keep
	// their colours' balance, every pair of weight 0.
	balancedOnly = iota
	// exact weighs a rematch rematchWeight and a pair that cannot keep
	// the balance 1, and finds the lightest pairings by trying them
	// all: for fields of up to exactPlayers players.
	exact
	// freshOnly weighs a rematch 1 and anything else 0, by matching:
	// for larger fields; the balance is only preferred.
	freshOnly
)

const (
	exactPlayers  = 20
	rematchWeight = 1000 // more than all the unbalanced pairs of a round
)

// weight is what pairing p and q costs.
func (s *swiss) weight(p, q int) int {
	switch s.mode {
	case balancedOnly:
		if s.balanced[p][q] {
			return 0
		}
		return 1
	case exact:
		w := 0
		if s.met[p][q] {
			w += rematchWeight
		}
		if !s.balance(p, q, true) && !s.balance(p, q, false) {
			w++
		}
		return w
	}
	if s.met[p][q] {
		return 1
	}
	return 0
}

// cost is the least total weight of a pairing of the players vs (an
// even number), or with budget 0 just whether that is 0: then it
// returns 0 or 1.
func (s *swiss) cost(vs []int, budget int) int {
	switch s.mode {
	case exact:
		var mask uint32
		for _, r := range vs {
			mask |= 1 << r
		}
		return s.lightest(mask)
	case balancedOnly:
		s.m.adj = s.balanced
	default:
		s.m.adj = s.fresh
	}
	if budget == 0 {
		if 2*s.m.size(vs, true) == len(vs) {
			return 0
		}
		return 1
	}
	return len(vs)/2 - s.m.size(vs, false)
}

// lightest is the least total weight of a pairing of the players of
// mask: the best-ranked of them paired with each of the others in turn,
// the rest of them paired the lightest way, remembered.
func (s *swiss) lightest(mask uint32) int {
	if mask == 0 {
		return 0
	}
	if w := s.memo[mask]; w >= 0 {
		return int(w)
	}
	i := bits.TrailingZeros32(mask)
	rest := mask &^ (1 << i)
	best := -1
	for r := rest; r != 0; r &= r - 1 {
		j := bits.TrailingZeros32(r)
		if w := s.weight(i, j) + s.lightest(rest&^(1<<j)); best < 0 || w < best {
			best = w
		}
	}
	s.memo[mask] = int32(best)
	return best
}

// fallback is the mode for pairings that need unbalanced pairs or
// rematches: exact for a field small enough, else freshOnly.
func (s *swiss) fallback() int {
	if len(s.points) <= exactPlayers {
		return exact
	}
	return freshOnly
}

// setMode makes pairing weigh its pairs as mode says.
func (s *swiss) setMode(mode int) {
	s.mode = mode
	if mode == exact && s.memo == nil {
		s.memo = make([]int32, 1<<len(s.points))
		for i := range s.memo {
			s.memo[i] = -1
		}
	}
}

// chooseBye picks the bye among the ranks all (an odd number), as
// PairSwiss says, and returns its place in all.
func (s *swiss) chooseBye(all []int) int {
	fewest := s.byes[all[0]]
	for _, r := range all {
		fewest = min(fewest, s.byes[r])
	}
	var candidates []int // places in all, lowest-ranked first
	for i := len(all) - 1; i >= 0; i-- {
		if s.byes[all[i]] == fewest {
			candidates = append(candidates, i)
		}
	}
	rest := make([]int, 0, len(all)-1)
	without := func(i int) []int {
		rest = append(append(rest[:0], all[:i]...), all[i+1:]...)
		return rest
	}
	s.setMode(balancedOnly)
	for _, i := range candidates {
		if s.cost(without(i), 0) == 0 {
			return i
		}
	}
	s.setMode(s.fallback())
	best, bestCost := candidates[0], -1
	for _, i := range candidates {
		if c := s.cost(without(i), len(all)*rematchWeight); bestCost < 0 || c < bestCost {
			best, bestCost = i, c
		}
	}
	return best
}

// pair pairs the ranks all (an even number, best first) bracket by
// bracket, and returns the pairs, the higher-ranked first in each, board
// by board.
func (s *swiss) pair(all []int) [][2]int {
	// Pairs of weight 0 only, if they can pair everyone; else as
	// light as can be. budget is the weight still to be paired.
	s.setMode(balancedOnly)
	budget := 0
	if s.cost(all, 0) > 0 {
		s.setMode(s.fallback())
		budget = s.cost(all, len(all)*rematchWeight)
	}
	var pairs [][2]int
	var carry []int
	for start := 0; start < len(all); {
		end := start + 1
		for end < len(all) && s.points[all[end]] == s.points[all[start]] {
			end++
		}
		bracket := append(slices.Clone(carry), all[start:end]...)
		below := all[end:]
		stay, float, inside := s.floaters(bracket, below, budget)
		budget -= inside
		pairs = append(pairs, s.pairBracket(stay, inside)...)
		carry = float
		start = end
	}
	return pairs
}

// floaters splits a bracket into the players it pairs and those it
// floats down, as few as it can, the lowest-ranked it can, so that both
// the bracket and the players below with the floaters can be paired
// within budget. It also returns the weight of the bracket's pairing.
func (s *swiss) floaters(bracket, below []int, budget int) (stay, float []int, inside int) {
	n := len(bracket)
	chosen := make([]bool, n) // by place in bracket
	var in, out []int
	try := func() bool {
		s.tries++
		in, out = in[:0], append(out[:0], below...)
		for i, r := range bracket {
			if chosen[i] {
				out = append(out, r)
			} else {
				in = append(in, r)
			}
		}
		if budget == 0 {
			return s.cost(in, 0) == 0 && s.cost(out, 0) == 0
		}
		inside = s.cost(in, budget)
		return inside+s.cost(out, budget) <= budget
	}
	// choose picks k more floaters from places 0..top, lowest first.
	var choose func(k, top int) bool
	choose = func(k, top int) bool {
		if k == 0 {
			return try()
		}
		for i := top; i >= k-1; i-- {
			if s.tries > maxFloatTries {
				return false
			}
			chosen[i] = true
			if choose(k-1, i-1) {
				return true
			}
			chosen[i] = false
		}
		return false
	}
	for f := n % 2; f <= n; f += 2 {
		if choose(f, n-1) {
			return in, out[len(below):], inside
		}
		if s.tries > maxFloatTries {
			break
		}
	}
	// The whole bracket floats: as the players left could be paired
	// within budget, so can it with the players below.
	return nil, bracket, 0
}

// pairBracket pairs the players of a bracket (best first) within budget:
// each time the top player left meets the first of the others, in the
// order of preference, after whom the rest can still be paired.
func (s *swiss) pairBracket(players []int, budget int) [][2]int {
	left := slices.Clone(players)
	var pairs [][2]int
	order := make([]int, 0, len(left))
	rest := make([]int, 0, len(left))
	for len(left) > 0 {
		p, k := left[0], len(left)/2
		// The bottom half from its top, then the top half from its
		// bottom; balanced pairs before merely fresh ones, and those
		// before rematches.
		order = order[:0]
		for i := k; i < len(left); i++ {
			order = append(order, i)
		}
		for i := k - 1; i >= 1; i-- {
			order = append(order, i)
		}
		class := func(i int) int {
			q := left[i]
			switch {
			case s.balanced[p][q]:
				return 0
			case s.fresh[p][q]:
				return 1
			case s.balance(p, q, true) || s.balance(p, q, false):
				return 2
			}
			return 3
		}
		slices.SortStableFunc(order, func(i, j int) int { return class(i) - class(j) })
		pick, weight := -1, 0
		for _, i := range order {
			w := s.weight(p, left[i])
			if w > budget {
				continue
			}
			rest = rest[:0]
			for j, r := range left[1:] {
				if j+1 != i {
					rest = append(rest, r)
				}
			}
			if s.cost(rest, budget-w) <= budget-w {
				pick, weight = i, w
				break
			}
		}
		if pick < 0 { // cannot happen: the budget allowed for the bracket
			pick, weight = k, s.weight(p, left[k])
		}
		pairs = append(pairs, [2]int{p, left[pick]})
		budget -= weight
		left = slices.Delete(left, pick, pick+1)[1:]
	}
	return pairs
}
