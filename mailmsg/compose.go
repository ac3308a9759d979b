package mailmsg

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/emersion/go-message/mail"
)

// maxLine is the longest line, in octets without CRLF, that RFC 5322 allows.
const maxLine = 998

// Compose renders o as a raw RFC 5322 message with CRLF line ends and
// returns it with its Message-ID (without brackets). hostname is the right
// side of a generated Message-ID; when empty, the domain of o.From is used.
// A zero o.Date means now.
//
// The body is text/plain in UTF-8: 7bit when it is ASCII with short lines,
// so that boards read the same in the raw mail, quoted-printable otherwise.
// When o.HTML is set, the mail is multipart/alternative: that text/plain
// part first, then o.HTML as text/html (M12), its characters that are
// not ASCII as character references (htmlTransferEncoding).
// From carries o.FromName as its display name (M26), and To o.ToName;
// a name or Subject that is not ASCII is written as RFC 2047 encoded
// words in UTF-8 (M42).
// Every mail says "Auto-Submitted" (RFC 3834), auto-replied when it answers
// a mail (o.InReplyTo is set) and auto-generated otherwise, so that other
// robots do not answer it.
func Compose(o Outgoing, hostname string) ([]byte, string, error) {
	addrs, err := check(o)
	if err != nil {
		return nil, "", err
	}
	from, to := addrs.from, addrs.to
	if hostname == "" {
		_, hostname, _ = strings.Cut(from.Address, "@")
	}
	date := o.Date
	if date.IsZero() {
		date = time.Now()
	}

	text := normalizeText(o.Text)
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	text, cte := transferEncoding(text)
	autoSubmitted := "auto-generated"
	if len(o.InReplyTo) > 0 {
		autoSubmitted = "auto-replied"
	}

	// The header is written last field first: set the fields bottom up.
	var h mail.Header
	if o.HTML == "" {
		h.Set("Content-Transfer-Encoding", cte)
		h.SetContentType("text/plain", map[string]string{"charset": "utf-8"})
	}
	if l := cleanLine(o.Language); l != "" {
		h.Set("Content-Language", l) // Check found it a tag
	}
	h.Set("MIME-Version", "1.0")
	// Asks Exchange not to send out-of-office replies to us.
	h.Set("X-Auto-Response-Suppress", "All")
	h.Set("Auto-Submitted", autoSubmitted)
	h.SetMsgIDList("References", o.References)
	h.SetMsgIDList("In-Reply-To", o.InReplyTo)
	if o.MessageID != "" {
		h.SetMessageID(o.MessageID)
	} else if err := h.GenerateMessageIDWithHostname(hostname); err != nil {
		return nil, "", fmt.Errorf("compose: message id: %w", err)
	}
	h.Set("Subject", encodeText(cleanLine(o.Subject)))
	if addrs.replyTo != nil {
		h.SetAddressList("Reply-To", []*mail.Address{{Address: addrs.replyTo.Address}})
	}
	h.Set("To", formatAddress(o.ToName, to.Address))
	h.Set("From", formatAddress(o.FromName, from.Address))
	h.SetDate(date)

	id, err := h.MessageID()
	if err != nil {
		return nil, "", fmt.Errorf("compose: message id: %w", err)
	}
	var buf bytes.Buffer
	buf.Grow(len(text) + len(o.HTML) + len(o.HTML)/16 + 2048) // the header, boundaries, references
	if o.HTML == "" {
		err = writeSingle(&buf, h, text)
	} else {
		html, htmlCTE := htmlTransferEncoding(o.HTML)
		err = writeAlternative(&buf, h, text, cte, html, htmlCTE)
	}
	if err != nil {
		return nil, "", fmt.Errorf("compose: %w", err)
	}
	return buf.Bytes(), id, nil
}

// Check reports what in o would keep Compose from composing it: an
// address that is none, a Message-ID (its own or one it answers) that
// is invalid, a Content-Language that is no language tag. Its words and
// date do not matter.
func Check(o Outgoing) error {
	_, err := check(o)
	return err
}

// addresses are an Outgoing's addresses, parsed.
type addresses struct{ from, to, replyTo *mail.Address }

