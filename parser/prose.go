package parser

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// maxNormLen is the most bytes of a line normalised (M21): a longer line
// is too long to be a command, and only its first words are read.
const maxNormLen = 4 * maxLineLen

// normalise returns a trimmed line as it is read for commands (M21):
// Unicode NFKC, so that the full-width letters, digits, signs and
// ideographic spaces of an input method read as ASCII ("ｍｏｖｅ　ｃｏｎｇｏ"
// is "move congo"), then trimmed. Of a line longer than maxNormLen bytes
// only the start is normalised.
func normalise(line string) string {
	if len(line) > maxNormLen {
		n := maxNormLen
		for n > 0 && !utf8.RuneStart(line[n]) {
			n--
		}
		line = line[:n]
	}
	return strings.TrimFunc(norm.NFKC.String(line), isSpace)
}

// moveAlone reads a normalised line as a move alone on its line (M20):
// a move, optionally after the word "congo", with what people add to
// it: a final ".", ",", ";", "!", "?" (or "!!", "!?", ...), "。" or "、";
// quotes or brackets around it; "move", "Move:", "my move:", "I play"
// and their like in the other languages of M40 before it (M59); the
// #N guard (M1); and the word anyway after it (M61). ok reports whether
// the line is one; m is then the move (separators mapped, see
// mapSeparators), its guard and anyway, and guard is false when a '#' is
// followed by no number from 1 up.
func moveAlone(line string) (m MoveArgs, guard, ok bool) {
	if w, rest := cutWord(line); isGameWord(w) && rest != "" { // congo b2-b3
		line = rest
	}
	line, anyway := cutAnyway(line)
	move, n, guard := splitMoveNumber(undecorate(line))
	move, anyway2 := cutAnyway(move)
	move = mapSeparators(undecorate(move))
	if move == "" || !isMove(move) {
		return MoveArgs{}, false, false
	}
	return MoveArgs{Move: move, Number: n, Anyway: anyway || anyway2}, guard, true
}

// cutAnyway cuts the word anyway, which plays a move the lion guard
// would refuse (M61), off the end of s ("c3-c4 anyway", "c3-c4,
// anyway!"), reporting whether it was there.
func cutAnyway(s string) (string, bool) {
	const word = "anyway"
	t := trimMarks(s)
	if len(t) <= len(word) || !strings.EqualFold(t[len(t)-len(word):], word) {
		return s, false
	}
	rest := t[:len(t)-len(word)]
	cut := strings.TrimRightFunc(rest, func(r rune) bool { return isSpace(r) || r == ',' })
	if len(cut) == len(rest) || cut == "" { // "runaway", or the word alone
		return s, false
	}
	return cut, true
}

// cutWord splits the first word off a trimmed line.
func cutWord(s string) (word, rest string) {
	i := strings.IndexFunc(s, isSpace)
	if i < 0 {
		return s, ""
	}
	return s[:i], strings.TrimLeftFunc(s[i:], isSpace)
}

// undecorate cuts off what M20 lets surround a move: final marks,
// quotes and brackets, and the prefixes "move", "my move" and "I play"
// and their like in other languages (each with or without a colon, M59),
// in any nesting, as in `Move: "b2-b3".`.
func undecorate(s string) string {
	for range 8 {
		t := cutMovePrefix(cutMoveSuffix(unwrap(trimMarks(s))))
		if t == s {
			break
		}
		s = t
	}
	return s
}

// trimMarks cuts the marks people end a move with: ".", ",", ";", "!",
// "?" (so also the annotations "!!", "!?", "?!", "??") and the Japanese
// full stop and comma "。" and "、", and spaces.
func trimMarks(s string) string {
	return strings.TrimRightFunc(s, func(r rune) bool {
		switch r {
		case '.', ',', ';', '!', '?', '。', '、':
			return true
		}
		return isSpace(r)
	})
}

// pairs are the quotes and brackets that may surround a move alone, as
// they are after NFKC: ASCII quotes and brackets (also for the full-width
// ones), guillemets both ways, typographic quotes in the English,
// German, Czech and Swedish manners, Japanese corner and lenticular
// brackets, and the asterisks of a plain-text rendering of bold.
var pairs = [...]struct{ open, close string }{
	{`"`, `"`}, {"'", "'"}, {"(", ")"}, {"[", "]"}, {"*", "*"},
	{"«", "»"}, {"»", "«"}, {"‹", "›"},
	{"“", "”"}, {"”", "”"}, {"„", "“"}, {"„", "”"}, {"‘", "’"}, {"’", "’"}, {"‚", "‘"},
	{"「", "」"}, {"『", "』"}, {"【", "】"},
}

// unwrap cuts one pair of quotes or brackets off s, when s is wrapped in
// one.
func unwrap(s string) string {
	for _, p := range pairs {
		if len(s) >= len(p.open)+len(p.close) && strings.HasPrefix(s, p.open) && strings.HasSuffix(s, p.close) {
			return strings.TrimFunc(s[len(p.open):len(s)-len(p.close)], isSpace)
		}
	}
	return s
}

