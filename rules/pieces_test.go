package rules

import (
	"slices"
	"strings"
	"testing"
)

// The expectations in this file are derived by hand from RULES.md, square
// by square; the comments show the reasoning.

func mustParse(t testing.TB, s string) Position {
	t.Helper()
	p, err := ParsePosition(s)
	if err != nil {
		t.Fatalf("ParsePosition(%q): %v", s, err)
	}
	return p
}

func sq(t testing.TB, s string) Square {
	t.Helper()
	q, err := ParseSquare(s)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// movesFrom returns the legal moves of the piece on from, canonical and
// sorted, joined by spaces.
func movesFrom(p Position, from Square) string {
	var list []string
	for _, m := range p.Legal() {
		if m.From() == from {
			list = append(list, m.String())
		}
	}
	slices.Sort(list)
	return strings.Join(list, " ")
}

func sortedMoves(moves ...string) string {
	moves = slices.Clone(moves)
	slices.Sort(moves)
	return strings.Join(moves, " ")
}

type pieceCase struct {
	name string
	pos  string
	from string
	want []string
}

func testPieceMoves(t *testing.T, cases []pieceCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := mustParse(t, c.pos)
			got := movesFrom(p, sq(t, c.from))
			if want := sortedMoves(c.want...); got != want {
				t.Errorf("moves from %s in %q:\n got %s\nwant %s", c.from, c.pos, got, want)
			}
		})
	}
}

func TestR4Lion(t *testing.T) {
	t.Parallel()
	testPieceMoves(t, []pieceCase{
		{
			// d1 steps to c1 e1 c2 d2 e2 (its castle); d2..d6 empty: flying capture.
			name: "steps in castle and flies along a file",
			pos:  "3l3/7/7/7/7/7/3L3 w 1",
			from: "d1",
			want: []string{"d1-c1", "d1-e1", "d1-c2", "d1-d2", "d1-e2", "d1xd7"},
		},
		{
			name: "black flies down the file",
			pos:  "3l3/7/7/7/7/7/3L3 b 1",
			from: "d7",
			want: []string{"d7-c7", "d7-e7", "d7-c6", "d7-d6", "d7-e6", "d7xd1"},
		},
		{
			// c3: b2 b3 b4 c4 d4 are outside the castle; d2 own; d3 enemy;
			// e5 is the black lion on the diagonal through the empty d4.
			name: "castle corner, capture, diagonal flight",
			pos:  "7/7/4l2/7/2Lp3/3P3/7 w 1",
			from: "c3",
			want: []string{"c3-c2", "c3xd3", "c3xe5"},
		},
		{
			name: "diagonal flight blocked in the river",
			pos:  "7/7/4l2/3p3/2Lp3/3P3/7 w 1",
			from: "c3",
			want: []string{"c3-c2", "c3xd3"},
		},
		{
			// e3 to c5 through d4, the other diagonal.
			name: "flight along the other diagonal",
			pos:  "7/7/2l4/7/4L2/7/7 w 1",
			from: "e3",
			want: []string{"e3-d2", "e3-e2", "e3-d3", "e3xc5"},
		},
		{
			name: "no flight off a line",
			pos:  "7/7/3l3/7/4L2/P6/7 w 1",
			from: "e3",
			want: []string{"e3-d2", "e3-e2", "e3-d3"},
		},
		{
			name: "file flight blocked",
			pos:  "3l3/7/7/7/3p3/7/3L3 w 1",
			from: "d1",
			want: []string{"d1-c1", "d1-e1", "d1-c2", "d1-d2", "d1-e2"},
		},
	})
}

func TestR5Zebra(t *testing.T) {
	t.Parallel()
	testPieceMoves(t, []pieceCase{
		{
			// d4: b3 b5 c2 c6 e2 e6 f3 f5; e6 own, c2 enemy.
			name: "knight moves, capture, own piece",
			pos:  "3l3/4P2/7/3Z3/7/2p4/3L3 w 1",
			from: "d4",
			want: []string{"d4-b3", "d4-b5", "d4xc2", "d4-c6", "d4-e2", "d4-f3", "d4-f5"},
		},
		{
			name: "corner",
			pos:  "3l3/7/7/7/7/7/3L2Z w 1",
			from: "g1",
			want: []string{"g1-e2", "g1-f3"},
		},
	})
}

