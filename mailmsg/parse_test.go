package mailmsg_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/congobymail/congo/mailmsg"
	"github.com/emersion/go-message"
)

// diffIncoming lists the fields in which got differs from want, ignoring
// UIDValidity, UID and Size.
func diffIncoming(got, want *mailmsg.Incoming) []string {
	var d []string
	str := func(name, g, w string) {
		if g != w {
			d = append(d, fmt.Sprintf("%s = %q, want %q", name, g, w))
		}
	}
	strs := func(name string, g, w []string) {
		if !slices.Equal(g, w) {
			d = append(d, fmt.Sprintf("%s = %q, want %q", name, g, w))
		}
	}
	str("MessageID", got.MessageID, want.MessageID)
	str("From", got.From, want.From)
	str("FromName", got.FromName, want.FromName)
	if got.FromCount != want.FromCount {
		d = append(d, fmt.Sprintf("FromCount = %d, want %d", got.FromCount, want.FromCount))
	}
	str("ReturnPath", got.ReturnPath, want.ReturnPath)
	strs("HeaderRecipients", got.HeaderRecipients, want.HeaderRecipients)
	str("Subject", got.Subject, want.Subject)
	strs("InReplyTo", got.InReplyTo, want.InReplyTo)
	strs("References", got.References, want.References)
	if !got.Date.Equal(want.Date) {
		d = append(d, fmt.Sprintf("Date = %v, want %v", got.Date, want.Date))
	}
	str("Text", got.Text, want.Text)
	if got.AutoReply != want.AutoReply {
		d = append(d, fmt.Sprintf("AutoReply = %v, want %v", got.AutoReply, want.AutoReply))
	}
	str("Why", got.Why, want.Why)
	strs("AuthResults", got.AuthResults, want.AuthResults)
	if got.Truncated != want.Truncated {
		d = append(d, fmt.Sprintf("Truncated = %v, want %v", got.Truncated, want.Truncated))
	}
	return d
}

