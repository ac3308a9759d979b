package mailmsg

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxWord is the longest encoded word written. go-message folds a header
// field only between words, and only when its first word fits after the
// field name: words this short keep every line of a Subject or From under
// the 76 characters that RFC 2047 allows a line with encoded words.
// (mail.Header.SetSubject writes words of 75 characters, which makes
// go-message put a long Subject on one line of up to 998.)
const maxWord = 60

// encodeText writes s, unstructured text (RFC 5322 3.2.5) such as a
// Subject, for a header: the words that are ASCII stay as they are, and
// each run of words that are not (with the spaces between them) becomes
// RFC 2047 Q encoded words in UTF-8. A word holding "=?" is encoded too,
// lest it be read as an encoded word.
func encodeText(s string) string {
	words := strings.Split(s, " ")
	need := make([]bool, len(words))
	for i, w := range words {
		need[i] = !ascii(w) || strings.Contains(w, "=?")
	}
	var out []string
	for i := 0; i < len(words); {
		if !need[i] {
			out = append(out, words[i])
			i++
			continue
		}
		// The run ends at the last word to encode before a word that
		// needs no encoding; empty words (double spaces) stay inside.
		last := i
		for k := i + 1; k < len(words) && (need[k] || words[k] == ""); k++ {
			if need[k] {
				last = k
			}
		}
		out = append(out, encodeWords(strings.Join(words[i:last+1], " ")))
		i = last + 1
	}
	return strings.Join(out, " ")
}

// encodeWords writes s as RFC 2047 Q encoded words in UTF-8 of at most
// maxWord characters, separated by spaces (which readers drop), split
// between characters. Only letters, digits and "!*+-/" stand for
// themselves, so that the words may stand in a phrase too (RFC 2047
// 5(3)).
func encodeWords(s string) string {
	const prefix, suffix = "=?utf-8?q?", "?="
	var (
		b    strings.Builder
		word strings.Builder
	)
	flush := func() {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(prefix + word.String() + suffix)
		word.Reset()
	}
	for _, r := range s {
		var enc string
		switch {
		case r == ' ':
			enc = "_"
		case r < utf8.RuneSelf && qSafe(byte(r)):
			enc = string(r)
		default:
			var buf [utf8.UTFMax]byte
			for _, c := range buf[:utf8.EncodeRune(buf[:], r)] {
				enc += fmt.Sprintf("=%02X", c)
			}
		}
		if word.Len() > 0 && len(prefix)+word.Len()+len(enc)+len(suffix) > maxWord {
			flush()
		}
		word.WriteString(enc)
	}
	if word.Len() > 0 || b.Len() == 0 {
		flush()
	}
	return b.String()
}

// qSafe reports whether c stands for itself in a Q encoded word that may
// be in a phrase.
func qSafe(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		strings.IndexByte("!*+-/", c) >= 0
}

// ascii reports whether s is printable ASCII.
func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// htmlTransferEncoding is transferEncoding for an HTML part. A character
// that is not ASCII is first written as a numeric character reference
// (&#8212; for an em dash): every HTML reader shows it the same, and it
// takes no more bytes than quoted-printable's =E2=80=94, so that a part
// with short lines goes as it is (7bit), cheaper to write and to read.
// A part with a line too long for 7bit stays as it was, quoted-printable.
// Only inside <style> (and <script>), where references are not read, do
// the characters stay, and the part is then quoted-printable.
func htmlTransferEncoding(html string) (body []byte, cte string) {
	if b, ok := sevenBitHTML(html); ok {
		return b, "7bit"
	}
	b, cte := transferEncoding(normalizeText(html))
	return []byte(b), cte
}

// sevenBitHTML is html, with LF line ends, as a 7bit body: CRLF line
// ends, characters that are not ASCII as character references; ok is
// false when it cannot be one (a control character but tab and LF, a
// line too long, a character that is not ASCII inside <style> or
// <script>). One pass. (A text that it takes, normalizeText would leave
// as it is.)
func sevenBitHTML(html string) (body []byte, ok bool) {
	b := make([]byte, 0, len(html)+len(html)/16)
	checked := false // rawTextNonASCII was asked
	line := 0        // octets in the line written so far
	for i := 0; i < len(html); {
		switch c := html[i]; {
		case c == '\n':
			b = append(b, '\r', '\n')
			line = 0
			i++
			continue
		case c >= utf8.RuneSelf:
			if !checked {
				if rawTextNonASCII(html) {
					return nil, false
				}
				checked = true
			}
			r, n := utf8.DecodeRuneInString(html[i:])
			start := len(b)
			b = append(strconv.AppendInt(append(b, "&#"...), int64(r), 10), ';')
			line += len(b) - start
			i += n
		case c < 0x20 && c != '\t' || c == 0x7f:
			return nil, false
		default:
			j := i + 1
			for j < len(html) && html[j] != '\n' && html[j] >= 0x20 && html[j] < 0x7f {
				j++
			}
			b = append(b, html[i:j]...)
			line += j - i
			i = j
		}
		if line > maxLine {
			return nil, false
		}
	}
	return b, true
}

// rawTextNonASCII reports whether html has a character that is not ASCII
// inside a <style> or <script> element, whose text character references
// do not stand for.
func rawTextNonASCII(html string) bool {
	for rest := html; ; {
		i := strings.IndexByte(rest, '<')
		if i < 0 {
			return false
		}
		rest = rest[i:]
		end := ""
		for _, tag := range [...]string{"<style", "<script"} {
			if hasPrefixFold(rest, tag) {
				end = "</" + tag[1:]
			}
		}
		if end == "" {
			rest = rest[1:]
			continue
		}
		// The element's text runs to the first end tag of its name.
		j := 1
		for {
			k := strings.IndexByte(rest[j:], '<')
			if k < 0 {
				j = len(rest)
				break
			}
			j += k
			if hasPrefixFold(rest[j:], end) {
				break
			}
			j++
		}
		if indexNonASCII(rest[:j]) >= 0 {
			return true
		}
		rest = rest[j:]
	}
}

// hasPrefixFold reports whether s begins with prefix, ignoring case.
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// indexNonASCII is the index of the first byte of s that is not ASCII, or
// -1.
func indexNonASCII(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return i
		}
	}
	return -1
}

// onlyASCII reports whether s has only ASCII bytes.
func onlyASCII(s string) bool { return indexNonASCII(s) < 0 }
