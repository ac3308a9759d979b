package rules

import (
	"flag"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"
)

var deep = flag.Bool("deep", false, "also check perft(6) from the start (247900251, a few seconds)")

// R22: counts agreed by independent implementations (RULES.md).
func TestR22PerftStart(t *testing.T) {
	t.Parallel()
	want := []uint64{1, 24, 576, 14332, 356456, 9404326, 247900251}
	for depth, n := range want {
		switch {
		case depth == 5 && testing.Short():
			t.Logf("depth 5 skipped under -short")
			continue
		case depth == 6 && !*deep:
			t.Logf("depth 6 skipped without -deep")
			continue
		}
		if got := Perft(Start(), depth); got != n {
			t.Errorf("Perft(start, %d) = %d, want %d", depth, got, n)
		}
	}
}

func TestR22PerftPositions(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		pos   string
		depth int
		want  uint64
	}{
		// The worked examples of RULES.md.
		{"monkey ring", "3l3/7/3p3/2p1p2/2Mp3/7/3L3 w 1", 1, 19},
		{"lion ends a chain", "7/2p4/2l4/7/2p4/1M5/3L3 w 1", 1, 14},
		{"monkey leaves the river and comes back", "3l3/7/3pp2/c1M4/7/7/2L4 w 1", 2, 241},

		// Counted by hand. The same: lion c1 3 (d1 c2 d2), monkey c4
		// 7 steps and c4xe6, c4xe6xe4.
		{"river chain, depth 1", "3l3/7/3pp2/c1M4/7/7/2L4 w 1", 1, 12},
		// Monkey d3 7 (see TestR8Monkey), pawn c4 c5 b5 xd5, lion e1 d1 d2 e2.
		{"branching chains", "3l3/5p1/3p3/2Ppp2/3Mp2/7/4L2 w 1", 1, 13},
		// Crocodile d4 11 (TestR9Crocodile), lion d1 5, the d-file blocked.
		{"crocodile in the river", "3l3/7/7/3C1p1/7/7/3L3 w 1", 1, 16},
		// Crocodile a4: a3 b3 b4 a5 b5, c4 along the river, xd4; lion d7 5.
		{"black crocodile in the river", "3l3/7/7/c2C3/7/7/3L3 b 1", 1, 12},
		// Superpawn c5 7 (TestR12Superpawn), pawn b5 b6 a6 c6 (b4
		// blocks it backwards), pawn e3 e4 d4 f4, lion d1 5.
		{"superpawn", "3l3/3p3/1PSp3/1p5/4P2/7/3L3 w 1", 1, 18},
		// Lions facing on the d-file: d1 c1 e1 c2 d2 e2 and xd7.
		{"facing lions", "3l3/7/7/7/7/7/3L3 w 1", 1, 6},
		// After d1xd7 the game is over; after d1-c1, e1, c2, e2 the lions
		// do not face each other: drawn (R17). Only after d1-d2 can Black
		// move: c7 e7 c6 d6 e6 and d7xd2.
		{"facing lions, depth 2", "3l3/7/7/7/7/7/3L3 w 1", 2, 6},
		// Lions facing on the c3-e5 diagonal: c2 d2 d3 xe5; pawn a3 b3.
		{"lions on a diagonal", "7/7/4l2/7/2L4/P6/7 w 1", 1, 6},
		{"bare lions", "2l4/7/7/7/7/7/4L2 b 5", 1, 0},
		{"no legal move", frozen, 1, 0},
		{"game over", "3L3/7/7/7/7/7/7 b 1", 1, 0},
		{"game over, depth 0", "3L3/7/7/7/7/7/7 b 1", 0, 1},
	} {
		p := mustParse(t, c.pos)
		if got := Perft(p, c.depth); got != c.want {
			t.Errorf("%s: Perft(%q, %d) = %d, want %d", c.name, c.pos, c.depth, got, c.want)
		}
	}
}

// perftSlow is perft without bulk counting, from the public API: it checks
// Perft's counting against Legal and Apply.
func perftSlow(p Position, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, m := range p.Legal() {
		next, _ := p.Apply(m)
		n += perftSlow(next, depth-1)
	}
	return n
}