var to = []string{"congo@pbm.example.net"}

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file    string
		want    mailmsg.Incoming
		wantErr bool // some of the mail was lost, but the rest is there
	}{
		{
			file: "plain.eml",
			want: mailmsg.Incoming{
				MessageID:        "CAF7a1b2c3@mail.example.org",
				From:             "alice@example.org",
				FromName:         "Alice Liddell",
				FromCount:        1,
				ReturnPath:       "<Alice@Example.org>",
				HeaderRecipients: []string{"congo+k3x9q2@pbm.example.net", "bob@example.com", "carol@example.com"},
				Subject:          "Re: Congo game 42: your move",
				InReplyTo:        []string{"game42.move3@pbm.example.net"},
				References:       []string{"game42.start@pbm.example.net", "game42.move3@pbm.example.net"},
				Date:             time.Date(2025, 6, 14, 8, 2, 11, 0, time.UTC),
				Text:             "move congo 42 b2-b3\n\nAlice\n",
				AuthResults: []string{
					"mx.pbm.example.net; dkim=pass header.d=example.org; spf=pass smtp.mailfrom=example.org",
					"mx.pbm.example.net; dmarc=pass header.from=example.org",
				},
			},
		},
		{
			file: "qp.eml",
			want: mailmsg.Incoming{
				MessageID: "qp.1@example.com", From: "bob@example.com", FromCount: 1,
				HeaderRecipients: to, Subject: "challenge — bitte",
				Date: time.Date(2025, 6, 15, 8, 0, 0, 0, time.UTC),
				Text: "challenge congo alice white days=3\nGrüße aus Köln, this line is long enough that it needs a soft line break to stay short.\n",
			},
		},
		{
			file: "base64.eml",
			want: mailmsg.Incoming{
				MessageID: "b64@example.de", From: "dora@example.de", FromCount: 1,
				HeaderRecipients: to, Subject: "board", Text: "board congo 42\n\nDanke schön!\n",
			},
		},
		{
			file: "latin1.eml",
			want: mailmsg.Incoming{
				MessageID: "latin1@example.fr", From: "rene@example.fr", FromName: "René Dupré", FromCount: 1,
				HeaderRecipients: to, Subject: "Partie terminée?", Text: "resign congo 42\nTrès déçu.\n",
			},
		},
		{
			file: "cp1252.eml",
			want: mailmsg.Incoming{
				MessageID: "cp1252@example.co.uk", From: "ed@example.co.uk", FromName: "Ed", FromCount: 1,
				HeaderRecipients: to, Subject: "“games” €", Text: "games\nThat’s € 5 – cheap.\n",
			},
		},
		{
			file: "undeclared-8bit.eml",
			want: mailmsg.Incoming{
				MessageID: "8bit@example.org", From: "quinn@example.org", FromCount: 1,
				HeaderRecipients: to, Subject: "games", Text: "games à la carte\n",
			},
		},
		{
			file: "html-only.eml",
			want: mailmsg.Incoming{
				MessageID: "html@example.net", From: "fay@example.net", FromName: "Fay", FromCount: 1,
				HeaderRecipients: to, Subject: "Re: Congo game 42",
				Text: "move congo 42 c2-c3\nb6-b5 & more\n\nSecond paragraph with spaces.\n\n" +
					"On Sat, Congo wrote:\n\n> Your move in game 42.\n> Position: abc\n>\n> > nested quote\n\n" +
					"- one\n- two\n\na b\nc d\n\n  G M E\n  P P P\n",
			},
		},
		{
			file: "alternative.eml",
			want: mailmsg.Incoming{
				MessageID: "alt@example.org", From: "gus@example.org", FromCount: 1,
				HeaderRecipients: to, Subject: "accept", Text: "accept congo 42",
			},
		},
		{
			file: "mixed.eml",
			want: mailmsg.Incoming{
				MessageID: "mixed@example.org", From: "hal@example.org", FromCount: 1,
				HeaderRecipients: to, Subject: "games with attachment", Text: "games",
			},
		},
		{
			file: "crlf.eml",
			want: mailmsg.Incoming{
				MessageID: "crlf@example.org", From: "olga@example.org", FromName: "Olga", FromCount: 1,
				HeaderRecipients: to, Subject: "board", Text: "board congo 42\nsecond line ",
			},
		},
		{
			file: "bounce.eml",
			want: mailmsg.Incoming{
				MessageID: "bounce1@mx.example.org", From: "mailer-daemon@mx.example.org",
				FromName: "Mail Delivery System", FromCount: 1, ReturnPath: "<>",
				HeaderRecipients: to, Subject: "Undelivered Mail Returned to Sender",
				Text: "This is the mail system at host mx.example.org.\n" +
					"I'm sorry to have to inform you that your message could not\n" +
					"be delivered to one or more recipients.",
				AutoReply: true, Why: "empty Return-Path",
			},
		},
		{
			file: "bounce-postmaster.eml",
			want: mailmsg.Incoming{
				MessageID: "pm1@example.com", From: "postmaster@example.com", FromCount: 1,
				ReturnPath: "<postmaster@example.com>", HeaderRecipients: to, Subject: "Delivery failure",
				Text: "Your mail could not be delivered.\n", AutoReply: true, Why: "sender postmaster",
			},
		},
		{
			file: "report.eml",
			want: mailmsg.Incoming{
				MessageID: "rep2@example.com", From: "reports@example.com", FromCount: 1,
				ReturnPath: "<reports@example.com>", HeaderRecipients: to,
				Subject:   "Delivery Status Notification (Failure)",
				Text:      "Delivery to the following recipient failed permanently.",
				AutoReply: true, Why: "Content-Type multipart/report",
			},
		},
		{
			file: "vacation.eml",
			want: mailmsg.Incoming{
				MessageID: "vac1@example.org", From: "ivy@example.org", FromName: "Ivy", FromCount: 1,
				ReturnPath: "<ivy@example.org>", HeaderRecipients: to,
				Subject: "Out of office: Congo game 42: your move", Text: "I am away until Monday.\n",
				AutoReply: true, Why: "Auto-Submitted auto-replied",
			},
		},
		{
			file: "autosubmitted-no.eml",
			want: mailmsg.Incoming{
				MessageID: "asno@example.org", From: "jim@example.org", FromCount: 1,
				HeaderRecipients: to, Subject: "help", Text: "help\n",
			},
		},
		{
			file: "precedence.eml",
			want: mailmsg.Incoming{
				MessageID: "bulk1@example.org", From: "news@example.org", FromCount: 1,
				HeaderRecipients: to, Subject: "Weekly news", Text: "news\n",
				AutoReply: true, Why: "Precedence bulk",
			},
		},
		{
			file: "list.eml",
			want: mailmsg.Incoming{
				MessageID: "list1@example.org", From: "kim@example.org", FromName: "Kim", FromCount: 1,
				ReturnPath: "<games-bounces@lists.example.org>", HeaderRecipients: []string{"games@lists.example.org"},
				Subject: "[games] anyone for congo?", Text: "challenge congo kim\n",
				AutoReply: true, Why: "List-Id",
			},
		},
		{
			file: "no-from.eml",
			want: mailmsg.Incoming{
				MessageID: "nofrom@example.org", HeaderRecipients: to, Subject: "help", Text: "help\n",
			},
		},
		{
			file: "two-from.eml",
			want: mailmsg.Incoming{
				MessageID: "twofrom@example.org", From: "lee@example.org", FromName: "Lee", FromCount: 2,
				HeaderRecipients: to, Subject: "games", Text: "games\n",
			},
		},
		{
			file: "unknown-charset.eml",
			want: mailmsg.Incoming{
				MessageID: "klingon@example.org", From: "ned@example.org", FromCount: 1,
				HeaderRecipients: to, Subject: "=?x-klingon?Q?Qapla=27?=",
				Text: "move congo 42 a2-a3\n\uFFFD tlhIngan Hol\n",
			},
			wantErr: true,
		},
		{
			file: "bad-qp.eml",
			want: mailmsg.Incoming{
				MessageID: "badqp@example.org", From: "pat@example.org", FromCount: 1,
				HeaderRecipients: to, Subject: "broken", Text: "move congo 42 d2-d3\nété ok\na NUL",
			},
			wantErr: true,
		},
		{
			file: "bad-base64.eml",
			want: mailmsg.Incoming{
				MessageID: "badb64@example.org", From: "pat@example.org", FromCount: 1,
				HeaderRecipients: to, Subject: "broken base64", Text: "games\nboard congo 42\n",
			},
			wantErr: true,
		},
		{
			file: "mbox-from.eml",
			want: mailmsg.Incoming{
				MessageID: "mbox@example.org", From: "pat@example.org", FromName: "Pat", FromCount: 1,
				HeaderRecipients: to, Subject: "games", Text: "games\n",
			},
			wantErr: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			got, err := mailmsg.Parse(raw)
			if (err != nil) != tt.wantErr {
				t.Errorf("Parse(%s) error = %v, want error %v", tt.file, err, tt.wantErr)
			}
			if got == nil {
				t.Fatalf("Parse(%s) = nil", tt.file)
			}
			if got.Size != len(raw) {
				t.Errorf("Parse(%s).Size = %d, want %d", tt.file, got.Size, len(raw))
			}
			for _, d := range diffIncoming(got, &tt.want) {
				t.Errorf("Parse(%s).%s", tt.file, d)
			}
		})
	}
}

