package templates

import (
	"fmt"
	htmltemplate "html/template"
	"regexp"
	"strings"
	"sync"

	"github.com/congobymail/congo/lang"
)

// htmlMails is the HTML alternative of mails that show boards (M12): the
// boards as tables, and the words of the text part around them. It is
// set by init, as its function "rows" uses it.
var htmlMails *htmltemplate.Template

func init() {
	htmlMails = htmltemplate.Must(htmltemplate.New("").Funcs(htmltemplate.FuncMap{"rows": boardRows, "prose": prose, "lines": lines, "say": say,
		"rowIn": func(l lang.Code, r AnalysisRow) any {
			return struct {
				Lang lang.Code
				Row  AnalysisRow
			}{l, r}
		},
		"moveIn": func(l lang.Code, m *AnalyzedMove) any {
			return struct {
				Lang lang.Code
				Move *AnalyzedMove
			}{l, m}
		},
	}).ParseFS(files, "*.html"))
}

// say is the words of the text template name in language l, for the
// HTML parts, whose own templates hold no words: they come from the
// language's file like every other.
func say(l lang.Code, name string, data ...any) (string, error) {
	var d any
	if len(data) > 0 {
		d = data[0]
	}
	s, err := tongueOf(l).raw(name, d)
	return strings.TrimSpace(s), err
}

// boardRows renders the rows of a board table: for each, lines <tr>, the
// rank, each square, the rank again, and </tr>. The ranks and squares
// come from templates board_rank and board_cell, each kind rendered once
// (fragment), so that a board is written without running a template for
// each of its 63 cells.
func boardRows(rows []Row) (htmltemplate.HTML, error) {
	var b strings.Builder
	b.Grow(len(rows) * 3200) // a row of a board with pieces: some 2.9 KB
	for _, r := range rows {
		rank, err := fragment("board_rank", r.Rank)
		if err != nil {
			return "", err
		}
		b.WriteString("<tr>\n")
		b.WriteString(rank)
		b.WriteString("\n")
		for _, c := range r.Cells {
			cell, err := fragment("board_cell", c)
			if err != nil {
				return "", err
			}
			b.WriteString(cell)
			b.WriteString("\n")
		}
		b.WriteString(rank)
		b.WriteString("\n</tr>\n")
	}
	return htmltemplate.HTML(b.String()), nil
}

// lines is the lines of a paragraph as HTML, each as prose writes it,
// with <br> and a newline between them: one call for a paragraph, where
// a range of the template would make one for each line.
func lines(ls []string) htmltemplate.HTML {
	var b strings.Builder
	for i, l := range ls {
		if i > 0 {
			b.WriteString("<br>\n")
		}
		b.WriteString(string(prose(l)))
	}
	return htmltemplate.HTML(b.String())
}

// moveText is a move in R20 notation, as mails write it.
var moveText = regexp.MustCompile(`\b[a-g][1-7](?:[-x][a-g][1-7])+\b`)

// prose escapes a line of text for HTML and keeps each move in it whole:
// browsers break lines after hyphens, and "b6-" at the end of a line
// and "b5" at the start of the next is not a move a reader can copy.
func prose(line string) htmltemplate.HTML {
	s := htmltemplate.HTMLEscapeString(line)
	if !mayHoldMove(s) {
		return htmltemplate.HTML(s) // most lines: no need of the regexp
	}
	return htmltemplate.HTML(moveText.ReplaceAllString(s, `<span style="white-space:nowrap">$0</span>`))
}

// mayHoldMove reports whether s holds what begins every match of
// moveText: a square, then - or x, then a file.
func mayHoldMove(s string) bool {
	for i := 0; i+3 < len(s); i++ {
		if 'a' <= s[i] && s[i] <= 'g' && '1' <= s[i+1] && s[i+1] <= '7' &&
			(s[i+2] == '-' || s[i+2] == 'x') && 'a' <= s[i+3] && s[i+3] <= 'g' {
			return true
		}
	}
	return false
}

