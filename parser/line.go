package parser

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/congobymail/congo/lang"
	"github.com/congobymail/congo/rules"
)

const (
	// maxLineLen is the longest line read as a command, in bytes. The
	// longest command, a challenge naming a 20-character handle, is far
	// shorter; longer lines are errors, and an Error quotes this much.
	maxLineLen = 256
	// maxWordLen is how much of a single word a Reason quotes, in bytes.
	maxWordLen = 40
	// gameWord names the game; it may follow a game command (move congo 42
	// b2-b3) or come first on any line (congo move 42 b2-b3).
	gameWord = "congo"
)

// ValidHandle reports whether h is a well-formed player handle: 2 to 20
// ASCII letters, digits, '-' or '_'. Letters outside ASCII, such as the
// Cyrillic "а" that looks like "a", are refused. Whether the handle is free
// (unique ignoring case) is for the server to decide.
func ValidHandle(h string) bool {
	if len(h) < 2 || len(h) > 20 {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_':
		default:
			return false
		}
	}
	return true
}

// scope is what a line is read against.
type scope struct {
	game     int64   // the game the mail is about, or 0
	digest   []int64 // the games of the digest the mail replies to (M24), or nil
	operator bool    // whether the operator's commands are read
}

// parseLine reads one line as a command. line is the line as written,
// trimmed and not blank; text is normalise(line), what is read (M21).
// It returns either a Command with a Kind or an Error with a Problem,
// which quotes line. meant reports whether the line is a command by M19,
// so that its Error is one: its first word is a command word (in either
// word order), or it is a move alone (M20) or a digest line (M24). In a
// mail about a game, a line that is not meant is part of the message,
// and its Error is not reported.
func parseLine(line, text string, sc scope) (c Command, e Error, meant bool) {
	fail := func(p Problem, format string, args ...any) (Command, Error, bool) {
		return Command{}, lineError(line, p, format, args...), meant
	}
	long := len(line) > maxNormLen || len(text) > maxLineLen
	words := strings.FieldsFunc(text, isSpace)
	if len(words) == 0 {
		return fail(UnknownCommand, `%s is not a command; send "help" for the list of commands`, quote(line))
	}
	k, args := commandOf(words)
	if k.Operator() && !sc.operator {
		k, args = NoKind, words
	}
	if k == NoKind {
		if long {
			return fail(LongLine, `this line is too long to be a command; send "help" for the list of commands`)
		}
		return bareLine(line, text, words, sc)
	}
	meant = true
	switch {
	case k == Note && len(line) > maxNote:
		return fail(LongLine, "a note line is at most %d bytes: write a longer note on several note lines", maxNote)
	case long && k != Note:
		return fail(LongLine, `this line is too long to be a command; send "help" for the list of commands`)
	}
	c = Command{Kind: k, Line: line}
	if isGameCommand(k) && len(args) > 0 && isGameWord(args[0]) {
		args = args[1:]
	}
	if e := grammar[k].args(&c, args, sc.game); e.Problem != NoProblem {
		return Command{}, e, true
	}
	return c, Error{}, true
}

// conditionalForm says how a conditional line is written, for errors.
const conditionalForm = "write if <their move> then <your move>, for example if c6-c5 then b2-b3 if d6-d5 then c2-c3"

