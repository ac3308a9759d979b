package mailmsg

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/emersion/go-message"
)

// The budget for reading one mail (M32). go-message reads a part nested n
// levels deep through n readers, one over the other, so that the cost of
// a mail grows with the square of its nesting; and a mail of many parts
// costs a scan of each. Parse follows at most MaxDepth levels and looks
// at most at MaxParts parts, decodes at most MaxDecodedText bytes of text,
// and stops reading after ParseTimeout. What was read before is kept, and
// Incoming.Cut says why the rest was not.
const (
	// MaxDepth is the deepest MIME nesting read: the parts of a
	// multipart inside MaxDepth others are not.
	MaxDepth = 20

	// MaxParts is the most MIME parts looked at, multiparts included,
	// the mail itself not.
	MaxParts = 100

	// MaxDecodedText is the most text decoded from the text parts of one
	// mail, in bytes of UTF-8. Parse reads at most MaxText bytes of a
	// text/plain part and 4*MaxText of a text/html one, so today this
	// bounds only what later changes to those limits could cost.
	MaxDecodedText = 1 << 20

	// ParseTimeout is the most time Parse spends reading a mail's body.
	ParseTimeout = time.Second
)

// budget is what reading one mail may cost; Parse uses defaultBudget.
type budget struct {
	Depth   int           // most nested multiparts followed
	Parts   int           // most parts looked at
	Text    int           // most bytes of decoded text read
	Timeout time.Duration // most time spent reading the body
}

var defaultBudget = budget{Depth: MaxDepth, Parts: MaxParts, Text: MaxDecodedText, Timeout: ParseTimeout}

// errDeadline is what a deadlineReader returns once its time is up.
var errDeadline = errors.New("mail took too long to read")

// deadlineReader reads from r until its deadline passes, then fails, and
// so do the readers of go-message stacked on it: they stop promptly.
type deadlineReader struct {
	r        io.Reader
	deadline time.Time
	expired  bool
}

func (d *deadlineReader) Read(p []byte) (int, error) {
	if d.late() {
		return 0, errDeadline
	}
	return d.r.Read(p)
}

// late reports whether the deadline has passed.
func (d *deadlineReader) late() bool {
	if !d.expired && !time.Now().Before(d.deadline) {
		d.expired = true
	}
	return d.expired
}

// walker looks for the text of a mail, part by part, within a budget.
type walker struct {
	budget  budget
	body    *deadlineReader // the raw body all parts are read from
	parts   int             // parts looked at
	decoded int             // bytes of decoded text read
	cut     string          // why reading stopped early; empty when it did not
	cutFmt  string          // cut's format and arguments
	cutArgs []any
	errs    []error
}

// stop records why reading stopped early, when it is the first reason.
func (w *walker) stop(format string, args ...any) {
	if w.cut == "" {
		w.cut, w.cutFmt, w.cutArgs = fmt.Sprintf(format, args...), format, args
	}
}

// late reports whether the time to read the mail is up, and records it.
func (w *walker) late() bool {
	if w.body.late() {
		w.stop("took longer than %v to read", w.budget.Timeout)
		return true
	}
	return false
}

// fail records an error met while reading part n; one caused by the
// deadline records the deadline instead.
func (w *walker) fail(n int, err error) {
	if w.late() {
		return
	}
	if n == 0 {
		w.errs = append(w.errs, fmt.Errorf("message: %w", err))
		return
	}
	w.errs = append(w.errs, fmt.Errorf("mime part %d: %w", n, err))
}

