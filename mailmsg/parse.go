package mailmsg

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-message"
	"github.com/emersion/go-message/charset"
	"github.com/emersion/go-message/mail"
)

const (
	// MaxText is the most text Parse keeps from a mail body, in
	// bytes of UTF-8. Commands are a few lines; the rest is quotes and
	// signatures.
	MaxText = 64 << 10

	// maxHTML is the most HTML read from a text/html part before it is
	// turned into text.
	maxHTML = 4 * MaxText

	// maxHeader is the most header cleanHeader looks at; go-message refuses
	// longer headers anyway.
	maxHeader = 1 << 20
)

// Parse reads a raw RFC 5322 message into an Incoming.
//
// It never gives up on a mail: header lines that do not parse are dropped,
// an unknown charset leaves the text as it was, a broken quoted-printable or
// base64 body keeps what was decoded before the fault. In those cases
// Parse returns the Incoming together with an error that says what
// was lost; the Incoming is usable all the same (like mail.CreateReader,
// whose error may satisfy message.IsUnknownCharset). The returned Incoming
// is never nil.
//
// The text is the first text/plain part that is not an attachment, or,
// when there is none, the first text/html part turned into plain text. It is
// UTF-8 with LF line ends, without control characters other than tab and
// newline, and at most MaxText bytes long (Truncated says when it was cut).
// A text/plain part in format=flowed is unwrapped (RFC 3676, M21).
//
// Reading has a budget (M32): MIME nesting deeper than MaxDepth, more than
// MaxParts parts, more than MaxDecodedText of text or more than
// ParseTimeout of time cut the mail there. The header and the text found
// before the cut are kept, Cut says why, and the error says so too.
func Parse(raw []byte) (*Incoming, error) {
	return parse(raw, defaultBudget)
}

// parse is Parse within budget b.
func parse(raw []byte, b budget) (*Incoming, error) {
	in := &Incoming{Size: len(raw)}
	var errs []error

	header, body, dropped := cleanHeader(raw)
	if dropped > 0 {
		errs = append(errs, fmt.Errorf("%d malformed header lines dropped", dropped))
	}
	// The clock runs for the body only: the header is read whatever
	// happens, so that a mail cut at once still says who sent it.
	w := &walker{budget: b, body: &deadlineReader{r: bytes.NewReader(body), deadline: time.Now().Add(b.Timeout)}}
	e, err := message.Read(io.MultiReader(bytes.NewReader(header), w.body))
	if e == nil {
		return in, fmt.Errorf("parse message header: %w", err)
	}
	if err != nil {
		w.fail(0, err)
	}

	h := mail.Header{Header: e.Header}
	readHeader(in, &h)
	in.AutoReply, in.Why = autoReply(in, &h)

	in.Text, in.Truncated = w.text(e)
	in.Cut, in.CutFormat, in.CutArgs = w.cut, w.cutFmt, w.cutArgs
	errs = append(errs, w.errs...)
	if w.cut != "" {
		errs = append(errs, fmt.Errorf("mail cut: %s", w.cut))
	}
	return in, errors.Join(errs...)
}

// readHeader fills the header fields of in.
func readHeader(in *Incoming, h *mail.Header) {
	in.MessageID = msgID(h)
	in.InReplyTo = msgIDList(h, "In-Reply-To")
	in.References = msgIDList(h, "References")

	if s, err := h.Subject(); err == nil {
		in.Subject = cleanLine(s)
	} else {
		in.Subject = cleanLine(h.Get("Subject"))
	}
	if d, err := h.Date(); err == nil {
		in.Date = d
	}

	for _, v := range h.Values("From") {
		addrs := parseAddrs(v)
		if in.FromCount == 0 && len(addrs) > 0 {
			in.From = strings.ToLower(addrs[0].Address)
			in.FromName = cleanLine(addrs[0].Name)
		}
		in.FromCount += len(addrs)
	}

	in.ReturnPath = strings.TrimSpace(h.Get("Return-Path"))

	seen := make(map[string]bool)
	for _, key := range []string{"To", "Cc", "Delivered-To", "X-Original-To"} {
		for _, v := range h.Values(key) {
			for _, a := range parseAddrs(v) {
				addr := strings.ToLower(a.Address)
				if !seen[addr] {
					seen[addr] = true
					in.HeaderRecipients = append(in.HeaderRecipients, addr)
				}
			}
		}
	}

	in.AuthResults = h.Values("Authentication-Results")
	in.ContentLanguage = cleanLine(h.Get("Content-Language"))
}

// autoReply says whether the mail must never be answered (M8), and why.
// Our own address is the server's to check.
func autoReply(in *Incoming, h *mail.Header) (bool, string) {
	if strings.ReplaceAll(in.ReturnPath, " ", "") == "<>" {
		return true, "empty Return-Path"
	}
	for _, addr := range []string{in.From, strings.Trim(in.ReturnPath, "<> ")} {
		local, _, _ := strings.Cut(addr, "@")
		switch strings.ToLower(local) {
		case "mailer-daemon", "postmaster":
			return true, "sender " + strings.ToLower(local)
		}
	}
	if t, _, err := h.ContentType(); err == nil && t == "multipart/report" {
		return true, "Content-Type multipart/report"
	}
	if v := firstWord(h.Get("Auto-Submitted")); v != "" && v != "no" {
		return true, "Auto-Submitted " + v
	}
	switch v := firstWord(h.Get("Precedence")); v {
	case "bulk", "list", "junk", "auto_reply":
		return true, "Precedence " + v
	}
	if h.Has("List-Id") {
		return true, "List-Id"
	}
	// Not in M8, but set by common vacation programs that do not send
	// Auto-Submitted.
	for _, key := range []string{"X-Autoreply", "X-Autorespond"} {
		if h.Has(key) {
			return true, key
		}
	}
	return false, ""
}