// conditionalMoves reads the words after "if" of a conditional line:
// "<move> then <move> [if <move> then <move> ...]", whose last answer may
// be resign or draw instead of a move (M69). It returns the moves in
// order (ThenResign or ThenDraw last), or the Error of the line that is
// not one.
func conditionalMoves(line string, args []string) ([]string, Error) {
	fail := func(format string, args ...any) ([]string, Error) {
		return nil, lineError(line, BadConditional, format, args...)
	}
	var moves []string
	var cur []string
	want := "then" // the word that ends the move being read
	ended := false // the line ended in resign or draw
	flush := func() (Error, bool) {
		m := mapSeparators(strings.Join(cur, " "))
		if w := strings.ToLower(m); w == ThenResign || w == ThenDraw {
			if len(moves)%2 == 0 {
				_, e := fail("%s answers a move of your opponent's: write if <their move> then %s", w, w)
				return e, false
			}
			moves, ended = append(moves, w), true
			cur = cur[:0]
			return Error{}, true
		}
		if m == "" {
			_, e := fail("a move is missing: " + conditionalForm)
			return e, false
		}
		if !isMove(m) {
			_, e := fail("%s is not a move: "+conditionalForm, quote(m))
			return e, false
		}
		moves = append(moves, m)
		cur = cur[:0]
		return Error{}, true
	}
	for _, w := range args {
		if ended {
			return fail("resign and draw end a conditional line: nothing may follow them")
		}
		switch {
		case strings.EqualFold(w, want):
			if e, ok := flush(); !ok {
				return nil, e
			}
			want = map[string]string{"then": "if", "if": "then"}[want]
		case strings.EqualFold(w, "if") || strings.EqualFold(w, "then"):
			return fail("unexpected %s: "+conditionalForm, quote(w))
		default:
			cur = append(cur, w)
		}
	}
	if want != "if" {
		return fail("the line ends before its move: " + conditionalForm)
	}
	if e, ok := flush(); !ok {
		return nil, e
	}
	return moves, Error{}
}

// bareLine reads a line that starts with no command word: a digest
// line (M24), a move alone (M20), which applies to the game the mail is
// about, a language's name alone (M59), or no command.
func bareLine(line, text string, words []string, sc scope) (Command, Error, bool) {
	fail := func(meant bool, p Problem, format string, args ...any) (Command, Error, bool) {
		return Command{}, lineError(line, p, format, args...), meant
	}
	if sc.digest != nil {
		if id, m, guard, ok := digestMove(text); ok {
			switch {
			case !guard:
				return fail(true, BadMoveNumber, "the move number after # must be a number from 1 up: write it as %d: b2-b3#1", id)
			case !slices.Contains(sc.digest, id):
				return fail(true, NotInDigest, "game %d was not in the digest you replied to: to play in it, write move congo %d %s", id, id, canonical(m.Move))
			}
			return Command{Kind: Move, Line: line, Game: id, Args: m}, Error{}, true
		}
	}
	if m, guard, ok := moveAlone(text); ok {
		move := m.Move
		switch {
		case !guard:
			return fail(true, BadMoveNumber, "the move number after # must be a number from 1 up: write it as b2-b3#1")
		case sc.game == 0 && len(sc.digest) > 1:
			return fail(true, MissingGame, "%s is a move, but the digest you replied to lists several games: write the game before it, as %d: %s", quote(move), sc.digest[0], cut(move, maxWordLen))
		case sc.game == 0:
			return fail(true, MissingGame, "%s is a move, but this mail is not a reply about a game, so the game is unknown: write move congo <id> %s", quote(move), cut(move, maxWordLen))
		}
		return Command{Kind: Move, Line: line, Game: sc.game, Args: m}, Error{}, true
	}
	if l, ok := languageAlone(text); ok { // česky, 日本語, English (M59)
		return Command{Kind: Language, Line: line, Args: LanguageArgs{Language: l}}, Error{}, true
	}
	if isGameWord(words[0]) && len(words) > 1 { // congo b2-b9, congo mvoe 42 b2-b3
		_, text = cutWord(text)
		words = words[1:]
	}
	if sc.digest != nil {
		if _, rest, ok := digestGame(text); ok { // 12: b2-b9
			text = rest
		}
	}
	if move, _, _ := splitMoveNumber(undecorate(text)); looksLikeMove(move) {
		return fail(false, BadMove, "%s is not a move: write it as %s", quote(move), badMoveExample(move))
	}
	return fail(false, UnknownCommand, `unknown command %s; send "help" for the list of commands`, quote(words[0]))
}

