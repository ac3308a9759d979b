package templates

import (
	"fmt"
	"strings"
	"sync"
	"text/template"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/congobymail/congo/lang"
	"github.com/congobymail/congo/rules"
)

// A tongue is the wording of one language (M40, M42): the English
// templates (*.tmpl), which are the source of every wording, and, for any
// other language, its one file lang/<code>.tmpl, which defines every one
// of them again in its words. Its functions write in the language too:
// numbers of things with their plural forms, lists, dates, durations,
// pieces.
//
// A language file defines three kinds of templates: the mails' own, by
// their English names ("board", "key", "footer", ...); phrases, named by
// an English format string of the parser, the rules or the server (a name
// with a space in it, such as "there is no piece on %s"), whose text is
// the format string in the language, with the same verbs (%[2]s may pick
// an argument out of order); and helpers of its own, whose names start
// with "_". TestCatalogues says what a language lacks.
type tongue struct {
	code lang.Code
	text *template.Template

	// key is the text part's key to its boards (template "key"), which
	// the HTML part replaces with its own.
	keyOnce sync.Once
	key     string

	// units holds the words of a number of days, hours or minutes
	// (duration), each rendered once: every board mail with clocks
	// writes two times left.
	units sync.Map // unitKey -> string
}

type unitKey struct {
	unit string
	n    int
}

// tongues are the languages' wordings, read once from the embedded files.
// They are never changed after that, and executing them is safe from
// many goroutines.
var tongues = loadTongues()

func loadTongues() map[lang.Code]*tongue {
	en := &tongue{code: lang.English}
	en.text = template.Must(template.New("").Funcs(en.funcs()).ParseFS(files, "*.tmpl"))
	out := map[lang.Code]*tongue{lang.English: en}
	for _, c := range lang.All {
		if c == lang.English {
			continue
		}
		t := &tongue{code: c}
		clone := template.Must(en.text.Clone())
		t.text = template.Must(clone.Funcs(t.funcs()).ParseFS(files, "lang/"+string(c)+".tmpl"))
		out[c] = t
	}
	return out
}

// tongueOf returns the wording of language c; English for none.
func tongueOf(c lang.Code) *tongue { return tongues[c.Or(lang.English)] }

// funcs are the functions the templates call, writing in t's language.
func (t *tongue) funcs() template.FuncMap {
	return template.FuncMap{
		"pieces":    t.pieces,
		"yours":     t.yours,
		"indent":    indent,
		"loser":     Game.loser,
		"duration":  t.duration,
		"when":      t.when,
		"plural":    t.plural,
		"form":      t.form,
		"signed":    signed,
		"list":      t.list,
		"games":     t.games,
		"sub":       func(a, b int) int { return a - b },
		"phrase":    t.phrase,
		"decimal":   t.decimal,
		"pad":       pad,
		"pieceOf":   t.piece,
		"diagram":   t.diagram,
		"thousands": thousands,
		"replace":   strings.ReplaceAll,
		"capital":   capital,
	}
}

// thousands writes n with sep between each three digits: "200,000".
func thousands(n int64, sep string) string {
	s := fmt.Sprint(n)
	start := 0
	if n < 0 {
		start = 1
	}
	for i := len(s) - 3; i > start; i -= 3 {
		s = s[:i] + sep + s[i:]
	}
	return s
}

// diagram is a board diagram as rules.Position.Diagram draws it, with the
// word after the river's rank in t's language (template "river").
func (t *tongue) diagram(d string) (string, error) {
	river, err := t.raw("river", nil)
	if err != nil || river == "river" {
		return d, err
	}
	return strings.Replace(d, "  river\n", "  "+river+"\n", 1), nil
}

// execute runs one template of the language and tidies its text.
func (t *tongue) execute(name string, data any) (string, error) {
	s, err := t.raw(name, data)
	if err != nil {
		return "", err
	}
	if t.code == lang.Japanese {
		s = spaceLatin(s)
	}
	return tidyWith(s, t.code == lang.Czech), nil
}

// spaceLatin puts a space between a Latin word (a handle, a move, a
// command, a name: ASCII with a letter in it) and a Japanese letter
// (kanji, hiragana, katakana) next to it in the prose lines of s, as
// Japanese technical writing does: "alice が b3 に" rather than
// "aliceがb3に"; numbers stay with their counters ("2日", "第1手").
// Indented and quoted lines (boards, commands, players' words) stay as
// they are.
func spaceLatin(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, " ") || strings.HasPrefix(l, ">") {
			continue
		}
		lines[i] = spaceLatinLine(l)
	}
	return strings.Join(lines, "\n")
}

