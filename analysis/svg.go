package analysis

import (
	"fmt"
	"strings"

	"github.com/congobymail/congo/rules"
)

// The chart's size, in pixels as drawn; a mail shows it narrower on a
// phone (375 pixels wide: at 0.6 of its size), where its text, of
// fontSize, must still read (at 10 pixels or more).
const (
	svgWidth  = 600
	svgHeight = 200
	fontSize  = 18
	plotLeft  = 64
	plotRight = svgWidth - 10
	plotTop   = 10
	plotBot   = svgHeight - 32
)

// svgStyle colours the chart for light backgrounds, and for dark ones
// when the reader asks for them. The same colours are repeated as
// attributes, for readers that drop style elements: a light card that
// reads the same on a dark page.
const svgStyle = `.bg{fill:#e4dfd2;stroke:#b9b3a6}.w{fill:#ffffff;stroke:#6b6b6b}.b{fill:#3a3a3a;stroke:#3a3a3a}` +
	`.axis{stroke:#8c8c8c}.t{fill:#3c3c3c}.q{fill:#e08a00}.qq{fill:#d02b2b}` +
	`@media (prefers-color-scheme:dark){.bg{fill:#26292e;stroke:#4a4f57}.w{fill:#ececec;stroke:#bdbdbd}` +
	`.b{fill:#0b0b0b;stroke:#8a8a8a}.axis{stroke:#7a7f87}.t{fill:#d0d0d0}}`

// SVG returns the evaluation graph as an SVG image, for the HTML part of a
// mail: White's advantage as a light area above the middle line, Black's
// as a dark one below, on the scale of Sparkline (the odds a pawn's worth
// gives, a forced lion capture at the edge), the mistakes (?) and
// blunders (??) as dots, and the move numbers below. It has no script
// and no external reference.
func (a *Analysis) SVG() string {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" font-family="sans-serif" font-size="%d">`,
		svgWidth, svgHeight, svgWidth, svgHeight, fontSize)
	b.WriteString("<title>Evaluation after each move: White's advantage above the line, Black's below</title>")
	b.WriteString("<style>" + svgStyle + "</style>")
	fmt.Fprintf(&b, `<rect class="bg" x="0.5" y="0.5" width="%d" height="%d" rx="4" fill="#e4dfd2" stroke="#b9b3a6"/>`, svgWidth-1, svgHeight-1)
	mid := float64(plotTop+plotBot) / 2
	n := len(a.Plies)
	x := func(i int) float64 { // i plies played: 0 is the start
		return plotLeft + float64(i)*float64(plotRight-plotLeft)/float64(max(n, 1))
	}
	y := func(c float64) float64 { return mid - c*(mid-plotTop) }
	// The curve: the start (equal) and the evaluation after each move.
	pts := make([][2]float64, 0, n+1)
	pts = append(pts, [2]float64{x(0), mid})
	for i := range a.Plies {
		pts = append(pts, [2]float64{x(i + 1), y(chance(a.Plies[i].Eval))})
	}
	above, below := split(pts, mid)
	fmt.Fprintf(&b, `<path class="w" fill="#ffffff" stroke="#6b6b6b" stroke-width="1" d="%s"/>`, above)
	fmt.Fprintf(&b, `<path class="b" fill="#3a3a3a" stroke="#3a3a3a" stroke-width="1" d="%s"/>`, below)
	fmt.Fprintf(&b, `<line class="axis" x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#8c8c8c"/>`, plotLeft, mid, plotRight, mid)
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" class="axis" stroke="#8c8c8c"/>`,
		plotLeft, plotTop, plotRight-plotLeft, plotBot-plotTop)
	for _, l := range []struct {
		c    float64
		text string
	}{{1, "White"}, {0, "="}, {-1, "Black"}} {
		fmt.Fprintf(&b, `<text class="t" fill="#3c3c3c" x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`,
			plotLeft-4, y(l.c*0.9), l.text)
	}
	// Move numbers: about seven along the axis, at White's moves, so
	// that they keep apart at their size.
	step := max(1, (n/2+6)/7)
	for i := range a.Plies {
		p := &a.Plies[i]
		if p.Side != rules.White || (p.Number-1)%step != 0 {
			continue
		}
		fmt.Fprintf(&b, `<text class="t" fill="#3c3c3c" x="%.1f" y="%d" text-anchor="middle">%d</text>`, x(i+1), plotBot+22, p.Number)
	}
	for i := range a.Plies {
		p := &a.Plies[i]
		class, fill := "q", "#e08a00"
		switch p.Mark {
		case Mistake:
		case Blunder:
			class, fill = "qq", "#d02b2b"
		default:
			continue
		}
		fmt.Fprintf(&b, `<circle class="%s" fill="%s" cx="%.1f" cy="%.1f" r="5"><title>%s%s %v</title></circle>`,
			class, fill, x(i+1), y(chance(p.Eval)), p.label(), p.Mark, p.Eval)
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// split returns two closed paths: the area between the line through pts
// and the horizontal line at mid where the line is above it (smaller y),
// and where it is below, the crossings computed exactly.
func split(pts [][2]float64, mid float64) (above, below string) {
	var up, down strings.Builder
	pt := func(b *strings.Builder, x, y float64) { fmt.Fprintf(b, "L%.1f %.1f", x, y) }
	fmt.Fprintf(&up, "M%.1f %.1f", pts[0][0], mid)
	fmt.Fprintf(&down, "M%.1f %.1f", pts[0][0], mid)
	for i, p := range pts {
		if i > 0 {
			q := pts[i-1]
			if (q[1] < mid) != (p[1] < mid) && q[1] != mid && p[1] != mid {
				cx := q[0] + (mid-q[1])*(p[0]-q[0])/(p[1]-q[1])
				pt(&up, cx, mid)
				pt(&down, cx, mid)
			}
		}
		pt(&up, p[0], min(p[1], mid))
		pt(&down, p[0], max(p[1], mid))
	}
	last := pts[len(pts)-1][0]
	pt(&up, last, mid)
	pt(&down, last, mid)
	up.WriteString("Z")
	down.WriteString("Z")
	return up.String(), down.String()
}
