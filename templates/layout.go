package templates

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	eawidth "golang.org/x/text/width"
)

// signatureSeparator starts the footer; mail programs leave what follows
// it out of replies. Its trailing space is part of it.
const signatureSeparator = "-- "

// width is the longest line of prose in a mail.
const width = 72

// tidy lets templates be written loosely: it removes trailing spaces and
// runs of blank lines, wraps prose lines longer than width, and ends the
// text with one newline. Indented lines and quotes ("> ") are left as
// they are: boards, commands, addresses and players' words.
func tidy(s string) string { return tidyWith(s, false) }

// tidyWith is tidy, and with oneLetter set it ends no line with a word of
// one letter, as Czech typography has it ("v", "k", "s", "z", "a", "i",
// "o", "u" go with the word after them).
func tidyWith(s string, oneLetter bool) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l != signatureSeparator {
			l = strings.TrimRight(l, " \t")
		}
		if l == "" && (len(out) == 0 || out[len(out)-1] == "") {
			continue
		}
		if strings.HasPrefix(l, " ") || strings.HasPrefix(l, ">") {
			out = append(out, l)
			continue
		}
		out = append(out, wrap(l, oneLetter)...)
	}
	return strings.TrimRight(strings.Join(out, "\n"), "\n") + "\n"
}

// wrap breaks a line into lines of at most width columns, a wide
// character (as Japanese ones are) taking two: at spaces, and between two
// wide characters where Japanese line breaking allows it, not before
// closing punctuation such as 、。」） nor after opening such as 「（,
// and not within "<...>" or the quotes of Czech and Japanese, „...“ and
// 「...」, which hold commands, nor within a command (inCommand). A word longer than width stays whole on
// its own line.
func wrap(l string, oneLetter bool) []string {
	var lines []string
	for columns(l) > width {
		cut, skip := breakAt(l, oneLetter)
		if cut <= 0 {
			break
		}
		lines = append(lines, strings.TrimRight(l[:cut], " "))
		l = strings.TrimLeft(l[cut+skip:], " ")
	}
	return append(lines, l)
}

// breakAt finds where to break l, longer than width columns: the byte
// offset of the last break within width (or, when there is none, the
// first), and how many bytes the break itself takes (1 for a space, 0
// between wide characters); 0, 0 when l cannot be broken. With
// oneLetter, no break follows a word of one letter.
func breakAt(l string, oneLetter bool) (cut, skip int) {
	col, last, lastSkip := 0, 0, 0
	var prev rune
	word := 0       // letters of the word before, since the last space
	inside := false // within "<...>", "„...“" or "「...」": a command, or a placeholder of one
	quoted := false // inside is a command in straight quotes ("move congo 42 b2-b3")
	for i, r := range l {
		if col > width && last > 0 {
			break
		}
		if r == '>' || r == '“' || r == '」' || r == '"' && quoted {
			inside, quoted = false, false
		}
		switch {
		case i == 0, inside:
		case r == ' ':
			if (col <= width || last == 0) && !(oneLetter && word == 1 && unicode.IsLetter(prev)) && !inCommand(l, i) {
				last, lastSkip = i, 1
			}
		case wide(prev) && wide(r) && !strings.ContainsRune(noBreakBefore, r) && !strings.ContainsRune(noBreakAfter, prev),
			strings.ContainsRune(breakAfter, prev) && !strings.ContainsRune(noBreakBefore, r):
			if col <= width || last == 0 {
				last, lastSkip = i, 0
			}
		}
		switch {
		case r == '<' || r == '„' || r == '「':
			// After the check, so that a line may break before the
			// mark, as before 「 in Japanese.
			inside = closes(l[i:])
		case r == '"' && !inside && !quoted && i+1 < len(l):
			inside = quotedCommand(l[i+1:])
			quoted = inside
		}
		col += runeColumns(r)
		prev = r
		if r == ' ' {
			word = 0
		} else {
			word++
		}
	}
	return last, lastSkip
}