func TestParseUnknownCharsetError(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("testdata", "unknown-charset.eml"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mailmsg.Parse(raw); !message.IsUnknownCharset(err) {
		t.Errorf("Parse(unknown-charset.eml) error = %v, want one that satisfies message.IsUnknownCharset", err)
	}
}

func TestParseNoHeader(t *testing.T) {
	t.Parallel()
	raw := []byte("no header here, just words\n")
	in, _ := mailmsg.Parse(raw)
	if in == nil {
		t.Fatalf("Parse(%q) = nil", raw)
	}
	if in.From != "" || in.Size != len(raw) {
		t.Errorf("Parse(%q) = From %q, Size %d; want no From, Size %d", raw, in.From, in.Size, len(raw))
	}
}

// mailWithAttachment returns a mail with a text and an attachment of n
// bytes, the text first or last.
func mailWithAttachment(n int, textFirst bool) []byte {
	const text = "--B\r\nContent-Type: text/plain\r\n\r\nboard congo 42\r\n"
	var b bytes.Buffer
	b.WriteString("From: rae@example.org\r\nTo: congo@pbm.example.net\r\nSubject: big\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=B\r\n\r\n")
	if textFirst {
		b.WriteString(text)
	}
	b.WriteString("--B\r\nContent-Type: video/mp4\r\nContent-Transfer-Encoding: base64\r\n\r\n")
	line := base64.StdEncoding.EncodeToString(make([]byte, 57))
	for b.Len() < n {
		b.WriteString(line)
		b.WriteString("\r\n")
	}
	if !textFirst {
		b.WriteString(text)
	}
	b.WriteString("--B--\r\n")
	return b.Bytes()
}

func TestParseBigAttachmentIsSkipped(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		raw  []byte
	}{
		{"20 MB mail, text first", mailWithAttachment(20<<20, true)},
		{"20 MB mail, text last", mailWithAttachment(20<<20, false)},
		{"20 MB mail with a broken header line", append([]byte("From rae@example.org Sat Jun 14 10:02:11 2025\r\n"), mailWithAttachment(20<<20, false)...)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			in, _ := mailmsg.Parse(tt.raw)
			runtime.ReadMemStats(&after)
			if in.Text != "board congo 42" {
				t.Errorf("Parse(%s).Text = %q, want %q", tt.name, in.Text, "board congo 42")
			}
			// The attachment must be neither copied nor decoded.
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
				t.Errorf("Parse(%s) allocated %d bytes, want at most 1 MiB", tt.name, alloc)
			}
		})
	}
}

