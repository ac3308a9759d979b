package server

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/congobymail/congo/templates"
)

// maxQuotedRunes is the most characters of a line of the sender's that an
// answer to a mail that proves nothing quotes (M55).
const maxQuotedRunes = 72

// linkRemoved stands in for a link in a line quoted to a sender whose
// mail proves nothing (M55).
const linkRemoved = "[link removed]"

// hostLike matches a word that names a host: labels joined by dots, the
// last of two letters or more (example.org, paypa1-login.com/x).
var hostLike = regexp.MustCompile(`(?i)[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}([/:?#]|$)`)

// quote is a line of the sender's as an answer to a mail that proves
// nothing quotes it (M55): every link in it (anything with "://" or
// "www.", a host name, any address that is not ours), as it reads after
// Unicode NFKC, replaced by "[link removed]", and the line cut to 72
// characters, so that a forged From cannot make the server carry
// someone's words, or a link, to another.
func (s *Server) quote(line string) string {
	words := strings.Fields(line)
	for i, w := range words {
		if s.isLink(w) {
			words[i] = linkRemoved
		}
	}
	line = strings.Join(words, " ")
	if utf8.RuneCountInString(line) <= maxQuotedRunes {
		return line
	}
	r := []rune(line)
	return strings.TrimSpace(string(r[:maxQuotedRunes-1])) + "…"
}

// isLink reports whether a word is, or holds, a link: as M55 says, and a
// host name, which a mail program makes a link of too.
func (s *Server) isLink(w string) bool {
	n := strings.ToLower(norm.NFKC.String(w))
	n = strings.Trim(n, `"'()[]<>{},;!?`)
	switch {
	case strings.Contains(n, "://"), strings.Contains(n, "www."):
		return true
	case strings.Contains(n, "@"):
		return !s.tell.IsOwn(strings.TrimRight(n, "."))
	}
	return hostLike.MatchString(strings.TrimRight(n, "."))
}

// quoteSections quotes, in the sections of an answer to a mail that
// proves nothing, every word of the sender's as quote does.
func (s *Server) quoteSections(secs []templates.Section) {
	q := func(lines []string) []string {
		out := make([]string, len(lines))
		for i, l := range lines {
			out[i] = s.quote(l)
		}
		return out
	}
	for i, sec := range secs {
		switch x := sec.(type) {
		case templates.Error:
			x.Line, x.Handle = s.quote(x.Line), s.quote(x.Handle)
			if len(x.Reason.Args) > 0 {
				args := make([]any, len(x.Reason.Args))
				for j, a := range x.Reason.Args {
					if str, ok := a.(string); ok {
						a = s.quote(str)
					}
					args[j] = a
				}
				x.Reason.Args = args
			}
			secs[i] = x
		case templates.HowToRegister:
			x.Lines = q(x.Lines)
			secs[i] = x
		case templates.Prove:
			x.Lines = q(x.Lines)
			secs[i] = x
		case templates.Registered:
			x.Asked = s.quote(x.Asked)
			secs[i] = x
		}
	}
}
