package templates

import (
	"cmp"
	htmltemplate "html/template"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/congobymail/congo/lang"
	"github.com/congobymail/congo/rules"
)

// The words of M68-M72: private notes, previews, one-tap moves, games
// from a position.

// NoteKept answers note (M68): the note is kept, for the sender alone.
type NoteKept struct {
	GameID int64
	// At is the move the note is kept with, with its number ("12.
	// d2-e3", "12... d6-c5"); "" for the start.
	At   string
	Text string
}

// NoteList answers notes (M68): the sender's notes in a game, under the
// moves they were written at.
type NoteList struct {
	GameID int64
	Moves  []NotedMove
}

// NotedMove is a move and the notes written at it.
type NotedMove struct {
	At    string // as NoteKept.At
	Notes []string
}

func (NoteKept) template() string { return "note_kept" }
func (NoteList) template() string { return "note_list" }

// MoveLabel is a move with its R21 number, as records and notes write it
// on its own: "12. d2-e3" for White's, "12... d6-c5" for Black's.
func MoveLabel(number int, side rules.Color, move string) string {
	if side == rules.White {
		return strconv.Itoa(number) + ". " + move
	}
	return strconv.Itoa(number) + "... " + move
}

// PreviewData is the answer to preview (M70): the board after the moves
// tried, played in turn from the position now; nothing is played.
type PreviewData struct {
	Lang lang.Code // the recipient's language; "" for English
	// Game is the game as it is now, which names it; After is the game
	// as it would be after the moves: where it would stand (State,
	// ToMove, MoveNumber, Winner, Reason).
	Game, After Game
	To          string // handle of the recipient
	// Moves are the moves tried, in turn, as they would go.
	Moves []Move
	// Board is the board after them, the last one marked.
	Board View
	// First is the first of the moves, canonical, when it is the
	// recipient's to play now: the answer says how to play it.
	First string
}

// Ends reports whether the game would be over after the moves.
func (d PreviewData) Ends() bool { return d.After.State == Won || d.After.State == Drawn }

// Outcome is how the game would end, for the template "outcome".
func (d PreviewData) Outcome() BoardData { return BoardData{To: d.To, Game: d.After} }

// PreviewMail renders the answer to preview whole: its Subject (the
// game's), its text, and its HTML alternative with the board as a table.
func PreviewMail(d PreviewData) (subject, text, html string, err error) {
	d.Moves = slices.Clone(d.Moves)
	for i := range d.Moves {
		d.Moves[i].Yours = d.Moves[i].By == d.To
	}
	t := tongueOf(d.Lang)
	if subject, text, err = t.render("preview", d.Game, d); err != nil {
		return "", "", "", err
	}
	html, err = t.pageHTML(subject, text, []View{d.Board})
	return subject, text, html, err
}

// Taps are the one-tap moves of a board mail's HTML part (M71), in the
// mail to the player to move: each legal move a mailto: link to the
// player's personal address, with the game's Subject and the command
// that plays it.
type Taps struct {
	// Address is the recipient's personal address, where each link's
	// reply goes.
	Address string
	// Groups are the recipient's pieces that can move, each with its
	// moves.
	Groups []TapGroup
}

// TapGroup is a piece and its legal moves.
type TapGroup struct {
	Kind  string   // the piece's kind, as rules.Kind names it: "giraffe"
	From  string   // its square
	Moves []string // its legal moves, canonical, each starting at From
}

// TapsOf returns the one-tap moves of the side to move in pos, whose
// replies go to address: the pieces from that side's back rank forward,
// file a first, each with its moves in the order of their notation.
func TapsOf(pos rules.Position, address string) *Taps {
	side := pos.Turn()
	var groups []TapGroup
	for _, m := range pos.Legal() {
		from := m.From()
		i := slices.IndexFunc(groups, func(g TapGroup) bool { return g.From == from.String() })
		if i < 0 {
			groups = append(groups, TapGroup{Kind: pos.At(from).Kind().String(), From: from.String()})
			i = len(groups) - 1
		}
		groups[i].Moves = append(groups[i].Moves, m.String())
	}
	rank := func(sq string) int {
		if side == rules.Black {
			return '7' - int(sq[1])
		}
		return int(sq[1]) - '1'
	}
	slices.SortFunc(groups, func(a, b TapGroup) int {
		return cmp.Or(cmp.Compare(rank(a.From), rank(b.From)), cmp.Compare(a.From[0], b.From[0]))
	})
	for _, g := range groups {
		slices.Sort(g.Moves)
	}
	return &Taps{Address: address, Groups: groups}
}

// maxBoardMail is the most bytes a board mail may have, as sent (M71):
// the one-tap moves take what is left under it.
const maxBoardMail = 40_000

// mailOverhead is what a board mail takes besides its two parts: its
// header (a Subject of words that are not ASCII encoded, a long
// References), the parts' headers and the boundaries.
const mailOverhead = 2_000

// sentSize is the size of a board mail as sent (mailmsg.Compose), of the
// parts text and html, near enough and never less: the text part 7bit,
// or quoted-printable when it is not ASCII (three bytes for each byte
// that is not, a soft line break every 75); the HTML part 7bit, each
// character that is not ASCII a numeric character reference; every line
// ended by CRLF.
func sentSize(text, html string) int {
	n := mailOverhead + strings.Count(text, "\n")
	qp := 0
	for i := 0; i < len(text); i++ {
		if c := text[i]; c >= 0x80 || c == '=' {
			qp += 3
		} else {
			qp++
		}
	}
	if qp > len(text) {
		n += qp + 3*qp/75
	} else {
		n += len(text)
	}
	return n + htmlSize(html)
}

