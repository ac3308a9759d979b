package templates

import (
	"context"
	"fmt"
	"html"
	htmltemplate "html/template"
	"image"
	"image/color"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/analysis"
	"github.com/congobymail/congo/lang"
	"github.com/congobymail/congo/rules"
)

// analysed is the analysis mail of a short game, made by hand: alice,
// white, misses a win and then wins; bob loses half a pawn, then a pawn,
// then his lion. Its graph is a stand-in, not the analysis package's.
func analysed() AnalysisData {
	won := Game{ID: 42, White: "alice", Black: "bob", State: Won, Winner: "alice", Reason: rules.LionCaptured}
	return AnalysisData{
		Game:  won,
		To:    "bob",
		Nodes: 200000,
		Rows: []AnalysisRow{
			{Number: 1, White: &AnalyzedMove{Label: "1. d2-e3", Move: "d2-e3", Eval: "+0.06"},
				Black: &AnalyzedMove{Label: "1... a6-a5", Move: "a6-a5", Mark: "?!", Eval: "+0.61", Loss: "0.55",
					Better: "e6-d5", BetterEval: "+0.06", Line: "a2-b3 a7-c5 c2-d3 b6-a5 g1-f3"}},
			{Number: 2, White: &AnalyzedMove{Label: "2. a2-a3", Move: "a2-a3", Eval: "+0.40"},
				Black: &AnalyzedMove{Label: "2... d6-c5", Move: "d6-c5", Mark: "??", Eval: "+lion in 1", Note: "lion lost", Loss: "9.60",
					Better: "e6-d5", BetterEval: "+0.40", Line: "c2-d3 b6-b5"}},
			{Number: 3, White: &AnalyzedMove{Label: "3. e3-d4", Move: "e3-d4", Mark: "??", Eval: "+1.10", Note: "missed win", Loss: "8.90",
				Better: "d1xd7", BetterEval: "+lion in 1"},
				Black: &AnalyzedMove{Label: "3... c7-c6", Move: "c7-c6", Mark: "?", Eval: "+lion in 1", Loss: "1.20",
					Better: "e6-e5", BetterEval: "+1.10", Line: "d4xe5 d7-d6"}},
			{Number: 4, White: &AnalyzedMove{Label: "4. d1xd7", Move: "d1xd7", Eval: "1-0"}},
		},
		White: AnalysisSummary{Handle: "alice", Moves: 4, Blunders: 1, AverageLoss: "2.22"},
		Black: AnalysisSummary{Handle: "bob", Moves: 3, Inaccuracies: 1, Mistakes: 1, Blunders: 1, AverageLoss: "3.78"},
		Graph: []GraphLine{{Number: 1, Marks: "▅▆▆██▇█"}},
		SVG:   `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="160" viewBox="0 0 600 160"><rect width="600" height="160"/></svg>` + "\n",
		Record: "[Event \"Congo game 42\"]\n[Result \"1-0\"]\n\n1. d2-e3 a6-a5?! {better e6-d5 a2-b3 (+0.06)} 2. a2-a3 d6-c5??\n" +
			"{lion lost: better e6-d5 c2-d3 (+0.40)} 3. e3-d4?? {missed win: better\nd1xd7 (+lion in 1)} c7-c6? {better e6-e5 d4xe5 (+1.10)} 4. d1xd7 1-0",
	}
}

