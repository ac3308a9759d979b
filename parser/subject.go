package parser

import "strings"

// The Subject of a mail: its reply prefixes and the game it names.

// stripSubject returns the first line of subject (mailmsg unfolds it
// into one) without its reply and forward prefixes and "[...]" tags,
// trimmed.
func stripSubject(subject string) string {
	s, _ := nextLine(subject)
	s = strings.TrimFunc(s, isSpace)
	for {
		rest, ok := cutSubjectPrefix(s)
		if !ok {
			return s
		}
		s = strings.TrimFunc(rest, isSpace)
	}
}

// cutSubjectPrefix cuts one reply or forward prefix ("Re:", "RE :",
// "Re[2]:", "Fwd:", "AW:", "SV:", "Antw:", ...) or one "[...]" tag off the
// start of s.
func cutSubjectPrefix(s string) (string, bool) {
	if strings.HasPrefix(s, "[") {
		if i := strings.IndexByte(s, ']'); i > 0 {
			return s[i+1:], true
		}
		return s, false
	}
	i := 0
	for i < len(s) && i <= 4 && isLetter(s[i]) {
		i++
	}
	if !isReplyWord(s[:i]) {
		return s, false
	}
	// A count of replies, as in "Re[2]:" or "Re(2):".
	if i < len(s) && (s[i] == '[' || s[i] == '(') {
		end := byte(']')
		if s[i] == '(' {
			end = ')'
		}
		j := i + 1
		for j < len(s) && '0' <= s[j] && s[j] <= '9' {
			j++
		}
		if j > i+1 && j < len(s) && s[j] == end {
			i = j + 1
		}
	}
	if i < len(s) && s[i] == ' ' { // French style, "RE : ..."
		i++
	}
	if i < len(s) && s[i] == ':' {
		return s[i+1:], true
	}
	return s, false
}

// isReplyWord reports whether w is a prefix word that mail programs put
// before the Subject of a reply or a forwarded mail, in some language.
func isReplyWord(w string) bool {
	switch strings.ToLower(w) {
	case "re", "fw", "fwd", "aw", "wg", "sv", "vs", "antw", "tr", "rv", "enc":
		return true
	}
	return false
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

func isWordByte(c byte) bool { return isLetter(c) || '0' <= c && c <= '9' || c == '_' }

// subjectGameWords are the words for a game in the Subjects of the
// server's mails, in each language of templates/lang (M22): "Congo game
// 42", "Congo 対局 42", "Congo partie 42". TestSubjectsName (templates)
// checks that GameFromSubject reads every language's Subject.
var subjectGameWords = [...]string{"game", "対局", "partie"}

// GameFromSubject returns the game number in a Subject that names a game
// as the server's mails do, in any of their languages, such as "Re: Congo
// game 42: alice vs bob" (42), "Re: Congo 対局 42: alice 対 bob" or "Re:
// Congo partie 42: alice – bob", or 0 when it names none. Case is ignored
// and the number may be written "#42".
func GameFromSubject(subject string) int64 {
	for i := 0; i+len(gameWord) <= len(subject); i++ {
		if !strings.EqualFold(subject[i:i+len(gameWord)], gameWord) || i > 0 && isWordByte(subject[i-1]) {
			continue
		}
		s, ok := cutSpaces(subject[i+len(gameWord):])
		if !ok {
			continue
		}
		word := ""
		for _, w := range subjectGameWords {
			if hasPrefixFold(s, w) {
				word = w
			}
		}
		if word == "" {
			continue
		}
		// A word of letters needs a space before the number; a Japanese
		// one may touch it.
		if s, ok = cutSpaces(s[len(word):]); !ok && isLetter(word[0]) {
			continue
		}
		s = strings.TrimPrefix(s, "#")
		j := 0
		for j < len(s) && '0' <= s[j] && s[j] <= '9' {
			j++
		}
		if j < len(s) && isWordByte(s[j]) {
			continue
		}
		if id, ok := parseID(s[:j]); ok {
			return id
		}
	}
	return 0
}

// cutSpaces cuts the spaces and tabs off the start of s, reporting whether
// there were any.
func cutSpaces(s string) (string, bool) {
	t := strings.TrimLeft(s, " \t")
	return t, len(t) < len(s)
}