func TestPerftAgreesWithLegal(t *testing.T) {
	t.Parallel()
	for _, pos := range []string{
		StartPosition,
		"3l3/7/3p3/2p1p2/2Mp3/7/3L3 w 1",
		"3l3/7/3pp2/c1M4/7/7/2L4 w 1",
		"3l3/3p3/1PSp3/1p5/4P2/7/3L3 w 1",
		"s1elecz/p1ppppp/1P5/3C3/7/2S4/GMELE1Z b 3",
	} {
		p := mustParse(t, pos)
		for depth := 1; depth <= 3; depth++ {
			if got, want := Perft(p, depth), perftSlow(p, depth); got != want {
				t.Errorf("Perft(%q, %d) = %d, perft over Legal and Apply = %d", pos, depth, got, want)
			}
		}
	}
}

func TestDivide(t *testing.T) {
	t.Parallel()
	p := Start()
	div := Divide(p, 3)
	if len(div) != 24 {
		t.Fatalf("len(Divide(start, 3)) = %d, want 24", len(div))
	}
	var total uint64
	for i, e := range div {
		total += e.Nodes
		if i > 0 && div[i-1].Move >= e.Move {
			t.Errorf("Divide: %q before %q", div[i-1].Move, e.Move)
		}
		next, _, err := p.Play(e.Move)
		if err != nil {
			t.Fatalf("Divide move %q: %v", e.Move, err)
		}
		if want := Perft(next, 2); e.Nodes != want {
			t.Errorf("Divide: %s %d, want %d", e.Move, e.Nodes, want)
		}
	}
	if total != 14332 {
		t.Errorf("Divide(start, 3) adds up to %d, want 14332", total)
	}
	if got := Divide(p, 0); got != nil {
		t.Errorf("Divide(start, 0) = %v, want nil", got)
	}
}

// TestRandomGames plays random games (a fixed seed, so failures repeat)
// and checks at every position what FuzzPlay checks.
func TestRandomGames(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	games := 300
	if testing.Short() {
		games = 50
	}
	for g := 0; g < games; g++ {
		choices := make([]byte, 150)
		for i := range choices {
			choices[i] = byte(rng.UintN(256))
		}
		if err := checkGame(choices); err != nil {
			t.Fatalf("game %d: %v", g, err)
		}
	}
}

// TestRandomPositions checks made-up positions, crowded or sparse, with
// pieces anywhere the rules allow: the counting of Perft against Legal and
// Apply, and what checkPosition checks.
func TestRandomPositions(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	n := 400
	if testing.Short() {
		n = 50
	}
	for i := 0; i < n; {
		fen := randomPosition(rng)
		p, err := ParsePosition(fen)
		if err != nil {
			continue // a pawn on its last rank
		}
		i++
		if err := checkPosition(p); err != nil {
			t.Fatal(err)
		}
		if got, want := Perft(p, 2), perftSlow(p, 2); got != want {
			t.Fatalf("Perft(%q, 2) = %d, over Legal and Apply %d", fen, got, want)
		}
	}
}

