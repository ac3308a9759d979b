package rules

import (
	"errors"
	"testing"
)

// TestParseSetUp: the positions a game may begin from (M72), and the
// reason each other is refused for.
func TestParseSetUp(t *testing.T) {
	t.Parallel()
	good := []struct{ in, want string }{
		{StartPosition, StartPosition},
		{"3l3/7/7/7/7/7/3L3 w 1", ""}, // a lone lion can fly: R17 is no draw then
		{"  2l4/7/2p4/7/7/2P4/4L2   b   12 ", "2l4/7/2p4/7/7/2P4/4L2 b 12"},
		{"gmele1z/ppppppp/7/P2c2C/7/1PPPPPP/GMELE1Z w 4", ""}, // a pawn in the river, and both crocodiles
		{"2ele2/7/7/7/7/7/SSSLSSS b 30", ""},                  // seven superpawns
	}
	for _, tt := range good {
		p, err := ParseSetUp(tt.in)
		want := tt.want
		if want == "" {
			want = tt.in
		}
		if err != nil || p.String() != want {
			t.Errorf("ParseSetUp(%q) = %q, %v; want %q", tt.in, p.String(), err, want)
		}
	}
	bad := []struct{ in, format string }{
		{"start", "this is not a position written as R21 says: the ranks from 7 down to 1 separated by /, the side to move (w or b) and the move number"},
		{"3l3/7/7/7/7/3l3/3L3 w 1", "a side has two lions: a second one stands on %s"},
		{"7/7/7/7/7/7/7 w 1", "there is no lion on the board: each side needs its lion, in its castle"},
		{"l6/7/7/7/7/7/3L3 w 1", "the lion on %s stands outside its castle"},
		{"P2l3/7/7/7/7/7/3L3 w 1", "the pawn on %s stands on its last rank: put a superpawn there (S or s)"},
		{"7/7/7/7/7/7/3L3 w 1", "Black has no lion in its castle: each side needs its lion, in its castle"},
		{"3l3/7/7/7/7/7/7 b 1", "White has no lion in its castle: each side needs its lion, in its castle"},
		{"3l3/7/7/7/7/7/3lL2 w 9", "a side has two lions: a second one stands on %s"},
		{"3l3/7/7/7/7/GG5/3L3 w 1", "White has more pieces of one kind than it starts with: %s %d, at most %d"},
		{"3l3/eee4/7/7/7/7/3L3 w 1", "Black has more pieces of one kind than it starts with: %s %d, at most %d"},
		{"3l3/7/7/7/PPPP3/PPPS3/3L3 w 1", "White has %d pawns and superpawns, more than the %d it starts with"},
		{"3l3/7/7/Z5P/7/7/3L3 b 5", "white pieces other than the crocodile stand in the river on %s: only the one that moved there last can, the others would have drowned (R13)"},
		{"3l3/7/7/p1c3p/7/7/3L3 w 5", "black pieces other than the crocodile stand in the river on %s: only the one that moved there last can, the others would have drowned (R13)"},
		{"3l3/7/7/7/7/7/3L3 w 1", ""}, // (good: the lions face each other)
		{"2l4/7/7/7/7/7/4L2 w 1", "only the two lions are left: the game would be drawn before it began (R17)"},
		{"2l4/2p4/7/7/7/7/3L3 b 1", ""},
		{"3l3/2ZSZ2/7/7/7/7/3L3 b 40", ""},
	}
	for _, tt := range bad {
		_, err := ParseSetUp(tt.in)
		if tt.format == "" {
			continue
		}
		var se *SetUpError
		if !errors.As(err, &se) || se.Format != tt.format || se.Reason == "" || se.Input == "" {
			t.Errorf("ParseSetUp(%q) = %v, want a *SetUpError %q", tt.in, err, tt.format)
		}
	}
}