// firstWord returns the first word of a header value, lowercased, without
// parameters or comments.
func firstWord(v string) string {
	words := strings.FieldsFunc(strings.ToLower(v), func(r rune) bool {
		return r == ' ' || r == '\t' || r == ';' || r == '('
	})
	if len(words) == 0 {
		return ""
	}
	return words[0]
}

// toUTF8 makes b valid UTF-8. Declared charsets were already converted by
// go-message; bytes that are still invalid come from an undeclared 8-bit
// charset, taken to be windows-1252 (the usual one), or from an unknown or
// lying charset, replaced by U+FFFD.
func toUTF8(b []byte, declared string) string {
	if utf8.Valid(b) {
		return string(b)
	}
	switch strings.ToLower(declared) {
	case "", "us-ascii":
		if r, err := charset.Reader("windows-1252", bytes.NewReader(b)); err == nil {
			if s, err := io.ReadAll(r); err == nil && utf8.Valid(s) {
				return string(s)
			}
		}
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// normalizeText turns CRLF and lone CR into LF and drops control
// characters other than tab and newline.
func normalizeText(s string) string {
	clean := true
	for i := 0; i < len(s) && clean; i++ {
		c := s[i]
		clean = c >= 0x20 && c != 0x7f || c == '\t' || c == '\n'
	}
	if clean {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\r':
			return '\n'
		case r == '\t' || r == '\n':
			return r
		case r < 0x20 || r == 0x7f:
			return -1
		}
		return r
	}, s)
}

// cleanLine makes a header value one line of valid UTF-8.
func cleanLine(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return ' '
		case r < 0x20 || r == 0x7f:
			return -1
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}

// trimPartialRune removes an incomplete UTF-8 sequence left at the end of s
// by a cut.
func trimPartialRune(s string) string {
	for i := len(s) - 1; i >= 0 && i >= len(s)-utf8.UTFMax; i-- {
		if utf8.RuneStart(s[i]) {
			if !utf8.FullRuneInString(s[i:]) {
				return s[:i]
			}
			break
		}
	}
	return s
}

// msgID returns the Message-ID without brackets, reading a malformed one
// leniently.
func msgID(h *mail.Header) string {
	if id, err := h.MessageID(); err == nil {
		return id
	}
	if ids := scanMsgIDs(h.Get("Message-Id")); len(ids) > 0 {
		return ids[0]
	}
	return ""
}

// msgIDList returns the message ids of an In-Reply-To or References field,
// reading a malformed one leniently.
func msgIDList(h *mail.Header, key string) []string {
	if ids, err := h.MsgIDList(key); err == nil {
		return ids
	}
	return scanMsgIDs(h.Get(key))
}

// scanMsgIDs returns the non-empty "<...>" words of s without brackets.
func scanMsgIDs(s string) []string {
	var ids []string
	for {
		_, rest, ok := strings.Cut(s, "<")
		if !ok {
			return ids
		}
		id, after, ok := strings.Cut(rest, ">")
		if !ok {
			return ids
		}
		if id != "" && !strings.ContainsAny(id, " \t<") {
			ids = append(ids, id)
		}
		s = after
	}
}

// parseAddrs parses an address list. When the list does not parse, the
// words shaped like addresses are taken, so that a broken header still
// names its sender.
func parseAddrs(v string) []*mail.Address {
	if strings.TrimSpace(v) == "" {
		return nil
	}
	if addrs, err := mail.ParseAddressList(v); err == nil {
		return addrs
	}
	var addrs []*mail.Address
	for _, w := range strings.FieldsFunc(v, func(r rune) bool {
		return strings.ContainsRune(" \t,;<>\"()[]", r)
	}) {
		local, domain, ok := strings.Cut(w, "@")
		if ok && local != "" && domain != "" && !strings.Contains(domain, "@") {
			addrs = append(addrs, &mail.Address{Address: w})
		}
	}
	return addrs
}

// cleanHeader splits raw into its header, without the lines that cannot be
// parsed (an mbox "From " line, a line without a colon, a continuation line
// with nothing to continue), and the rest, and counts the lines it dropped.
// One broken line then does not cost the whole mail. The body is not
// copied.
func cleanHeader(raw []byte) (header, body []byte, dropped int) {
	var (
		kept    []byte // nil until a line is dropped
		keeping bool   // whether the field being continued was kept
		pos     int    // start of the next line
	)
	for pos < len(raw) && pos < maxHeader {
		end := len(raw)
		if i := bytes.IndexByte(raw[pos:], '\n'); i >= 0 {
			end = pos + i + 1
		}
		line := raw[pos:end]
		content := bytes.TrimRight(line, "\r\n")
		ok := true
		switch {
		case len(content) == 0:
			// The blank line ending the header.
		case content[0] == ' ' || content[0] == '\t':
			ok = keeping
		default:
			ok = validFieldName(content)
			keeping = ok
		}
		if !ok {
			if kept == nil {
				kept = slices.Clone(raw[:pos])
			}
			dropped++
		} else if kept != nil {
			kept = append(kept, line...)
		}
		pos = end
		if len(content) == 0 {
			break
		}
	}
	if kept == nil {
		return raw[:pos], raw[pos:], 0
	}
	return kept, raw[pos:], dropped
}

// validFieldName reports whether line starts with a field name and a colon.
func validFieldName(line []byte) bool {
	i := bytes.IndexByte(line, ':')
	name := bytes.TrimRight(line[:max(i, 0)], " \t")
	if i <= 0 || len(name) == 0 {
		return false
	}
	for _, c := range name {
		if c < 33 || c > 126 {
			return false
		}
	}
	return true
}
