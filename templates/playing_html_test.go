package templates

import (
	"fmt"
	htmltemplate "html/template"
	"image"
	"math"
	"strings"
	"testing"

	"github.com/congobymail/congo/lang"
	"github.com/congobymail/congo/rules"
)

// tapLink is a one-tap move's link as Chromium reads it: its text, its
// address, the mailto: URI's address, Subject and body as
// decodeURIComponent gives them (RFC 6068), and its box.
type tapLink struct {
	Text, Href, To, Subject, Body string
	X, Y, W, H                    int
}

// tapsHarness is the harness of the board mails (harness), which also
// writes the mailto: links of the mail as the browser parses them
// (new URL, decodeURIComponent), and clicks the first, catching where
// the click goes.
const tapsHarness = `<!DOCTYPE html>
<html><head><meta charset="utf-8"></head><body style="margin:0">
<iframe id="mail" style="display:block;border:0;width:%dpx;height:%dpx;%s" srcdoc="%s"></iframe>
<script>
document.getElementById("mail").addEventListener("load", function () {
  var d = this.contentDocument, t = d.querySelector("table"), files = [];
  var out = {Width: this.contentWindow.innerWidth, Scroll: d.documentElement.scrollWidth, Squares: [], Links: [], Clicked: ""};
  for (var c = 1; t && c <= 7; c++) files.push(t.rows[0].cells[c].textContent);
  for (var r = 1; t && r <= 7; r++) {
    var row = t.rows[r], rank = row.cells[0].textContent;
    for (var c = 1; c <= 7; c++) {
      var td = row.cells[c], b = td.getBoundingClientRect(), p = td.querySelector("span");
      var q = p ? p.getBoundingClientRect() : {left: 0, top: 0, width: 0, height: 0};
      out.Squares.push({Name: files[c - 1] + rank, X: Math.round(b.left), Y: Math.round(b.top), W: Math.round(b.width), H: Math.round(b.height),
        Piece: p ? p.textContent : "", PX: Math.round(q.left), PY: Math.round(q.top), PW: Math.round(q.width), PH: Math.round(q.height)});
    }
  }
  var links = d.querySelectorAll('a[href^="mailto:"]');
  for (var i = 0; i < links.length; i++) {
    var a = links[i], u = new URL(a.href), b = a.getBoundingClientRect(), f = {};
    u.search.slice(1).split("&").forEach(function (kv) { var x = kv.split("="); f[x[0]] = decodeURIComponent(x[1]); });
    out.Links.push({Text: a.textContent, Href: a.href, To: decodeURIComponent(u.pathname), Subject: f.subject, Body: f.body,
      X: Math.round(b.left), Y: Math.round(b.top), W: Math.round(b.width), H: Math.round(b.height)});
  }
  d.addEventListener("click", function (e) { out.Clicked = e.target.closest("a").href; e.preventDefault(); }, true);
  if (links.length) links[0].click();
  var pre = document.createElement("pre");
  pre.id = "cg-layout";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>
</body></html>
`