// text returns the text of the mail e and whether it was truncated (see
// Parse), walking its parts depth first: the first text/plain part that is
// not an attachment, else the first text/html part turned into text. Each
// part is looked at as it comes, so that the walk stops where the budget
// runs out.
func (w *walker) text(e *message.Entity) (string, bool) {
	var (
		open    []message.MultipartReader // the multiparts being read, outermost first
		html    []byte
		htmlCut bool
		n       int // the number of the part e
	)
	for e != nil {
		if mr := e.MultipartReader(); mr != nil {
			if len(open) == w.budget.Depth {
				w.stop("MIME nesting deeper than %d levels", w.budget.Depth)
				break
			}
			open = append(open, mr)
		} else if t, params, inline := textPart(e); inline {
			switch {
			case t == "text/plain":
				b, cut := w.read(n, e.Body, MaxText)
				return plainText(toUTF8(b, params["charset"]), params, cut)
			case t == "text/html" && html == nil:
				html, htmlCut = w.read(n, e.Body, maxHTML)
			}
		}
		e, open = w.next(open)
		n = w.parts
	}
	if html == nil {
		return "", false
	}
	text := normalizeText(htmlToText(toUTF8(html, "")))
	if len(text) > MaxText {
		return trimPartialRune(text[:MaxText]), true
	}
	return text, htmlCut
}

// next returns the next part of the innermost of the open multiparts,
// and them without those that had no more; the part is nil when there
// are no more parts or the budget ran out. A multipart that cannot be
// read further is given up with an error, and the walk goes on in the one
// around it.
func (w *walker) next(open []message.MultipartReader) (*message.Entity, []message.MultipartReader) {
	for len(open) > 0 {
		if w.cut != "" || w.late() {
			return nil, open
		}
		p, err := open[len(open)-1].NextPart()
		if err == io.EOF {
			open = open[:len(open)-1]
			continue
		}
		if p == nil {
			w.fail(w.parts+1, err)
			open = open[:len(open)-1]
			continue
		}
		w.parts++
		if w.parts > w.budget.Parts {
			w.stop("more than %d parts", w.budget.Parts)
			return nil, open
		}
		if err != nil {
			w.fail(w.parts, err) // an unknown charset or encoding: still readable
		}
		return p, open
	}
	return nil, open
}

// read reads at most limit bytes of a text part's decoded body and
// reports whether the part was longer. The bytes count against the
// budget of decoded text; when that runs out first, the mail is cut
// there. What was read before an error is kept.
func (w *walker) read(n int, r io.Reader, limit int) ([]byte, bool) {
	most := min(limit, w.budget.Text-w.decoded)
	b, err := io.ReadAll(io.LimitReader(r, int64(most)+1))
	more := len(b) > most
	if more {
		b = []byte(trimPartialRune(string(b[:most])))
	}
	w.decoded += len(b)
	if err != nil {
		w.fail(n, err)
	}
	if more && most < limit {
		w.stop("more than %s of text", byteSize(w.budget.Text))
		return b, false
	}
	return b, more
}

// textPart returns the media type and its parameters of a part that is not
// a multipart, and whether the part is text of the mail rather than an
// attachment (as go-message's mail.Reader decides).
func textPart(e *message.Entity) (string, map[string]string, bool) {
	t, params, _ := e.Header.ContentType()
	disp, _, _ := e.Header.ContentDisposition()
	inline := disp == "inline" || (disp != "attachment" && strings.HasPrefix(t, "text/"))
	if t == "" {
		t = "text/plain" // RFC 2045 5.2
	}
	return t, params, inline
}

// plainText turns the decoded body of a text/plain part into the text of
// the mail: line ends and controls cleaned, format=flowed undone, at most
// MaxText bytes. The body was read up to MaxText bytes, but making it
// valid UTF-8 can make it longer (a windows-1252 byte becomes up to
// three), as can quote marks that unflow writes out.
func plainText(s string, params map[string]string, cut bool) (string, bool) {
	s = normalizeText(s)
	if strings.EqualFold(params["format"], "flowed") {
		s = unflow(s, strings.EqualFold(params["delsp"], "yes"))
	}
	if len(s) > MaxText {
		s, cut = trimPartialRune(s[:MaxText]), true
	}
	return s, cut
}

// byteSize writes n bytes the way people read them: "1 MiB", "64 KiB",
// "100 bytes".
func byteSize(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