func spaceLatinLine(l string) string {
	var b strings.Builder
	rs := []rune(l)
	for i := 0; i < len(rs); {
		if !latin(rs[i]) {
			b.WriteRune(rs[i])
			i++
			continue
		}
		j, letter := i, false
		for j < len(rs) && latin(rs[j]) {
			letter = letter || unicode.IsLetter(rs[j])
			j++
		}
		letter = letter && j-i > 1 // a lone letter, as "N" in "第N手", stays where it is
		if letter && i > 0 && japaneseLetter(rs[i-1]) {
			b.WriteByte(' ')
		}
		b.WriteString(string(rs[i:j]))
		if letter && j < len(rs) && japaneseLetter(rs[j]) {
			b.WriteByte(' ')
		}
		i = j
	}
	return b.String()
}

// latin reports whether r is printable ASCII but a space: a character of
// a Latin word.
func latin(r rune) bool { return r > ' ' && r <= '~' }

// japaneseLetter reports whether r is a Japanese letter, not punctuation.
func japaneseLetter(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) || r == 'ー'
}

// raw runs one template of the language, untidied: a word or a line for
// a sentence.
func (t *tongue) raw(name string, data any) (string, error) {
	var b strings.Builder
	if err := t.text.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("render %s (%s): %w", name, t.code, err)
	}
	return b.String(), nil
}

// render executes the body template name with data and the subject of
// the game g.
func (t *tongue) render(name string, g Game, data any) (subject, body string, err error) {
	subject, err = t.subject(g)
	if err != nil {
		return "", "", err
	}
	body, err = t.execute(name, data)
	if err != nil {
		return "", "", err
	}
	return subject, body, nil
}

// subject is the Subject of every mail about game g (M22), in the
// language g.SubjectLang when it is set, so that a reader's Subject of a
// game stays what it was when the game began.
func (t *tongue) subject(g Game) (string, error) {
	if g.SubjectLang != "" {
		t = tongueOf(g.SubjectLang)
	}
	s, err := t.raw("subject", g)
	return strings.TrimSpace(s), err
}

// textKey is the text part's key to its boards, in t's language.
func (t *tongue) textKey() string {
	t.keyOnce.Do(func() {
		k, err := t.execute("key", nil)
		if err != nil {
			panic(err)
		}
		t.key = k
	})
	return t.key
}

// plural writes a number of things with the form of the word that the
// number takes in the language: forms are the language's plural forms
// in the order lang.Code.Forms gives them ("day" "days" in English,
// "den" "dny" "dní" in Czech, one in Japanese): plural 2 "den" "dny" "dní"
// is "2 dny".
func (t *tongue) plural(n int, forms ...string) (string, error) {
	w, err := t.form(n, forms...)
	if err != nil {
		return "", err
	}
	if t.code == lang.Czech {
		return fmt.Sprintf("%d\u00a0%s", n, w), nil // Czech keeps a number with its noun on one line
	}
	return fmt.Sprintf("%d %s", n, w), nil
}

// form is the form of a word (or of words) that the number n takes, as
// plural gives it, without the number: form 5 "bod" "body" "bodů" is
// "bodů".
// An English template that a language lacks (TestCatalogues fails then)
// gives English forms: they take English's rule.
func (t *tongue) form(n int, forms ...string) (string, error) {
	switch len(forms) {
	case len(t.code.Forms()):
		return forms[t.code.Form(n)], nil
	case len(lang.English.Forms()):
		return forms[lang.English.Form(n)], nil
	}
	return "", fmt.Errorf("%d forms of %q, want %d in %s", len(forms), forms, len(t.code.Forms()), t.code)
}

// list joins words as a list in a sentence: "a, b and c" in English
// (template "list").
func (t *tongue) list(words []string) (string, error) {
	return t.raw("list", words)
}

// games lists game numbers in words: "12, 15 and 18".
func (t *tongue) games(ids []int64) (string, error) {
	words := make([]string, len(ids))
	for i, id := range ids {
		words[i] = fmt.Sprint(id)
	}
	return t.list(words)
}

// when writes a time for a mail, to the minute, in UTC (template
// "date"): "2025-03-07 12:00 UTC" in English.
func (t *tongue) when(at time.Time) (string, error) {
	return t.raw("date", at.UTC())
}

