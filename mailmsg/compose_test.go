package mailmsg_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/mailmsg"
)

const board = `    a b c d e f g
  +---------------+
7 | g m e l e c z | 7
6 | p p p p p p p | 6
5 | . . . . . . . | 5
4 | ~ ~ ~ ~ ~ ~ ~ | 4
3 | . . . . . . . | 3
2 | P P P P P P P | 2
1 | G M E L E C Z | 1
  +---------------+
Position: gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1
`

func TestComposeRoundTrip(t *testing.T) {
	t.Parallel()
	date := time.Date(2025, 6, 14, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		out      mailmsg.Outgoing
		wantText string // the text as it comes back
		wantCTE  string
	}{
		{
			name: "ascii board",
			out: mailmsg.Outgoing{
				From: "congo@pbm.example.net", To: "alice@example.org", ToName: "alice",
				ReplyTo: "congo+k3x9q2@pbm.example.net", Subject: "Congo game 42: your move",
				Text: "Bob played b6-b5.\n\n" + board, MessageID: "game42.move4@pbm.example.net",
				InReplyTo:  []string{"CAF7a1b2c3@mail.example.org"},
				References: []string{"game42.start@pbm.example.net", "CAF7a1b2c3@mail.example.org"},
				Date:       date,
			},
			wantText: "Bob played b6-b5.\n\n" + board,
			wantCTE:  "7bit",
		},
		{
			name: "non-ascii subject, name and text",
			out: mailmsg.Outgoing{
				From: "congo@pbm.example.net", To: "rene@example.fr", ToName: "René Dupré",
				Subject: "Partie terminée — résultat", Text: "Très bien joué !\r\nÀ bientôt.",
				Date: date,
			},
			wantText: "Très bien joué !\nÀ bientôt.\n",
			wantCTE:  "quoted-printable",
		},
		{
			name: "a long line and an equals sign",
			out: mailmsg.Outgoing{
				From: "congo@pbm.example.net", To: "bob@example.com",
				Subject: "long", Text: "days=3 " + strings.Repeat("x", 1200) + "\n", Date: date,
			},
			wantText: "days=3 " + strings.Repeat("x", 1200) + "\n",
			wantCTE:  "quoted-printable",
		},
		{
			name: "empty text",
			out: mailmsg.Outgoing{
				From: "congo@pbm.example.net", To: "bob@example.com", Subject: "empty", Date: date,
			},
			wantText: "",
			wantCTE:  "7bit",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, id, err := mailmsg.Compose(tt.out, "pbm.example.net")
			if err != nil {
				t.Fatalf("Compose(%+v) error = %v", tt.out, err)
			}
			checkWireFormat(t, raw)
			fields := headerFields(raw)
			for _, want := range []string{
				"Content-Transfer-Encoding: " + tt.wantCTE,
				"Content-Type: text/plain; charset=utf-8",
				"Mime-Version: 1.0",
				"X-Auto-Response-Suppress: All",
			} {
				if !slices.Contains(fields, want) {
					t.Errorf("Compose(%s) header lacks %q:\n%s", tt.name, want, strings.Join(fields, "\n"))
				}
			}
			if tt.out.MessageID != "" && id != tt.out.MessageID {
				t.Errorf("Compose(%s) id = %q, want %q", tt.name, id, tt.out.MessageID)
			}
			if tt.out.MessageID == "" && !strings.HasSuffix(id, "@pbm.example.net") {
				t.Errorf("Compose(%s) id = %q, want one @pbm.example.net", tt.name, id)
			}

			in, err := mailmsg.Parse(raw)
			if err != nil {
				t.Fatalf("Parse(Compose(%s)) error = %v", tt.name, err)
			}
			wantWhy := "Auto-Submitted auto-generated"
			if len(tt.out.InReplyTo) > 0 {
				wantWhy = "Auto-Submitted auto-replied"
			}
			want := &mailmsg.Incoming{
				MessageID:        id,
				From:             tt.out.From,
				FromCount:        1,
				HeaderRecipients: []string{tt.out.To},
				Subject:          tt.out.Subject,
				InReplyTo:        tt.out.InReplyTo,
				References:       tt.out.References,
				Date:             tt.out.Date,
				Text:             tt.wantText,
				AutoReply:        true, // our own mails must never be answered
				Why:              wantWhy,
			}
			for _, d := range diffIncoming(in, want) {
				t.Errorf("Parse(Compose(%s)).%s", tt.name, d)
			}
		})
	}
}

