package tablebase

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/congobymail/congo/rules"
)

// shared are the tables most tests probe, built once per run: the
// materials of the hand-checked positions and what they lead to.
var shared struct {
	once sync.Once
	dir  string
	ts   *Tables
	err  error
}

func sharedTables(t testing.TB) *Tables {
	t.Helper()
	shared.once.Do(func() {
		shared.dir, shared.err = os.MkdirTemp("", "tablebase-test-")
		if shared.err != nil {
			return
		}
		var ms []Material
		for _, name := range []string{"LMvLP", "LCvL", "LZvL"} {
			ms = append(ms, mustMaterial(t, name))
		}
		if _, shared.err = Build(shared.dir, BuildOptions{Materials: ms}); shared.err == nil {
			shared.ts, shared.err = Open(shared.dir)
		}
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.ts
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}

func mustMaterial(t testing.TB, s string) Material {
	t.Helper()
	m, err := ParseMaterial(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func mustPosition(t testing.TB, s string) rules.Position {
	t.Helper()
	p, err := rules.ParsePosition(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestMaterials(t *testing.T) {
	// 7 kinds of piece: 7 materials of one piece (White's: Black's is the
	// color mirror), and of two, 28 with both White's and 28 with one a
	// side (21 pairs of different kinds, taken once, and 7 of the same).
	if got := len(Materials(1)); got != 7 {
		t.Errorf("len(Materials(1)) = %d, want 7", got)
	}
	if got := len(Materials(2)); got != 7+28+28 {
		t.Errorf("len(Materials(2)) = %d, want 63", got)
	}
	for _, m := range Materials(MaxPieces) {
		if !m.canonical() {
			t.Errorf("Materials gives %v, not canonical", m)
		}
		back, err := ParseMaterial(m.String())
		if err != nil || back != m {
			t.Errorf("ParseMaterial(%q) = %v, %v, want %v", m.String(), back, err, m)
		}
	}
	for _, c := range []struct {
		in, name, file string
	}{
		{"LZvLE", "LZvLE", "LEvLZ.ctb"},
		{"lvlz", "LvLZ", "LZvL.ctb"},
		{"LSPvL", "LPSvL", "LPSvL.ctb"},
		{"LEvLE", "LEvLE", "LEvLE.ctb"},
	} {
		m, err := ParseMaterial(c.in)
		if err != nil {
			t.Fatalf("ParseMaterial(%q): %v", c.in, err)
		}
		if got := m.String(); got != c.name {
			t.Errorf("ParseMaterial(%q).String() = %q, want %q", c.in, got, c.name)
		}
		if got := FileName(m); got != c.file {
			t.Errorf("FileName(%v) = %q, want %q", m, got, c.file)
		}
	}
	for _, bad := range []string{"", "LZ", "ZvL", "LLvL", "LXvL", "LZZZvLZ"} {
		if _, err := ParseMaterial(bad); err == nil {
			t.Errorf("ParseMaterial(%q) succeeded, want an error", bad)
		}
	}
}

// TestIndex checks that every place of a table that is a position maps
// back onto itself, and that the places that are not are no positions.
func TestIndex(t *testing.T) {
	for _, name := range []string{"LZvL", "LZvLE", "LEvLE", "LPvLP", "LMMvL"} {
		m := mustMaterial(t, name)
		places, positions := size(m), 0
		for i := range places {
			s, ok := setupAt(m, i)
			if !ok {
				continue
			}
			positions++
			p := s.position()
			back := setupOf(&p)
			mm := back.material()
			back.canonicalize(mm != m || sides(m) == 1 && back.turn == rules.Black)
			if j := back.index(sides(m)); j != i {
				t.Fatalf("%v: place %d is %q, which maps to %d", m, i, p, j)
			}
		}
		t.Logf("%v: %d places, %d positions", m, places, positions)
	}
}

// mirrors returns p with colors swapped (ranks flipped) and p with files
// flipped, by rewriting its text.
func mirrors(p rules.Position) (colors, files rules.Position) {
	text := strings.Fields(p.String())
	ranks := strings.Split(text[0], "/")
	swapped := make([]string, len(ranks))
	flipped := make([]string, len(ranks))
	for i, r := range ranks {
		swapped[len(ranks)-1-i] = strings.Map(func(c rune) rune {
			switch {
			case 'a' <= c && c <= 'z':
				return c - 'a' + 'A'
			case 'A' <= c && c <= 'Z':
				return c - 'A' + 'a'
			}
			return c
		}, r)
		b := []byte(r)
		for x, y := 0, len(b)-1; x < y; x, y = x+1, y-1 {
			b[x], b[y] = b[y], b[x]
		}
		flipped[i] = string(b)
	}
	turn := "b"
	if text[1] == "b" {
		turn = "w"
	}
	colors, err := rules.ParsePosition(strings.Join(swapped, "/") + " " + turn + " 1")
	if err != nil {
		panic(err)
	}
	files, err = rules.ParsePosition(strings.Join(flipped, "/") + " " + text[1] + " 1")
	if err != nil {
		panic(err)
	}
	return colors, files
}

// TestSymmetry checks that a position, its color mirror and its left-right
// mirror have the same value, and that the value agrees with the values
// after its moves, on random positions of the shared tables.
func TestSymmetry(t *testing.T) {
	ts := sharedTables(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, name := range []string{"LMvLP", "LMvLS", "LCvL", "LZvL", "LPvL"} {
		m := mustMaterial(t, name)
		for n := 0; n < 500; {
			s, ok := setupAt(m, rng.IntN(size(m)))
			if !ok {
				continue
			}
			n++
			p := s.position()
			v := ts.Probe(p)
			colors, files := mirrors(p)
			if got := ts.Probe(colors); got != v {
				t.Errorf("Probe(%q) = %v, its color mirror %q %v", p, v, colors, got)
			}
			if got := ts.Probe(files); got != v {
				t.Errorf("Probe(%q) = %v, its left-right mirror %q %v", p, v, files, got)
			}
			if want := bestOf(ts, p); want != v {
				t.Errorf("Probe(%q) = %v, its moves say %v", p, v, want)
			}
		}
	}
}

// bestOf returns the value of p that its moves give, each probed: the
// quickest win, else a draw, else the longest loss (with no move, lost:
// R16).
func bestOf(ts *Tables, p rules.Position) Value {
	best := Value{Result: Loss, N: 0}
	for _, m := range p.Legal() {
		v := ts.After(p, m)
		if !v.Known() {
			return v
		}
		if Better(v, best) {
			best = v
		}
	}
	return best
}

// checkTable checks every position of m's table against its moves: each
// value is the best its moves give (a win at the least distance, a loss
// at the greatest, else a draw). Together with the distances, which
// strictly fall along a won line, this proves the table right.
func checkTable(t *testing.T, ts *Tables, m Material) {
	t.Helper()
	bad := 0
	for i := range size(m) {
		s, ok := setupAt(m, i)
		if !ok {
			continue
		}
		p := s.position()
		if got, want := ts.Probe(p), bestOf(ts, p); got != want {
			if bad++; bad <= 5 {
				t.Errorf("Probe(%q) = %v, its moves say %v", p, got, want)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%v: %d positions wrong", m, bad)
	}
}

func TestConsistent(t *testing.T) {
	ts := sharedTables(t)
	checkTable(t, ts, mustMaterial(t, "LMvLP"))
}

// TestFull builds every table of four men and checks every position of
// each against its moves (with -full: a minute or two).
func TestFull(t *testing.T) {
	if !*full {
		t.Skip("with -full")
	}
	dir := t.TempDir()
	stats, err := Build(dir, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ts, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	positions, bytes := 0, 0
	for _, st := range stats {
		positions += st.Positions
		bytes += st.Bytes
		checkTable(t, ts, st.Material)
	}
	t.Logf("%d tables, %d positions, %d bytes", len(stats), positions, bytes)
}

// TestRules checks positions by hand, one or more for each rule that
// decides endings.
func TestRules(t *testing.T) {
	ts := sharedTables(t)
	for _, c := range []struct {
		rule, why string
		pos       string
		want      string
	}{
		// R17: two lone lions draw unless the side to move can capture.
		{"R17", "not on a line: a draw", "2l4/7/7/7/7/7/3L3 w 1", "draw"},
		{"R17", "not on a line, Black to move", "4l2/7/7/7/7/7/2L4 b 1", "draw"},
		// R4: the flying capture along a file or a diagonal.
		{"R4", "d1xd7 along the file", "3l3/7/7/7/7/7/3L3 w 1", "win 1"},
		{"R4", "Black flies too: d7xd1", "3l3/7/7/7/7/7/3L3 b 1", "win 1"},
		{"R4", "c3xe5 along the diagonal", "7/7/4l2/7/2L4/7/7 w 1", "win 1"},
		{"R4", "the pieces off the file do not matter", "3l3/7/7/7/7/M5p/3L3 w 1", "win 1"},
		// R8: only a chain takes the lion: e2xc4 over the pawn on d3,
		// then c4xe6 over the lion on d5, which ends it. No single jump
		// or step reaches the lion, and c1 and d5 share no line.
		{"R8", "a monkey's chain ends on the lion", "7/7/3l3/7/3p3/4M2/2L4 w 1", "win 1"},
		// R13, R14, R4, R17: the zebra on d4 shields White's lion from
		// the flying capture, but it stands in the river with White to
		// move. Any zebra move leaves the d-file, and d7xd1 follows: loss
		// 1. d1-d2 drowns the zebra (R13) and opens the file: loss 1.
		// d1-c1, d1-e1, d1-c2 or d1-e2 drowns the zebra too, and leaves
		// the two lions off any line, Black to move: a draw (R17).
		{"R13", "a zebra that stays in the river drowns", "3l3/7/7/3Z3/7/7/3L3 w 1", "draw"},
		// R9: a crocodile never drowns. 1. d4-d5 (a step, still on the
		// file): the black lion may not go to c6, d6 or e6, next to the
		// crocodile, so d7-c7 (or e7). 2. d5-c5: now c6 and d6 are next
		// to it, and d7 reopens the file for d1xd7: win 3.
		{"R9", "a crocodile in the river stays", "3l3/7/7/3C3/7/7/3L3 w 1", "win 3"},
		// M76: a position where a lion has been captured is not probed,
		// nor one of more than four men.
		{"M76", "a lion captured", "3L3/7/7/7/7/7/7 b 2", "unknown"},
		{"M76", "five men", "3l3/7/7/3Z3/7/2E4/2LG3 w 1", "unknown"},
	} {
		p := mustPosition(t, c.pos)
		if got := ts.Probe(p).String(); got != c.want {
			t.Errorf("%s, %s: Probe(%q) = %s, want %s", c.rule, c.why, c.pos, got, c.want)
		}
	}
}

// TestNoMoveNeverInTables: R16 (a side with no legal move loses at once,
// loss 0) cannot happen with four men or fewer: a lion has at least three
// squares of its castle next to it, and with at most two pieces of its
// own, one of them is empty or holds an enemy piece it may take. So no
// table holds a loss 0; the solver would write one for a position with
// no move (see solve).
func TestNoMoveNeverInTables(t *testing.T) {
	ts := sharedTables(t)
	for _, tb := range ts.tables {
		for i, b := range tb.data {
			if b == entryOf(0) {
				s, _ := setupAt(tb.m, i)
				t.Errorf("%v: %q is lost at once", tb.m, s.position())
			}
		}
	}
	// And a position with no legal move (more than four men) is unknown.
	p := mustPosition(t, "3l3/7/7/7/7/2SSS2/2SLS2 w 1")
	if len(p.Legal()) != 0 && ts.Probe(p).Known() {
		t.Errorf("Probe(%q) = %v, want unknown", p, ts.Probe(p))
	}
}

// TestDistances checks the meaning of N (M76) along a line played from
// the tables: the winner's moves to the capture, the capture included.
func TestDistances(t *testing.T) {
	ts := sharedTables(t)
	p := mustPosition(t, "7/7/3l3/7/3Z3/7/3L3 w 1") // LZvL
	v := ts.Probe(p)
	if v.Result != Win {
		t.Fatalf("Probe(%q) = %v, want a win", p, v)
	}
	winner := p.Turn()
	moves := 0
	for p.Lion(winner.Other()) != rules.NoSquare {
		if p.Turn() == winner {
			moves++
		}
		m, ok := ts.BestMove(p)
		if !ok {
			t.Fatalf("BestMove(%q): none", p)
		}
		p = p.After(m)
	}
	if moves != v.N {
		t.Errorf("the win took %d moves, Probe said %v", moves, v)
	}
}

func ExampleTables_Probe() {
	dir, err := os.MkdirTemp("", "tables")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	zebra, _ := ParseMaterial("LZvL")
	if _, err := Build(dir, BuildOptions{Materials: []Material{zebra}}); err != nil {
		panic(err)
	}
	ts, err := Open(dir)
	if err != nil {
		panic(err)
	}
	for _, fen := range []string{
		"7/7/3l3/7/3Z3/7/3L3 w 1",
		"7/7/3l3/7/3Z3/7/3L3 b 1",
		"3l3/7/7/3Z3/7/7/3L3 w 1",
		"3l3/7/7/7/7/7/3L3 w 1",
	} {
		p, _ := rules.ParsePosition(fen)
		fmt.Println(ts.Probe(p))
	}
	// Output:
	// win 9
	// loss 9
	// draw
	// win 1
}

func BenchmarkProbe(b *testing.B) {
	ts := sharedTables(b)
	var positions []rules.Position
	rng := rand.New(rand.NewPCG(3, 4))
	m := mustMaterial(b, "LMvLP")
	for len(positions) < 1024 {
		if s, ok := setupAt(m, rng.IntN(size(m))); ok {
			positions = append(positions, s.position())
		}
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		ts.Probe(positions[i&1023])
	}
}