// movePrefixes are the words people write before a move alone (M20,
// M59), in the languages of M40, lowercase: "Move: b2-b3", "I play
// b2-b3", "Můj tah: e6-e5", "Hraju e6-e5", "私の手: e6-e5". A longer one
// comes before a shorter one it starts with. joined is set for words
// of a language written without spaces, which may touch the move.
var movePrefixes = [...]struct {
	word   string
	joined bool
}{
	{"my move", false}, {"move", false}, {"i play", false},
	// Czech, also without its accents: "my move", "move", "I play",
	// "I move".
	{"můj tah", false}, {"muj tah", false}, {"tah", false},
	{"hraju", false}, {"hraji", false}, {"táhnu", false}, {"tahnu", false},
	// Japanese: "my move (is)", "the next move (is)", "the move (is)".
	{"私の手は", true}, {"私の手", true}, {"僕の手は", true}, {"僕の手", true},
	{"次の手は", true}, {"次の手", true}, {"指し手は", true}, {"指し手", true},
}

// cutMovePrefix cuts one of movePrefixes, in any case and with or
// without a colon, off the start of s.
func cutMovePrefix(s string) string {
	for _, p := range movePrefixes {
		if !hasPrefixFold(s, p.word) {
			continue
		}
		rest := s[len(p.word):]
		t := strings.TrimLeftFunc(rest, isSpace)
		if strings.HasPrefix(t, ":") {
			t = strings.TrimLeftFunc(t[1:], isSpace)
		} else if len(t) == len(rest) && !p.joined {
			continue // "movement", "I player", "tahle"
		}
		return t
	}
	return s
}

// moveSuffixes are the words people write after a move alone in a
// language that ends a sentence with its verb (M59): Japanese "b2-b3
// です" ("it is b2-b3"), "b2-b3 にします" ("I make it b2-b3").
var moveSuffixes = [...]string{"です", "にします"}

// cutMoveSuffix cuts one of moveSuffixes off the end of s, when
// something stands before it.
func cutMoveSuffix(s string) string {
	for _, w := range moveSuffixes {
		if t, ok := strings.CutSuffix(s, w); ok && strings.TrimRightFunc(t, isSpace) != "" {
			return strings.TrimRightFunc(t, isSpace)
		}
	}
	return s
}

