package engine

import (
	"strings"
	"testing"

	"github.com/congobymail/congo/rules"
)

// mirror returns fen with the colours swapped: the board turned upside
// down, uppercase and lowercase exchanged, the other side to move.
func mirror(fen string) string {
	f := strings.Fields(fen)
	ranks := strings.Split(f[0], "/")
	for i, j := 0, len(ranks)-1; i < j; i, j = i+1, j-1 {
		ranks[i], ranks[j] = ranks[j], ranks[i]
	}
	board := strings.Map(func(r rune) rune {
		switch {
		case 'a' <= r && r <= 'z':
			return r - 'a' + 'A'
		case 'A' <= r && r <= 'Z':
			return r - 'A' + 'a'
		}
		return r
	}, strings.Join(ranks, "/"))
	side := "w"
	if f[1] == "w" {
		side = "b"
	}
	return board + " " + side + " " + f[2]
}

// The evaluation favours neither colour: a position and its mirror image
// score the same for the side to move.
func TestEvaluateSymmetry(t *testing.T) {
	fens := append([]string{}, testPositions...)
	for _, c := range tactics {
		fens = append(fens, c.fen)
	}
	w := DefaultWeights()
	for _, fen := range fens {
		p, err := rules.ParsePosition(fen)
		if err != nil || p.Outcome().Over() {
			continue
		}
		m := mustParse(t, mirror(fen))
		if a, b := evaluate(&p, &w), evaluate(&m, &w); a != b {
			t.Errorf("evaluate(%q) = %d, of its mirror %q %d", fen, a, mirror(fen), b)
		}
	}
}

func TestEvaluate(t *testing.T) {
	w := DefaultWeights()
	for _, c := range []struct {
		name          string
		better, worse string // the same side to move in both
	}{
		{"a pawn more", "3l3/3p3/7/7/7/PP5/3L3 w 1", "3l3/3p3/7/7/7/P6/3L3 w 1"},
		{"a pawn further forward", "3l3/3p3/P6/7/7/7/3L3 w 1", "3l3/3p3/7/7/7/P6/3L3 w 1"},
		{"a zebra in the centre", "3l3/3p3/7/7/2Z4/7/3L3 w 1", "3l3/3p3/7/7/7/7/3L2Z w 1"},
		{"the enemy's piece in the river", "3l3/3p3/7/3z3/7/7/2L4 w 1", "3l3/3p3/3z3/7/7/7/2L4 w 1"},
		{"no enemy zebra near the lion", "3l3/3p3/7/7/6z/7/3L3 w 1", "3l3/3p3/7/7/4z2/7/3L3 w 1"},
		{"the enemy's lone blocker pinned, not ours", "3l3/3p3/7/7/7/P6/3L3 w 1", "3l3/p6/7/7/7/3P3/3L3 w 1"},
	} {
		b, wo := mustParse(t, c.better), mustParse(t, c.worse)
		if eb, ew := evaluate(&b, &w), evaluate(&wo, &w); eb <= ew {
			t.Errorf("%s: evaluate(%q) = %d, not above evaluate(%q) = %d", c.name, c.better, eb, c.worse, ew)
		}
	}
}
