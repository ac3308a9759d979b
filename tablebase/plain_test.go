package tablebase

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/congobymail/congo/rules"
)

var full = flag.Bool("full", false, "build every table of four men and check them all; check two materials of four men against the independent count")

// An independent count: the value of every position of a small material,
// found by searching forward to the end with nothing but the rules
// package, sweep after sweep, with none of the tables' indexing,
// symmetries or retrograde spreading.

// plainValues returns the value of every position (keyed by its R21
// text) whose pieces besides the lions are those of one of materials,
// each given as a list of letters ("Z", "z", "Pe"), the two lions alone
// included always. Every move from such a position must lead to another
// (or end the game).
func plainValues(t testing.TB, materials ...string) map[string]Value {
	t.Helper()
	type node struct {
		children []int32 // the positions the moves lead to
		ends     []Value // for each move that ends the game: the value for the side to move after it
		value    Value
	}
	at := map[string]int32{}
	var all []string
	materials = append(materials, "")
	for _, letters := range materials {
		for _, fen := range placements(letters) {
			if _, err := rules.ParsePosition(fen); err != nil {
				continue // a pawn on its last rank
			}
			at[fen] = int32(len(all))
			all = append(all, fen)
		}
	}
	nodes := make([]node, len(all))
	for i, key := range all {
		n := &nodes[i]
		p, _ := rules.ParsePosition(key)
		if o := p.Outcome(); o.State == rules.Drawn {
			n.value = Value{Result: Draw} // R17
			continue
		}
		for _, m := range p.Legal() {
			child := p.After(m)
			o := child.Outcome()
			switch {
			case o.State == rules.Won && o.Winner == p.Turn():
				n.ends = append(n.ends, Value{Result: Loss, N: 0})
			case o.State == rules.Won:
				t.Fatalf("%s: %v loses the game for its mover", key, m)
			case o.State == rules.Drawn:
				n.ends = append(n.ends, Value{Result: Draw})
			default:
				c := child.String()
				j, ok := at[c[:strings.LastIndexByte(c, ' ')]+" 1"]
				if !ok {
					t.Fatalf("%s: %v leads to %s, outside the materials", key, m, c)
				}
				n.children = append(n.children, j)
			}
		}
	}
	// Sweep d decides the positions that end d plies away: won when a
	// move leads to a position lost d-1 plies away, lost when every move
	// leads to one won, the longest d-1 plies away. A position not yet
	// decided counts as neither.
	for d := 0; ; d++ {
		changed := false
		for i := range nodes {
			n := &nodes[i]
			if n.value.Known() {
				continue
			}
			win, allWon, longest := false, true, -1
			check := func(v Value) {
				switch v.Result {
				case Loss:
					allWon = false
					if v.Plies() == d-1 {
						win = true
					}
				case Win:
					longest = max(longest, v.Plies())
				default:
					allWon = false
				}
			}
			for _, v := range n.ends {
				check(v)
			}
			for _, c := range n.children {
				check(nodes[c].value)
			}
			switch {
			case win:
				n.value, changed = Value{Result: Win, N: (d + 1) / 2}, true
			case allWon && longest == d-1:
				n.value, changed = Value{Result: Loss, N: d / 2}, true
			}
		}
		if !changed && d > 0 {
			break
		}
	}
	out := make(map[string]Value, len(all))
	for i, key := range all {
		v := nodes[i].value
		if !v.Known() {
			v = Value{Result: Draw}
		}
		out[key] = v
	}
	return out
}

// placements returns every board with the lions in their castles and the
// pieces written by letters (uppercase White's) on other squares, in R21
// text with White to move and with Black to move.
func placements(letters string) []string {
	var out []string
	var board [49]byte
	var place func(i int)
	place = func(i int) {
		if i == len(letters) {
			for _, side := range []string{" w 1", " b 1"} {
				out = append(out, boardText(&board)+side)
			}
			return
		}
		for sq := range board {
			if board[sq] != 0 {
				continue
			}
			board[sq] = letters[i]
			place(i + 1)
			board[sq] = 0
		}
	}
	for _, w := range []string{"c1", "d1", "e1", "c2", "d2", "e2", "c3", "d3", "e3"} {
		for _, b := range []string{"c5", "d5", "e5", "c6", "d6", "e6", "c7", "d7", "e7"} {
			ws, bs := squareOf(w), squareOf(b)
			board[ws], board[bs] = 'L', 'l'
			place(0)
			board[ws], board[bs] = 0, 0
		}
	}
	return out
}

func squareOf(s string) int { return int(s[1]-'1')*7 + int(s[0]-'a') }

func boardText(board *[49]byte) string {
	var b strings.Builder
	for r := 6; r >= 0; r-- {
		empty := 0
		for f := 0; f < 7; f++ {
			c := board[r*7+f]
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				fmt.Fprint(&b, empty)
				empty = 0
			}
			b.WriteByte(c)
		}
		if empty > 0 {
			fmt.Fprint(&b, empty)
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	return b.String()
}

// TestPlainCount checks every position of every three-men material, both
// colors, against the independent count (M76).
func TestPlainCount(t *testing.T) {
	ts := buildTest(t, Materials(1)...)
	for _, letters := range []string{"Z", "E", "G", "M", "C", "S", "P", "z", "e", "g", "m", "c", "s", "p"} {
		t.Run(letters, func(t *testing.T) {
			materials := []string{letters}
			switch letters {
			case "P":
				materials = append(materials, "S")
			case "p":
				materials = append(materials, "s")
			}
			plain := plainValues(t, materials...)
			bad := 0
			for fen, want := range plain {
				p, _ := rules.ParsePosition(fen)
				if got := ts.Probe(p); got != want {
					if bad++; bad <= 5 {
						t.Errorf("Probe(%q) = %v, want %v", fen, got, want)
					}
				}
			}
			if bad > 0 {
				t.Errorf("%d of %d positions wrong", bad, len(plain))
			}
		})
	}
}

// TestPlainCountFourMen does the same for two materials of four men, with
// -full (some seconds each).
func TestPlainCountFourMen(t *testing.T) {
	if !*full {
		t.Skip("with -full")
	}
	for _, c := range [][]string{
		{"Ze", "Z", "e"},            // a piece a side
		{"Mp", "Ms", "M", "p", "s"}, // a monkey against a pawn that promotes
	} {
		t.Run(c[0], func(t *testing.T) {
			m, err := ParseMaterial("L" + strings.ToUpper(onlyUpper(c[0])) + "vL" + strings.ToUpper(onlyLower(c[0])))
			if err != nil {
				t.Fatal(err)
			}
			ts := buildTest(t, m)
			plain := plainValues(t, c...)
			bad := 0
			for fen, want := range plain {
				p, _ := rules.ParsePosition(fen)
				if got := ts.Probe(p); got != want {
					if bad++; bad <= 5 {
						t.Errorf("Probe(%q) = %v, want %v", fen, got, want)
					}
				}
			}
			if bad > 0 {
				t.Errorf("%d of %d positions wrong", bad, len(plain))
			}
		})
	}
}

func onlyUpper(s string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r
		}
		return -1
	}, s)
}

func onlyLower(s string) string {
	return strings.Map(func(r rune) rune {
		if 'a' <= r && r <= 'z' {
			return r
		}
		return -1
	}, s)
}

// buildTest builds the tables of materials (and those they lead to) in a
// temporary directory and opens them.
func buildTest(t testing.TB, materials ...Material) *Tables {
	t.Helper()
	dir := t.TempDir()
	if _, err := Build(dir, BuildOptions{Materials: materials}); err != nil {
		t.Fatal(err)
	}
	ts, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}
