package servertest

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	netmail "net/mail"
	"strings"
	"testing"

	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/mailmsg"
)

// Received is a mail the server sent, as a player's mail program sees it.
type Received struct {
	*mailmsg.Incoming
	To      string // the envelope recipient
	ReplyTo string
	Header  netmail.Header
	Raw     []byte // as sent
}

// GameOf returns the game number in the subject of the first mail.
func GameOf(t testing.TB, mails []Received) int64 {
	t.Helper()
	if len(mails) == 0 {
		t.Fatalf("no mail")
	}
	var id int64
	if _, err := fmt.Sscanf(mails[0].Subject, "Congo game %d:", &id); err != nil {
		t.Fatalf("subject %q names no game", mails[0].Subject)
	}
	return id
}

// To returns the mails to one player's address.
func To(mails []Received, handle string) []Received {
	var out []Received
	for _, m := range mails {
		if m.To == congotest.Address(handle) {
			out = append(out, m)
		}
	}
	return out
}

// Only returns the one mail to a player, failing the test when there is
// not exactly one.
func Only(t testing.TB, mails []Received, handle string) Received {
	t.Helper()
	got := To(mails, handle)
	if len(got) != 1 {
		var subjects []string
		for _, m := range mails {
			subjects = append(subjects, m.To+": "+m.Subject)
		}
		t.Fatalf("%d mails to %s, want 1; all mails: %q", len(got), handle, subjects)
	}
	return got[0]
}

// Answer returns the one answer (not a mail of a game's) among mails to
// the player with the handle.
func Answer(t testing.TB, mails []Received, handle string) Received {
	t.Helper()
	var answers []Received
	for _, r := range To(mails, handle) {
		if !strings.HasPrefix(r.Subject, "Congo game ") {
			answers = append(answers, r)
		}
	}
	if len(answers) != 1 {
		t.Fatalf("%s got %d answers, want 1", handle, len(answers))
	}
	return answers[0]
}

// WantText fails the test unless the mail's text holds every one of want.
func WantText(t testing.TB, m Received, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(m.Text, w) {
			t.Errorf("mail to %s %q does not say %q:\n%s", m.To, m.Subject, w, m.Text)
		}
	}
}

// WantNoText fails the test if the mail's text holds any of unwanted.
func WantNoText(t testing.TB, m Received, unwanted ...string) {
	t.Helper()
	for _, w := range unwanted {
		if strings.Contains(m.Text, w) {
			t.Errorf("mail to %s %q says %q:\n%s", m.To, m.Subject, w, m.Text)
		}
	}
}

// WantWords is WantText for prose, which a mail wraps where it likes: the
// mail's words, and each of want's, are compared with their spaces and
// line breaks made one space.
func WantWords(t testing.TB, m Received, want ...string) {
	t.Helper()
	text := strings.Join(strings.Fields(m.Text), " ")
	for _, w := range want {
		if !strings.Contains(text, strings.Join(strings.Fields(w), " ")) {
			t.Errorf("mail to %s %q does not say %q:\n%s", m.To, m.Subject, w, m.Text)
		}
	}
}

// WantNoWords is WantNoText for prose, as WantWords.
func WantNoWords(t testing.TB, m Received, unwanted ...string) {
	t.Helper()
	text := strings.Join(strings.Fields(m.Text), " ")
	for _, w := range unwanted {
		if strings.Contains(text, strings.Join(strings.Fields(w), " ")) {
			t.Errorf("mail to %s %q says %q:\n%s", m.To, m.Subject, w, m.Text)
		}
	}
}

// HTMLOf returns a mail's text/html part, decoded; "" for none.
func HTMLOf(t testing.TB, raw []byte) string {
	t.Helper()
	msg, err := netmail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	_, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil {
		t.Fatal(err)
	}
	r := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := r.NextPart() // decodes quoted-printable
		if err != nil {
			return ""
		}
		if k, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type")); k == "text/html" {
			b, err := io.ReadAll(p)
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
	}
}
