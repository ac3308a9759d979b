package templates

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	htmltemplate "html/template"
	"image"
	"image/color"
	_ "image/png" // screenshots
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/lang"
	"github.com/congobymail/congo/rules"
)

// viewWithRows is view with its squares filled in from its diagram, as
// the server fills them from the position.
func viewWithRows() View {
	v := view
	lines := strings.Split(strings.TrimRight(v.Diagram, "\n"), "\n")
	v.Files = strings.Fields(lines[0])
	for _, l := range lines[1 : len(lines)-1] {
		row := Row{Rank: int(l[0] - '0')}
		squares := strings.Fields(strings.ReplaceAll(l[3:18], "|", " "))
		for file, sq := range squares {
			c := Cell{River: row.Rank == 4, Castle: file >= 2 && file <= 4 && row.Rank != 4}
			if sq != "." && sq != "~" {
				c.Piece, c.White = sq, strings.ToUpper(sq) == sq
			}
			row.Cells = append(row.Cells, c)
		}
		v.Rows = append(v.Rows, row)
	}
	return v
}

// htmlBoard is the board mail whose HTML part is checked.
func htmlBoard() BoardData {
	g := playing
	g.WhiteRating, g.BlackRating, g.TimeControl = 1532, 1468, "days=3"
	g.Clocks = &Clocks{White: Clock{Left: 3 * 24 * time.Hour}, Black: Clock{Left: 52 * time.Hour}}
	return BoardData{Game: g, To: "bob", Board: viewWithRows(), Message: &Message{By: "alice", Text: "Your move <3"},
		Moves: []Move{{By: "alice", Notation: "b2-b3", Piece: "pawn", To: "b3"}}}
}

func TestBoardHTMLGolden(t *testing.T) {
	t.Parallel()
	_, _, got, err := BoardMail(htmlBoard())
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "board_html", got)
	for _, l := range lang.All[1:] {
		d := htmlBoard()
		d.Lang = l
		_, _, page, err := BoardMail(d)
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, goldenName("board_html", l), page)
		if !strings.Contains(page, `<html lang="`+string(l)+`">`) {
			t.Errorf("BoardMail() in %s has no lang %q", l, l)
		}
	}
	for _, want := range []string{"<table", "#7fb8e6", "Your move &lt;3", "Position: gmelecz/", "alice: 2 days", "bob: 2 days 4 hours left"} {
		if !strings.Contains(got, want) && !strings.Contains(got, strings.ReplaceAll(want, "alice: 2 days", "alice: 3 days")) {
			t.Errorf("BoardMail() HTML lacks %q", want)
		}
	}
	if n := strings.Count(got, "<td style=\"width:40px;height:40px"); n != 49 {
		t.Errorf("BoardMail() HTML has %d squares, want 49", n)
	}
}

func TestBoardHTMLLastMoveGolden(t *testing.T) {
	t.Parallel()
	_, _, got, err := BoardMail(lastMoveBoard(t))
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "board_html_last", got)
	for _, l := range lang.All[1:] {
		d := lastMoveBoard(t)
		d.Lang = l
		_, _, page, err := BoardMail(d)
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, goldenName("board_html_last", l), page)
	}
	if n := strings.Count(got, `class="cg-last"`); n != len(lastSquares) {
		t.Errorf("BoardMail() HTML marks %d squares, want the %d of c3xe5xc7", n, len(lastSquares))
	}
	if !strings.Contains(got, "the squares of the last move\nhave a gold ring") {
		t.Errorf("BoardMail() HTML's key does not tell the last move's ring")
	}
}

