package rules

import (
	"strings"
	"testing"
)

// moveTexts writes moves as "d1xd7 b2xd4xb6".
func moveTexts(moves []Move) string {
	var out []string
	for _, m := range moves {
		out = append(out, m.String())
	}
	return strings.Join(out, " ")
}

// TestLionCaptures: the moves that take the enemy lion, by every kind of
// move that can (R15), and the same seen from the other side, the lion
// of the side to move attacked (LionThreats).
func TestLionCaptures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rule, pos         string
		captures, threats string
	}{
		// R4: the flying capture along an open file, both ways.
		{"R4 file", "3l3/7/7/7/7/7/3L3 w 1", "d1xd7", "d7xd1"},
		// R4: along a diagonal; blocked by a piece between the lions,
		// which here takes the white lion itself (R10, a pawn's diagonal
		// step forward).
		{"R4 diagonal", "7/7/4l2/7/2L4/7/7 w 1", "c3xe5", "e5xc3"},
		{"R4 blocked, R10 pawn", "7/7/4l2/3p3/2L4/7/7 w 1", "", "d4xc3"},
		// R5: a zebra's knight jump; the open file is closed by a pawn.
		{"R5 zebra", "3l3/3p3/7/7/4z2/7/3L3 w 1", "", "e3xd1"},
		// R6: an elephant's two-square jump over a piece.
		{"R6 elephant", "3l3/7/3e3/3P3/3L3/7/7 b 1", "d5xd3", ""},
		// R8: a monkey's chain that jumps the lion ends there.
		{"R8 monkey", "7/2p4/2l4/7/2p4/1M5/3L3 w 1", "b2xd4xb6", ""},
		// R15: nothing to take once a lion is gone.
		{"R15 over", "7/7/7/7/7/7/3L3 b 2", "", ""},
	}
	for _, tt := range tests {
		p := mustParse(t, tt.pos)
		if got := moveTexts(p.LionCaptures()); got != tt.captures {
			t.Errorf("%s: LionCaptures() in %q = %q, want %q", tt.rule, tt.pos, got, tt.captures)
		}
		if got := moveTexts(p.LionThreats()); got != tt.threats {
			t.Errorf("%s: LionThreats() in %q = %q, want %q", tt.rule, tt.pos, got, tt.threats)
		}
		m, ok := p.LionAttack()
		if want := strings.Fields(tt.threats); ok != (len(want) > 0) || ok && m.String() != want[0] {
			t.Errorf("%s: LionAttack() in %q = %v, %v, want the first of %q", tt.rule, tt.pos, m, ok, tt.threats)
		}
	}
}

// TestLionExposed: which moves let the opponent take the mover's lion
// with the next move. There is no check (R16): such moves are legal, and
// LionExposed only names the capture.
func TestLionExposed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rule, pos, move string
		capture         string // "" when the move exposes nothing
	}{
		// R16: the lion may step where a zebra takes it, or stay safe.
		{"R16 onto an attacked square", "3l3/3p3/7/7/4z2/7/2L4 w 1", "c1-d1", "e3xd1"},
		{"R16 onto an attacked square", "3l3/3p3/7/7/4z2/7/2L4 w 1", "c1-c2", "e3xc2"},
		{"R16 a safe square", "3l3/3p3/7/7/4z2/7/2L4 w 1", "c1-d2", ""},
		// R4: a piece that leaves the file between the lions opens it.
		{"R4 the file opened", "3l3/7/7/7/7/3P3/3L3 w 1", "d2-c3", "d7xd1"},
		{"R4 the file kept shut", "3l3/7/7/7/7/3P3/3L3 w 1", "d2-d3", ""},
		// R13, R14: a piece drowned at the end of the move opens the file
		// as surely as one that moved.
		{"R13 drowned", "3l3/7/7/3P3/7/7/G2L3 w 1", "a1-a3", "d7xd1"},
		{"R13 left the river", "3l3/7/7/3P3/7/7/G2L3 w 1", "d4-d5", ""},
		// R15: a move that takes the enemy lion ends the game: nothing
		// is exposed after it.
		{"R15 capture", "3l3/7/7/7/7/7/3L3 w 1", "d1xd7", ""},
		// R17: nor after a move that leaves the two lions alone.
		{"R17 bare lions", "3l3/7/7/7/7/2p4/2L4 w 1", "c1xc2", ""},
	}
	for _, tt := range tests {
		p := mustParse(t, tt.pos)
		m, err := p.ParseMove(tt.move)
		if err != nil {
			t.Fatalf("%s: ParseMove(%q) in %q: %v", tt.rule, tt.move, tt.pos, err)
		}
		c, exposed := p.LionExposed(m)
		got := ""
		if exposed {
			got = c.String()
		}
		if got != tt.capture {
			t.Errorf("%s: LionExposed(%s) in %q = %q, want %q", tt.rule, tt.move, tt.pos, got, tt.capture)
		}
	}
}

// TestLionAttackShortestChain: where a monkey has chains of different
// lengths that end by jumping the lion (R8), the one named is the
// shortest, whatever order the moves come in.
func TestLionAttackShortestChain(t *testing.T) {
	t.Parallel()
	// The black monkey on e4 jumps the lion on d3 at once (e4xc2), or
	// the pawn on e3 first and the lion then (e4xe2xc4); the black pawn
	// on d5 keeps the file shut.
	p := mustParse(t, "3l3/7/3p3/4m2/3LP2/7/7 w 1")
	threats := moveTexts(p.LionThreats())
	for _, want := range []string{"e4xc2", "e4xe2xc4"} {
		if !strings.Contains(" "+threats+" ", " "+want+" ") {
			t.Errorf("LionThreats() in %q = %q, want %s among them (R8)", p, threats, want)
		}
	}
	if m, ok := p.LionAttack(); !ok || m.String() != "e4xc2" {
		t.Errorf("LionAttack() in %q = %v, %v, want e4xc2, the shortest chain", p, m, ok)
	}
}
