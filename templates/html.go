package templates

import (
	htmltemplate "html/template"
	"strings"
	"sync"
)

// htmlMails is the HTML alternative of mails that show boards (M12): the
// boards as tables, and the words of the text part around them. It is
// set by init, as its function "cell" uses it.
var htmlMails *htmltemplate.Template

func init() {
	htmlMails = htmltemplate.Must(htmltemplate.New("").Funcs(htmltemplate.FuncMap{"cell": cellHTML}).ParseFS(files, "*.html"))
}

// cells holds the HTML of each kind of square rendered so far (a few
// dozen: the pieces of both sides on river, castle and land squares):
// a board of 49 squares is then written without running the template
// for each.
var cells sync.Map // Cell -> htmltemplate.HTML

// cellHTML returns the HTML of a square, from template board_cell.
func cellHTML(c Cell) (htmltemplate.HTML, error) {
	if h, ok := cells.Load(c); ok {
		return h.(htmltemplate.HTML), nil
	}
	var b strings.Builder
	if err := htmlMails.ExecuteTemplate(&b, "board_cell", c); err != nil {
		return "", err
	}
	h := htmltemplate.HTML(b.String())
	cells.Store(c, h)
	return h, nil
}

// htmlPage is what the HTML template gets: the mail's text cut into
// paragraphs of lines and boards, in order, and the footer.
type htmlPage struct {
	Title  string
	Blocks []htmlBlock
	Footer [][]string
}

// htmlBlock is a run of paragraphs, or a board.
type htmlBlock struct {
	Paragraphs [][]string
	Board      *View
}

// BoardHTML renders the text/html alternative of a board mail: the same
// words as Board's text, with the board as a table (piece letters, the
// river shaded) that reads well with proportional fonts.
func BoardHTML(d BoardData) (string, error) {
	_, _, html, err := BoardMail(d)
	return html, err
}

// BoardMail renders a board mail whole: Board's subject and text, and
// BoardHTML's alternative, the text rendered once for both.
func BoardMail(d BoardData) (subject, text, html string, err error) {
	subject, text, err = Board(d)
	if err != nil {
		return "", "", "", err
	}
	html, err = pageHTML(subject, text, []View{d.Board})
	if err != nil {
		return "", "", "", err
	}
	return subject, text, html, nil
}

// DigestHTML renders the text/html alternative of a digest.
func DigestHTML(d DigestData) (string, error) {
	subject, body, err := Digest(d)
	if err != nil {
		return "", err
	}
	boards := make([]View, 0, len(d.Games))
	for _, g := range d.Games {
		boards = append(boards, g.Board)
	}
	return pageHTML(subject, body, boards)
}

// pageHTML renders a mail's text as HTML, each of boards, whose diagrams
// the text shows in this order, as a table.
func pageHTML(title, body string, boards []View) (string, error) {
	body, footer, _ := strings.Cut(body, "\n"+signatureSeparator+"\n")
	page := htmlPage{Title: title, Footer: paragraphs(footer)}
	for i := range boards {
		before, after, ok := strings.Cut(body, boards[i].Diagram)
		if !ok {
			continue
		}
		page.Blocks = append(page.Blocks, htmlBlock{Paragraphs: paragraphs(before)}, htmlBlock{Board: &boards[i]})
		body = after
	}
	page.Blocks = append(page.Blocks, htmlBlock{Paragraphs: paragraphs(body)})
	var b strings.Builder
	if err := htmlMails.ExecuteTemplate(&b, "page_html", page); err != nil {
		return "", err
	}
	return b.String(), nil
}

// paragraphs splits text at blank lines into paragraphs of trimmed lines.
func paragraphs(text string) [][]string {
	var out [][]string
	var cur []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			if cur != nil {
				out = append(out, cur)
			}
			cur = nil
			continue
		}
		cur = append(cur, l)
	}
	if cur != nil {
		out = append(out, cur)
	}
	return out
}