func TestR6Elephant(t *testing.T) {
	t.Parallel()
	testPieceMoves(t, []pieceCase{
		{
			// e2: e1, d2 one step; e3 and f2 own; two squares: e4 over own
			// e3, c2 enemy over empty d2, g2 over own f2.
			name: "one or two squares orthogonally, jumping",
			pos:  "3l3/7/7/7/4P2/2p1EP1/3L3 w 1",
			from: "e2",
			want: []string{"e2-e1", "e2-d2", "e2-e4", "e2xc2", "e2-g2"},
		},
	})
}

func TestR7Giraffe(t *testing.T) {
	t.Parallel()
	testPieceMoves(t, []pieceCase{
		{
			// d4 steps to empty neighbours only: c3 d3 e3 e4 c5 d5 (c4 and
			// e5 hold enemies: no step captures). Two squares: b2 d2 f2 b4
			// f4 b6, f6 captures over e5, d6 is own.
			name: "steps to empty squares, jumps two squares",
			pos:  "3l3/3P1p1/4p2/2pG3/7/7/3L3 w 1",
			from: "d4",
			want: []string{
				"d4-c3", "d4-d3", "d4-e3", "d4-e4", "d4-c5", "d4-d5",
				"d4-b2", "d4-d2", "d4-f2", "d4-b4", "d4-f4", "d4-b6", "d4xf6",
			},
		},
	})
}

func TestR8Monkey(t *testing.T) {
	t.Parallel()
	testPieceMoves(t, []pieceCase{
		{
			// d3 steps to c2 d2 e2 c3. c4 is own: never jumped. d4 enemy
			// but d5 occupied. e4 enemy, f5 empty: d3xf5, then f6 enemy
			// and f7 empty: d3xf5xf7. e3 enemy, f3 empty: d3xf3, which
			// ends there (e4 from f3 lands on the occupied d5).
			name: "steps, jumps, landing must be empty, own pieces",
			pos:  "3l3/5p1/3p3/2Ppp2/3Mp2/7/4L2 w 1",
			from: "d3",
			want: []string{"d3-c2", "d3-d2", "d3-e2", "d3-c3", "d3xf5", "d3xf5xf7", "d3xf3"},
		},
		{
			// The worked example: a ring of four pawns around the monkey
			// on c3 (c4, d3 adjacent, d5 and e4 further). Both ways round
			// are different moves, and so are the returns to c3, where
			// the monkey started (it counts as empty).
			name: "ring both ways, back to the start",
			pos:  "3l3/7/3p3/2p1p2/2Mp3/7/3L3 w 1",
			from: "c3",
			want: []string{
				"c3-b2", "c3-c2", "c3-d2", "c3-b3", "c3-b4", "c3-d4",
				"c3xc5", "c3xc5xe5", "c3xc5xe5xe3", "c3xc5xe5xe3xc3",
				"c3xe3", "c3xe3xe5", "c3xe3xe5xc5", "c3xe3xe5xc5xc3",
			},
		},
		{
			// b2 jumps c3 to d4, then the lion on c5 to b6: the chain ends
			// there although c6 could be jumped from b6.
			name: "jumping the lion ends the chain",
			pos:  "7/2p4/2l4/7/2p4/1M5/3L3 w 1",
			from: "b2",
			want: []string{"b2-a1", "b2-b1", "b2-c1", "b2-a2", "b2-c2", "b2-a3", "b2-b3", "b2xd4", "b2xd4xb6"},
		},
		{
			// a1: b2 enemy, c3 empty; from c3 the only enemy left is b2,
			// already jumped (it stays on the board, so a1 is not reached
			// by jumping it back). a2 is empty: never jumped.
			name: "a piece is jumped once, empty squares never",
			pos:  "3l3/7/7/7/7/1p5/M2L3 w 1",
			from: "a1",
			want: []string{"a1-a2", "a1-b1", "a1xc3"},
		},
	})
}

