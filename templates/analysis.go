package templates

import (
	htmltemplate "html/template"
	"regexp"
	"strings"
	"time"

	"github.com/congobymail/congo/lang"
)

// AnalysisData is the mail of the robot's analysis of a game (M49-M50),
// to the player who asked for it: every move with the evaluation after
// it, the mistakes marked with the better move, a summary per player, an
// evaluation graph and the annotated record.
type AnalysisData struct {
	Lang  lang.Code // the recipient's language; "" for English
	Game  Game
	To    string // handle of the recipient
	Nodes int64  // searched in each position
	// Rows are the moves, a row per move number: White's move and
	// Black's (Black's is nil when the game ended after White's).
	Rows []AnalysisRow
	// White and Black are the players' summaries.
	White, Black AnalysisSummary
	// Graph is the evaluation after each move as a line of marks, cut
	// into lines of at most 60, each with the number of its first move.
	Graph []GraphLine
	// SVG is the same graph as an SVG image, for the HTML part.
	SVG string
	// Record is the game record with the marks and the better moves
	// (the history format).
	Record string
	// Tables is set when an evaluation comes from the endgame tables:
	// it has a * after it, and the mail says what that means (M77).
	Tables bool
}

// AnalysisRow is one move number of an analysed game.
type AnalysisRow struct {
	Number       int
	White, Black *AnalyzedMove
}

// AnalyzedMove is one move of an analysed game, in words.
type AnalyzedMove struct {
	Label string // "19... c5-d4", the move with its number
	Move  string // "c5-d4"
	Mark  string // "?!", "?", "??" or ""
	Eval  string // after the move, from White's side: "+1.46", "-lion in 2", "1-0"; "+lion in 9*" from the endgame tables
	// For a marked move: Note is "missed win", "lion lost", "win thrown
	// away" or ""; Loss the pawns lost ("1.41"); Better the engine's move
	// and BetterEval the evaluation it leads to; Line the moves the
	// engine expects after Better.
	Note       string
	Loss       string
	Better     string
	BetterEval string
	Line       string
}

// AnalysisSummary is one player's moves counted by their marks.
type AnalysisSummary struct {
	Handle                           string
	Moves                            int
	Inaccuracies, Mistakes, Blunders int
	AverageLoss                      string // pawns a move: "0.07"
}

// GraphLine is one line of the text graph.
type GraphLine struct {
	Number int    // the move number of its first mark
	Marks  string // a mark per move
}

// Analysis renders the analysis mail: its subject, "Re: " and the game's
// (M22), as the mail answers a player's request, its text, and its
// text/html alternative with the graph as an SVG image.
func Analysis(d AnalysisData) (subject, text, html string, err error) {
	t := tongueOf(d.Lang)
	subject, text, err = t.render("analysis", d.Game, d)
	if err != nil {
		return "", "", "", err
	}
	subject = "Re: " + subject
	intro, err := t.execute("analysis_intro", d)
	if err != nil {
		return "", "", "", err
	}
	footer, err := t.execute("footer", nil)
	if err != nil {
		return "", "", "", err
	}
	_, footer, _ = strings.Cut(footer, signatureSeparator+"\n")
	page := analysisPage{Lang: t.code, Title: subject, Data: d, Intro: paragraphs(intro), Footer: paragraphs(footer),
		SVG: htmltemplate.HTML(fluid(d.SVG))} // made by package analysis: moves and numbers only
	var b strings.Builder
	if err := htmlMails.ExecuteTemplate(&b, "analysis_html", page); err != nil {
		return "", "", "", err
	}
	return subject, text, b.String(), nil
}

// svgSize is the size an SVG image is given in its first tag.
var svgSize = regexp.MustCompile(`^(<svg [^>]*?) width="(\d+)" height="\d+"`)

// fluid makes an SVG image as wide as the page, up to its own width, and
// as high as its shape makes it: on a phone, the graph fits the screen.
func fluid(svg string) string {
	return svgSize.ReplaceAllString(svg, `$1 width="100%" style="display:block;max-width:${2}px;height:auto"`)
}

// SummaryLine is one player's line of the summary: the name, "alice
// (white)" or "you (white)" for the reader (M27), padded to the longer
// of the two (template "analysis_player").
type SummaryLine struct {
	Name string
	AnalysisSummary
}

// Summaries are the lines of the summary, White's first.
func (d AnalysisData) Summaries() ([]SummaryLine, error) {
	t := tongueOf(d.Lang)
	lines := []SummaryLine{{AnalysisSummary: d.White}, {AnalysisSummary: d.Black}}
	w := 0
	for i := range lines {
		name, err := t.raw("analysis_player", struct {
			Handle     string
			You, White bool
		}{lines[i].Handle, lines[i].Handle == d.To, i == 0})
		if err != nil {
			return nil, err
		}
		lines[i].Name = name
		w = max(w, columns(name))
	}
	for i := range lines {
		lines[i].Name = pad(w, lines[i].Name)
	}
	return lines, nil
}

// analysisPage is what the HTML template of the analysis gets: the data,
// and the text's first paragraphs and footer, so that both parts say the
// same.
type analysisPage struct {
	Lang   lang.Code
	Title  string
	Data   AnalysisData
	Intro  [][]string
	Footer [][]string
	SVG    htmltemplate.HTML
}

// AnalysisQueued answers analyze: the game's analysis is queued, with
// Ahead analyses before it.
type AnalysisQueued struct {
	GameID int64
	Ahead  int
	// Again is set when the sender had asked for it already: nothing
	// was added to the queue.
	Again bool
}

// AnalysisRefused answers analyze when the analysis cannot be made.
type AnalysisRefused struct {
	Line   string // the command, quoted
	GameID int64
	Why    AnalysisRefusal
	Game   *Game // the game, for NotFinished and NoMovesToAnalyse
	// For TooManyAnalyses: the most requests a day, and when the
	// player may ask again.
	Limit int
	Until time.Time
}

// AnalysisRefusal is why an analysis is refused. The zero value means
// none.
type AnalysisRefusal string

const (
	NotFinished      AnalysisRefusal = "not finished"    // the game is being played, or waits for an answer to its challenge
	NoMovesToAnalyze AnalysisRefusal = "no moves"        // the game ended (or was declined, or aborted) before any move
	TooManyAnalyses  AnalysisRefusal = "too many"        // Limit requests in the last 24 hours
	AnalysisFailed   AnalysisRefusal = "analysis failed" // the analysis could not be made: a fault of the server's
)

func (AnalysisQueued) template() string  { return "analysis_queued" }
func (AnalysisRefused) template() string { return "analysis_refused" }

// AnalysisFailure renders the mail that tells the player who asked that
// the analysis of a game could not be made, in the game's thread.
func AnalysisFailure(l lang.Code, g Game) (subject, body string, err error) {
	subject, body, err = tongueOf(l).render("analysis_failed", g, AnalysisRefused{GameID: g.ID, Why: AnalysisFailed, Game: &g})
	return "Re: " + subject, body, err
}
