package engine

import (
	"context"
	"testing"

	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/tablebase"
)

func testTables(t *testing.T, names ...string) *tablebase.Tables {
	t.Helper()
	var ms []tablebase.Material
	for _, name := range names {
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
	return ts
}

// TestTablesRoot: a root the tables hold is played by them, with their
// exact score and a line that keeps the value.
func TestTablesRoot(t *testing.T) {
	ts := testTables(t, "LEvLZ")
	for _, fen := range []string{
		"7/7/3l3/7/3E3/7/3L3 w 1",
		"4l2/7/3z3/7/7/3E3/2L4 w 1",
		"4l2/7/3z3/7/7/3E3/2L4 b 1",
	} {
		p, err := rules.ParsePosition(fen)
		if err != nil {
			t.Fatal(err)
		}
		v := ts.Probe(p)
		r := New(Options{Tables: ts}).Search(context.Background(), p, Limits{Depth: 3})
		if !r.Tables || r.Score != tableScore(v, 0) {
			t.Errorf("Search(%q) = score %d, tables %v; want %d from the tables (%v)", p, r.Score, r.Tables, tableScore(v, 0), v)
		}
		if got := ts.After(p, r.Move); got != v {
			t.Errorf("Search(%q) plays %v, worth %v; the position is %v", p, r.Move, got, v)
		}
		q := p
		for _, m := range r.PV {
			if _, err := q.ParseMove(m.String()); err != nil {
				t.Fatalf("Search(%q): line %v: %v", p, r.PV, err)
			}
			q = q.After(m)
		}
		if len(r.PV) < min(16, v.Plies()) {
			t.Errorf("Search(%q): line %v, want %d plies", p, r.PV, min(16, v.Plies()))
		}
	}
}

// TestTablesInSearch: in a position of five men, the tables score the
// positions of four that a capture leads to: the search finds the win
// that without them it cannot see.
func TestTablesInSearch(t *testing.T) {
	ts := testTables(t, "LEvLZ")
	p, err := rules.ParsePosition("6z/3E1p1/2l4/7/3L3/7/7 w 1")
	if err != nil {
		t.Fatal(err)
	}
	if ts.Probe(p).Known() {
		t.Fatalf("Probe(%q) = %v: five men are not in the tables", p, ts.Probe(p))
	}
	with := New(Options{Tables: ts}).Search(context.Background(), p, Limits{Nodes: 20000})
	if n, ok := MatePlies(with.Score); !ok || n <= 0 || n > 15 || with.Tables {
		t.Errorf("Search(%q) with tables: score %d (%d plies), tables %v; want a win within 15 plies, by search", p, with.Score, n, with.Tables)
	}
	without := New(Options{}).Search(context.Background(), p, Limits{Nodes: 20000})
	if _, ok := MatePlies(without.Score); ok {
		t.Errorf("Search(%q) without tables: score %d, a mate; the test wants one only the tables see", p, without.Score)
	}
}
