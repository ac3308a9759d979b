package outbox

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/mailmsg"
)

// send queues a mail to to, caused by cause, and returns Queue's error.
func (h *harness) send(to, cause, text string) error {
	h.t.Helper()
	now := h.clock.Now()
	return h.db.Tx(context.Background(), func(tx *db.Tx) error {
		_, err := h.o.Queue(context.Background(), tx, Mail{Cause: cause, Out: mailmsg.Outgoing{From: "congo@example.org",
			To: to, Subject: "Congo", Text: text, Date: now}}, now)
		if IsCapped(err) {
			return nil // the mail is not queued; the transaction goes on
		}
		return err
	})
}

// queued returns the outbox's mails in order.
func (h *harness) queued() []db.Mail {
	h.t.Helper()
	var out []db.Mail
	err := h.db.Tx(context.Background(), func(tx *db.Tx) error {
		for id := int64(1); ; id++ {
			m, err := tx.Mail(context.Background(), id)
			if errors.Is(err, db.ErrNotFound) {
				return nil
			}
			if err != nil {
				return err
			}
			out = append(out, m)
		}
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return out
}

// TestCaps: each cap of M29 holds over a sliding hour, the recipient's
// counting an address with any +tag as one.
func TestCaps(t *testing.T) {
	t.Parallel()
	var capped []string
	h := newHarnessWith(t, Config{MaxPerRecipient: 3, MaxPerSender: 5, MaxPerHour: 8,
		OnCapped: func(c string) { capped = append(capped, c) }})
	for _, to := range []string{"victim@x.example", "Victim+1@x.example", "victim+2@X.example", "victim+3@x.example"} {
		if err := h.send(to, "by:evil", "hello"); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(h.queued()); n != 3 {
		t.Errorf("4 mails to victim with different +tags: %d queued, want 3", n)
	}
	for _, to := range []string{"a@x.example", "b@x.example", "c@x.example"} {
		h.send(to, "by:evil", "hello")
	}
	if n := len(h.queued()); n != 5 {
		t.Errorf("after 6 mails caused by one sender, %d queued, want 5", n)
	}
	for _, to := range []string{"d@x.example", "e@x.example", "f@x.example", "g@x.example"} {
		h.send(to, "", "a reminder") // the server's own: no sender's cap
	}
	if n := len(h.queued()); n != 8 {
		t.Errorf("with the server's cap of 8, %d queued, want 8", n)
	}
	if want := []string{"recipient", "sender", "server"}; strings.Join(capped, " ") != strings.Join(want, " ") {
		t.Errorf("caps told = %q, want %q", capped, want)
	}
	// A notice goes out past the caps.
	now := h.clock.Now()
	err := h.db.Tx(context.Background(), func(tx *db.Tx) error {
		_, err := h.o.Queue(context.Background(), tx, Mail{Cause: "by:evil", Notice: true,
			Out: mailmsg.Outgoing{From: "congo@example.org", To: "victim@x.example", Subject: "Congo", Text: "capped", Date: now}}, now)
		return err
	})
	if err != nil {
		t.Errorf("the notice: %v", err)
	}
	// The hour slides: an hour later everything goes again.
	h.clock.Advance(61 * time.Minute)
	before := len(h.queued())
	h.send("victim@x.example", "by:evil", "hello")
	if n := len(h.queued()); n != before+1 {
		t.Errorf("an hour later: %d queued, want %d", n, before+1)
	}
}

// TestScrub: no mail carries a player's personal address but to that
// player (M30).
func TestScrub(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	now := h.clock.Now()
	const bobs, alices = "congo+bobsecret2@example.org", "Congo+AliceSecret7@Example.org"
	text := "bob wrote: reply to " + bobs + " or to " + alices + "; congo@example.org stays"
	err := h.db.Tx(context.Background(), func(tx *db.Tx) error {
		_, err := h.o.Queue(context.Background(), tx, Mail{Out: mailmsg.Outgoing{From: "congo@example.org",
			To: "alice@x.example", ReplyTo: "congo+alicesecret7@example.org", Subject: "about " + bobs,
			Text: text, HTML: "<p>" + strings.ReplaceAll(text, "+", "&#43;") + "</p>", Date: now}}, now)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	m, err := mailmsg.Parse(h.queued()[0].Raw)
	if err != nil {
		t.Fatal(err)
	}
	raw := string(h.queued()[0].Raw)
	if strings.Contains(strings.ToLower(raw), "bobsecret2") {
		t.Errorf("bob's personal address in a mail to alice:\n%s", raw)
	}
	if !strings.Contains(m.Text, alices) || !strings.Contains(m.Text, "congo@example.org stays") || !strings.Contains(m.Text, Removed) {
		t.Errorf("text %q: want alice's own address kept, the server's plain one kept, bob's removed", m.Text)
	}
	if !strings.Contains(m.Subject, Removed) {
		t.Errorf("Subject %q: want bob's address removed", m.Subject)
	}
}