// htmlSize is the size of html as sent (sentSize): every character that
// is not ASCII a numeric character reference, every line ended by CRLF.
func htmlSize[T string | []byte](html T) int {
	n := 0
	for i := 0; i < len(html); i++ {
		switch c := html[i]; {
		case c == '\n':
			n += 2
		case c < 0x80:
			n++
		case c >= 0xf0: // the first byte of a character of four
			n += len("&#1114111;")
		case c >= 0xe0: // of three, as Japanese ones are
			n += len("&#65535;")
		case c >= 0xc0: // of two
			n += len("&#2047;")
		}
	}
	return n
}

// tapsHTML renders the one-tap moves d.Taps of the board mail d, whose
// Subject is subject, for its HTML part, in at most budget bytes as
// sent: each piece with all its moves, in order, when it fits, and a
// line that says not every move is there when one did not. It returns
// "" when no piece fits.
func (t *tongue) tapsHTML(d *BoardData, subject string, budget int) (string, error) {
	intro, err := t.cached("taps_html", nil)
	if err != nil {
		return "", err
	}
	more, err := t.cached("taps_more_html", nil)
	if err != nil {
		return "", err
	}
	// Every link is the same but for the move: mailto: the personal
	// address, the Subject, and the command with the move's number
	// (M1), percent-encoded as RFC 6068 asks (UTF-8 for a Subject of
	// words that are not ASCII), then escaped for the attribute.
	prefix := `<a style="padding:6px 4px" href="` + htmltemplate.HTMLEscapeString("mailto:"+d.Taps.Address+"?subject="+
		mailtoEscape("Re: "+subject)+"&body="+mailtoEscape("move congo "+strconv.FormatInt(d.Game.ID, 10)+" "))
	suffix := mailtoEscape(" #"+strconv.Itoa(d.Game.MoveNumber)) + `">`
	moreLine := `<p style="margin:4px 0 0">` + htmltemplate.HTMLEscapeString(more) + "</p>\n"
	const end = "</div>\n"
	n := 0
	for _, g := range d.Taps.Groups {
		n += len(g.Moves)
	}
	buf := make([]byte, 0, 200+len(d.Taps.Groups)*80+n*(len(prefix)+len(suffix)+40)+len(moreLine))
	buf = append(buf, `<div class="cg-taps" style="margin:0 0 12px">`+"\n"+`<p style="margin:0 0 4px">`...)
	buf = append(buf, htmltemplate.HTMLEscapeString(intro)...)
	buf = append(buf, "</p>\n"...)
	room := budget - htmlSize(buf) - htmlSize(moreLine+end)
	shown := 0
	for _, g := range d.Taps.Groups {
		label, err := t.cached("tap_piece", tapPiece{Kind: g.Kind, From: g.From})
		if err != nil {
			return "", err
		}
		start := len(buf)
		buf = append(buf, `<p style="margin:0;line-height:2.5"><span style="white-space:nowrap">`...)
		buf = append(buf, htmltemplate.HTMLEscapeString(label)...)
		buf = append(buf, "</span>\n"...)
		for _, m := range g.Moves {
			// A label, "a2", "xc3" or "xd3xf5", has no space or
			// hyphen to break at; a move needs no escaping.
			buf = append(buf, prefix...)
			buf = appendMailtoEscape(buf, m)
			buf = append(buf, suffix...)
			buf = append(buf, strings.TrimPrefix(strings.TrimPrefix(m, g.From), "-")...)
			buf = append(buf, "</a>\n"...)
		}
		buf = append(buf, "</p>\n"...)
		if size := htmlSize(buf[start:]); size <= room {
			room -= size
			shown++
		} else {
			buf = buf[:start]
		}
	}
	if shown == 0 {
		return "", nil
	}
	if shown < len(d.Taps.Groups) {
		buf = append(buf, moreLine...)
	}
	buf = append(buf, end...)
	return string(buf), nil
}

// tapPiece is what the template tap_piece names: a piece of the one-tap
// moves, "Giraffe a1:".
type tapPiece struct {
	Kind string // as rules.Kind names it
	From string // its square
}

// cachedKey is a text of a template of a language for some data.
type cachedKey struct {
	code lang.Code
	name string
	data any // comparable
}

// cachedTexts holds the texts of templates rendered once (cached): the
// heads of the one-tap moves and their pieces, a few hundred in all.
var cachedTexts sync.Map // cachedKey -> string

// cached is the text of template name of t for data, trimmed, rendered
// the first time it is asked for; data must be comparable.
func (t *tongue) cached(name string, data any) (string, error) {
	k := cachedKey{t.code, name, data}
	if s, ok := cachedTexts.Load(k); ok {
		return s.(string), nil
	}
	s, err := t.raw(name, data)
	if err != nil {
		return "", err
	}
	s = strings.TrimSpace(s)
	cachedTexts.Store(k, s)
	return s, nil
}

// mailtoEscape percent-encodes s for a mailto: URI's Subject or body
// (RFC 6068): every byte but the unreserved characters of RFC 3986, so
// that a space is %20 (never "+"), "#" and "&" are no delimiters, and a
// character that is not ASCII is its UTF-8 bytes, percent-encoded.
func mailtoEscape(s string) string {
	return string(appendMailtoEscape(make([]byte, 0, len(s)*3), s))
}

// appendMailtoEscape appends mailtoEscape(s) to b.
func appendMailtoEscape(b []byte, s string) []byte {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '.', c == '_', c == '~':
			b = append(b, c)
		default:
			b = append(b, '%', hex[c>>4], hex[c&15])
		}
	}
	return b
}
