package templates

import (
	"slices"
	"strconv"
	"testing"

	"github.com/congobymail/congo/rules"
)

func TestViewOf(t *testing.T) {
	t.Parallel()
	pos := rules.Start()
	tests := []struct {
		side       rules.Color
		firstFile  string
		topRank    int
		topLeft    string
		topIsWhite bool
	}{
		{rules.White, "a", 7, "g", false},
		{rules.Black, "g", 1, "Z", true},
	}
	for _, tt := range tests {
		v := ViewOf(pos, tt.side)
		if len(v.Rows) != 7 || len(v.Files) != 7 || v.Files[0] != tt.firstFile || v.Rows[0].Rank != tt.topRank {
			t.Errorf("ViewOf(%v) files %v, first rank %d; want %s first, rank %d on top", tt.side, v.Files, v.Rows[0].Rank, tt.firstFile, tt.topRank)
			continue
		}
		if c := v.Rows[0].Cells[0]; c.Piece != tt.topLeft || c.White != tt.topIsWhite {
			t.Errorf("ViewOf(%v) top left = %+v, want %s", tt.side, c, tt.topLeft)
		}
		for _, c := range v.Rows[3].Cells {
			if !c.River || c.Castle || c.Piece != "" {
				t.Errorf("ViewOf(%v) river square = %+v", tt.side, c)
			}
		}
		if c := v.Rows[0].Cells[3]; !c.Castle || c.Piece != map[rules.Color]string{rules.White: "l", rules.Black: "L"}[tt.side] {
			t.Errorf("ViewOf(%v) d-file castle square = %+v, want the lion", tt.side, c)
		}
	}
}

func TestViewWithLast(t *testing.T) {
	t.Parallel()
	// A monkey's chain that leaves the river and comes back (RULES.md's
	// worked example for R13 c): c4 over d5 to e6, over e5 to e4.
	pos, err := rules.ParsePosition("3l3/7/3pp2/c1M4/7/7/2L4 w 1")
	if err != nil {
		t.Fatal(err)
	}
	m, err := pos.ParseMove("c4xe6xe4")
	if err != nil {
		t.Fatal(err)
	}
	for _, side := range []rules.Color{rules.White, rules.Black} {
		v := ViewOf(pos, side)
		got := marked(v.WithLast(m))
		if want := []string{"c4", "e4", "e6"}; !slices.Equal(got, want) {
			t.Errorf("ViewOf(%v).WithLast(%v) marks %v, want %v", side, m, got, want)
		}
		if got := marked(v); got != nil {
			t.Errorf("WithLast changed the view it was called on: it marks %v", got)
		}
		if got := marked(v.WithLast(rules.Move{})); got != nil {
			t.Errorf("WithLast(no move) marks %v, want none", got)
		}
	}
	// A later move's marks replace the earlier ones.
	v := ViewOf(pos, rules.White).WithLast(m)
	next, _, err := pos.Play("c4xe6xe4")
	if err != nil {
		t.Fatal(err)
	}
	reply, err := next.ParseMove("d7-d6")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := marked(v.WithLast(reply)), []string{"d6", "d7"}; !slices.Equal(got, want) {
		t.Errorf("WithLast(%v) after WithLast(%v) marks %v, want %v", reply, m, got, want)
	}
}

// marked lists the squares of v marked as the last move's, sorted.
func marked(v View) []string {
	var out []string
	for _, r := range v.Rows {
		for j, c := range r.Cells {
			if c.Last {
				out = append(out, v.Files[j]+strconv.Itoa(r.Rank))
			}
		}
	}
	slices.Sort(out)
	return out
}

func TestDrowningOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pos  string
		want []Piece
	}{
		// The crocodile on c4 never drowns; black's pawn on e4 drowns
		// only on black's move.
		{"3l3/7/7/P1C1p2/7/7/3L3 w 1", []Piece{{"pawn", "a4"}}},
		{"3l3/7/7/P1C1p2/7/7/3L3 b 1", []Piece{{"pawn", "e4"}}},
		{"3l3/7/7/m1c4/7/7/3L3 b 1", []Piece{{"monkey", "a4"}}},
		{"gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1", nil},
	}
	for _, tt := range tests {
		pos, err := rules.ParsePosition(tt.pos)
		if err != nil {
			t.Fatal(err)
		}
		if got := DrowningOf(pos); !slices.Equal(got, tt.want) {
			t.Errorf("DrowningOf(%q) = %v, want %v", tt.pos, got, tt.want)
		}
	}
}
