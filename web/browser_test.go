package web

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image"
	"image/color"
	_ "image/png" // screenshots
	"math"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/rules"
)

var shots = flag.String("shots", "", "also write the Chromium screenshots of the web tests to this directory, to look at them")

// chromiumOrSkip returns the path of headless Chromium, or skips the test
// saying why.
func chromiumOrSkip(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("SKIPPED: Chromium is not installed, so the pages are not checked in a browser (install chromium; .ci/run does)")
	return ""
}

// browse loads url in headless Chromium in a window of width x height
// (dark: with prefers-color-scheme dark) and returns the DOM once loaded
// and the screenshot of the window, which is kept as name.png in the
// test's temporary directory and in -shots.
func browse(t *testing.T, chromium, name, url string, width, height int, dark bool) (string, image.Image) {
	t.Helper()
	mode := light
	if dark {
		mode = darkScheme
	}
	return browseIn(t, chromium, name, url, width, height, mode)
}

// scheme is how a browser colours a page: as it is (light), by the
// page's own dark scheme (prefers-color-scheme: dark), or by darkening
// the light scheme itself, as Chrome's "auto dark mode" and the WebView
// of mail apps do (forced dark).
type scheme uint8

const (
	light scheme = iota
	darkScheme
	forcedDark
)

// browseIn is browse in a scheme.
func browseIn(t *testing.T, chromium, name, url string, width, height int, mode scheme) (string, image.Image) {
	t.Helper()
	dir := t.TempDir()
	shot := filepath.Join(dir, name+".png")
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--user-data-dir=" + filepath.Join(dir, "profile"), fmt.Sprintf("--window-size=%d,%d", width, height),
		"--screenshot=" + shot, "--dump-dom"}
	switch mode {
	case darkScheme:
		args = append(args, "--force-dark-mode")
	case forcedDark:
		args = append(args, "--enable-features=WebContentsForceDark")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, append(args, url)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, stderr.String())
	}
	data, err := os.ReadFile(shot)
	if err != nil {
		t.Fatal(err)
	}
	if *shots != "" {
		if err := os.WriteFile(filepath.Join(*shots, name+".png"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return string(dom), img
}

// domPieces reads the pieces of the board in a DOM as Chromium wrote it:
// letter by square.
func domPieces(dom string) map[string]string {
	out := map[string]string{}
	re := regexp.MustCompile(`<g class="piece (?:white|black)" data-square="([a-g][1-7])" data-piece="([A-Za-z])">`)
	for _, m := range re.FindAllStringSubmatch(dom, -1) {
		out[m[1]] = m[2]
	}
	return out
}

// TestGamePageInChromium loads game pages in headless Chromium: the
// board's pieces in the DOM are those of the position its R21 line says,
// which is the position after the ply asked for (M45); and screenshots at
// 1280 and 375 pixels, light and dark, show the board whole, the river
// and the castles, white pieces and black ones apart, the last move
// marked, and nothing beyond the window's right edge.
func TestGamePageInChromium(t *testing.T) {
	chromium := chromiumOrSkip(t)
	w := newWorld(t)
	srv := httptest.NewServer(w.handler(t))
	t.Cleanup(srv.Close)

	// Stepping through game 1 with ?ply=, and game 2 as it stands.
	for _, step := range []struct {
		target, position string
	}{
		{"/games/1?ply=0", rules.StartPosition},
		{"/games/1?ply=1", "gmelecz/ppppppp/7/7/4P2/PPP1PPP/GMELECZ b 1"},
		{"/games/1?ply=2", "gmelecz/ppp1ppp/2p4/7/4P2/PPP1PPP/GMELECZ w 2"},
		{"/games/1", "gmeLecz/ppp1ppp/2p4/7/4P2/PPP1PPP/GME1ECZ b 2"},
		{"/games/2", "gmelecz/p1ppppp/1p5/7/1PP4/P2PPPP/GMELECZ b 2"},
	} {
		dom, _ := browse(t, chromium, "step", srv.URL+step.target, 1280, 900, false)
		got := between(dom, `<span id="position">`, "</span>")
		if got != step.position {
			t.Errorf("%s: the page's position is %q, want %q", step.target, got, step.position)
			continue
		}
		pos, err := rules.ParsePosition(got)
		if err != nil {
			t.Fatal(err)
		}
		pieces, want := domPieces(dom), positionPieces(pos)
		if len(pieces) != len(want) {
			t.Errorf("%s: the DOM has %d pieces, the position %d", step.target, len(pieces), len(want))
		}
		for sq, l := range want {
			if pieces[sq] != l {
				t.Errorf("%s: the DOM shows %q on %s, the position %q", step.target, pieces[sq], sq, l)
			}
		}
	}

	pos, err := rules.ParsePosition("gmelecz/p1ppppp/1p5/7/1PP4/P2PPPP/GMELECZ b 2")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct {
		name          string
		width, height int
		dark          bool
	}{
		{"light-1280", 1280, 900, false},
		{"dark-1280", 1280, 900, true},
		{"light-375", 375, 900, false},
		{"dark-375", 375, 900, true},
	} {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			_, img := browse(t, chromium, "game2-"+m.name, srv.URL+"/games/2", m.width, m.height, m.dark)
			checkScreenshot(t, img, map[bool]scheme{false: light, true: darkScheme}[m.dark], pos, map[string]bool{"c2": true, "c3": true}, rules.White)
		})
	}
	// Black's view, as the link in a mail to Black opens it: the board
	// turned round, rank 1 on top and file g on the left, and its
	// pieces where they stand seen so; the link back to White's view.
	// In a forced dark mode (Chrome's auto dark mode, a mail app's
	// WebView) the page is darkened and the board keeps its colours:
	// its pieces as far apart as in the light.
	for _, m := range []struct {
		name          string
		width, height int
		mode          scheme
	}{
		{"black-light-375", 375, 900, light},
		{"black-dark-375", 375, 900, darkScheme},
		{"black-forced-375", 375, 900, forcedDark},
		{"black-light-1280", 1280, 900, light},
	} {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			dom, img := browseIn(t, chromium, "game2-"+m.name, srv.URL+"/games/2?side=black", m.width, m.height, m.mode)
			checkScreenshot(t, img, m.mode, pos, map[string]bool{"c2": true, "c3": true}, rules.Black)
			if !strings.Contains(dom, "See the board from White's side") {
				t.Errorf("Black's view offers not White's")
			}
		})
	}
}