func TestAnalysisGolden(t *testing.T) {
	t.Parallel()
	observer := analysed()
	observer.To = "carol"
	aborted := Game{ID: 43, White: "alice", Black: "bob", State: Aborted, Reason: rules.Aborted}
	declined := Game{ID: 44, White: "alice", Black: "bob", State: Declined}
	until := time.Date(2025, 3, 2, 9, 30, 0, 0, time.UTC)
	tests := []struct {
		name   string
		render func(l lang.Code) (string, string, error)
	}{
		{"analysis", func(l lang.Code) (string, string, error) {
			d := analysed()
			d.Lang = l
			s, b, _, err := Analysis(d)
			return s, b, err
		}},
		{"analysis_observer", func(l lang.Code) (string, string, error) {
			d := observer
			d.Lang = l
			s, b, _, err := Analysis(d)
			return s, b, err
		}},
		{"analysis_tables", func(l lang.Code) (string, string, error) {
			// The last positions from the endgame tables (M77).
			d := analysed()
			d.Lang, d.Tables = l, true
			d.Rows[2].Black.Eval = "+lion in 1*"
			d.Rows[2].White.BetterEval = "+lion in 1*"
			s, b, _, err := Analysis(d)
			return s, b, err
		}},
		{"analysis_failed", func(l lang.Code) (string, string, error) { return AnalysisFailure(l, analysed().Game) }},
		{"reply_analysis", func(l lang.Code) (string, string, error) {
			return Reply(ReplyData{Lang: l, Subject: "analysis", Sections: []Section{
				AnalysisQueued{GameID: 42},
				AnalysisQueued{GameID: 43, Ahead: 1},
				AnalysisQueued{GameID: 44, Ahead: 3, Again: true},
				AnalysisRefused{Line: "analyze congo 45", GameID: 45, Why: NotFinished, Game: &playing},
				AnalysisRefused{Line: "analyze congo 46", GameID: 46, Why: NotFinished, Game: &Game{ID: 46, State: Challenged}},
				AnalysisRefused{Line: "analyse 43", GameID: 43, Why: NoMovesToAnalyze, Game: &aborted},
				AnalysisRefused{Line: "analyse 44", GameID: 44, Why: NoMovesToAnalyze, Game: &declined},
				AnalysisRefused{Line: "analyze congo 47", GameID: 47, Why: NoMovesToAnalyze, Game: &Game{ID: 47, State: Won}},
				AnalysisRefused{Line: "analyze congo 48", GameID: 48, Why: TooManyAnalyses, Limit: 5, Until: until},
			}})
		}},
	}
	for _, tt := range tests {
		for _, l := range lang.All {
			name := goldenName(tt.name, l)
			t.Run(name, func(t *testing.T) {
				subject, body, err := tt.render(l)
				if err != nil {
					t.Fatalf("render: %v", err)
				}
				checkGolden(t, name, mail{subject, body}.String())
				checkMailText(t, l, subject, body)
				for i, line := range strings.Split(body, "\n") {
					if n := columns(line); n > 72 {
						t.Errorf("line %d is %d columns wide, more than 72: %q", i+1, n, line)
					}
				}
			})
		}
	}
}

func TestAnalysisHTMLGolden(t *testing.T) {
	t.Parallel()
	subject, text, got, err := Analysis(analysed())
	if err != nil {
		t.Fatal(err)
	}
	if subject != "Re: Congo game 42: alice vs bob" {
		t.Errorf("Analysis() subject = %q, want the game's, answered (M22)", subject)
	}
	checkGolden(t, "analysis_html", got)
	for _, l := range lang.All[1:] {
		d := analysed()
		d.Lang = l
		_, _, page, err := Analysis(d)
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, goldenName("analysis_html", l), page)
	}
	for _, want := range []string{`<svg xmlns="http://www.w3.org/2000/svg" width="100%" style="display:block;max-width:600px;height:auto"`,
		"missed win", "lion lost", "lost 0.55 pawns", "you (black)", "▅▆▆██▇█", "[Event &#34;Congo game 42&#34;]", "d1xd7 1-0"} {
		if !strings.Contains(got, want) {
			t.Errorf("Analysis() HTML lacks %q", want)
		}
	}
	// The words of the text's first paragraphs are the HTML's too.
	intro, _, _ := strings.Cut(text, "\n\n")
	if first := strings.Join(strings.Fields(intro), " "); !strings.Contains(html.UnescapeString(got), first) {
		t.Errorf("Analysis() HTML lacks the text's first paragraph %q", first)
	}
}

// realAnalysis is the mail of an analysis made by the analysis package,
// of a game with a lost lion and a missed win.
func realAnalysis(t *testing.T) AnalysisData {
	t.Helper()
	p := rules.Start()
	var moves []rules.Move
	for _, text := range strings.Fields("d2-e3 d6-c5 e3-e4 a6-a5 d1xd7") {
		m, err := p.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		moves, p = append(moves, m), p.After(m)
	}
	a, err := analysis.Analyze(context.Background(), moves, analysis.Options{Nodes: 20000})
	if err != nil {
		t.Fatal(err)
	}
	d := analysed()
	d.SVG = a.SVG()
	return d
}