func TestDigestHTMLGolden(t *testing.T) {
	t.Parallel()
	d := htmlBoard()
	other := d.Game
	other.ID = 43
	got, err := DigestHTML(DigestData{To: "bob", Games: []DigestGame{{Game: d.Game, Board: d.Board}, {Game: other, Board: d.Board}}})
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "digest_html", got)
	for _, l := range lang.All[1:] {
		page, err := DigestHTML(DigestData{Lang: l, To: "bob", Games: []DigestGame{{Game: d.Game, Board: d.Board}, {Game: other, Board: d.Board}}})
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, goldenName("digest_html", l), page)
		if strings.Count(page, "<table") != 2 {
			t.Errorf("DigestHTML() in %s has %d tables, want 2", l, strings.Count(page, "<table"))
		}
	}
	if n := strings.Count(got, "<table"); n != 2 {
		t.Errorf("DigestHTML() of two games has %d tables, want 2", n)
	}
	if strings.Contains(got, "g m|e l e|c z") {
		t.Errorf("DigestHTML() shows an ASCII diagram")
	}
}

// TestBoardHTMLWebPage checks that the HTML part links the game's page
// (M43), and only the server's line: a player's words naming an address
// stay words.
func TestBoardHTMLWebPage(t *testing.T) {
	t.Parallel()
	d := htmlBoard()
	d.Page = "https://congo.example.org/games/42"
	d.Message = &Message{By: "alice", Text: "See the game on the web: https://evil.example/games/42"}
	_, text, got, err := BoardMail(d)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "board_html_web_page", got)
	if !strings.Contains(text, "\nSee the game on the web: https://congo.example.org/games/42\n") {
		t.Errorf("the text part does not name the game's page:\n%s", text)
	}
	link := `See the game on the web: <a href="https://congo.example.org/games/42">https://congo.example.org/games/42</a>`
	if strings.Count(got, link) != 1 || strings.Count(got, "<a ") != 1 {
		t.Errorf("the HTML part has not the one link %q:\n%s", link, got)
	}
	dg := DigestData{To: "bob", Games: []DigestGame{{Game: d.Game, Board: d.Board, Page: d.Page}}}
	digest, err := DigestHTML(dg)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(digest, link) != 1 {
		t.Errorf("the digest's HTML part does not link the game's page:\n%s", digest)
	}
	// In every language, the line in its words, and its address a link.
	anchor := `<a href="https://congo.example.org/games/42">https://congo.example.org/games/42</a>`
	for _, l := range lang.All {
		d.Lang, dg.Lang = l, l
		_, text, got, err := BoardMail(d)
		if err != nil {
			t.Fatal(err)
		}
		line, err := tongueOf(l).execute("web_page", d.Page)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text, "\n"+line) {
			t.Errorf("%s: the text part does not say %q:\n%s", l, line, text)
		}
		if strings.Count(got, anchor) != 1 || strings.Count(got, "<a ") != 1 {
			t.Errorf("%s: the HTML part has not the one link %q:\n%s", l, anchor, got)
		}
		digest, err := DigestHTML(dg)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Count(digest, anchor) != 1 {
			t.Errorf("%s: the digest's HTML part does not link the game's page:\n%s", l, digest)
		}
	}
}

// TestBoardHTMLRendering renders the HTML part in headless Chromium and
// checks the screenshot: its size, the river shaded across the board,
// the castles, and the white page around it.
func TestBoardHTMLRendering(t *testing.T) {
	chromium := chromiumOrSkip(t)
	_, _, page, err := BoardMail(htmlBoard())
	if err != nil {
		t.Fatal(err)
	}
	img, _ := browse(t, chromium, "board", page, 600, 900, "")
	if b := img.Bounds(); b.Dx() != 600 || b.Dy() != 900 {
		t.Fatalf("screenshot is %dx%d, want 600x900", b.Dx(), b.Dy())
	}
	river := color.RGBA{0x7f, 0xb8, 0xe6, 0xff}
	castle := color.RGBA{0xf0, 0xdf, 0xb4, 0xff}
	counts := map[color.RGBA]int{}
	riverRows := map[int]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := rgba(img, x, y)
			counts[c]++
			if c == river {
				riverRows[y] = true
			}
		}
	}
	// The river: seven squares of about 38x38 pixels, one band of rows.
	if n := counts[river]; n < 7*30*30 || n > 7*42*42 {
		t.Errorf("river pixels = %d, want about %d", n, 7*38*38)
	}
	if n := len(riverRows); n < 30 || n > 42 {
		t.Errorf("the river spans %d pixel rows, want one rank of about 38", n)
	}
	// The castles: 18 squares, part of them under pieces.
	if n := counts[castle]; n < 18*15*15 {
		t.Errorf("castle pixels = %d, want at least %d", n, 18*15*15)
	}
	if c := rgba(img, 2, 2); c != (color.RGBA{0xff, 0xff, 0xff, 0xff}) {
		t.Errorf("pixel (2,2) = %v, want the white page", c)
	}
}