// randomPosition returns a made-up position in R21 notation: the lions in
// their castles, every other square filled with the same chance, by any
// piece.
func randomPosition(rng *rand.Rand) string {
	var board [49]byte
	density := rng.Float64()
	for s := range board {
		if rng.Float64() < density {
			board[s] = "ZEGMCPSzegmcps"[rng.IntN(14)]
		}
	}
	castle := func(c Color) int {
		r := rng.IntN(3)
		if c == Black {
			r += 4
		}
		return r*size + 2 + rng.IntN(3)
	}
	board[castle(White)] = 'L'
	board[castle(Black)] = 'l'
	var b strings.Builder
	for r := size - 1; r >= 0; r-- {
		empty := 0
		for f := 0; f < size; f++ {
			c := board[r*size+f]
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(c)
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteString([]string{" w 1", " b 1"}[rng.IntN(2)])
	return b.String()
}

// checkGame plays from the start, picking each move by the next byte of
// choices, and reports the first inconsistency it finds.
func checkGame(choices []byte) error {
	p := Start()
	for _, c := range choices {
		if err := checkPosition(p); err != nil {
			return err
		}
		legal := p.Legal()
		if len(legal) == 0 {
			return nil
		}
		m := legal[int(c)%len(legal)]
		next, eff := p.Apply(m)
		if err := checkEffects(p, next, eff); err != nil {
			return fmt.Errorf("%q, %v: %v", p, m, err)
		}
		p = next
	}
	return nil
}

func checkPosition(p Position) error {
	if back, err := ParsePosition(p.String()); err != nil || back != p {
		return fmt.Errorf("%q does not round-trip: %v", p, err)
	}
	for c := White; c <= Black; c++ {
		lions := 0
		for s := Square(0); s < NoSquare; s++ {
			if p.At(s) == NewPiece(c, Lion) {
				lions++
			}
		}
		if lions > 1 {
			return fmt.Errorf("%q: %d %s lions", p, lions, c)
		}
	}
	legal := p.Legal()
	if o := p.Outcome(); o.Over() != (legal == nil) {
		return fmt.Errorf("%q: Outcome %v with %d legal moves", p, o, len(legal))
	}
	if n := p.count(); n != len(legal) {
		return fmt.Errorf("%q: count %d, %d legal moves", p, n, len(legal))
	}
	if err := checkSearchAPI(p, legal); err != nil {
		return fmt.Errorf("%q: %v", p, err)
	}
	seen := make(map[Move]bool)
	names := make(map[string]bool)
	for _, m := range legal {
		if seen[m] || names[m.String()] {
			return fmt.Errorf("%q: %v twice", p, m)
		}
		seen[m], names[m.String()] = true, true
		back, err := p.ParseMove(m.String())
		if err != nil || back != m {
			return fmt.Errorf("%q: ParseMove(%q) = %v, %v", p, m, back, err)
		}
	}
	return nil
}

// checkEffects checks eff against the change from p to next.
func checkEffects(p, next Position, eff Effects) error {
	us := p.Turn()
	if next.Turn() != us.Other() {
		return fmt.Errorf("turn %v after %v moved", next.Turn(), us)
	}
	if want := min(p.MoveNumber()+int(us), math.MaxInt32); next.MoveNumber() != want {
		return fmt.Errorf("move number %d, want %d", next.MoveNumber(), want)
	}
	if eff.Piece.Color() != us || eff.Piece != p.At(eff.Move.From()) {
		return fmt.Errorf("Effects.Piece = %v", eff.Piece)
	}
	if (len(eff.Captured) > 0) != eff.Move.IsCapture() {
		return fmt.Errorf("captured %v with IsCapture %v", eff.Captured, eff.Move.IsCapture())
	}
	before := [2]int{bits.OnesCount64(p.occ[0]), bits.OnesCount64(p.occ[1])}
	after := [2]int{bits.OnesCount64(next.occ[0]), bits.OnesCount64(next.occ[1])}
	if before[us^1]-after[us^1] != len(eff.Captured) || before[us]-after[us] != len(eff.Drowned) {
		return fmt.Errorf("piece counts %v -> %v, captured %d, drowned %d", before, after, len(eff.Captured), len(eff.Drowned))
	}
	for _, c := range eff.Captured {
		if c.Piece.Color() == us || p.At(c.Square) != c.Piece {
			return fmt.Errorf("captured %v on %v", c.Piece, c.Square)
		}
	}
	for _, d := range eff.Drowned {
		if d.Piece.Color() != us || next.At(d.Square) != NoPiece || d.Square.Rank() != river || d.Piece.Kind() == Crocodile {
			return fmt.Errorf("drowned %v on %v", d.Piece, d.Square)
		}
	}
	if eff.Outcome != next.Outcome() {
		return fmt.Errorf("Effects.Outcome %v, Outcome() %v", eff.Outcome, next.Outcome())
	}
	return nil
}

func BenchmarkPerft(b *testing.B) {
	for _, depth := range []int{4, 5, 6} {
		b.Run(fmt.Sprintf("start/%d", depth), func(b *testing.B) {
			var n uint64
			for b.Loop() {
				n = Perft(Start(), depth)
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mleaves/s")
		})
	}
}

func BenchmarkLegal(b *testing.B) {
	p := mustParse(b, "3l3/7/3p3/2p1p2/2Mp3/7/3L3 w 1")
	for b.Loop() {
		_ = p.Legal()
	}
}

func BenchmarkApply(b *testing.B) {
	p := Start()
	moves := p.Legal()
	for b.Loop() {
		for _, m := range moves {
			_, _ = p.Apply(m)
		}
	}
}
