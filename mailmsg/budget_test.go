package mailmsg_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/mailmsg"
)

// manyParts returns a multipart/mixed mail of n parts: n-1 small
// attachments and the text "games", the text at index textAt (the
// first part is 0). A non-empty first part (a header, a blank line and a
// body) comes before them all.
func manyParts(n, textAt int, first string) []byte {
	var b strings.Builder
	b.WriteString(mailHead + "Content-Type: multipart/mixed; boundary=B\r\n\r\n")
	if first != "" {
		b.WriteString("--B\r\n" + first + "\r\n")
	}
	for i := range n {
		if i == textAt {
			b.WriteString("--B\r\nContent-Type: text/plain\r\n\r\ngames\r\n")
			continue
		}
		fmt.Fprintf(&b, "--B\r\nContent-Type: image/png\r\nContent-Disposition: attachment; filename=\"%d.png\"\r\n\r\niVBORw0KGgo=\r\n", i)
	}
	b.WriteString("--B--\r\n")
	return []byte(b.String())
}

const htmlPart = "Content-Type: text/html; charset=utf-8\r\n\r\n<p>move congo 42 b2-b3</p>"

var (
	cutDepth = fmt.Sprintf("MIME nesting deeper than %d levels", mailmsg.MaxDepth)
	cutParts = fmt.Sprintf("more than %d parts", mailmsg.MaxParts)
)

func TestParseBudget(t *testing.T) {
	tests := []struct {
		name     string
		raw      []byte
		wantText string
		wantCut  string
	}{
		{"nested 20 levels", deepMail(mailmsg.MaxDepth), "move congo 42 b2-b3", ""},
		{"nested 21 levels", deepMail(mailmsg.MaxDepth + 1), "", cutDepth},
		{"nested 5,000 levels", deepMail(5000), "", cutDepth},
		{"nested 1 MiB deep", deepMailOfSize(1 << 20), "", cutDepth},
		{"HTML, then nested 5,000 levels", nestedMail(5000, 0, htmlPart), "move congo 42 b2-b3\n", cutDepth},
		{"text, then nested 5,000 levels", nestedMail(5000, 0, "Content-Type: text/plain\r\n\r\nresign"), "resign", ""},
		{"100 parts, text last", manyParts(100, 99, ""), "games", ""},
		{"101 parts, text last", manyParts(101, 100, ""), "", cutParts},
		{"10,000 parts, text first", manyParts(10_000, 0, ""), "games", ""},
		{"10,000 parts, text last", manyParts(10_000, 9_999, ""), "", cutParts},
		{"HTML, then 10,000 parts", manyParts(10_000, 9_999, htmlPart), "move congo 42 b2-b3\n", cutParts},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			got, err := mailmsg.Parse(tt.raw)
			elapsed := time.Since(start)
			if got.Text != tt.wantText || got.Cut != tt.wantCut {
				t.Errorf("Parse(%s) = Text %q, Cut %q; want %q, %q", tt.name, got.Text, got.Cut, tt.wantText, tt.wantCut)
			}
			if (err != nil) != (tt.wantCut != "") {
				t.Errorf("Parse(%s) error = %v, want one exactly when the mail is cut", tt.name, err)
			}
			// What was read before the cut is kept: the header at least.
			if got.From != "mallory@example.org" || got.Subject != "deep" || got.MessageID != "deep@example.org" {
				t.Errorf("Parse(%s) = From %q, Subject %q, MessageID %q; want the header", tt.name, got.From, got.Subject, got.MessageID)
			}
			if got.Truncated {
				t.Errorf("Parse(%s).Truncated = true, want false", tt.name)
			}
			// Cut by the depth or the parts, never by the clock: without
			// the bounds these took seconds.
			if elapsed > mailmsg.ParseTimeout/2 {
				t.Errorf("Parse(%s) took %v, want well under %v", tt.name, elapsed, mailmsg.ParseTimeout)
			}
		})
	}
}

func TestParseBudgetText(t *testing.T) {
	t.Parallel()
	b := mailmsg.DefaultBudget
	b.Text = 10
	for _, tt := range []struct {
		name      string
		raw       string
		wantText  string
		wantCut   string
		wantTrunc bool
	}{
		{
			name:     "text over the budget",
			raw:      mailHead + "Content-Type: text/plain\r\n\r\nmove congo 42 b2-b3\r\n",
			wantText: "move congo", wantCut: "more than 10 bytes of text",
		},
		{
			name:     "text within the budget",
			raw:      mailHead + "Content-Type: text/plain\r\n\r\nb2-b3\r\n",
			wantText: "b2-b3\n",
		},
		{
			name:     "HTML over the budget, then text",
			raw:      string(manyParts(2, 1, "Content-Type: text/html\r\n\r\n<p>1234567</p>")),
			wantText: "1234567\n", wantCut: "more than 10 bytes of text",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := mailmsg.ParseWithin([]byte(tt.raw), b)
			if got.Text != tt.wantText || got.Cut != tt.wantCut || got.Truncated != tt.wantTrunc {
				t.Errorf("Parse(%s) = Text %q, Cut %q, Truncated %v; want %q, %q, %v", tt.name,
					got.Text, got.Cut, got.Truncated, tt.wantText, tt.wantCut, tt.wantTrunc)
			}
			if (err != nil) != (tt.wantCut != "") {
				t.Errorf("Parse(%s) error = %v, want one exactly when the mail is cut", tt.name, err)
			}
		})
	}
}

func TestParseBudgetTime(t *testing.T) {
	t.Parallel()
	b := mailmsg.DefaultBudget
	b.Timeout = 0 // up before the body is read
	want := "took longer than 0s to read"
	for _, tt := range []struct {
		name string
		raw  []byte
	}{
		{"one text part", []byte(mailHead + "Content-Type: text/plain\r\n\r\nmove congo 42 b2-b3\r\n")},
		{"multipart", manyParts(3, 0, "")},
		{"nested", deepMail(5000)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := mailmsg.ParseWithin(tt.raw, b)
			if got.Cut != want || got.Text != "" {
				t.Errorf("Parse(%s) with no time = Text %q, Cut %q; want %q, %q", tt.name, got.Text, got.Cut, "", want)
			}
			if err == nil {
				t.Errorf("Parse(%s) with no time: error = nil, want one", tt.name)
			}
			if got.From != "mallory@example.org" || got.Subject != "deep" {
				t.Errorf("Parse(%s) with no time = From %q, Subject %q; want the header", tt.name, got.From, got.Subject)
			}
		})
	}
}

func TestParseLeavesNoGoroutines(t *testing.T) {
	mails := [][]byte{
		[]byte(typicalReply),
		[]byte("From: a@example.org\r\nSubject: not multipart\r\n\r\ngames\r\n"),
		deepMail(100),
		manyParts(200, 199, ""),
	}
	before := runtime.NumGoroutine()
	for _, raw := range mails {
		mailmsg.Parse(raw)
	}
	deadline := time.Now().Add(time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after Parse, %d before", n, before)
	}
}
