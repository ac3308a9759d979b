// Package tablebase holds Congo's endgame tables: the exact value of every
// position with at most two pieces besides the two lions (MAIL.md M76),
// built by retrograde analysis over the moves of the rules package.
//
// It is pure but for reading and writing its own files: Build writes the
// tables of a directory, Open reads them into memory once, and
// Tables.Probe answers from memory in well under a microsecond.
package tablebase

import (
	"fmt"
	"strings"

	"github.com/congobymail/congo/rules"
)

// MaxPieces is the most pieces besides the lions a table can hold: the
// four-men tables have two (Build's default), and a few five-men
// materials may be built too (BuildOptions.Materials).
const MaxPieces = 3

// FourMen is the most pieces besides the lions of the tables Build makes
// unless told otherwise: every material of four men or fewer (M76).
const FourMen = 2

// Material is the pieces on the board besides the two lions: White's
// first, each side's by kind. The zero value is the two lions alone.
type Material struct {
	n      int
	pieces [MaxPieces]rules.Piece
}

// newMaterial returns the material of pieces, in any order.
func newMaterial(pieces ...rules.Piece) Material {
	var m Material
	for _, pc := range pieces {
		m.pieces[m.n] = pc
		m.n++
	}
	m.sort()
	return m
}

// sort orders the pieces by their rules.Piece value: White's first (the
// color is the high bit), then by kind.
func (m *Material) sort() {
	for i := 1; i < m.n; i++ {
		for j := i; j > 0 && m.pieces[j] < m.pieces[j-1]; j-- {
			m.pieces[j], m.pieces[j-1] = m.pieces[j-1], m.pieces[j]
		}
	}
}

// Pieces returns the number of pieces besides the lions.
func (m Material) Pieces() int { return m.n }

// ParseMaterial reads a material written as String writes it: "LZvLE" is
// White's lion and zebra against Black's lion and elephant, "LvL" the two
// lions alone. Letters are those of R21, in either case.
func ParseMaterial(s string) (Material, error) {
	white, black, ok := strings.Cut(strings.ToUpper(s), "V")
	if !ok || !strings.HasPrefix(white, "L") || !strings.HasPrefix(black, "L") {
		return Material{}, fmt.Errorf("material %q: want the pieces of each side after its lion, like LZvLE", s)
	}
	var m Material
	for c, side := range []string{white[1:], black[1:]} {
		for _, b := range []byte(side) {
			pc, ok := pieceOfLetter(rules.Color(c), b)
			if !ok {
				return Material{}, fmt.Errorf("material %q: %q is no piece but a lion (ZEGMCPS)", s, rune(b))
			}
			if m.n == MaxPieces {
				return Material{}, fmt.Errorf("material %q: more than %d pieces besides the lions", s, MaxPieces)
			}
			m.pieces[m.n] = pc
			m.n++
		}
	}
	m.sort()
	return m, nil
}

// pieceOfLetter returns the piece of color c written as the uppercase
// letter b, for every kind but the lion.
func pieceOfLetter(c rules.Color, b byte) (rules.Piece, bool) {
	for k := rules.Zebra; k <= rules.Superpawn; k++ {
		if rules.NewPiece(rules.White, k).Letter() == b {
			return rules.NewPiece(c, k), true
		}
	}
	return rules.NoPiece, false
}

// String writes m as White's lion and pieces, "v", and Black's: "LZvLE".
func (m Material) String() string {
	var b strings.Builder
	b.WriteByte('L')
	black := false
	for _, pc := range m.pieces[:m.n] {
		if pc.Color() == rules.Black && !black {
			b.WriteString("vL")
			black = true
		}
		b.WriteByte(rules.NewPiece(rules.White, pc.Kind()).Letter())
	}
	if !black {
		b.WriteString("vL")
	}
	return b.String()
}

// mirror returns m with the colors swapped.
func (m Material) mirror() Material {
	out := Material{n: m.n}
	for i, pc := range m.pieces[:m.n] {
		out.pieces[i] = rules.NewPiece(pc.Color().Other(), pc.Kind())
	}
	out.sort()
	return out
}

// kinds returns the kinds of c's pieces in m, in order.
func (m Material) kinds(c rules.Color) []rules.Kind {
	var out []rules.Kind
	for _, pc := range m.pieces[:m.n] {
		if pc.Color() == c {
			out = append(out, pc.Kind())
		}
	}
	return out
}

// canonical reports whether m is the one of m and its color mirror that
// the tables store: the side with more pieces is White, and with as many,
// White's kinds come later in the order of rules.Kind (or are the same).
func (m Material) canonical() bool {
	w, b := m.kinds(rules.White), m.kinds(rules.Black)
	if len(w) != len(b) {
		return len(w) > len(b)
	}
	for i := range w {
		if w[i] != b[i] {
			return w[i] > b[i]
		}
	}
	return true
}

// selfMirror reports whether m is its own color mirror: then the tables
// store the positions with White to move only.
func (m Material) selfMirror() bool { return m.mirror() == m }

// pawns returns the number of pawns in m: promoting one (R11) leads to a
// material with fewer, which is built first.
func (m Material) pawns() int {
	n := 0
	for _, pc := range m.pieces[:m.n] {
		if pc.Kind() == rules.Pawn {
			n++
		}
	}
	return n
}

// pieceKinds are the kinds of piece besides the lion.
var pieceKinds = []rules.Kind{rules.Zebra, rules.Elephant, rules.Giraffe, rules.Monkey, rules.Crocodile, rules.Pawn, rules.Superpawn}

// Materials returns every canonical material of at most n pieces besides
// the lions (n at most MaxPieces), the two lions alone left out, in an
// order that builds each after those its positions lead to: fewer pieces
// first, then fewer pawns.
func Materials(n int) []Material {
	var all []rules.Piece
	for _, c := range []rules.Color{rules.White, rules.Black} {
		for _, k := range pieceKinds {
			all = append(all, rules.NewPiece(c, k))
		}
	}
	seen := map[Material]bool{}
	var out []Material
	var add func(m Material, from int)
	add = func(m Material, from int) {
		if m.n > 0 && m.canonical() && !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
		if m.n == n {
			return
		}
		for i := from; i < len(all); i++ {
			next := m
			next.pieces[next.n] = all[i]
			next.n++
			add(next, i)
		}
	}
	add(Material{}, 0)
	sortMaterials(out)
	return out
}

// sortMaterials orders ms so that each comes after the materials its
// positions lead to: by pieces, then pawns, then name.
func sortMaterials(ms []Material) {
	less := func(a, b Material) bool {
		if a.n != b.n {
			return a.n < b.n
		}
		if a.pawns() != b.pawns() {
			return a.pawns() < b.pawns()
		}
		return a.String() < b.String()
	}
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && less(ms[j], ms[j-1]); j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
}