// languageAlone reads a line that is only a language's name (M59:
// "česky", "日本語", "English"), perhaps with a final mark or in quotes,
// as language <name>.
func languageAlone(text string) (lang.Code, bool) {
	return lang.Name(unwrap(trimMarks(text)))
}

// lineError returns the Error for line, with a Reason made by
// fmt.Sprintf(format, args...).
func lineError(line string, p Problem, format string, args ...any) Error {
	return Error{Line: cut(line, maxLineLen), Problem: p, Reason: fmt.Sprintf(format, args...), Format: format, Args: args}
}

// commandOf finds the command word of a line in either word order,
// "move congo 42 b2-b3" or "congo move 42 b2-b3". It returns the command
// and the words after its command word; NoKind when there is none.
func commandOf(words []string) (Kind, []string) {
	if k, args := commandWords(words); k != NoKind {
		return k, args
	}
	if isGameWord(words[0]) && len(words) > 1 {
		if k, args := commandWords(words[1:]); k != NoKind {
			return k, args
		}
	}
	return NoKind, words
}

func isGameWord(w string) bool { return strings.EqualFold(w, gameWord) }

// parseID reads a game number written as "42" or "#42".
func parseID(w string) (int64, bool) {
	w = strings.TrimPrefix(w, "#")
	if w == "" || len(w) > 18 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, n > 0
}

// looksLikeID reports whether w was meant as a game number: it starts
// with a digit or '#'.
func looksLikeID(w string) bool {
	return w != "" && (w[0] == '#' || '0' <= w[0] && w[0] <= '9')
}

// looksLikeMove reports whether w was meant as a move: it starts with a
// letter and a digit, like a square.
func looksLikeMove(w string) bool {
	if len(w) < 2 {
		return false
	}
	c := w[0] | 0x20 // lower case for letters
	return 'a' <= c && c <= 'z' && '0' <= w[1] && w[1] <= '9'
}

// isMove reports whether s is written as a move (R20); legality is the
// server's to judge.
func isMove(s string) bool {
	_, err := rules.ParseMoveText(s)
	return err == nil
}

// splitMoveNumber splits the move number guard (M1) off a move: "b2-b3#1"
// and "b2-b3 #1" give "b2-b3" and 1. Without a '#', n is 0. ok is false
// when a '#' is followed by anything but a number from 1 up; move is then
// still the text before the '#'.
func splitMoveNumber(s string) (move string, n int, ok bool) {
	i := strings.LastIndexByte(s, '#')
	if i < 0 {
		return s, 0, true
	}
	move = strings.TrimFunc(s[:i], isSpace)
	digits := strings.TrimFunc(s[i+1:], isSpace)
	if digits == "" || len(digits) > 9 {
		return move, 0, false
	}
	for j := 0; j < len(digits); j++ {
		c := digits[j]
		if c < '0' || c > '9' {
			return move, 0, false
		}
		n = n*10 + int(c-'0')
	}
	return move, n, n > 0
}

// quote returns w in double quotes, cut to maxWordLen bytes, for a Reason.
func quote(w string) string { return strconv.Quote(cut(w, maxWordLen)) }

// cut returns s when it is at most n bytes long; otherwise its first n
// bytes or fewer, ending on a whole character, and "...".
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// nextLine splits s after its first line, ended by "\n", "\r\n" or "\r".
func nextLine(s string) (line, rest string) {
	i := strings.IndexAny(s, "\r\n")
	if i < 0 {
		return s, ""
	}
	j := i + 1
	if s[i] == '\r' && j < len(s) && s[j] == '\n' {
		j++
	}
	return s[:i], s[j:]
}

// isSpace reports whether r separates words: white space, including the
// non-breaking space, and the invisible characters mail programs leave.
func isSpace(r rune) bool {
	switch r {
	case '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff':
		return true
	}
	return unicode.IsSpace(r)
}

// hasPrefixFold reports whether s starts with prefix, ignoring case.
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
