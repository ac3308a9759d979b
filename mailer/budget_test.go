package mailer_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/mailer"
	"github.com/congobymail/congo/mailer/loopback"
	"github.com/congobymail/congo/mailmsg"
)

// nestedMail returns a mail whose MIME parts nest depth levels deep, or,
// when depth is negative, as deep as it takes to be size bytes long; the
// innermost part is a move.
func nestedMail(subject string, depth, size int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "From: mallory@example.org\r\nTo: congo@pbm.example.net\r\nSubject: %s\r\n"+
		"Message-ID: <%s@example.org>\r\nMIME-Version: 1.0\r\n"+
		"Content-Type: multipart/mixed; boundary=b0\r\n\r\n", subject, subject)
	closings := []string{"--b0--\r\n"}
	size -= len(closings[0])
	for n := 1; depth < 0 && b.Len() < size || n < depth; n++ {
		fmt.Fprintf(&b, "--b%d\r\nContent-Type: multipart/mixed; boundary=b%d\r\n\r\n", n-1, n)
		closings = append(closings, fmt.Sprintf("--b%d--\r\n", n))
		size -= len(closings[n])
	}
	fmt.Fprintf(&b, "--b%d\r\nContent-Type: text/plain\r\n\r\nmove congo 42 b2-b3\r\n", len(closings)-1)
	for _, c := range slices.Backward(closings) {
		b.WriteString(c)
	}
	return []byte(b.String())
}

// A mail that takes long to read delays the others by no more than the
// budget of M32: before it, a mail nested 5,000 levels deep took 2 s to
// parse here, one nested 1 MiB deep 20 s, and parsing runs inline in
// the one IMAP loop. The deep mails are cut, handled and filed, not lost
// or tried again.
func TestInboxDeepMailDoesNotDelayOthers(t *testing.T) {
	sys := startSystem(t, loopback.Config{})
	for _, raw := range [][]byte{
		nestedMail("deep", 5000, 0),
		nestedMail("deeper", -1, 1<<20),
	} {
		if err := sys.Deliver(context.Background(), "mallory@example.org", []string{"congo@pbm.example.net"}, raw); err != nil {
			t.Fatal(err)
		}
	}
	deliver(t, sys, "normal")

	var (
		mu   sync.Mutex
		when = make(map[string]time.Duration)
		h    handled
	)
	start := time.Now()
	runInbox(t, mailer.InboxConfig{
		URL:  sys.IMAPURL("congo"),
		Poll: 100 * time.Millisecond, // a mail tried again would show soon
	}, func(_ context.Context, m *mailmsg.Incoming) error {
		mu.Lock()
		when[m.Subject] = time.Since(start)
		mu.Unlock()
		h.add(m)
		return nil
	})
	congotest.WaitFor(t, "three mails handled", 10*time.Second, func() bool { return len(h.all()) == 3 })
	mu.Lock()
	t.Logf("handled after %v", when)
	if took := when["normal"]; took > time.Second {
		t.Errorf("the normal mail reached the handler %v after the start, want within 1s", took)
	}
	mu.Unlock()

	congotest.WaitFor(t, "three mails filed", 5*time.Second, count(sys, "Processed", 3))
	// Some polls later, nothing was handled again.
	time.Sleep(500 * time.Millisecond)
	if got, want := h.subjects(), []string{"deep", "deeper", "normal"}; !slices.Equal(got, want) {
		t.Errorf("handled %q, want %q", got, want)
	}
	if n := len(mailbox(t, sys, "INBOX")); n != 0 {
		t.Errorf("INBOX has %d messages, want 0", n)
	}
	want := fmt.Sprintf("MIME nesting deeper than %d levels", mailmsg.MaxDepth)
	for _, m := range h.all() {
		switch m.Subject {
		case "normal":
			if m.Cut != "" || m.Text != "move congo 42 b2-b3\n" {
				t.Errorf("normal mail = Text %q, Cut %q; want the move, not cut", m.Text, m.Cut)
			}
		default:
			if m.Cut != want || m.From != "mallory@example.org" {
				t.Errorf("%s mail = From %q, Cut %q; want mallory@example.org, %q", m.Subject, m.From, m.Cut, want)
			}
		}
	}
}
