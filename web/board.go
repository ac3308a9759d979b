package web

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/congobymail/congo/rules"
)

// The board as SVG, the one picture of a board the web draws: a sibling
// of the board table of the HTML mail (templates/board.html), with its
// colours, its blue river and tan castles, and its pieces: White's a
// white disc in a grey ring with an upper-case letter, Black's a dark
// rounded square with a lower-case letter, so that the two differ in
// shape as well as in colour. The squares of the last move have a gold
// ring. The board is drawn from either side: a game's page shows it from
// White's unless it is asked for from Black's (?side=black), as the link
// in a board mail to Black does. The light scheme is in the presentation attributes (fill, stroke),
// which any viewer of the SVG shows; the page's stylesheet (congo.css)
// overrides them for the dark one. Each piece is a <g> with data-square
// and data-piece (M45).

// Board geometry, in SVG units: squares of sq, the board at (left, top),
// the coordinates in the margins.
const (
	sq      = 60
	left    = 26
	top     = 8
	boardSz = 7 * sq
	width   = left + boardSz + 8
	height  = top + boardSz + 26
)

// boardSVG draws pos from the side of side: from White's, file a on the
// left and rank 7 on top; from Black's, turned round, file g on the
// left and rank 1 on top. It marks the squares of last (the zero Move
// marks none). label describes the picture for those who cannot see it.
func boardSVG(pos rules.Position, last rules.Move, label string, side rules.Color) template.HTML {
	squareXY := func(file, rank int) (x, y int) { return squareAt(file, rank, side) }
	marked := map[rules.Square]bool{}
	if last.PathLen() > 0 {
		marked[last.From()] = true
		for i := range last.PathLen() {
			marked[last.PathAt(i)] = true
		}
	}
	var b strings.Builder
	b.Grow(16 << 10)
	fmt.Fprintf(&b, `<svg class="board" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" role="img" aria-label="%s">`,
		width, height, template.HTMLEscapeString(label))
	b.WriteString("\n")
	// The squares, then the river's waves, the last move's rings, the
	// grid, the coordinates and the pieces: later ones are drawn over.
	for rank := 6; rank >= 0; rank-- {
		for file := range 7 {
			x, y := squareXY(file, rank)
			class, fill := "sq", "#fbf8ef"
			switch {
			case rank == 3:
				class, fill = "river", "#7fb8e6"
			case file >= 2 && file <= 4:
				class, fill = "castle", "#f0dfb4"
			}
			fmt.Fprintf(&b, `<rect class="%s" x="%d" y="%d" width="%d" height="%d" fill="%s"/>`, class, x, y, sq, sq, fill)
		}
		b.WriteString("\n")
	}
	_, ry := squareXY(0, 3)
	for i := range 2 {
		y := ry + 20 + 20*i
		fmt.Fprintf(&b, `<path class="wave" d="M%d %d`, left, y)
		for k := range 14 {
			dy := 4
			if k%2 == 1 {
				dy = -4
			}
			fmt.Fprintf(&b, " q15 %d 30 0", dy)
		}
		b.WriteString(`" fill="none" stroke="#a9d0ef" stroke-width="2"/>` + "\n")
	}
	for s := range rules.Square(49) {
		if marked[s] {
			x, y := squareXY(s.File(), s.Rank())
			fmt.Fprintf(&b, `<rect class="last" x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#e8a400" stroke-width="6"/>`,
				x+3, y+3, sq-6, sq-6)
		}
	}
	fmt.Fprintf(&b, `<path class="grid" d="`)
	for i := range 8 {
		fmt.Fprintf(&b, "M%d %dv%dM%d %dh%d", left+i*sq, top, boardSz, left, top+i*sq, boardSz)
	}
	b.WriteString(`" stroke="#8c8c8c" stroke-width="1"/>` + "\n")
	for i := range 7 {
		x, _ := squareXY(i, 0)
		fmt.Fprintf(&b, `<text class="coord" x="%d" y="%d" text-anchor="middle" fill="#666666">%c</text>`, x+sq/2, top+boardSz+19, 'a'+i)
		_, y := squareXY(0, i)
		fmt.Fprintf(&b, `<text class="coord" x="%d" y="%d" text-anchor="middle" dominant-baseline="central" fill="#666666">%d</text>`, left/2, y+sq/2, i+1)
	}
	b.WriteString("\n")
	b.WriteString(`<g class="pieces" font-family="Georgia,'Times New Roman',Times,serif" font-weight="bold" font-size="28" text-anchor="middle" dominant-baseline="central">` + "\n")
	for rank := 6; rank >= 0; rank-- {
		for file := range 7 {
			s := rules.Square(rank*7 + file)
			if p := pos.At(s); p != rules.NoPiece {
				piece(&b, s, p, side)
			}
		}
	}
	b.WriteString("</g></svg>")
	return template.HTML(b.String())
}

// squareAt is the top left corner of the square of file and rank (from
// 0), from the side of side.
func squareAt(file, rank int, side rules.Color) (x, y int) {
	if side == rules.Black {
		return left + (6-file)*sq, top + rank*sq
	}
	return left + file*sq, top + (6-rank)*sq
}

// piece draws p on s, with its R21 letter; the black lion's l is a small
// capital L, so that it does not read as a capital I.
func piece(b *strings.Builder, s rules.Square, p rules.Piece, side rules.Color) {
	x, y := squareAt(s.File(), s.Rank(), side)
	cx, cy := x+sq/2, y+sq/2
	letter := string(p.Letter())
	name := p.String()
	fmt.Fprintf(b, `<g class="piece %s" data-square="%s" data-piece="%s"><title>%s on %s</title>`,
		p.Color(), s, letter, name, s)
	if p.Color() == rules.White {
		fmt.Fprintf(b, `<circle class="ring" cx="%d" cy="%d" r="25" fill="#a6a6a6" stroke="#4d4d4d" stroke-width="1.5"/>`, cx, cy)
		fmt.Fprintf(b, `<circle class="disc" cx="%d" cy="%d" r="19" fill="#ffffff"/>`, cx, cy)
		fmt.Fprintf(b, `<text x="%d" y="%d" fill="#1a1a1a">%s</text>`, cx, cy, letter)
	} else {
		fmt.Fprintf(b, `<rect class="box" x="%d" y="%d" width="44" height="44" rx="7" fill="#1a1a1a" stroke="#1a1a1a" stroke-width="1.5"/>`, cx-22, cy-22)
		variant := ""
		if p.Kind() == rules.Lion {
			variant = ` font-variant="small-caps"`
		}
		fmt.Fprintf(b, `<text%s x="%d" y="%d" fill="#ffffff">%s</text>`, variant, cx, cy, letter)
	}
	b.WriteString("</g>\n")
}