// fragments holds template outputs by template and data: the few dozen
// kinds of ranks and squares.
var fragments sync.Map // fragmentKey -> string

type fragmentKey struct {
	name string
	data any // comparable: an int or a Cell
}

// fragment returns the output of template name for data, rendering it
// the first time.
func fragment(name string, data any) (string, error) {
	k := fragmentKey{name, data}
	if h, ok := fragments.Load(k); ok {
		return h.(string), nil
	}
	var b strings.Builder
	if err := htmlMails.ExecuteTemplate(&b, name, data); err != nil {
		return "", err
	}
	fragments.Store(k, b.String())
	return b.String(), nil
}

// htmlPage is what the HTML template gets: the mail's text cut into
// paragraphs of lines and boards, in order, and the footer.
type htmlPage struct {
	Lang   lang.Code
	Title  string
	Blocks []htmlBlock
	Footer [][]string
	Marked bool // a board marks the last move (View.WithLast)
}

// htmlBlock is a run of paragraphs, a board, the key to the boards, or a
// table.
type htmlBlock struct {
	Paragraphs [][]string
	Board      *View
	Key        bool
	Table      *htmlTable
}

// htmlTable is a table of the HTML part that stands for a figure of the
// text part, such as a tournament's standings: its heading, its rows of
// cells, and which columns hold numbers (set to the right).
type htmlTable struct {
	Head    []string
	Rows    [][]string
	Numeric []bool
}

// Right reports whether column i is set to the right.
func (t *htmlTable) Right(i int) bool { return i < len(t.Numeric) && t.Numeric[i] }

// insert is a figure of the text part and the block that stands for it in
// the HTML part.
type insert struct {
	text  string
	block htmlBlock
}

// textBlocks cuts text into runs of paragraphs and keys to the boards
// (template "key"), which the HTML part replaces with its own
// ("key_html"): the table shows the river and the castles by colour, not
// with ~ and |.
func (t *tongue) textBlocks(text string) []htmlBlock {
	var out []htmlBlock
	for {
		before, after, ok := strings.Cut(text, t.textKey())
		if !ok {
			return append(out, htmlBlock{Paragraphs: paragraphs(text)})
		}
		out = append(out, htmlBlock{Paragraphs: paragraphs(before)}, htmlBlock{Key: true})
		text = after
	}
}

// BoardMail renders a board mail whole: Board's subject and text, and its
// text/html alternative, the text rendered once for both. The alternative
// has the same words, with the board as a table (piece letters, the river
// and castles shaded) that reads well with proportional fonts.
func BoardMail(d BoardData) (subject, text, html string, err error) {
	subject, text, err = Board(d)
	if err != nil {
		return "", "", "", err
	}
	t := tongueOf(d.Lang)
	html, err = t.pageHTML(subject, text, []View{d.Board})
	if err != nil {
		return "", "", "", err
	}
	if html, err = t.linkPages(html, d.Page); err != nil {
		return "", "", "", err
	}
	if d.Taps != nil && len(d.Taps.Groups) > 0 {
		taps, err := t.tapsHTML(&d, subject, maxBoardMail-sentSize(text, html))
		if err != nil {
			return "", "", "", err
		}
		html = afterBoard(html, taps)
	}
	return subject, text, html, nil
}

// afterBoard puts block into html, a board mail's HTML part, right after
// its board's table.
func afterBoard(html, block string) string {
	const end = "</table>\n"
	board := strings.Index(html, `<table role="presentation"`)
	if block == "" || board < 0 {
		return html
	}
	i := strings.Index(html[board:], end)
	if i < 0 {
		return html
	}
	at := board + i + len(end)
	return html[:at] + block + html[at:]
}

