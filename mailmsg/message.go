// Package mailmsg parses and composes mail messages: MIME, charsets,
// threading headers; pure, no I/O.
package mailmsg

import "time"

// Incoming is a received mail, reduced to what the server needs.
type Incoming struct {
	// Where the mail is in the mailbox: UIDValidity and UID together name
	// it for as long as the mailbox lives.
	UIDValidity uint32
	UID         uint32

	MessageID  string // without angle brackets; empty when missing
	From       string // the address of the first From, lowercased as a whole (M6); empty when missing or unparsable
	FromName   string // display name of the From, if any
	FromCount  int    // number of addresses in From headers (0, 1 or more)
	ReturnPath string // as written, "<>" for bounces; empty when missing

	// HeaderRecipients are the addresses in the To, Cc, Delivered-To and
	// X-Original-To header fields, lowercased, each once: what the header
	// says, not the envelope recipients of the SMTP transaction.
	HeaderRecipients []string

	Subject    string   // decoded (RFC 2047), unfolded
	InReplyTo  []string // message ids, without angle brackets
	References []string // message ids, without angle brackets
	Date       time.Time

	// Text is the body as plain text, decoded to UTF-8: the text/plain part
	// when there is one, otherwise the text/html part turned into text.
	Text string

	// AutoReply is true when the mail must never be answered (M8):
	// a bounce, an auto-reply, list mail. Why says which test matched.
	AutoReply bool
	Why       string

	// AuthResults are the Authentication-Results headers, topmost first,
	// raw, for the server to judge against -trust-authserv.
	AuthResults []string

	// ContentLanguage is the Content-Language header (RFC 3282), as
	// written: the language the sender wrote in, which their client
	// says, such as "ja-JP"; empty when missing.
	ContentLanguage string

	Size int // bytes of the raw message

	// Truncated is true when only the start of the mail was read: the
	// message was larger than mailer.InboxConfig.MaxSize, or its text was
	// longer than MaxText.
	Truncated bool

	// Cut says why Parse stopped reading the mail before its end, in
	// words for the answer to the sender, such as "MIME nesting deeper
	// than 20 levels", "more than 100 parts", "more than 1 MiB of text"
	// or "took longer than 1s to read" (M32); empty when nothing was cut.
	// What was read before the cut is there all the same. It is
	// fmt.Sprintf(CutFormat, CutArgs...), which a mail may say in another
	// language (CutFormat is the key of its translations).
	Cut       string
	CutFormat string
	CutArgs   []any
}

// Outgoing is a mail to send. The server fills it; Compose renders it.
type Outgoing struct {
	From     string // our address
	FromName string // display name of From, such as "Congo" (M26); optional
	ReplyTo  string // the player's personal address; empty for none
	To       string // one recipient address
	ToName   string // display name (a handle), optional
	Subject  string
	Text     string // the body, UTF-8 plain text
	// HTML, when not empty, is the same mail as HTML: Compose then
	// writes multipart/alternative, Text first and HTML last (M12).
	HTML string

	// Language is the language of the mail's words, its
	// Content-Language (RFC 3282), such as "ja"; empty for none.
	Language string

	MessageID  string   // without brackets; Compose makes one when empty
	InReplyTo  []string // without brackets
	References []string // without brackets
	Date       time.Time
}
