package web

import (
	"encoding/xml"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/congobymail/congo/rules"
)

// svgPieces reads the pieces of a board's SVG: letter by square.
func svgPieces(svg string) map[string]string {
	out := map[string]string{}
	re := regexp.MustCompile(`data-square="([a-g][1-7])" data-piece="([A-Za-z])"`)
	for _, m := range re.FindAllStringSubmatch(svg, -1) {
		out[m[1]] = m[2]
	}
	return out
}

// positionPieces are the pieces of a position: letter by square.
func positionPieces(p rules.Position) map[string]string {
	out := map[string]string{}
	for s := range rules.Square(49) {
		if pc := p.At(s); pc != rules.NoPiece {
			out[s.String()] = string(pc.Letter())
		}
	}
	return out
}

// TestBoardSVG draws the positions of random games and checks that the
// SVG is well-formed, has a piece element for each piece of the position
// with its square and R21 letter (M45), and rings the last move's squares.
func TestBoardSVG(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for g := range 20 {
		pos := rules.Start()
		var last rules.Move
		for ply := range 60 {
			side := []rules.Color{rules.White, rules.Black}[g%2]
			svg := string(boardSVG(pos, last, "a board", side))
			if err := xml.Unmarshal([]byte(svg), new(struct{})); err != nil {
				t.Fatalf("game %d, ply %d: the SVG is not well-formed XML: %v", g, ply, err)
			}
			got, want := svgPieces(svg), positionPieces(pos)
			if len(got) != len(want) || strings.Count(svg, "data-piece=") != len(want) {
				t.Fatalf("game %d, ply %d (%s): %d pieces drawn, want %d", g, ply, pos, len(got), len(want))
			}
			for s, l := range want {
				if got[s] != l {
					t.Fatalf("game %d, ply %d (%s): %s shows %q, want %q", g, ply, pos, s, got[s], l)
				}
			}
			marked := map[rules.Square]bool{}
			if last.PathLen() > 0 {
				marked[last.From()] = true
				for i := range last.PathLen() {
					marked[last.PathAt(i)] = true
				}
			}
			rings := len(marked)
			if n := strings.Count(svg, `class="last"`); n != rings {
				t.Fatalf("game %d, ply %d: %d squares marked, want %d for %s", g, ply, n, rings, last)
			}
			moves := pos.Legal()
			if len(moves) == 0 || pos.Outcome().Over() {
				break
			}
			last = moves[r.IntN(len(moves))]
			pos, _ = pos.Apply(last)
		}
	}
}

// TestBoardSVGSquares checks the picture's squares: 49, the river the
// fourth rank, the castles the files c to e off it, and a coordinate for
// each file and rank.
func TestBoardSVGSquares(t *testing.T) {
	t.Parallel()
	svg := string(boardSVG(rules.Start(), rules.Move{}, "the start", rules.White))
	for class, want := range map[string]int{`class="sq"`: 24, `class="river"`: 7, `class="castle"`: 18, `class="coord"`: 14, `class="last"`: 0} {
		if n := strings.Count(svg, class); n != want {
			t.Errorf("the board has %d of %s, want %d", n, class, want)
		}
	}
	if !strings.Contains(svg, `aria-label="the start"`) {
		t.Errorf("the board has no label")
	}
	// The black lion is a small capital L; the white one a capital.
	if !strings.Contains(svg, `<text font-variant="small-caps"`) || strings.Count(svg, "small-caps") != 1 {
		t.Errorf("the black lion is not drawn in small capitals, alone")
	}
}

// TestBoardSVGSides checks where the board puts its corners: from
// White's side a1 at the bottom left and g7 at the top right, from
// Black's side turned round, g7 at the bottom left, and the file letters
// and rank numbers along the edges in the same order as the squares.
func TestBoardSVGSides(t *testing.T) {
	t.Parallel()
	centre := func(svg, square string) (x, y int) {
		t.Helper()
		m := regexp.MustCompile(`data-square="` + square + `"[^>]*><title>[^<]*</title><(?:circle|rect)[^>]* (?:cx|x)="(\d+)" (?:cy|y)="(\d+)"`).FindStringSubmatch(svg)
		if m == nil {
			t.Fatalf("no piece on %s in the SVG", square)
		}
		fmt.Sscan(m[1], &x)
		fmt.Sscan(m[2], &y)
		return x, y
	}
	coord := func(svg, label string) int {
		t.Helper()
		m := regexp.MustCompile(`<text class="coord" x="(\d+)" y="(\d+)"[^>]*>` + label + `</text>`).FindStringSubmatch(svg)
		if m == nil {
			t.Fatalf("no coordinate %s in the SVG", label)
		}
		var x, y int
		fmt.Sscan(m[1], &x)
		fmt.Sscan(m[2], &y)
		if label >= "a" {
			return x
		}
		return y
	}
	for _, c := range []struct {
		side                 rules.Color
		bottomLeft, topRight string
		leftFile, bottomRank string
		rightFile, topRank   string
	}{
		{rules.White, "a1", "g7", "a", "1", "g", "7"},
		{rules.Black, "g7", "a1", "g", "7", "a", "1"},
	} {
		svg := string(boardSVG(rules.Start(), rules.Move{}, "the start", c.side))
		bx, by := centre(svg, c.bottomLeft)
		tx, ty := centre(svg, c.topRight)
		if bx >= tx || by <= ty {
			t.Errorf("from %v's side: %s at (%d,%d), %s at (%d,%d): want %s bottom left, %s top right", c.side, c.bottomLeft, bx, by, c.topRight, tx, ty, c.bottomLeft, c.topRight)
		}
		if coord(svg, c.leftFile) >= coord(svg, c.rightFile) || coord(svg, c.bottomRank) <= coord(svg, c.topRank) {
			t.Errorf("from %v's side: the coordinates run the wrong way", c.side)
		}
	}
}
