package robot

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/congobymail/congo/engine"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/tablebase"
)

var (
	endingsDir = flag.String("endings", "", "directory of the four-men tables: measure how level 5 converts won endings without them (TestMeasureEndings)")
	endingsN   = flag.Int("endings.n", 20, "won endings to play in TestMeasureEndings")
	endingsMin = flag.Int("endings.min", 2, "the least N of the won endings of TestMeasureEndings")
	fiveOut    = flag.String("five", "", "write positions of five men (a piece and a pawn against a piece) drawn at random to this file, for congo match -positions")
)

// TestMeasureEndings plays won endings of four men drawn at random, the
// winner level 5 without the tables, the loser the tables' longest
// defence, and reports how many level 5 won and in how many moves
// against the tables' N (with the tables it is always exactly N:
// TestTablesWinInN). A game still going after 200 plies, or at a
// position's third occurrence, counts as not won.
//
//	go test ./robot -run TestMeasureEndings -endings DIR -endings.n 20 -endings.min 15 -v
func TestMeasureEndings(t *testing.T) {
	if *endingsDir == "" {
		t.Skip("with -endings DIR")
	}
	ts, err := tablebase.Open(*endingsDir)
	if err != nil {
		t.Fatal(err)
	}
	ms := ts.Materials()
	var fours []tablebase.Material
	for _, m := range ms {
		if m.Pieces() == 2 {
			fours = append(fours, m)
		}
	}
	level5, _ := engine.LevelOf(5)
	won, moves, optimal := 0, 0, 0
	began := time.Now()
	for i, p := range wonEndings(ts, fours, *endingsN, 11, *endingsMin) {
		n := ts.Probe(p).N
		winner := p.Turn()
		q := p
		var before []rules.Position
		seen := map[uint64]int{q.Hash(): 1}
		played, result := 0, "not won in 200 plies"
		for ply := 0; ply < 200; ply++ {
			if o := q.Outcome(); o.Over() {
				result = o.String()
				if o.State == rules.Won && o.Winner == winner {
					won++
					moves += played
					optimal += n
				}
				break
			}
			if seen[q.Hash()] >= 3 {
				result = "a position occurred 3 times"
				break
			}
			var m rules.Move
			if q.Turn() == winner {
				played++
				e := engine.New(engine.Options{TTBits: ttBits, Seed: uint64(i)})
				m = e.SearchGame(context.Background(), before, q, level5.Limits(time.Now())).Move
			} else {
				m, _ = ts.BestMove(q)
			}
			before = append(before, q)
			q = q.After(m)
			seen[q.Hash()]++
		}
		t.Logf("%2d. %-28s win %2d: level 5 alone %d moves, %s", i+1, p, n, played, result)
	}
	t.Logf("level 5 without the tables won %d of %d won endings, in %d moves where the tables need %d (%.1f s)",
		won, *endingsN, moves, optimal, time.Since(began).Seconds())
}

// TestMeasureFive writes n positions of five men at random (-five FILE):
// White's piece and pawn against Black's piece, or the colors the other
// way round, neither lion attacked, for a match from endings with and
// without the tables.
func TestMeasureFive(t *testing.T) {
	if *fiveOut == "" {
		t.Skip("with -five FILE")
	}
	rng := rand.New(rand.NewPCG(5, 5))
	kinds := []string{"Z", "E", "G", "M", "C", "S"}
	f, err := os.Create(*fiveOut)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for n := 0; n < *endingsN; {
		m, err := tablebase.ParseMaterial("L" + kinds[rng.IntN(6)] + "PvL" + kinds[rng.IntN(6)])
		if err != nil {
			t.Fatal(err)
		}
		p, ok := m.Position(rng.IntN(m.Places()))
		if !ok || p.Attacks(rules.White, p.Lion(rules.Black)) || p.Attacks(rules.Black, p.Lion(rules.White)) {
			continue
		}
		fmt.Fprintln(f, p)
		n++
	}
}