// inCommand reports whether the space at l[i] is within a command a
// player is to write, which a break would cut in two: between a command
// word and "congo" ("decline congo 42"), after "congo", or before a
// placeholder ("challenge congo <handle>"). After a command's argument a
// line may break ("congo 12, congo 15").
func inCommand(l string, i int) bool {
	before, next := l[:i], l[i+1:]
	if strings.HasSuffix(before, " congo") || strings.HasPrefix(next, "<") {
		return true
	}
	if !strings.HasPrefix(next, "congo ") {
		return false
	}
	// The command word, without the quote that opens the command
	// ("nodraw congo 42").
	word := strings.TrimLeft(before[strings.LastIndexByte(before, ' ')+1:], "\"'„“(")
	return word != "" && strings.Trim(word, "abcdefghijklmnopqrstuvwxyz") == ""
}

// quotedCommand reports whether s, the text after an opening straight
// quote, is a short command with its game before the closing quote
// ("move congo 42 b2-b3 anyway"), which a break would cut in two.
func quotedCommand(s string) bool {
	end := strings.IndexByte(s, '"')
	if end < 0 || end > 40 {
		return false
	}
	word, rest, ok := strings.Cut(s[:end], " ")
	return ok && word != "" && strings.Trim(word, "abcdefghijklmnopqrstuvwxyz") == "" && strings.HasPrefix(rest, "congo ")
}

// closes reports whether the opening mark that starts s ("<", "„" or
// "「") is closed within a short span, as a placeholder or a quoted
// command is; a stray one (a "<" in a player's words) holds no line
// together. A placeholder holds no space.
func closes(s string) bool {
	open, size := utf8.DecodeRuneInString(s)
	want := '>'
	switch open {
	case '„':
		want = '“'
	case '「':
		want = '」'
	}
	n := 0
	for _, r := range s[size:] {
		switch {
		case r == want:
			return true
		case open == '<' && r == ' ', n == 60:
			return false
		}
		n++
	}
	return false
}

// Japanese line breaking (kinsoku): no line starts with noBreakBefore,
// none ends with noBreakAfter; a line may end after breakAfter, the
// Japanese closing punctuation, whatever follows it ("です。|2025年",
// "ください：|register").
const (
	noBreakBefore = "、。，．・：；？！ー）」』】〕〉》’”ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮ々〜…‥"
	noBreakAfter  = "（「『【〔〈《‘“"
	breakAfter    = "、。：；！？）」』"
)

// wide reports whether r takes two columns, as East Asian wide and
// full-width characters do.
func wide(r rune) bool {
	switch eawidth.LookupRune(r).Kind() {
	case eawidth.EastAsianWide, eawidth.EastAsianFullwidth:
		return true
	}
	return false
}

func runeColumns(r rune) int {
	if wide(r) {
		return 2
	}
	return 1
}

// columns is how many columns s takes in a fixed-width font.
func columns(s string) int {
	n := 0
	for _, r := range s {
		n += runeColumns(r)
	}
	return n
}

// pad writes s and spaces after it up to n columns.
func pad(n int, s string) string {
	return s + strings.Repeat(" ", max(0, n-columns(s)))
}

// joinLines joins two lines of prose that wrap broke apart: with a
// space, unless wrap broke between two wide characters.
func joinLines(a, b string) string {
	ra, _ := utf8.DecodeLastRuneInString(a)
	rb, _ := utf8.DecodeRuneInString(b)
	if wide(ra) && wide(rb) {
		return a + b
	}
	return a + " " + b
}

// indent puts prefix before every line of s.
func indent(prefix, s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}

// alignGames returns a copy of gs, the lines of one list, each knowing
// the widest game number among them ("game 7 " above "game 10").
func alignGames(gs []TournamentGame) []TournamentGame {
	if len(gs) < 2 {
		return gs
	}
	width := 0
	for _, g := range gs {
		width = max(width, len(strconv.FormatInt(g.GameID, 10)))
	}
	out := slices.Clone(gs)
	for i := range out {
		out[i].Width = width
	}
	return out
}
