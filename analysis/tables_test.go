package analysis

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/tablebase"
)

// TestTables analyses a game that ends in an ending of three men (a
// monkey against the lone lion, from move 62) with the tables of that
// material: each position there gets the tables' exact value, +lion in
// N, and the text says that it is from the tables (M77); without the
// tables, no value says so.
func TestTables(t *testing.T) {
	text, err := os.ReadFile("testdata/ending.txt")
	if err != nil {
		t.Fatal(err)
	}
	game := moves(t, string(text))
	dir := t.TempDir()
	monkey, err := tablebase.ParseMaterial("LMvL")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tablebase.Build(dir, tablebase.BuildOptions{Materials: []tablebase.Material{monkey}}); err != nil {
		t.Fatal(err)
	}
	ts, err := tablebase.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	a, err := Analyze(context.Background(), game, Options{Nodes: 2000, Tables: ts})
	if err != nil {
		t.Fatal(err)
	}
	j, _ := NewJob(game, Options{})
	known := 0
	for i, ply := range a.Plies {
		after := j.positions[i+1]
		v := ts.Probe(after)
		if after.Outcome().Over() || !v.Known() {
			if ply.Eval.Tables {
				t.Errorf("move %d %v: Eval %v from the tables, which do not hold %q", i+1, ply.Move, ply.Eval, after)
			}
			continue
		}
		known++
		// White wins this ending: v, for the side to move after the
		// move, is a loss for Black or a win for White, in N White moves.
		if white := after.Turn() == rules.White; white != (v.Result == tablebase.Win) {
			t.Fatalf("move %d: %q is %v, want White winning", i+1, after, v)
		}
		if want := (Eval{Lion: v.N, Tables: true}); ply.Eval != want {
			t.Errorf("move %d %v: Eval %+v, want %+v", i+1, ply.Move, ply.Eval, want)
		}
	}
	if known < 10 {
		t.Errorf("%d positions of the game in the tables, want at least 10", known)
	}
	out := a.Text()
	for _, want := range []string{
		"An evaluation from the tables is exact",
		"\n62... e6xd5            +lion in 7   from the tables\n",
		"\n68... e7-e6            +lion in 1   from the tables\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("Text() does not hold %q:\n%s", want, out)
		}
	}
	// The stored form keeps where a value came from.
	data, err := a.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Text(); got != out {
		t.Errorf("Decode(Encode()).Text() =\n%s\nwant\n%s", got, out)
	}
	plain, err := Analyze(context.Background(), game, Options{Nodes: 2000})
	if err != nil {
		t.Fatal(err)
	}
	if plain.Tables() || strings.Contains(plain.Text(), "tables") {
		t.Errorf("without tables, the analysis says it used them:\n%s", plain.Text())
	}
}
