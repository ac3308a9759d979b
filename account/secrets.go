package account

import (
	"context"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/congobymail/congo/db"
)

// Removed stands in for a secret of ours in relayed words (M30): the
// words of outbox.Removed.
const Removed = "[address removed]"

// RemoveSecrets returns text with every secret of a player's personal
// address in it replaced by Removed (M57), in every form that still
// reads as it: after percent-decoding, Unicode NFKC and case folding,
// without format characters (zero-width spaces and joiners, soft
// hyphens), with spaces, dots and hyphens inside it ignored, and alone
// as well as in an address. It returns how many it removed.
func RemoveSecrets(ctx context.Context, tx *db.Tx, text string) (string, int, error) {
	ws := secretWindows(text)
	if len(ws) == 0 {
		return text, 0, nil
	}
	seen := map[string]bool{}
	var texts []string
	for _, w := range ws {
		if !seen[w.text] {
			seen[w.text] = true
			texts = append(texts, w.text)
		}
	}
	known, err := tx.KnownSecrets(ctx, texts)
	if err != nil || len(known) == 0 {
		return text, 0, err
	}
	var spans [][2]int
	for _, w := range ws {
		if slices.Contains(known, w.text) {
			spans = append(spans, [2]int{w.start, w.end})
		}
	}
	return cut(text, spans), len(spans), nil
}

// window is a run of SecretLen characters of a secret's alphabet as a
// text reads (secretWindows), and the bytes of the text it stands on.
type window struct {
	text       string
	start, end int
}

// secretWindows returns every run of SecretLen characters of the
// secrets' alphabet (a-z, 2-7) in text as it reads after
// percent-decoding, NFKC and case folding, without format characters,
// spaces, dots and hyphens; overlapping runs too.
func secretWindows(text string) []window {
	type unit struct {
		r          rune
		start, end int
	}
	var units []unit
	fold := cases.Fold()
	emit := func(r rune, start, end int) {
		for _, n := range fold.String(norm.NFKC.String(string(r))) {
			if unicode.Is(unicode.Cf, n) || unicode.IsSpace(n) || n == '.' || n == '-' || n == '\u00ad' {
				continue
			}
			units = append(units, unit{n, start, end})
		}
	}
	// The bytes of text, percent-decoded, made into runes, each with the
	// bytes of text it came of.
	var buf []byte
	var starts, ends []int // of each byte of buf in text
	flush := func(all bool) {
		for len(buf) > 0 && (all || utf8.FullRune(buf)) {
			r, n := utf8.DecodeRune(buf)
			emit(r, starts[0], ends[n-1])
			buf, starts, ends = buf[n:], starts[n:], ends[n:]
		}
	}
	for i := 0; i < len(text); {
		b, start := text[i], i
		if b == '%' && i+2 < len(text) && isHex(text[i+1]) && isHex(text[i+2]) {
			b = unhex(text[i+1])<<4 | unhex(text[i+2])
			i += 3
		} else {
			i++
		}
		buf, starts, ends = append(buf, b), append(starts, start), append(ends, i)
		flush(false)
	}
	flush(true)
	var out []window
	run := 0 // the length of the run of the alphabet ending at j
	for j, u := range units {
		if u.r >= 'a' && u.r <= 'z' || u.r >= '2' && u.r <= '7' {
			run++
		} else {
			run = 0
		}
		if run >= SecretLen {
			first := j - SecretLen + 1
			var b strings.Builder
			for _, v := range units[first : j+1] {
				b.WriteRune(v.r)
			}
			out = append(out, window{b.String(), units[first].start, u.end})
		}
	}
	return out
}

// cut replaces the spans of text by Removed, overlapping spans as one.
func cut(text string, spans [][2]int) string {
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	var b strings.Builder
	at := 0
	for i := 0; i < len(spans); {
		start, end := spans[i][0], spans[i][1]
		for i++; i < len(spans) && spans[i][0] <= end; i++ {
			end = max(end, spans[i][1])
		}
		b.WriteString(text[at:max(start, at)])
		b.WriteString(Removed)
		at = max(end, at)
	}
	b.WriteString(text[at:])
	return b.String()
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}
