package pairing

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// FuzzSwiss plays a Swiss from the fuzzer's bytes: the field's size and
// ratings, each game's result, withdrawals, and now and then a round
// paired by hand anyhow (rematches, lopsided colours, byes again), and
// checks that pairing and scoring never fail nor pair anyone twice.
func FuzzSwiss(f *testing.F) {
	f.Add([]byte{5, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{16, 0, 0, 0, 0, 255, 255, 255, 255, 3, 3, 3, 3, 200, 100, 50})
	f.Add([]byte{23, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 251, 252, 253, 254, 250, 249, 1, 2, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		next := func() int {
			if len(data) == 0 {
				return 0
			}
			x := int(data[0])
			data = data[1:]
			return x
		}
		n := next() % 25
		players := make([]Player, n)
		for i := range players {
			players[i] = Player{Handle: fmt.Sprintf("p%02d", i), Rating: float64(next() * 8)}
		}
		var played []Round
		for r := range 1 + next()%9 {
			var rd Round
			if op := next(); op%16 == 15 {
				rd = anyRound(players, next())
			} else {
				p, err := PairSwiss(players, played)
				if err != nil {
					t.Fatalf("round %d: PairSwiss: %v", r+1, err)
				}
				seen := map[string]bool{}
				for _, g := range p.Games {
					for _, h := range []string{g.White, g.Black} {
						if seen[h] {
							t.Fatalf("round %d: %s paired twice in %v", r+1, h, p)
						}
						seen[h] = true
					}
				}
				rd = p.Round
			}
			for i := range rd.Games {
				rd.Games[i].Result = Result(next() % 4)
			}
			if x := next(); n > 0 && x%8 == 7 {
				players[x%n].Withdrawn = true
			}
			played = append(played, rd)
			if _, err := Standings(Swiss, players, played); err != nil {
				t.Fatalf("round %d: Standings: %v", r+1, err)
			}
		}
		if _, err := NewCrosstable(players, played); err != nil {
			t.Fatalf("NewCrosstable: %v", err)
		}
	})
}

// anyRound pairs the players at random, whether they have met or not.
func anyRound(players []Player, seed int) Round {
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	perm := rng.Perm(len(players))
	var rd Round
	if len(perm)%2 == 1 {
		rd.Bye = players[perm[0]].Handle
		perm = perm[1:]
	}
	for i := 0; i+1 < len(perm); i += 2 {
		rd.Games = append(rd.Games, Game{White: players[perm[i]].Handle, Black: players[perm[i+1]].Handle})
	}
	return rd
}

// BenchmarkPairSwiss200 pairs round 5 of a Swiss of 200 players, after
// four rounds of random results.
func BenchmarkPairSwiss200(b *testing.B) {
	rng := rand.New(rand.NewPCG(200, 5))
	e := randomEvent(rng, 200)
	for range 4 {
		p, err := PairSwiss(e.players, e.rounds)
		if err != nil {
			b.Fatal(err)
		}
		e.rounds = append(e.rounds, p.Round)
		e.play(rng)
	}
	for b.Loop() {
		if _, err := PairSwiss(e.players, e.rounds); err != nil {
			b.Fatal(err)
		}
	}
}