// check is Check, returning the addresses it parsed (replyTo nil when
// there is none).
func check(o Outgoing) (addresses, error) {
	var a addresses
	var err error
	if a.from, err = mail.ParseAddress(o.From); err != nil {
		return a, fmt.Errorf("compose: from address %q: %w", o.From, err)
	}
	if a.to, err = mail.ParseAddress(o.To); err != nil {
		return a, fmt.Errorf("compose: to address %q: %w", o.To, err)
	}
	for _, id := range append(append([]string{o.MessageID}, o.InReplyTo...), o.References...) {
		if id != "" && !ValidID(id) {
			return a, fmt.Errorf("compose: invalid message id %q", id)
		}
	}
	if l := cleanLine(o.Language); l != "" && !validLanguage(l) {
		return a, fmt.Errorf("compose: language %q is no language tag", o.Language)
	}
	if o.ReplyTo != "" {
		if a.replyTo, err = mail.ParseAddress(o.ReplyTo); err != nil {
			return a, fmt.Errorf("compose: reply-to address %q: %w", o.ReplyTo, err)
		}
	}
	return a, nil
}

// NewMessageID returns a Message-ID (without brackets) no other mail has,
// with hostname on its right side, as Compose makes one.
func NewMessageID(hostname string) (string, error) {
	var h mail.Header
	if err := h.GenerateMessageIDWithHostname(hostname); err != nil {
		return "", fmt.Errorf("message id: %w", err)
	}
	return h.MessageID()
}

// validLanguage reports whether l looks like a language tag (RFC 5646):
// letters, digits and hyphens, so that it cannot carry another field.
func validLanguage(l string) bool {
	for _, r := range l {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '-') {
			return false
		}
	}
	return len(l) <= 35
}

// formatAddress writes an address with its display name, name cleaned
// to one line first: "Congo <congo@example.org>" when name is words of
// ASCII letters, digits and the like, a quoted string for other ASCII,
// RFC 2047 encoded words in UTF-8 (encodeWords) when name is not ASCII,
// and
// "<congo@example.org>" when name is empty. A name that holds "=?" is
// quoted, lest it be read as an encoded word.
func formatAddress(name, addr string) string {
	name = cleanLine(name)
	bare := name != "" && !strings.Contains(name, "  ") && !strings.Contains(name, "=?") &&
		!strings.ContainsFunc(name, func(r rune) bool { return r != ' ' && !atext(r) })
	switch {
	case bare:
		return name + " <" + addr + ">"
	case !ascii(name):
		return encodeWords(name) + " <" + addr + ">"
	}
	return (&mail.Address{Name: name, Address: addr}).String()
}

// atext reports whether r may stand in an atom (RFC 5322 3.2.3).
func atext(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' ||
		strings.ContainsRune("!#$%&'*+-/=?^_`{|}~", r)
}

// writeSingle writes a mail of one text part, whose header h holds.
func writeSingle(w io.Writer, h mail.Header, text string) error {
	body, err := mail.CreateSingleInlineWriter(w, h)
	if err != nil {
		return err
	}
	if _, err := io.WriteString(body, text); err != nil {
		return err
	}
	return body.Close()
}

// writeAlternative writes a multipart/alternative mail: the text part,
// in transfer encoding cte, then the HTML part in htmlCTE.
func writeAlternative(w io.Writer, h mail.Header, text, cte string, html []byte, htmlCTE string) error {
	mw, err := mail.CreateInlineWriter(w, h)
	if err != nil {
		return err
	}
	parts := []struct {
		kind, cte string
		body      []byte
	}{
		{"text/plain", cte, []byte(text)},
		{"text/html", htmlCTE, html},
	}
	for _, p := range parts {
		var ph mail.InlineHeader
		ph.Set("Content-Transfer-Encoding", p.cte)
		ph.SetContentType(p.kind, map[string]string{"charset": "utf-8"})
		pw, err := mw.CreatePart(ph)
		if err != nil {
			return err
		}
		if _, err := pw.Write(p.body); err != nil {
			return err
		}
		if err := pw.Close(); err != nil {
			return err
		}
	}
	return mw.Close()
}

// transferEncoding chooses how text, with LF line ends, is sent: as it is
// (7bit, the lines ended with CRLF) when it can be, else quoted-printable
// (whose writer turns LF into CRLF itself).
func transferEncoding(text string) (body, cte string) {
	if plain7bit(text) {
		return strings.ReplaceAll(text, "\n", "\r\n"), "7bit"
	}
	return text, "quoted-printable"
}

// plain7bit reports whether text, with LF line ends, can be sent as it is:
// printable ASCII and tabs, lines shorter than RFC 5322's limit.
func plain7bit(text string) bool {
	for line := range strings.Lines(text) {
		line = strings.TrimSuffix(line, "\n")
		if len(line) > maxLine {
			return false
		}
		for i := 0; i < len(line); i++ {
			if c := line[i]; (c < 0x20 && c != '\t') || c > 0x7e {
				return false
			}
		}
	}
	return true
}