func TestR9Crocodile(t *testing.T) {
	t.Parallel()
	testPieceMoves(t, []pieceCase{
		{
			// Steps a1 c1 a2 b2 c2; slides up the file to the river: b3, b4.
			name: "slides up to the river and no further",
			pos:  "3l3/7/7/7/7/7/1C1L3 w 1",
			from: "b1",
			want: []string{"b1-a1", "b1-c1", "b1-a2", "b1-b2", "b1-c2", "b1-b3", "b1-b4"},
		},
		{
			name: "slide captures in the river",
			pos:  "3l3/7/7/5p1/7/5C1/3L3 w 1",
			from: "f2",
			want: []string{"f2-e1", "f2-f1", "f2-g1", "f2-e2", "f2-g2", "f2-e3", "f2-f3", "f2-g3", "f2xf4"},
		},
		{
			name: "slide blocked by an own piece",
			pos:  "3l3/7/7/7/6P/6C/3L3 w 1",
			from: "g2",
			want: []string{"g2-f1", "g2-g1", "g2-f2", "g2-f3"},
		},
		{
			name: "slide ends on the first piece",
			pos:  "3l3/7/7/7/6p/6C/3L3 w 1",
			from: "g2",
			want: []string{"g2-f1", "g2-g1", "g2-f2", "g2-f3", "g2xg3"},
		},
		{
			// From rank 7 down towards the river, for either color.
			name: "black slides down",
			pos:  "c2l3/7/7/7/7/7/3L3 b 1",
			from: "a7",
			want: []string{"a7-b7", "a7-a6", "a7-b6", "a7-a5", "a7-a4"},
		},
		{
			// In the river: 8 steps, slides b4 a4 west, f4 captures east;
			// no slide along the file.
			name: "slides along the river",
			pos:  "3l3/7/7/3C1p1/7/7/3L3 w 1",
			from: "d4",
			want: []string{
				"d4-c3", "d4-d3", "d4-e3", "d4-c4", "d4-e4", "d4-c5", "d4-d5", "d4-e5",
				"d4-b4", "d4-a4", "d4xf4",
			},
		},
	})
}

func TestR10Pawn(t *testing.T) {
	t.Parallel()
	testPieceMoves(t, []pieceCase{
		{
			// Captures straight and diagonally forward; c3 is own.
			name: "forward moves and captures",
			pos:  "3l3/7/7/7/ppP4/1P5/3L3 w 1",
			from: "b2",
			want: []string{"b2xa3", "b2xb3"},
		},
		{
			name: "beyond the river: one or two back",
			pos:  "3l3/7/PP3P1/3P1p1/p6/7/3L3 w 1",
			from: "b5",
			want: []string{"b5-a6", "b5-b6", "b5-c6", "b5-b4", "b5-b3"},
		},
		{
			// a3 blocks the second square; backward moves never capture.
			name: "back slide blocked at two",
			pos:  "3l3/7/PP3P1/3P1p1/p6/7/3L3 w 1",
			from: "a5",
			want: []string{"a5-a6", "a5-b6", "a5-a4"},
		},
		{
			name: "back slide blocked at one",
			pos:  "3l3/7/PP3P1/3P1p1/p6/7/3L3 w 1",
			from: "f5",
			want: []string{"f5-e6", "f5-f6", "f5-g6"},
		},
		{
			name: "in the river is not beyond it",
			pos:  "3l3/7/PP3P1/3P1p1/p6/7/3L3 w 1",
			from: "d4",
			want: []string{"d4-c5", "d4-d5", "d4-e5"},
		},
		{
			name: "black beyond the river",
			pos:  "3l3/7/7/7/2p4/7/3L3 b 1",
			from: "c3",
			want: []string{"c3-b2", "c3-c2", "c3-d2", "c3-c4", "c3-c5"},
		},
	})
}

func TestR12Superpawn(t *testing.T) {
	t.Parallel()
	testPieceMoves(t, []pieceCase{
		{
			// Forward b6 c6, d6 capture; sideways b5 own, d5 capture;
			// back c4 c3; diagonally back b4 enemy (no capture, blocks a3),
			// d4 then e3 own.
			name: "forward, sideways, backward",
			pos:  "3l3/3p3/1PSp3/1p5/4P2/7/3L3 w 1",
			from: "c5",
			want: []string{"c5-b6", "c5-c6", "c5xd6", "c5xd5", "c5-c4", "c5-c3", "c5-d4"},
		},
		{
			// On its last rank nothing is forward; sideways a1 c1; back b2
			// b3, a2, c2 d3.
			name: "black on rank 1",
			pos:  "3l3/7/7/7/7/7/1s1L3 b 1",
			from: "b1",
			want: []string{"b1-a1", "b1-c1", "b1-b2", "b1-b3", "b1-a2", "b1-c2", "b1-d3"},
		},
	})
}