// TestRatingChartInChromium: the chart of a player with a single rated
// game, on a phone and wide, light and dark, shows the rating across
// the plot, not as a tall bar at one day.
func TestRatingChartInChromium(t *testing.T) {
	chromium := chromiumOrSkip(t)
	w := oneGameWorld(t)
	srv := httptest.NewServer(w.handler(t))
	t.Cleanup(srv.Close)
	for _, m := range []struct {
		name  string
		width int
		mode  scheme
	}{{"chart-375", 375, light}, {"chart-375-dark", 375, darkScheme}, {"chart-375-forced", 375, forcedDark}, {"chart-1280", 1280, light}} {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			_, img := browseIn(t, chromium, m.name, srv.URL+"/players/alice", m.width, 900, m.mode)
			// The chart's blues (its band, line and dots, light or
			// dark): how far across the page they reach.
			b := img.Bounds()
			x0, x1 := b.Max.X, 0
			for y := b.Min.Y; y < b.Max.Y; y++ {
				for x := b.Min.X; x < b.Max.X; x++ {
					if c := rgba(img, x, y); int(c.B)-int(c.R) > 40 && c.B > 60 {
						x0, x1 = min(x0, x), max(x1, x)
					}
				}
			}
			plot := float64(min(m.width-32, 640)) * plotW / chartW
			if float64(x1-x0) < 0.9*plot {
				t.Errorf("the chart's blues span %d pixels (%d-%d), want the plot's %.0f: one game drawn as a bar", x1-x0, x0, x1, plot)
			}
		})
	}
}

// oneGameWorld is a database of two players and one rated game between
// them, alice's win: alice's chart has one point.
func oneGameWorld(t testing.TB) *world {
	t.Helper()
	w := &world{db: congotest.NewDB(t), players: map[string]db.Player{}}
	congotest.InTx(t, w.db, func(ctx context.Context, tx *db.Tx) error {
		for _, h := range []string{"alice", "bob"} {
			p, err := tx.AddPlayer(ctx, h, h+"@mail.example.net", "qz"+h+"7secret", t0)
			if err != nil {
				return err
			}
			if err := tx.SetConfirmed(ctx, p.ID); err != nil {
				return err
			}
			w.players[h] = p
		}
		st, _, err := game.Challenge(ctx, tx, game.Terms{White: w.players["alice"], Black: w.players["bob"], Challenger: w.players["alice"]}, at(1))
		if err != nil {
			return err
		}
		if _, err := game.Accept(ctx, tx, &st, w.players["bob"]); err != nil {
			return err
		}
		for i, m := range []string{"d2-e3", "d6-c5", "d1xd7"} {
			st, err := game.Load(ctx, tx, st.ID(), at(2+i))
			if err != nil {
				return err
			}
			if _, err := game.Move(ctx, tx, &st, st.ToMove(), m, 0, ""); err != nil {
				return err
			}
		}
		return nil
	})
	return w
}