// lastMoveBoard is the board mail to bob, black and to move, just after
// alice's monkey took two pawns in a chain, c3xe5xc7: pieces of both
// sides with both lions, the chain's three squares marked, and bob's pawn
// on b4 in the river.
func lastMoveBoard(t testing.TB) BoardData {
	t.Helper()
	before, err := rules.ParsePosition("gm1lecz/p2p1pp/2p4/1p1p2c/2M4/PP1PEPP/G1EL1CZ w 7")
	if err != nil {
		t.Fatal(err)
	}
	after, eff, err := before.Play("c3xe5xc7")
	if err != nil {
		t.Fatal(err)
	}
	d := htmlBoard()
	d.Game.MoveNumber = after.MoveNumber()
	m := MoveOf("alice", eff)
	d.Moves = []Move{m}
	d.Board = ViewOf(after, rules.Black).WithLast(eff.Move)
	d.Drowning = DrowningOf(after)
	return d
}

// lastSquares are the squares lastMoveBoard marks.
var lastSquares = map[string]bool{"c3": true, "e5": true, "c7": true}

// TestBoardHTMLModes renders a board mail with a last move in the ways
// mail clients show it: light; dark, by the page's own dark scheme, as
// clients that honour prefers-color-scheme show it; forced dark, by
// Chromium's own darkening of the light scheme, which the Gmail app for
// Android uses (its WebView's "algorithmic darkening"); and on a phone
// 375 pixels wide, light and forced dark. In each it checks from the
// pixels that the two sides' pieces differ in brightness by a quarter of
// the scale at least, that the last move's squares are marked,
// and that the page is no wider than the window.
func TestBoardHTMLModes(t *testing.T) {
	chromium := chromiumOrSkip(t)
	d := lastMoveBoard(t)
	// A player's words with a long address in them, which must wrap on a
	// phone like everything else.
	d.Message = &Message{By: "alice", Text: "Your move <3 The rules I follow: https://example.org/congo/rules/of/the/game/as/published/in/1982.html"}
	_, _, page, err := BoardMail(d)
	if err != nil {
		t.Fatal(err)
	}
	modes := []struct {
		name          string
		width, height int
		filter        string // on the mail's frame
		flags         []string
	}{
		{"light", 600, 1100, "", nil},
		// --force-dark-mode makes prefers-color-scheme dark. (This
		// Chromium takes no --force-prefers-color-scheme.)
		{"dark", 600, 1100, "", []string{"--force-dark-mode"}},
		// WebContentsForceDark darkens the page itself, as Android's
		// WebView does for the Gmail app; --force-dark-mode alone only
		// changes the media query.
		{"forced", 600, 1100, "", []string{"--enable-features=WebContentsForceDark"}},
		// The Gmail app for iOS and Outlook for Windows invert every
		// colour, dark ones too.
		{"inverted", 600, 1100, "invert(1) hue-rotate(180deg)", nil},
		{"narrow", 375, 1300, "", nil},
		// A phone in forced dark mode: the Gmail app for Android at its
		// width.
		{"forced narrow", 375, 1300, "", []string{"--enable-features=WebContentsForceDark"}},
	}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			img, l := browse(t, chromium, m.name, page, m.width, m.height, m.filter, m.flags...)
			if l.Scroll > l.Width {
				t.Errorf("the page is %d pixels wide in a window of %d: it scrolls sideways", l.Scroll, l.Width)
			}
			// Nothing reaches into the page's right margin.
			bg := rgba(img, 2, 2)
			for x := m.width - 8; x < m.width; x++ {
				for y := 0; y < m.height; y++ {
					if c := rgba(img, x, y); distance(c, bg) > 24 {
						t.Errorf("pixel (%d,%d) = %v in the right margin, not the page's %v", x, y, c, bg)
						x, y = m.width, m.height
					}
				}
			}
			checkPieces(t, img, l)
			checkLastMove(t, img, l)
		})
	}
}

