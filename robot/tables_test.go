package robot

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/tablebase"
)

// endingTables builds the tables of two materials of four men, with
// what they lead to.
func endingTables(t *testing.T) (*tablebase.Tables, []tablebase.Material) {
	t.Helper()
	var ms []tablebase.Material
	for _, name := range []string{"LCvLE", "LZvLE"} {
		m, err := tablebase.ParseMaterial(name)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	dir := t.TempDir()
	if _, err := tablebase.Build(dir, tablebase.BuildOptions{Materials: ms}); err != nil {
		t.Fatal(err)
	}
	ts, err := tablebase.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return ts, ms
}

// wonEndings draws n positions of ms at random that the side to move
// wins, in at least least moves.
func wonEndings(ts *tablebase.Tables, ms []tablebase.Material, n int, seed uint64, least int) []rules.Position {
	rng := rand.New(rand.NewPCG(seed, 7))
	var out []rules.Position
	for len(out) < n {
		m := ms[rng.IntN(len(ms))]
		p, ok := m.Position(rng.IntN(m.Places()))
		if !ok {
			continue
		}
		if v := ts.Probe(p); v.Result == tablebase.Win && v.N >= least {
			out = append(out, p)
		}
	}
	return out
}

// playOut plays p to its end, the winner by choose, the loser by defend,
// and returns the winner's moves until the lion fell; 0 if it did not
// within 200 plies.
func playOut(t *testing.T, p rules.Position, choose, defend func(rules.Position, []rules.Position) rules.Move) int {
	t.Helper()
	winner := p.Turn()
	var before []rules.Position
	moves := 0
	for ply := 0; ply < 200; ply++ {
		if o := p.Outcome(); o.Over() {
			if o.State == rules.Won && o.Winner == winner {
				return moves
			}
			t.Fatalf("%q: the game ended %v", p, o)
		}
		var m rules.Move
		if p.Turn() == winner {
			moves++
			m = choose(p, before)
		} else {
			m = defend(p, before)
		}
		before = append(before, p)
		p = p.After(m)
	}
	return 0
}

// TestTablesWinInN: level 5 with the tables wins each of 20 won endings
// of four men drawn at random in exactly its N moves against a defender
// playing the tables, and defends each as long as the tables say against
// an attacker playing them (M77).
func TestTablesWinInN(t *testing.T) {
	ts, ms := endingTables(t)
	robot := func(level int) func(rules.Position, []rules.Position) rules.Move {
		return func(p rules.Position, before []rules.Position) rules.Move {
			d, err := ChooseWithTables(context.Background(), ts, p, level, 1, nil, before)
			if err != nil {
				t.Fatal(err)
			}
			if d.Resign || !d.Tables {
				t.Fatalf("ChooseWithTables(%q, %d) = %+v, want a move from the tables", p, level, d)
			}
			return d.Move
		}
	}
	perfect := func(p rules.Position, _ []rules.Position) rules.Move {
		m, ok := ts.BestMove(p)
		if !ok {
			t.Fatalf("BestMove(%q): none", p)
		}
		return m
	}
	for i, p := range wonEndings(ts, ms, 20, 1, 2) {
		n := ts.Probe(p).N
		if got := playOut(t, p, robot(5), perfect); got != n {
			t.Errorf("ending %d %q: level 5 won in %d moves, the tables say %d", i+1, p, got, n)
		}
		if got := playOut(t, p, perfect, robot(4)); got != n {
			t.Errorf("ending %d %q: level 4 defending lost in %d moves, the tables say %d", i+1, p, got, n)
		}
	}
}

// TestTablesLevels: levels 1 to 3 do not use the tables; a lost position
// of the tables is defended, not resigned, however hopeless the scores
// before.
func TestTablesLevels(t *testing.T) {
	ts, ms := endingTables(t)
	lost := []int{-20000, -20000, -20000}
	for _, p := range wonEndings(ts, ms, 5, 2, 2) {
		for level := 1; level <= 5; level++ {
			d, err := ChooseWithTables(context.Background(), ts, p, level, 1, lost, nil)
			if err != nil {
				t.Fatal(err)
			}
			if d.Tables != (level >= 4) {
				t.Errorf("ChooseWithTables(%q, level %d).Tables = %v", p, level, d.Tables)
			}
		}
		// The loser's view: after the best move, the other side is lost.
		m, _ := ts.BestMove(p)
		q := p.After(m)
		if q.Outcome().Over() {
			continue
		}
		d, err := ChooseWithTables(context.Background(), ts, q, 5, 1, lost, nil)
		if err != nil {
			t.Fatal(err)
		}
		if d.Resign {
			t.Errorf("ChooseWithTables(%q) resigns a position of the tables", q)
		}
	}
}