func TestParseTextIsCapped(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("From: sam@example.org\nContent-Type: text/plain; charset=utf-8\n\n")
	for i := range 100_000 {
		fmt.Fprintf(&b, "line %d: é\n", i)
	}
	in, err := mailmsg.Parse([]byte(b.String()))
	if err != nil {
		t.Fatalf("Parse(100,000 lines) error = %v", err)
	}
	if len(in.Text) > mailmsg.MaxText || len(in.Text) < mailmsg.MaxText-utf8.UTFMax {
		t.Errorf("len(Parse(100,000 lines).Text) = %d, want about %d", len(in.Text), mailmsg.MaxText)
	}
	if !utf8.ValidString(in.Text) {
		t.Errorf("Parse(100,000 lines).Text is not valid UTF-8 at its end: %q", in.Text[len(in.Text)-8:])
	}
	if !strings.HasPrefix(in.Text, "line 0: é\nline 1: é\n") {
		t.Errorf("Parse(100,000 lines).Text starts %q, want the first lines", in.Text[:32])
	}
	if !in.Truncated {
		t.Errorf("Parse(100,000 lines).Truncated = false, want true")
	}
}

// Text is at most MaxText bytes also when making it UTF-8 makes it
// longer: undeclared 8-bit text, read as windows-1252, or bytes of an
// unknown charset, each becoming up to three bytes (FuzzMail found it).
func TestParseTextIsCappedAfterDecoding(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("That\x92s it. ", mailmsg.MaxText/8)
	for _, header := range []string{
		"From: sam@example.org\n\n",
		"From: sam@example.org\nContent-Type: text/plain; charset=x-unknown\n\n",
		"From: sam@example.org\nContent-Type: text/plain; format=flowed\n\n",
	} {
		in, _ := mailmsg.Parse([]byte(header + body))
		if len(in.Text) > mailmsg.MaxText || !utf8.ValidString(in.Text) || !in.Truncated {
			t.Errorf("Parse(%q + 8-bit text).Text is %d bytes, valid UTF-8 %v, Truncated %v; want at most %d, true, true",
				header, len(in.Text), utf8.ValidString(in.Text), in.Truncated, mailmsg.MaxText)
		}
	}
}