// TestBoardHTMLTapsModes shows the board mail with one-tap moves (M71)
// in Chromium as mail clients show it: light, dark by its own scheme,
// forced dark (the Gmail app's), inverted, and on a phone 375 pixels
// wide, in English and in Japanese. In each: every legal move is a link
// whose mailto: address, Subject and body Chromium reads as the reply
// must be (RFC 6068, the Japanese Subject too), a click goes to it, the
// links read well against the page (contrast 3:1 or more) and are no
// smaller than a finger's tap needs, and nothing is wider than the
// window; the pieces and the last move read as in every board mail.
func TestBoardHTMLTapsModes(t *testing.T) {
	chromium := chromiumOrSkip(t)
	modes := []struct {
		name          string
		width, height int
		filter        string
		flags         []string
	}{
		{"light", 600, 1500, "", nil},
		{"dark", 600, 1500, "", []string{"--force-dark-mode"}},
		{"forced", 600, 1500, "", []string{"--enable-features=WebContentsForceDark"}},
		{"inverted", 600, 1500, "invert(1) hue-rotate(180deg)", nil},
		{"narrow", 375, 1900, "", nil},
	}
	for _, l := range []lang.Code{lang.English, lang.Japanese} {
		d, pos := tapsBoard(t)
		d.Lang, d.Game.SubjectLang = l, l
		subject, _, page, err := BoardMail(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range modes {
			if l != lang.English && m.name != "light" && m.name != "narrow" {
				continue
			}
			t.Run(string(l)+"/"+m.name, func(t *testing.T) {
				filter := ""
				if m.filter != "" {
					filter = "filter:" + m.filter
				}
				doc := fmt.Sprintf(tapsHarness, m.width, m.height, filter, htmltemplate.HTMLEscapeString(page))
				img, lay := shoot(t, chromium, "taps-"+string(l)+"-"+m.name, doc, m.width, m.height, m.flags...)
				if lay.Scroll > lay.Width {
					t.Errorf("the page is %d pixels wide in a window of %d: it scrolls sideways", lay.Scroll, lay.Width)
				}
				checkPieces(t, img, lay)
				checkLastMove(t, img, lay)
				checkTapLinks(t, img, lay, pos, "Re: "+subject)
			})
		}
	}
}

// checkTapLinks checks the links Chromium read (tapsHarness): one for
// each legal move in pos, each replying to the personal address with
// the Subject and the move's command; the first clicked; each big
// enough to tap and of a colour that stands out from the page.
func checkTapLinks(t *testing.T, img image.Image, l layout, pos rules.Position, subject string) {
	t.Helper()
	if len(l.Links) != len(pos.Legal()) {
		t.Fatalf("Chromium found %d mailto: links, want the %d legal moves", len(l.Links), len(pos.Legal()))
	}
	seen := map[string]bool{}
	for _, k := range l.Links {
		move, ok := strings.CutPrefix(k.Body, "move congo 42 ")
		move, ok2 := strings.CutSuffix(move, " #7")
		if m, err := pos.ParseMove(move); !ok || !ok2 || err != nil || m.String() != move {
			t.Errorf("link %q: body %q is no move congo 42 <move> #7 of a legal move", k.Text, k.Body)
		}
		seen[move] = true
		if k.To != personal || k.Subject != subject {
			t.Errorf("link %q goes to %q with Subject %q, want %q and %q", k.Text, k.To, k.Subject, personal, subject)
		}
		if !strings.HasSuffix(move, k.Text) {
			t.Errorf("link %q plays %s", k.Text, move)
		}
		// Big enough for a finger: the link's text with its padding.
		if k.H < 24 || k.W < 20 {
			t.Errorf("link %q is %dx%d pixels, too small to tap", k.Text, k.W, k.H)
		}
	}
	if len(seen) != len(pos.Legal()) {
		t.Errorf("%d moves linked, want %d", len(seen), len(pos.Legal()))
	}
	if l.Clicked != l.Links[0].Href {
		t.Errorf("a click on the first link went to %q, want %q", l.Clicked, l.Links[0].Href)
	}
	// Contrast, WCAG's: the lightest and the darkest pixel of each link's
	// text box, its padding left out.
	worst := math.Inf(1)
	b := img.Bounds()
	for _, k := range l.Links {
		lo, hi := 1.0, 0.0
		for y := k.Y + 7; y < k.Y+k.H-7 && y < b.Max.Y; y++ {
			for x := k.X + 4; x < k.X+k.W-4 && x < b.Max.X; x++ {
				v := relativeLuminance(rgba(img, x, y))
				lo, hi = min(lo, v), max(hi, v)
			}
		}
		if hi < lo {
			continue
		}
		worst = min(worst, (hi+0.05)/(lo+0.05))
	}
	t.Logf("the least contrast of a link's text: %.1f:1", worst)
	if worst < 3 {
		t.Errorf("a link's text has a contrast of %.1f:1 with its page, want 3:1 or more", worst)
	}
}

// relativeLuminance is WCAG's relative luminance of an sRGB colour.
func relativeLuminance(c interface{ RGBA() (r, g, b, a uint32) }) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		s := float64(v) / 0xffff
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// TestPreviewHTMLModes shows the answer to preview (M70) in Chromium:
// light, forced dark and 375 pixels wide; its board reads as every
// board mail's, and it has no one-tap moves.
func TestPreviewHTMLModes(t *testing.T) {
	chromium := chromiumOrSkip(t)
	after, effs := previewed(t, "gmelecz/ppppppp/7/7/1P5/P1PPPPP/GMELECZ b 1", "c6-c5", "c2-c3", "d6-d5")
	var moves []Move
	for i, e := range effs {
		moves = append(moves, MoveOf([]string{"bob", "alice"}[i%2], e))
	}
	g := playing
	g.MoveNumber, g.ToMove = after.MoveNumber(), "alice"
	_, _, page, err := PreviewMail(PreviewData{Game: playing, To: "bob", Moves: moves, After: g,
		Board: ViewOf(after, rules.Black).WithLast(effs[2].Move), First: "c6-c5"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(page, "mailto:") {
		t.Errorf("the preview has one-tap moves")
	}
	if !strings.Contains(page, "<p>Preview: nothing was played.</p>") {
		t.Errorf("the preview's HTML part does not begin with its first line")
	}
	for _, m := range []struct {
		name          string
		width, height int
		flags         []string
	}{
		{"light", 600, 1100, nil},
		{"forced", 600, 1100, []string{"--enable-features=WebContentsForceDark"}},
		{"narrow", 375, 1300, nil},
	} {
		t.Run(m.name, func(t *testing.T) {
			img, l := browse(t, chromium, "preview-"+m.name, page, m.width, m.height, "", m.flags...)
			if l.Scroll > l.Width {
				t.Errorf("the page is %d pixels wide in a window of %d: it scrolls sideways", l.Scroll, l.Width)
			}
			checkPieces(t, img, l)
		})
	}
}