// checkScreenshot checks a screenshot of a game page showing pos with the
// squares of the last move, marked, the board seen from side, in a
// scheme: in a forced dark mode the page is darkened but the board, an
// image, keeps its light colours.
func checkScreenshot(t *testing.T, img image.Image, mode scheme, pos rules.Position, marked map[string]bool, from rules.Color) {
	t.Helper()
	dark := mode != light
	b := img.Bounds()
	colours := map[color.RGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			colours[rgba(img, x, y)]++
		}
	}
	if len(colours) < 50 {
		t.Fatalf("the screenshot has %d colours: blank", len(colours))
	}
	bg := rgba(img, 2, b.Max.Y-2)
	if lum(bg) > 0.5 == dark {
		t.Errorf("the page's background is %v, want it %s", bg, map[bool]string{true: "dark", false: "light"}[dark])
	}
	// Nothing reaches the window's right edge (the page has a margin)
	// but the rules that cross the page, edge to edge.
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Max.X - 4; x < b.Max.X; x++ {
			if c := rgba(img, x, y); distance(c, bg) > 24 && distance(c, rgba(img, b.Min.X+1, y)) > 24 {
				t.Fatalf("pixel (%d,%d) = %v at the right edge, not the page's %v: the page is wider than the window", x, y, c, bg)
			}
		}
	}
	// The river: the board's fourth rank, across its width.
	river := color.RGBA{0x7f, 0xb8, 0xe6, 0xff}
	castle := color.RGBA{0xf0, 0xdf, 0xb4, 0xff}
	if mode == darkScheme {
		river, castle = color.RGBA{0x1f, 0x4e, 0x75, 0xff}, color.RGBA{0x4a, 0x3f, 0x27, 0xff}
	}
	x0, x1, y0, y1 := b.Max.X, 0, b.Max.Y, 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if distance(rgba(img, x, y), river) < 6 {
				x0, x1, y0, y1 = min(x0, x), max(x1, x), min(y0, y), max(y1, y)
			}
		}
	}
	side := float64(x1-x0+1) / 7
	if x1 <= x0 || side < 30 || math.Abs(float64(y1-y0+1)-side) > 3 {
		t.Fatalf("the river spans (%d,%d)-(%d,%d): want one rank, 7 squares of 30 pixels or more", x0, y0, x1, y1)
	}
	top := float64(y0) - 3*side
	if top < 0 || float64(y1)+3*side > float64(b.Max.Y) {
		t.Fatalf("the board (squares of %.0f pixels from y=%.0f) is not whole in the window", side, top)
	}
	at := func(sq rules.Square) (float64, float64) { // the centre of a square
		file, row := float64(sq.File()), 6-float64(sq.Rank())
		if from == rules.Black {
			file, row = 6-file, float64(sq.Rank())
		}
		return float64(x0) + (file+0.5)*side, top + (row+0.5)*side
	}
	c2, _ := rules.ParseSquare("c2")
	if cx, cy := at(c2); distance(rgba(img, int(cx), int(cy)), castle) > 6 {
		t.Errorf("c2 is %v, not a castle's %v", rgba(img, int(cx), int(cy)), castle)
	}
	// The pieces: every white one lighter than every black one, or
	// darker, far apart.
	var whites, blacks []float64
	for s := range rules.Square(49) {
		p := pos.At(s)
		if p == rules.NoPiece {
			continue
		}
		cx, cy := at(s)
		r := side / 4
		y := meanLum(img, int(cx-r), int(cy-r), int(cx+r), int(cy+r))
		if p.Color() == rules.White {
			whites = append(whites, y)
		} else {
			blacks = append(blacks, y)
		}
	}
	wlo, whi, blo, bhi := minMax(whites), maxOf(whites), minMax(blacks), maxOf(blacks)
	t.Logf("luminance of white pieces %.2f-%.2f, of black pieces %.2f-%.2f", wlo, whi, blo, bhi)
	if wlo-bhi < 0.3 {
		t.Errorf("white pieces have luminance %.2f-%.2f, black ones %.2f-%.2f: want them 0.3 apart", wlo, whi, blo, bhi)
	}
	// The last move: a gold ring just inside its squares' edges, seen
	// in their top left corner, where no piece reaches.
	gold := func(c color.RGBA) bool { return c.R > 0xc0 && c.G > 0x90 && c.G < 0xd8 && c.B < 0x50 }
	for s := range rules.Square(49) {
		cx, cy := at(s)
		corner := rgba(img, int(cx-side/2+side*3/60+0.5), int(cy-side/2+side*3/60+0.5))
		if gold(corner) != marked[s.String()] {
			t.Errorf("%s: the colour in its corner is %v: marked %v, want %v", s, corner, gold(corner), marked[s.String()])
		}
	}
}