// checkPieces checks that white and black pieces differ in brightness,
// every white one from every black one: the mean luminance of a piece's
// box, ring and letter included, sampled where the layout says the
// pieces are. Which side is the lighter depends on the mode.
func checkPieces(t *testing.T, img image.Image, l layout) {
	t.Helper()
	type side struct{ lo, hi float64 } // the range of the side's pieces
	sides := map[bool]*side{true: {lo: 1}, false: {lo: 1}}
	count := map[bool]int{}
	for _, sq := range l.Squares {
		if sq.Piece == "" {
			continue
		}
		y := meanLuminance(img, sq.PX+1, sq.PY+1, sq.PX+sq.PW-1, sq.PY+sq.PH-1)
		s := sides[strings.ToUpper(sq.Piece) == sq.Piece]
		s.lo, s.hi = min(s.lo, y), max(s.hi, y)
		count[strings.ToUpper(sq.Piece) == sq.Piece]++
	}
	if count[true] < 8 || count[false] < 8 {
		t.Fatalf("found %d white and %d black pieces, want at least 8 of each", count[true], count[false])
	}
	// On a scale from 0, black, to 1, white. In a forced dark mode the
	// white pieces' discs turn dark and the black pieces' dark edges
	// light: the sides must still differ by a quarter of the scale,
	// not by their shape alone.
	const margin = 0.25
	w, b := sides[true], sides[false]
	t.Logf("luminance of white pieces %.2f-%.2f, of black pieces %.2f-%.2f", w.lo, w.hi, b.lo, b.hi)
	if w.lo-b.hi < margin && b.lo-w.hi < margin {
		t.Errorf("white pieces have luminance %.2f-%.2f, black ones %.2f-%.2f: want the ranges %.2f apart", w.lo, w.hi, b.lo, b.hi, margin)
	}
}

// checkLastMove checks that the last move's squares, and no others, are
// marked: the colour just inside a square's edge, above its piece, is
// far from that of every unmarked square.
func checkLastMove(t *testing.T, img image.Image, l layout) {
	t.Helper()
	edge := map[string]color.RGBA{}
	for _, sq := range l.Squares {
		edge[sq.Name] = meanColour(img, sq.X+6, sq.Y+2, sq.X+sq.W-6, sq.Y+3)
	}
	if len(edge) != 49 {
		t.Fatalf("found %d squares, want 49", len(edge))
	}
	for m := range lastSquares {
		for u, c := range edge {
			if lastSquares[u] {
				continue
			}
			if d := distance(edge[m], c); d < 60 {
				t.Errorf("last move's square %s (%v) looks like unmarked %s (%v): distance %.0f, want 60 or more", m, edge[m], u, c, d)
			}
		}
	}
}

// chromiumOrSkip returns the path of headless Chromium, or skips the test
// saying why.
func chromiumOrSkip(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "/usr/bin/chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("SKIPPED: Chromium is not installed, so the HTML part's rendering is not checked (install chromium; .ci/run does)")
	return ""
}

var shots = flag.String("shots", "", "also write the Chromium screenshots of the HTML tests to this directory, to look at them")

// layout is where the browser put a board's squares and pieces, in
// pixels of the screenshot, and how wide the mail is.
type layout struct {
	Width  int // of the mail's window
	Scroll int // of the mail: wider than its window, it scrolls sideways
	// Text is the height, in pixels as shown, of the smallest text of
	// the mail's SVG images (pageHarness); 0 when they have none.
	Text float64
	// Links and Clicked are the one-tap moves' links as the browser
	// reads them, and the address a click on the first went to
	// (tapsHarness); none for the other harnesses.
	Links   []tapLink
	Clicked string
	Squares []struct {
		Name           string // "c3"
		X, Y, W, H     int    // the square
		Piece          string // its letter, "" for none
		PX, PY, PW, PH int    // the piece's box
	}
}

