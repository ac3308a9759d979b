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