func rgba(img image.Image, x, y int) color.RGBA {
	return color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
}

// lum is the luma of c (Rec. 709), from 0 for black to 1 for white.
func lum(c color.RGBA) float64 {
	return (0.2126*float64(c.R) + 0.7152*float64(c.G) + 0.0722*float64(c.B)) / 255
}

// meanLum is the mean luma of the pixels in [x0,x1) x [y0,y1).
func meanLum(img image.Image, x0, y0, x1, y1 int) float64 {
	var sum float64
	n := 0
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			sum += lum(rgba(img, x, y))
			n++
		}
	}
	return sum / float64(max(n, 1))
}

func distance(a, b color.RGBA) float64 {
	dr, dg, db := float64(a.R)-float64(b.R), float64(a.G)-float64(b.G), float64(a.B)-float64(b.B)
	return math.Sqrt(dr*dr + dg*dg + db*db)
}

func minMax(xs []float64) float64 {
	m := math.Inf(1)
	for _, x := range xs {
		m = min(m, x)
	}
	return m
}

func maxOf(xs []float64) float64 {
	m := math.Inf(-1)
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

// TestPagesInChromium loads the other pages in headless Chromium, wide
// and light, narrow and dark: each shows something, and nothing beyond
// the window's right edge.
func TestPagesInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPED under -short: the pages other than a game's in Chromium")
	}
	chromium := chromiumOrSkip(t)
	w := newWorld(t)
	srv := httptest.NewServer(w.handler(t))
	t.Cleanup(srv.Close)
	for _, p := range []struct{ name, target string }{
		{"home", "/"}, {"player", "/players/alice"}, {"tournament", "/tournaments/1"}, {"ratings", "/ratings"}, {"notfound", "/games/99"},
	} {
		for _, m := range []struct {
			width int
			dark  bool
		}{{1280, false}, {375, true}} {
			name := fmt.Sprintf("%s-%d-%s", p.name, m.width, map[bool]string{true: "dark", false: "light"}[m.dark])
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				checkPage(t, chromium, name, srv.URL+p.target, m.width, m.dark)
			})
		}
	}
}

// checkPage loads url in Chromium, width wide, and checks what every
// page must be: a footer, something shown, the background of the
// scheme, and nothing beyond the window's right edge. It returns the
// DOM and the screenshot.
func checkPage(t *testing.T, chromium, name, url string, width int, dark bool) (string, image.Image) {
	t.Helper()
	dom, img := browse(t, chromium, name, url, width, 900, dark)
	if !strings.Contains(dom, "</footer>") {
		t.Errorf("the DOM has no footer:\n%s", dom)
	}
	b := img.Bounds()
	colours := map[color.RGBA]bool{}
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			colours[rgba(img, x, y)] = true
		}
	}
	if len(colours) < 20 {
		t.Errorf("the screenshot has %d colours: blank", len(colours))
	}
	bg := rgba(img, 2, b.Max.Y-2)
	if lum(bg) > 0.5 == dark {
		t.Errorf("the background is %v in the %s scheme", bg, map[bool]string{true: "dark", false: "light"}[dark])
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Max.X - 4; x < b.Max.X; x++ {
			if c := rgba(img, x, y); distance(c, bg) > 24 && distance(c, rgba(img, b.Min.X+1, y)) > 24 {
				t.Fatalf("pixel (%d,%d) = %v at the right edge: the page is wider than the window", x, y, c)
			}
		}
	}
	return dom, img
}
