package templates

import (
	"testing"

	"github.com/congobymail/congo/rules"
)

func TestViewOf(t *testing.T) {
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