// harness shows a mail in a frame of a given size at the top left of
// the window, as webmail does, and when it has loaded writes the layout
// of its first board (if its first table is one) below the frame, in #cg-layout, for --dump-dom.
// The frame is needed for phone widths: headless Chromium's window is
// at least 500 pixels wide while the page loads.
const harness = `<!DOCTYPE html>
<html><head><meta charset="utf-8"></head><body style="margin:0">
<iframe id="mail" style="display:block;border:0;width:%dpx;height:%dpx;%s" srcdoc="%s"></iframe>
<script>
document.getElementById("mail").addEventListener("load", function () {
  var d = this.contentDocument, t = d.querySelector("table"), files = [];
  var out = {Width: this.contentWindow.innerWidth, Scroll: d.documentElement.scrollWidth, Squares: []};
  var board = t && !t.querySelector("th"); // a figure's table has headings
  for (var c = 1; board && c <= 7; c++) files.push(t.rows[0].cells[c].textContent);
  for (var r = 1; board && r <= 7; r++) {
    var row = t.rows[r], rank = row.cells[0].textContent;
    for (var c = 1; c <= 7; c++) {
      var td = row.cells[c], b = td.getBoundingClientRect(), p = td.querySelector("span");
      var q = p ? p.getBoundingClientRect() : {left: 0, top: 0, width: 0, height: 0};
      out.Squares.push({Name: files[c - 1] + rank, X: Math.round(b.left), Y: Math.round(b.top), W: Math.round(b.width), H: Math.round(b.height),
        Piece: p ? p.textContent : "", PX: Math.round(q.left), PY: Math.round(q.top), PW: Math.round(q.width), PH: Math.round(q.height)});
    }
  }
  var pre = document.createElement("pre");
  pre.id = "cg-layout";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>
</body></html>
`

// browse shows page in headless Chromium, with the flags, in a frame of
// width x height in a window at least 600 pixels wide, with the CSS
// filter on the frame (none when ""), and returns the
// screenshot of the window and the layout of the page's first board. The
// screenshot is kept as name.png in the test's temporary directory, and
// in -shots.
func browse(t *testing.T, chromium, name, page string, width, height int, filter string, flags ...string) (image.Image, layout) {
	t.Helper()
	if filter != "" {
		filter = "filter:" + filter
	}
	return shoot(t, chromium, name, fmt.Sprintf(harness, width, height, filter, htmltemplate.HTMLEscapeString(page)), width, height, flags...)
}

// shoot opens doc, a harness holding a page, in headless Chromium with
// the flags, in a window of height and at least 600 pixels wide, and
// returns the screenshot and the layout the harness wrote into the DOM.
// The screenshot is kept as name.png in the test's temporary directory,
// and in -shots.
func shoot(t *testing.T, chromium, name, doc string, width, height int, flags ...string) (image.Image, layout) {
	t.Helper()
	dir := t.TempDir()
	file, shot := filepath.Join(dir, name+".html"), filepath.Join(dir, name+".png")
	if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--user-data-dir=" + filepath.Join(dir, "profile"), fmt.Sprintf("--window-size=%d,%d", max(width, 600), height),
		"--screenshot=" + shot, "--dump-dom"}, flags...)
	cmd := exec.CommandContext(ctx, chromium, append(args, "file://"+file)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, stderr.String())
	}
	_, js, ok := strings.Cut(string(dom), `<pre id="cg-layout">`)
	js, _, _ = strings.Cut(js, "</pre>")
	var l layout
	if err := json.Unmarshal([]byte(js), &l); !ok || err != nil {
		t.Fatalf("no layout in Chromium's DOM (%v):\n%s", err, dom)
	}
	data, err := os.ReadFile(shot)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", shot)
	if *shots != "" {
		if err := os.WriteFile(filepath.Join(*shots, strings.ReplaceAll(t.Name(), "/", "_")+".png"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return img, l
}

func rgba(img image.Image, x, y int) color.RGBA {
	return color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
}

// meanColour is the mean colour of the pixels in [x0,x1) x [y0,y1).
func meanColour(img image.Image, x0, y0, x1, y1 int) color.RGBA {
	var r, g, b, n int
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			c := rgba(img, x, y)
			r, g, b, n = r+int(c.R), g+int(c.G), b+int(c.B), n+1
		}
	}
	if n == 0 {
		return color.RGBA{}
	}
	return color.RGBA{uint8(r / n), uint8(g / n), uint8(b / n), 0xff}
}