// linkPages makes the address in the line that names each game's page on
// the web (template web_page, in t's language) a link. Only those lines:
// a player's words that name an address stay text.
func (t *tongue) linkPages(html string, pages ...string) (string, error) {
	for _, page := range pages {
		if page == "" {
			continue
		}
		line, err := t.execute("web_page", page)
		if err != nil {
			return "", err
		}
		// The line as the HTML part has it: one line, as tidy may have
		// wrapped it in two (a long address, ?side=black).
		if ps := paragraphs(strings.TrimSpace(line)); len(ps) > 0 && len(ps[0]) > 0 {
			line = ps[0][0]
		}
		words := htmltemplate.HTMLEscapeString(strings.TrimSuffix(line, page))
		link := fmt.Sprintf(`%s<a href="%s">%s</a>`, words, htmltemplate.HTMLEscapeString(page), htmltemplate.HTMLEscapeString(page))
		html = strings.Replace(html, string(prose(line)), link, 1)
	}
	return html, nil
}

// DigestHTML renders the text/html alternative of a digest.
func DigestHTML(d DigestData) (string, error) {
	subject, body, err := Digest(d)
	if err != nil {
		return "", err
	}
	boards := make([]View, 0, len(d.Games))
	var pages []string
	for _, g := range d.Games {
		boards = append(boards, g.Board)
		pages = append(pages, g.Page)
	}
	t := tongueOf(d.Lang)
	html, err := t.pageHTML(subject, body, boards)
	if err != nil {
		return "", err
	}
	return t.linkPages(html, pages...)
}

// pageHTML renders a mail's text as HTML, each of boards, whose diagrams
// the text shows in this order, as a table.
func (t *tongue) pageHTML(title, body string, boards []View) (string, error) {
	inserts := make([]insert, len(boards))
	for i := range boards {
		d, err := t.diagram(boards[i].Diagram)
		if err != nil {
			return "", err
		}
		inserts[i] = insert{text: d, block: htmlBlock{Board: &boards[i]}}
	}
	return t.pageHTMLWith(title, body, inserts)
}

// pageHTMLWith renders a mail's text as HTML, each of inserts, whose
// figures the text shows in this order, as its block.
func (t *tongue) pageHTMLWith(title, body string, inserts []insert) (string, error) {
	body, footer, _ := strings.Cut(body, "\n"+signatureSeparator+"\n")
	page := htmlPage{Lang: t.code, Title: title, Footer: paragraphs(footer)}
	for _, in := range inserts {
		before, after, ok := strings.Cut(body, in.text)
		if !ok {
			continue
		}
		page.Blocks = append(page.Blocks, t.textBlocks(before)...)
		page.Blocks = append(page.Blocks, in.block)
		if in.block.Board != nil {
			page.Marked = page.Marked || in.block.Board.marked()
		}
		body = after
	}
	page.Blocks = append(page.Blocks, t.textBlocks(body)...)
	var b strings.Builder
	b.Grow(6000 + 2*len(body) + 24000*len(inserts)) // the head, the words, each board
	if err := htmlMails.ExecuteTemplate(&b, "page_html", page); err != nil {
		return "", err
	}
	return b.String(), nil
}

// marked reports whether v marks the last move.
func (v View) marked() bool {
	for _, r := range v.Rows {
		for _, c := range r.Cells {
			if c.Last {
				return true
			}
		}
	}
	return false
}

// paragraphs splits text at blank lines into paragraphs, and each
// paragraph into the lines the HTML part keeps apart. Prose lines, which
// tidy wrapped at width for the text part, are joined into one line, so
// that the reader's client wraps them to its own width (a phone's is far
// narrower than 72 columns). Indented and quoted lines, which tidy leaves
// as they are (boards, commands, addresses, players' words), and the
// Position line (M3), which tools read, stay lines of their own.
func paragraphs(text string) [][]string {
	var out [][]string
	var cur []string
	prose := false // the last line of cur is prose
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case t == "":
			if cur != nil {
				out = append(out, cur)
			}
			cur, prose = nil, false
		case strings.HasPrefix(l, " ") || strings.HasPrefix(l, ">") || strings.HasPrefix(l, "Position: "):
			cur, prose = append(cur, t), false
		case prose:
			cur[len(cur)-1] = joinLines(cur[len(cur)-1], t)
		default:
			cur, prose = append(cur, t), true
		}
	}
	if cur != nil {
		out = append(out, cur)
	}
	return out
}
