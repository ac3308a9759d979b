package parser

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// hint says more about a line that is no command, when its words show what
// was meant: a command word misspelt ("mvoe congo 42 b2-b3": did you mean
// "move congo 42 b2-b3"?), or a command after other words ("Hello! Please
// register alice."). e is the line's UnknownCommand Error; it is returned
// as it is when there is nothing to add. It runs only for the lines whose
// Error is answered, not for the lines of a message (M19).
func hint(line, text string, sc scope, e Error) Error {
	words := strings.FieldsFunc(text, isSpace)
	if len(words) == 0 || len(text) > maxLineLen {
		return e
	}
	first := words[0]
	if isGameWord(first) && len(words) > 1 {
		first = words[1]
	}
	if mended, ok := misspelt(words, sc); ok {
		return lineError(line, UnknownCommand, `unknown command %s; did you mean %s?`, quote(first), strconv.Quote(mended))
	}
	if within, ok := commandWithin(words, sc); ok {
		return lineError(line, UnknownCommand, `unknown command %s; to send %s, write it on a line of its own`, quote(first), strconv.Quote(within))
	}
	return e
}

// minTypoLen is the shortest word read as a misspelt command word: below
// it many short words of prose ("if", "tho", "raw") are one letter from
// a command.
const minTypoLen = 4

// misspelt finds the command a line's first word (after the game word,
// if that comes first) misspells by one
// letter (wrong, missing, extra, or two swapped: "mvoe", "chalenge",
// "resing"), so that the answer can ask whether it was meant. The line
// with the word mended must read as a whole command, without an
// error, or there is none: "Draws are rare" is no misspelt "draw".
func misspelt(words []string, sc scope) (string, bool) {
	at := 0
	if isGameWord(words[0]) && len(words) > 1 { // congo mvoe 42 b2-b3
		at = 1
	}
	w := strings.ToLower(words[at])
	if utf8.RuneCountInString(w) < minTypoLen {
		return "", false
	}
	for k := Help; k <= lastKind; k++ {
		if k.Operator() && !sc.operator {
			continue
		}
		for _, word := range []string{grammar[k].word, grammar[k].also} {
			if word == "" || strings.Contains(word, " ") || !oneEdit(w, word) {
				continue
			}
			mended := append(append(words[:at:at], word), words[at+1:]...)
			text := strings.Join(mended, " ")
			if k2, _ := commandOf(mended); k2 == NoKind {
				continue // a word that starts the command only with more after it
			}
			if c, e, _ := parseLine(text, text, sc); e.Problem == NoProblem && c.Kind != NoKind {
				return text, true
			}
		}
	}
	return "", false
}

// oneEdit reports whether a and b differ by exactly one edit: a letter
// replaced, added, removed, or two letters next to each other swapped.
func oneEdit(a, b string) bool {
	if d := len(a) - len(b); d > utf8.UTFMax || d < -utf8.UTFMax {
		return false // more than one letter apart in length
	}
	ra, rb := []rune(a), []rune(b)
	if len(ra) < len(rb) {
		ra, rb = rb, ra
	}
	switch len(ra) - len(rb) {
	case 0:
		diff := -1
		for i := range ra {
			if ra[i] == rb[i] {
				continue
			}
			if diff >= 0 {
				// a second difference: a swap of these two only
				return i == diff+1 && ra[diff] == rb[i] && ra[i] == rb[diff] && string(ra[i+1:]) == string(rb[i+1:])
			}
			diff = i
		}
		return diff >= 0
	case 1:
		i := 0
		for i < len(rb) && ra[i] == rb[i] {
			i++
		}
		return string(ra[i+1:]) == string(rb[i:])
	}
	return false
}

// maxWithin is how many words into a line commandWithin looks for a
// command word.
const maxWithin = 16

// commandWithin finds a command written after other words on a line that
// starts with none, as "Hello! Please register alice." holds "register
// alice", so that the answer can show how to send it: the words from a
// command word on (its sentence's last marks cut when it reads only
// without them) must read as a whole command, without an error, or there
// is none.
func commandWithin(words []string, sc scope) (string, bool) {
	for i := 1; i < len(words) && i < maxWithin; i++ {
		if w := words[i]; keyword(w) == NoKind && keyword(trimMarks(w)) == NoKind && !isGameWord(w) {
			continue // no command starts here
		}
		rest := strings.Join(words[i:], " ")
		trimmed := trimMarks(rest)
		for _, c := range []struct {
			text  string
			words []string
		}{{rest, words[i:]}, {trimmed, strings.FieldsFunc(trimmed, isSpace)}} {
			text, ws := c.text, c.words
			// Only a line with a command word is read: one without would
			// come back here.
			if len(ws) == 0 {
				continue
			}
			if k, _ := commandOf(ws); k == NoKind || k.Operator() && !sc.operator {
				continue
			}
			if c, e, _ := parseLine(text, text, sc); e.Problem == NoProblem && c.Kind != NoKind {
				return text, true
			}
		}
	}
	return "", false
}
