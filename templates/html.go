package templates

import (
	htmltemplate "html/template"
	"strings"
)

// htmlMails is the HTML alternative of board mails (M12): the board as a
// table, and the words of the text part around it.
var htmlMails = htmltemplate.Must(htmltemplate.New("").ParseFS(files, "*.html"))

// htmlPage is what the HTML template gets: the text before the board,
// the board, and the text after it, as paragraphs of lines.
type htmlPage struct {
	Title  string
	Before [][]string
	Board  View
	After  [][]string
	Footer [][]string
}

// BoardHTML renders the text/html alternative of a board mail: the same
// words as Board's text, with the board as a table (piece letters, the
// river shaded) that reads well with proportional fonts.
func BoardHTML(d BoardData) (string, error) {
	subject, body, err := Board(d)
	if err != nil {
		return "", err
	}
	page := htmlPage{Title: subject, Board: d.Board}
	before, after, ok := strings.Cut(body, d.Board.Diagram)
	if !ok {
		before, after = body, ""
	}
	after, footer, _ := strings.Cut(after, "\n"+signatureSeparator+"\n")
	page.Before, page.After, page.Footer = paragraphs(before), paragraphs(after), paragraphs(footer)
	var b strings.Builder
	if err := htmlMails.ExecuteTemplate(&b, "board_html", page); err != nil {
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
