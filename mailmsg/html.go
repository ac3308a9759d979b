package mailmsg

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxHTMLDepth bounds the nesting followed when reading HTML, so that a
// hostile mail of nested elements costs no more than a flat one.
const maxHTMLDepth = 200

// htmlToText turns an HTML document into readable plain text: block
// elements and <br> end lines, text inside <blockquote> is prefixed with
// "> " per level so that quoted text still looks quoted, <pre> keeps its
// line breaks, scripts, styles and the head are dropped, and entities are
// decoded (a no-break space becomes a plain space).
func htmlToText(src string) string {
	doc, err := html.Parse(strings.NewReader(src))
	if err != nil {
		return "" // html.Parse fails only when reading fails
	}
	var w textWriter
	w.node(doc, 0)
	return w.String()
}

// textLine is one line of output and the blockquote depth it belongs to.
type textLine struct {
	quote int
	text  string
}

// textWriter collects text into lines.
type textWriter struct {
	lines    []textLine
	cur      strings.Builder
	curQuote int  // quote depth of cur
	space    bool // a space is due before the next word
	quote    int  // current blockquote depth
	pre      int  // current <pre> depth
}

// blocks are the elements that stand on lines of their own; the value says
// whether a blank line separates them from their neighbours.
var blocks = map[atom.Atom]bool{
	atom.P: true, atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true,
	atom.H5: true, atom.H6: true, atom.Blockquote: true, atom.Pre: true,
	atom.Table: true, atom.Ul: true, atom.Ol: true, atom.Dl: true,

	atom.Div: false, atom.Li: false, atom.Tr: false, atom.Dt: false,
	atom.Dd: false, atom.Hr: false, atom.Section: false, atom.Article: false,
	atom.Header: false, atom.Footer: false, atom.Nav: false, atom.Aside: false,
	atom.Address: false, atom.Form: false, atom.Fieldset: false,
	atom.Figure: false, atom.Figcaption: false, atom.Main: false,
	atom.Center: false, atom.Caption: false, atom.Body: false,
}

func (w *textWriter) node(n *html.Node, depth int) {
	if depth > maxHTMLDepth {
		return
	}
	switch n.Type {
	case html.TextNode:
		w.text(n.Data)
		return
	case html.ElementNode:
	case html.DocumentNode:
		w.children(n, depth)
		return
	default:
		return // comments, doctypes
	}

	switch n.DataAtom {
	case atom.Head, atom.Script, atom.Style, atom.Title, atom.Template,
		atom.Noscript, atom.Svg, atom.Iframe, atom.Object, atom.Select:
		return
	case atom.Br:
		w.endLine(true)
		return
	case atom.Td, atom.Th:
		w.space = true
		w.children(n, depth)
		w.space = true
		return
	}

	blank, block := blocks[n.DataAtom]
	if !block {
		w.children(n, depth)
		return
	}
	w.breakBlock(blank)
	switch n.DataAtom {
	case atom.Blockquote:
		w.quote++
		defer func() { w.quote-- }()
	case atom.Pre:
		w.pre++
		defer func() { w.pre-- }()
	case atom.Li:
		w.word("-")
		w.space = true
	}
	w.children(n, depth)
	w.breakBlock(blank)
}

func (w *textWriter) children(n *html.Node, depth int) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.node(c, depth+1)
	}
}

// text writes a text node: inside <pre> as it is, elsewhere with runs of
// white space collapsed to one space.
func (w *textWriter) text(s string) {
	s = strings.ReplaceAll(s, "\u00a0", " ")
	if w.pre > 0 {
		for i, l := range strings.Split(s, "\n") {
			if i > 0 {
				w.endLine(true)
			}
			if l != "" {
				w.start()
				w.cur.WriteString(strings.TrimRight(l, "\r"))
			}
		}
		return
	}
	if s != "" && isHTMLSpace(s[0]) {
		w.space = true
	}
	for _, word := range strings.Fields(s) {
		w.word(word)
		w.space = true
	}
	if s != "" && !isHTMLSpace(s[len(s)-1]) {
		w.space = false
	}
}

func isHTMLSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

// start begins the current line if it is empty, fixing its quote depth.
func (w *textWriter) start() {
	if w.cur.Len() == 0 {
		w.curQuote = w.quote
	}
}

// word writes one word, after a space when one is due.
func (w *textWriter) word(s string) {
	if w.cur.Len() == 0 {
		w.curQuote = w.quote
	} else if w.space {
		w.cur.WriteByte(' ')
	}
	w.cur.WriteString(s)
	w.space = false
}

// endLine ends the current line; an empty one is written only when force
// is set (for <br> and line breaks in <pre>).
func (w *textWriter) endLine(force bool) {
	if w.cur.Len() > 0 || force {
		q := w.curQuote
		if w.cur.Len() == 0 {
			q = w.quote
		}
		w.lines = append(w.lines, textLine{quote: q, text: w.cur.String()})
		w.cur.Reset()
	}
	w.space = false
}

// breakBlock ends the current line at the edge of a block element, and
// with blank set leaves a blank line after it.
func (w *textWriter) breakBlock(blank bool) {
	w.endLine(false)
	if blank && len(w.lines) > 0 && w.lines[len(w.lines)-1].text != "" {
		w.lines = append(w.lines, textLine{quote: w.quote})
	}
}

// String renders the lines: quoted ones with their "> " prefixes, without
// trailing spaces, leading or trailing blank lines, or runs of blank lines.
func (w *textWriter) String() string {
	w.endLine(false)
	var b strings.Builder
	blank, prevQuote := false, 0
	for _, l := range w.lines {
		if strings.TrimSpace(l.text) == "" {
			blank = true
			continue
		}
		if blank && b.Len() > 0 {
			// One blank line, quoted as deep as both its neighbours.
			b.WriteString(strings.TrimRight(strings.Repeat("> ", min(l.quote, prevQuote)), " "))
			b.WriteByte('\n')
		}
		blank, prevQuote = false, l.quote
		b.WriteString(strings.TrimRight(strings.Repeat("> ", l.quote)+l.text, " "))
		b.WriteByte('\n')
	}
	return b.String()
}