// duration writes a time left in words, rounded down, in its two largest
// units (templates "days", "hours" and "minutes"): "2 days 4 hours", "5
// hours 3 minutes", "45 minutes", "0 minutes"; "2日4時間" in Japanese.
func (t *tongue) duration(d time.Duration) (string, error) {
	if d < 0 {
		d = 0
	}
	days, hours, minutes := int(d/(24*time.Hour)), int(d/time.Hour)%24, int(d/time.Minute)%60
	type part struct {
		unit string
		n    int
	}
	var parts []part
	switch {
	case days > 0:
		parts = append(parts, part{"days", days})
		if hours > 0 {
			parts = append(parts, part{"hours", hours})
		}
	case hours > 0:
		parts = append(parts, part{"hours", hours})
		if minutes > 0 {
			parts = append(parts, part{"minutes", minutes})
		}
	default:
		parts = append(parts, part{"minutes", minutes})
	}
	words := make([]string, len(parts))
	for i, p := range parts {
		k := unitKey{p.unit, p.n}
		if w, ok := t.units.Load(k); ok {
			words[i] = w.(string)
			continue
		}
		w, err := t.raw(p.unit, p.n)
		if err != nil {
			return "", err
		}
		t.units.Store(k, w)
		words[i] = w
	}
	sep := " "
	if t.code == lang.Japanese {
		sep = "" // "2日4時間": Japanese writes a number's units together
	}
	return strings.Join(words, sep), nil
}

// Duration writes a time left in words, as the mails in English do:
// "2 days 4 hours", "45 minutes".
func Duration(d time.Duration) string {
	s, err := tongueOf(lang.English).duration(d)
	if err != nil {
		panic(err) // the English templates are tested
	}
	return s
}

// decimal writes a decimal number given with a point ("1.41") as the
// language writes it in a sentence: "1,41" in Czech.
func (t *tongue) decimal(s string) (string, error) {
	return t.raw("decimal", s)
}

// PieceGroup is the pieces of one kind that a sentence names (template
// "piece_group"): "the pawns on c2 and e4".
type PieceGroup struct {
	Kind    string   // "pawn", as rules.Kind names it
	Squares []string // where they stand
	// Object is set when the pieces are the object of the sentence (the
	// pieces captured), for languages whose nouns decline: Czech "pěšce
	// na c2".
	Object bool
	Yours  bool // the recipient's: "your pawns"
}

// pieces names pieces in a sentence, those of one kind together: "the
// pawns on c2 and e4 and the zebra on d5". With "object", they are the
// object of the sentence.
func (t *tongue) pieces(ps []Piece, role ...string) (string, error) {
	return t.piecesWith(ps, false, len(role) > 0 && role[0] == "object")
}

// yours names the recipient's pieces as the subject of a sentence: "your
// pawns on c4 and f4".
func (t *tongue) yours(ps []Piece) (string, error) { return t.piecesWith(ps, true, false) }

func (t *tongue) piecesWith(ps []Piece, yours, object bool) (string, error) {
	var groups []PieceGroup
	at := map[string]int{}
	for _, p := range ps {
		i, ok := at[p.Kind]
		if !ok {
			i = len(groups)
			at[p.Kind] = i
			groups = append(groups, PieceGroup{Kind: p.Kind, Object: object, Yours: yours})
		}
		groups[i].Squares = append(groups[i].Squares, p.Square)
	}
	words := make([]string, len(groups))
	for i, g := range groups {
		w, err := t.raw("piece_group", g)
		if err != nil {
			return "", err
		}
		words[i] = w
	}
	return t.list(words)
}

// piece names a kind of piece, "pawn" (template "piece"), for a phrase.
func (t *tongue) piece(kind string) (string, error) {
	return t.raw("piece", kind)
}

// Phrase is a sentence that another package writes in English with
// fmt.Sprintf(Format, Args...): a reason of the parser, of the rules, of
// the server. In another language it is written by the language's
// template named Format, whose text is the format string in that
// language; a rules.Kind among Args is the language's name of the piece.
type Phrase struct {
	Format string
	Args   []any
}

// String is the phrase in English.
func (p Phrase) String() string {
	s, err := tongueOf(lang.English).phrase(p)
	if err != nil {
		return fmt.Sprintf(p.Format, p.Args...)
	}
	return s
}

// phrase writes p in t's language.
func (t *tongue) phrase(p Phrase) (string, error) {
	format := p.Format
	if t.code != lang.English && t.text.Lookup(p.Format) != nil {
		f, err := t.raw(p.Format, nil)
		if err != nil {
			return "", err
		}
		format = f
	}
	args := make([]any, len(p.Args))
	for i, a := range p.Args {
		switch a := a.(type) {
		case rules.Kind:
			w, err := t.piece(a.String())
			if err != nil {
				return "", err
			}
			args[i] = w
		case Phrase:
			w, err := t.phrase(a)
			if err != nil {
				return "", err
			}
			args[i] = w
		default:
			args[i] = a
		}
	}
	return fmt.Sprintf(format, args...), nil
}

// capital writes s with its first letter a capital, as a word that
// starts a line: "giraffe" is "Giraffe", "žirafa" "Žirafa".
func capital(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
