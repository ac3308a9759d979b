package web

import (
	"fmt"
	"html/template"
	"math"
	"strings"
	"time"
)

// The rating chart of a player's page, SVG drawn by the server: the
// rating after each rated game over time as a line, and the Glicko
// deviation as a band around it, two deviations either side (where the
// player's strength lies, 95% sure). Each game is a point that links to
// it. As for the board, the light colours are in the attributes and the
// stylesheet gives the dark ones.

// Chart geometry, in SVG units: the plot inside the margins.
const (
	chartW, chartH = 600, 260
	plotL, plotR   = 66, 14
	plotT, plotB   = 12, 30
	plotW, plotH   = chartW - plotL - plotR, chartH - plotT - plotB
	maxDots        = 150 // more games than this: the line alone
	bandOver       = 300 // the band is cut this far beyond the ratings
)

// chart draws points (oldest first); none draws nothing.
func (h *Handler) chart(handle string, points []ratingPoint) template.HTML {
	if len(points) == 0 {
		return ""
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range points {
		lo, hi = min(lo, p.Rating), max(hi, p.Rating)
	}
	// The band may reach far (a new player's deviation is 350): it is cut
	// a little beyond the ratings, so that they stay readable.
	bandLo, bandHi := lo-bandOver, hi+bandOver
	for _, p := range points {
		lo, hi = min(lo, max(p.Rating-2*p.Deviation, bandLo)), max(hi, min(p.Rating+2*p.Deviation, bandHi))
	}
	step := 100.0
	if hi-lo > 1000 {
		step = 200
	}
	lo, hi = math.Floor(lo/step)*step, math.Ceil(hi/step)*step
	if hi-lo < 2*step {
		hi += step
		lo -= step
	}
	t0, t1 := points[0].At, points[len(points)-1].At
	span := t1.Sub(t0)
	x := func(t time.Time) float64 {
		if span <= 0 {
			return plotL + plotW/2
		}
		return plotL + float64(t.Sub(t0))/float64(span)*plotW
	}
	y := func(r float64) float64 {
		r = min(max(r, lo), hi)
		return plotT + (hi-r)/(hi-lo)*plotH
	}
	var b strings.Builder
	b.Grow(4096 + 200*len(points))
	fmt.Fprintf(&b, `<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" role="img" aria-label="%s">`,
		chartW, chartH, template.HTMLEscapeString(fmt.Sprintf("The rating of %s after each rated game, from %d to %d; now %d", handle,
			round(points[0].Rating), round(points[len(points)-1].Rating), round(points[len(points)-1].Rating))))
	b.WriteString("\n")
	// Every other rating's label is "minor": a phone's narrow chart
	// shows the others alone, larger (congo.css).
	for i, r := 0, lo; r <= hi; i, r = i+1, r+step {
		fmt.Fprintf(&b, `<path class="gridline" d="M%d %.1fh%d" stroke="#dddddd"/>`, plotL, y(r), plotW)
		class := "label"
		if i%2 == 1 {
			class = "label minor"
		}
		fmt.Fprintf(&b, `<text class="%s" x="%d" y="%.1f" text-anchor="end" dominant-baseline="central" font-size="15" fill="#666666">%.0f</text>`, class, plotL-6, y(r), r)
	}
	b.WriteString("\n")
	// The band: up along the upper edge, back along the lower one.
	b.WriteString(`<path class="band" fill="#7fb8e6" fill-opacity="0.35" d="`)
	if len(points) == 1 {
		// One game: no time to draw over. The band and the line run
		// across the plot, the rating as it stands, and not as a tall
		// bar at one day, which read as a chart of something else.
		p := points[0]
		fmt.Fprintf(&b, "M%d %.1fh%dV%.1fh%dz", plotL, y(p.Rating+2*p.Deviation), plotW, y(p.Rating-2*p.Deviation), -plotW)
	} else {
		for i, p := range points {
			fmt.Fprintf(&b, "%s%.1f %.1f", map[bool]string{true: "M", false: "L"}[i == 0], x(p.At), y(p.Rating+2*p.Deviation))
		}
		for i := len(points) - 1; i >= 0; i-- {
			p := points[i]
			fmt.Fprintf(&b, "L%.1f %.1f", x(p.At), y(p.Rating-2*p.Deviation))
		}
		b.WriteString("z")
	}
	b.WriteString(`"/>` + "\n")
	b.WriteString(`<polyline class="line" fill="none" stroke="#1c5d99" stroke-width="2" stroke-linejoin="round" points="`)
	if len(points) == 1 {
		fmt.Fprintf(&b, "%d,%.1f %d,%.1f", plotL, y(points[0].Rating), plotL+plotW, y(points[0].Rating))
	} else {
		for i, p := range points {
			if i > 0 {
				b.WriteString(" ")
			}
			fmt.Fprintf(&b, "%.1f,%.1f", x(p.At), y(p.Rating))
		}
	}
	b.WriteString(`"/>` + "\n")
	if len(points) <= maxDots {
		for _, p := range points {
			fmt.Fprintf(&b, `<a href="%sgames/%d"><circle class="dot" cx="%.1f" cy="%.1f" r="4" fill="#1c5d99"><title>Game %d, %s: %d ± %d</title></circle></a>`,
				h.base, p.Game, x(p.At), y(p.Rating), p.Game, day(p.At), round(p.Rating), round(2*p.Deviation))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, `<text class="label" x="%d" y="%d" font-size="15" fill="#666666">%s</text>`, plotL, chartH-8, day(t0))
	if span > 0 {
		fmt.Fprintf(&b, `<text class="label" x="%d" y="%d" text-anchor="end" font-size="15" fill="#666666">%s</text>`, plotL+plotW, chartH-8, day(t1))
	}
	b.WriteString("</svg>")
	return template.HTML(b.String())
}
