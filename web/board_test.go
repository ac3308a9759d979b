package web

import (
	"encoding/xml"
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
			svg := string(boardSVG(pos, last, "a board"))
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
	svg := string(boardSVG(rules.Start(), rules.Move{}, "the start"))
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