// TestAnalysisHTMLModes renders the analysis mail's HTML part in
// Chromium, light, dark (by the page's own scheme) and on a phone, light
// and forced dark, and checks that nothing scrolls sideways, that the
// graph shows (the chart's light card on a light page, its dark card on
// a dark one) and that its labels are large enough to read.
func TestAnalysisHTMLModes(t *testing.T) {
	chromium := chromiumOrSkip(t)
	_, _, page, err := Analysis(realAnalysis(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct {
		name          string
		width, height int
		flags         []string
		page, card    color.RGBA // the page's background, the chart's
	}{
		{"light", 600, 1500, nil, color.RGBA{0xff, 0xff, 0xff, 0xff}, color.RGBA{0xe4, 0xdf, 0xd2, 0xff}},
		{"dark", 600, 1500, []string{"--force-dark-mode"}, color.RGBA{0x14, 0x14, 0x14, 0xff}, color.RGBA{0x26, 0x29, 0x2e, 0xff}},
		{"narrow", 375, 1900, nil, color.RGBA{0xff, 0xff, 0xff, 0xff}, color.RGBA{0xe4, 0xdf, 0xd2, 0xff}},
		// A phone in forced dark mode (the Gmail app for Android): the
		// page darkened, the chart's card as it is.
		{"forced narrow", 375, 1900, []string{"--enable-features=WebContentsForceDark"}, color.RGBA{0x12, 0x12, 0x12, 0xff}, color.RGBA{0xe4, 0xdf, 0xd2, 0xff}},
	} {
		t.Run(m.name, func(t *testing.T) {
			img, l := browsePage(t, chromium, m.name, page, m.width, m.height, m.flags...)
			if l.Scroll > l.Width {
				t.Errorf("the page is %d pixels wide in a window of %d: it scrolls sideways", l.Scroll, l.Width)
			}
			// The chart's labels (White, Black, the move numbers) are
			// read at 375 pixels too: 10 pixels high at least, as the
			// smallest text a phone's mail app shows.
			if l.Text < 10 {
				t.Errorf("the chart's smallest text is %.1f pixels high at %d pixels wide, want 10 or more", l.Text, m.width)
			}
			if c := rgba(img, 2, 2); distance(c, m.page) > 8 {
				t.Errorf("pixel (2,2) = %v, want the page's %v", c, m.page)
			}
			cards := 0
			b := img.Bounds()
			for y := b.Min.Y; y < b.Max.Y; y++ {
				for x := b.Min.X; x < min(b.Max.X, m.width); x++ {
					if distance(rgba(img, x, y), m.card) < 4 {
						cards++
					}
				}
			}
			// The card is most of the chart: at least a third of its
			// area at the width it is shown.
			w := min(600, m.width-24)
			if want := w * w * 200 / 600 / 3; cards < want {
				t.Errorf("%d pixels of the chart's card %v, want at least %d", cards, m.card, want)
			}
		})
	}
}

// pageHarness is harness for a page without a board: it shows the mail
// in a frame and writes in #cg-layout how wide the mail is, and how
// high the smallest text of its SVG images is shown.
const pageHarness = `<!DOCTYPE html>
<html><head><meta charset="utf-8"></head><body style="margin:0">
<iframe id="mail" style="display:block;border:0;width:%dpx;height:%dpx" srcdoc="%s"></iframe>
<script>
document.getElementById("mail").addEventListener("load", function () {
  var d = this.contentDocument;
  var pre = document.createElement("pre");
  pre.id = "cg-layout";
  var text = 0;
  d.querySelectorAll("svg text").forEach(function (e) {
    var h = e.getBoundingClientRect().height;
    if (h > 0 && (text == 0 || h < text)) text = h;
  });
  pre.textContent = JSON.stringify({Width: this.contentWindow.innerWidth, Scroll: d.documentElement.scrollWidth, Text: text});
  document.body.appendChild(pre);
});
</script>
</body></html>
`

// browsePage is browse for a page without a board: its layout has the
// widths alone.
func browsePage(t *testing.T, chromium, name, page string, width, height int, flags ...string) (image.Image, layout) {
	t.Helper()
	return shoot(t, chromium, name, fmt.Sprintf(pageHarness, width, height, htmltemplate.HTMLEscapeString(page)), width, height, flags...)
}