// mapSeparators writes the separators that mail programs and input
// methods put between the squares of a move as R20's: the dashes U+2010
// to U+2015 and the minus sign U+2212 as "-", and so the katakana long
// mark "ー" (which NFKC makes of the half-width "ｰ") when it stands
// between two squares; the multiplication sign "×" as "x". It is applied
// to a move's text only, never to a line of words.
func mapSeparators(s string) string {
	if isASCII(s) {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case '\u2010' <= r && r <= '\u2015', r == '\u2212':
			r = '-'
		case r == '\u00d7':
			r = 'x'
		case r == '\u30fc' && endsWithSquare(b.String()) && startsWithSquare(s[i+len("\u30fc"):]):
			r = '-'
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// isSquare reports whether s starts with a square, a1 to g7, in any case.
func isSquare(s string) bool {
	if len(s) < 2 {
		return false
	}
	f := s[0] | 0x20
	return 'a' <= f && f <= 'g' && '1' <= s[1] && s[1] <= '7'
}

// endsWithSquare and startsWithSquare report whether s ends or starts
// with a square, spaces aside.
func endsWithSquare(s string) bool {
	s = strings.TrimRight(s, " ")
	return len(s) >= 2 && isSquare(s[len(s)-2:])
}

func startsWithSquare(s string) bool { return isSquare(strings.TrimLeft(s, " ")) }

// canonical writes a move text that isMove accepts as R20 writes moves:
// squares in lower case, joined by "-", or by "x" where the text has "x"
// (or "×"), without spaces. A final "x" (MindSports' capture mark, as in
// "d2-e3x") is kept as written, a final "-" dropped.
func canonical(move string) string {
	move = mapSeparators(move)
	var b strings.Builder
	var sep byte // the separator since the last square: 0, '-' or 'x'
	for i := 0; i < len(move); {
		switch c := move[i]; {
		case c == '-':
			sep = max(sep, '-')
			i++
		case c == 'x' || c == 'X':
			sep = 'x'
			i++
		case isSquare(move[i:]):
			if b.Len() > 0 {
				b.WriteByte(max(sep, '-'))
			}
			b.WriteString(strings.ToLower(move[i : i+2]))
			sep = 0
			i += 2
		default: // a space, or what isMove accepts besides
			_, w := utf8.DecodeRuneInString(move[i:])
			i += w
		}
	}
	if sep == 'x' {
		b.WriteByte('x')
	}
	return b.String()
}

// hintReplacer turns the ways people write a move that R20 does not know
// into its separators, for moveHint.
var hintReplacer = strings.NewReplacer(
	"->", "-", "=>", "-", "→", "-", "⇒", "-", "—>", "-", "〜", "-", "~", "-",
	" to ", "-", ":", "x", "*", "x",
)

// moveHint guesses the move meant by text, the words of a line that is
// not a move: "b2->b3", "b2 to b3", "c3:d4", "c3*d4" are guessed as
// "b2-b3" and "c3xd4", in R20's canonical form; and so, written as R20
// does, are the forms that are moves already ("b2b3", "B2 B3", "b2–b3").
// ok is false when text is no move in any of these ways.
func moveHint(text string) (string, bool) {
	t := strings.TrimFunc(text, isSpace)
	if t == "" || len(t) > maxLineLen {
		return "", false
	}
	t = mapSeparators(hintReplacer.Replace(strings.ToLower(t)))
	if !isMove(t) {
		return "", false
	}
	return canonical(t), true
}

// badMoveExample returns how to write the move that move, which is no
// move, was meant as (see moveHint), or a general example.
func badMoveExample(move string) string {
	if m, ok := moveHint(move); ok {
		return m
	}
	return "b2-b3"
}

// findMove finds the first move-shaped token in a normalised line of
// words: squares joined by "-" or "x" (or a dash or "×", with spaces or
// not around them, as in "b2-b3", "c3xd4", "b2 - b3", "b2ーb3"), not
// part of a longer word of ASCII letters and digits; Japanese and other
// words may touch it, as they are written without spaces. It returns the
// token and its canonical form.
func findMove(line string) (token, move string, ok bool) {
	for i := 0; i+2 <= len(line); i++ {
		if !isSquare(line[i:]) || i > 0 && isWordByte(line[i-1]) {
			continue
		}
		end := moveEnd(line, i)
		if end < 0 {
			continue
		}
		token = line[i:end]
		if m := mapSeparators(token); isMove(m) {
			return token, canonical(m), true
		}
	}
	return "", "", false
}

// moveEnd returns the end of the move-shaped token at line[i:], which
// starts with a square, or -1 when there is none there: at least one
// separator and square must follow, and no ASCII letter or digit after.
func moveEnd(line string, i int) int {
	end := -1
	j := i + 2 // after the last square
	for {
		k := skipBlanks(line, j)
		r, w := utf8.DecodeRuneInString(line[k:])
		if !isSeparatorRune(r) {
			break
		}
		next := skipBlanks(line, k+w)
		if !isSquare(line[next:]) {
			// A final x, MindSports' capture mark, as in "d2-e3x".
			if (r == 'x' || r == 'X') && k == j && end >= 0 {
				end = j + 1
			}
			break
		}
		j = next + 2
		end = j
	}
	if end < 0 || end < len(line) && isWordByte(line[end]) {
		return -1
	}
	return end
}

func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// isSeparatorRune reports whether r may join the squares of a move-shaped
// token: "-", "x", a dash, the minus sign, "×" or the katakana long mark.
func isSeparatorRune(r rune) bool {
	switch {
	case r == '-', r == 'x', r == 'X', r == '\u00d7', r == '\u2212', r == '\u30fc':
		return true
	}
	return '\u2010' <= r && r <= '\u2015'
}

// digestMove reads a normalised line of a reply to a digest (M24):
// "<id>: <move>", "<id> <move>" or "game <id> <move>", the move with the
// decorations of M20. ok is false when the line is none of these;
// otherwise m and guard are as moveAlone's.
func digestMove(line string) (id int64, m MoveArgs, guard, ok bool) {
	id, rest, ok := digestGame(line)
	if !ok {
		return 0, MoveArgs{}, false, false
	}
	m, guard, ok = moveAlone(rest)
	return id, m, guard, ok
}

// digestGame cuts the game off a line of a reply to a digest: "<id>:",
// "<id>" or "game <id>" before the rest (the number may be written
// "#42", and a colon may follow it in every form). ok is false when the
// line does not start so, or nothing follows.
func digestGame(line string) (id int64, rest string, ok bool) {
	s := line
	if hasPrefixFold(s, "game") {
		if t, cut := cutSpaces(s[len("game"):]); cut {
			s = t
		}
	}
	j := 0
	if strings.HasPrefix(s, "#") {
		j++
	}
	for j < len(s) && '0' <= s[j] && s[j] <= '9' {
		j++
	}
	if id, ok = parseID(s[:j]); !ok {
		return 0, "", false
	}
	rest = s[j:]
	if t := strings.TrimLeftFunc(rest, isSpace); strings.HasPrefix(t, ":") {
		rest = t[1:]
	} else if len(t) == len(rest) {
		return 0, "", false // "42b2-b3"
	}
	rest = strings.TrimFunc(rest, isSpace)
	return id, rest, rest != ""
}