// headerFields returns the lines of the header of raw.
func headerFields(raw []byte) []string {
	header, _, _ := strings.Cut(string(raw), "\r\n\r\n")
	return strings.Split(header, "\r\n")
}

// checkWireFormat checks that raw has CRLF line ends only, lines shorter
// than 998 octets, and an ASCII header.
func checkWireFormat(t *testing.T, raw []byte) {
	t.Helper()
	inHeader := true
	for i, line := range bytes.Split(raw, []byte("\r\n")) {
		if bytes.ContainsAny(line, "\r\n") {
			t.Errorf("line %d has a bare CR or LF: %q", i+1, line)
		}
		if len(line) >= 998 {
			t.Errorf("line %d is %d octets long", i+1, len(line))
		}
		if len(line) == 0 {
			inHeader = false
		}
		if inHeader && slices.ContainsFunc(line, func(c byte) bool { return c > 0x7e }) {
			t.Errorf("header line %d is not ASCII: %q", i+1, line)
		}
	}
}

func TestComposeHeaders(t *testing.T) {
	t.Parallel()
	raw, _, err := mailmsg.Compose(mailmsg.Outgoing{
		From: "congo@pbm.example.net", FromName: "Congo", To: "alice@example.org", ToName: "alice",
		ReplyTo: "congo+k3x9q2@pbm.example.net", Subject: "Congo game 42",
		Text: "x", InReplyTo: []string{"a@b"}, References: []string{"s@b", "a@b"},
		MessageID: "m@pbm.example.net", Date: time.Date(2025, 6, 14, 10, 0, 0, 0, time.UTC),
	}, "")
	if err != nil {
		t.Fatalf("Compose error = %v", err)
	}
	want := []string{
		"Date: Sat, 14 Jun 2025 10:00:00 +0000",
		"From: Congo <congo@pbm.example.net>",
		"To: alice <alice@example.org>",
		"Reply-To: <congo+k3x9q2@pbm.example.net>",
		"Subject: Congo game 42",
		"Message-Id: <m@pbm.example.net>",
		"In-Reply-To: <a@b>",
		"References: <s@b> <a@b>",
		"Auto-Submitted: auto-replied",
		"X-Auto-Response-Suppress: All",
		"Mime-Version: 1.0",
		"Content-Type: text/plain; charset=utf-8",
		"Content-Transfer-Encoding: 7bit",
	}
	if got := headerFields(raw); !slices.Equal(got, want) {
		t.Errorf("Compose header =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestComposeRefusesBadInput(t *testing.T) {
	t.Parallel()
	ok := mailmsg.Outgoing{From: "congo@pbm.example.net", To: "alice@example.org", Subject: "s", Text: "t"}
	tests := []struct {
		name   string
		change func(*mailmsg.Outgoing)
	}{
		{"no from", func(o *mailmsg.Outgoing) { o.From = "" }},
		{"bad from", func(o *mailmsg.Outgoing) { o.From = "congo" }},
		{"no to", func(o *mailmsg.Outgoing) { o.To = "" }},
		{"header injection in to", func(o *mailmsg.Outgoing) { o.To = "a@b.c\r\nBcc: x@y.z" }},
		{"bad reply-to", func(o *mailmsg.Outgoing) { o.ReplyTo = "not an address" }},
		{"message id with brackets", func(o *mailmsg.Outgoing) { o.MessageID = "<a@b>" }},
		{"message id without @", func(o *mailmsg.Outgoing) { o.MessageID = "abc" }},
		{"reference with space", func(o *mailmsg.Outgoing) { o.References = []string{"a b@c"} }},
	}
	for _, tt := range tests {
		o := ok
		tt.change(&o)
		if _, _, err := mailmsg.Compose(o, "h"); err == nil {
			t.Errorf("%s: Compose(%+v) error = nil, want an error", tt.name, o)
		}
	}
	if _, _, err := mailmsg.Compose(ok, "h"); err != nil {
		t.Errorf("Compose(%+v) error = %v, want nil", ok, err)
	}
}

func TestComposeSubjectCannotInjectHeaders(t *testing.T) {
	t.Parallel()
	raw, _, err := mailmsg.Compose(mailmsg.Outgoing{
		From: "congo@pbm.example.net", To: "alice@example.org",
		Subject: "hi\r\nBcc: victim@example.org", ToName: "x\r\nBcc: v@example.org",
	}, "h")
	if err != nil {
		t.Fatalf("Compose error = %v", err)
	}
	if bytes.Contains(raw, []byte("\r\nBcc:")) {
		t.Errorf("Compose let a header in through Subject or ToName:\n%s", raw)
	}
}