// meanLuminance is the mean luma (Rec. 709 weights) of the pixels in
// [x0,x1) x [y0,y1), from 0 for black to 1 for white.
func meanLuminance(img image.Image, x0, y0, x1, y1 int) float64 {
	var sum float64
	n := 0
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			c := rgba(img, x, y)
			sum += (0.2126*float64(c.R) + 0.7152*float64(c.G) + 0.0722*float64(c.B)) / 255
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// distance is how far apart two colours are, in RGB.
func distance(a, b color.RGBA) float64 {
	dr, dg, db := float64(a.R)-float64(b.R), float64(a.G)-float64(b.G), float64(a.B)-float64(b.B)
	return math.Sqrt(dr*dr + dg*dg + db*db)
}

func TestParagraphs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want [][]string
	}{
		{"", nil},
		{"one line", [][]string{{"one line"}}},
		// Prose that tidy wrapped is one line again, for the client to wrap.
		{"It is your move: reply to this mail with it, written like\nb6-b5 or c5xd4.",
			[][]string{{"It is your move: reply to this mail with it, written like b6-b5 or c5xd4."}}},
		{"first\nparagraph\n\n\nsecond", [][]string{{"first paragraph"}, {"second"}}},
		// Indented lines (clocks, commands, players' words) and quotes keep their lines.
		{"Time left (days=3):\n  alice: 3 days left\n  bob: 2 days left", [][]string{{"Time left (days=3):", "alice: 3 days left", "bob: 2 days left"}}},
		{"alice says:\n  Good luck!\n  See you.\nThe game goes on\nas before.",
			[][]string{{"alice says:", "Good luck!", "See you.", "The game goes on as before."}}},
		{"> move congo 42 b2-b5\nThat move is not\nlegal.", [][]string{{"> move congo 42 b2-b5", "That move is not legal."}}},
		// The Position line is for tools: never joined to prose.
		{"Position: 7/7/7/7/7/7/7 w 1\nTime left (days=3):", [][]string{{"Position: 7/7/7/7/7/7/7 w 1", "Time left (days=3):"}}},
	}
	for _, tt := range tests {
		if got := paragraphs(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("paragraphs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestBoardHTMLProseReflows checks that the HTML part breaks no prose
// line: a <br> stands only before or after a line that the text part
// indents or quotes, or the Position line.
func TestBoardHTMLProseReflows(t *testing.T) {
	t.Parallel()
	_, text, page, err := BoardMail(htmlBoard())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page, `It is your move: reply to this mail with it, written like <span style="white-space:nowrap">b6-b5</span>`) {
		t.Errorf("BoardMail() HTML keeps the text part's line breaks in prose, or breaks moves:\n%s", page)
	}
	kept := map[string]bool{}
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, " ") || strings.HasPrefix(l, ">") || strings.HasPrefix(l, "Position: ") {
			kept[htmltemplate.HTMLEscapeString(strings.TrimSpace(l))] = true
		}
	}
	tag := regexp.MustCompile(`<[^>]*>`)
	for _, p := range regexp.MustCompile(`(?s)<p[^>]*>(.*?)</p>`).FindAllStringSubmatch(page, -1) {
		lines := strings.Split(p[1], "<br>\n")
		for i := 1; i < len(lines); i++ {
			before, after := tag.ReplaceAllString(lines[i-1], ""), tag.ReplaceAllString(lines[i], "")
			if !kept[before] && !kept[after] {
				t.Errorf("BoardMail() HTML breaks prose between %q and %q", before, after)
			}
		}
	}
}
