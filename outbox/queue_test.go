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

// queueMail queues m now and returns Queue's error.
func (h *harness) queueMail(m Mail) error {
	h.t.Helper()
	now := h.clock.Now()
	m.Out = mailmsg.Outgoing{From: "congo@example.org", To: m.Out.To, Subject: "Congo", Text: "hello", Date: now}
	return h.db.Tx(context.Background(), func(tx *db.Tx) error {
		_, err := h.o.Queue(context.Background(), tx, m, now)
		return err
	})
}

// due returns how many of the outbox's mails are due at now, and when
// the last of them is due.
func due(mails []db.Mail, now time.Time) (n int, last time.Time) {
	for _, m := range mails {
		if !m.NextAttempt.After(now) {
			n++
		}
		if m.NextAttempt.After(last) {
			last = m.NextAttempt
		}
	}
	return n, last
}

// TestCaps: the recipient's and the server's cap of M29 hold over a
// sliding hour, the recipient's counting an address with any +tag as
// one; a mail past one is not dropped but waits, in order, for the
// minute the hour allows it (M53).
func TestCaps(t *testing.T) {
	t.Parallel()
	var deferred []string
	h := newHarnessWith(t, Config{MaxPerRecipient: 3, MaxPerSender: 5, MaxPerHour: 8,
		OnDeferred: func(c string) { deferred = append(deferred, c) }})
	start := h.clock.Now()
	for _, to := range []string{"victim@x.example", "Victim+1@x.example", "victim+2@X.example", "victim+3@x.example"} {
		if err := h.send(to, "by:evil", "hello"); err != nil {
			t.Fatal(err)
		}
		h.clock.Advance(time.Minute)
	}
	all := h.queued()
	if n, last := due(all, h.clock.Now()); len(all) != 4 || n != 3 || !last.Equal(start.Add(time.Hour).Truncate(time.Minute)) {
		t.Errorf("4 mails a minute apart to victim with different +tags: %d queued, %d due, the last at %v; want 4, 3, and the 4th an hour after the first",
			len(all), n, last)
	}
	for _, to := range []string{"a@x.example", "b@x.example", "c@x.example", "d@x.example", "e@x.example", "f@x.example"} {
		h.send(to, "", "a reminder")
	}
	if all, n := h.queued(), 0; len(all) != 10 {
		t.Errorf("%d queued, want every one of the 10", len(all))
	} else if n, _ = due(all, h.clock.Now()); n != 8 {
		t.Errorf("with the server's cap of 8 an hour, %d due, want 8", n)
	}
	if want := "recipient server"; strings.Join(deferred, " ") != want {
		t.Errorf("caps told = %q, want %q", deferred, want)
	}
	// A notice goes out past the caps.
	if err := h.queueMail(Mail{Cause: "by:evil", Notice: true, Out: mailmsg.Outgoing{To: "victim@x.example"}}); err != nil {
		t.Errorf("the notice: %v", err)
	}
	if n, _ := due(h.queued(), h.clock.Now()); n != 9 {
		t.Errorf("after the notice, %d due, want 9", n)
	}
	// The hour slides: an hour later everything has gone, in order.
	h.clock.Advance(61 * time.Minute)
	if all := h.queued(); len(all) != 11 {
		t.Errorf("an hour later: %d queued, want 11", len(all))
	} else if n, _ := due(all, h.clock.Now()); n != 11 {
		t.Errorf("an hour later: %d due, want all 11", n)
	}
}

// TestBudget: what a player's mails cause to others is their budget
// (M29): the sender's cap of mails to others an hour, and half a
// recipient's cap to one of them; their own answers cost nothing of it.
func TestBudget(t *testing.T) {
	h := newHarnessWith(t, Config{MaxPerRecipient: 4, MaxPerSender: 5})
	budget := func(to ...string) (over string, limit int) {
		t.Helper()
		err := h.db.Tx(context.Background(), func(tx *db.Tx) error {
			var err error
			over, limit, err = h.o.Budget(context.Background(), tx, 7, h.clock.Now(), to...)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return over, limit
	}
	for range 10 {
		h.queueMail(Mail{Cause: Player(7), Asked: true, Out: mailmsg.Outgoing{To: "seven@x.example"}}) // own answers
	}
	if over, _ := budget("bob@x.example"); over != "" {
		t.Errorf("after 10 answers to their own mail, the budget is spent for %q", over)
	}
	for range 2 {
		h.queueMail(Mail{Cause: Player(7), Out: mailmsg.Outgoing{To: "Bob+1@x.example"}})
	}
	if over, limit := budget("carol@x.example", "bob@x.example"); over != "bob@x.example" || limit != 2 {
		t.Errorf("after 2 mails to bob: budget = %q, %d, want bob's, 2", over, limit)
	}
	for _, to := range []string{"carol@x.example", "dave@x.example", "erin@x.example"} {
		h.queueMail(Mail{Cause: Player(7), Out: mailmsg.Outgoing{To: to}})
	}
	if over, limit := budget("frank@x.example"); over != "*" || limit != 5 {
		t.Errorf("after 5 mails to others: budget = %q, %d, want the sender's, 5", over, limit)
	}
	h.clock.Advance(61 * time.Minute)
	if over, _ := budget("bob@x.example"); over != "" {
		t.Errorf("an hour later the budget is spent for %q", over)
	}
}

// TestUnprovenCap: answers to mail that proves nothing count under a cap
// of their own, MaxUnprovenPerDay an address a day (M52), and are
// dropped past it; they spend no budget of the recipient's.
func TestUnprovenCap(t *testing.T) {
	var capped []string
	h := newHarnessWith(t, Config{MaxPerRecipient: 2, OnCapped: func(c string) { capped = append(capped, c) }})
	for i := range MaxUnprovenPerDay + 2 {
		err := h.queueMail(Mail{Unproven: true, Out: mailmsg.Outgoing{To: "Alice+" + string(rune('a'+i)) + "@x.example"}})
		if i < MaxUnprovenPerDay && err != nil || i >= MaxUnprovenPerDay && !IsCapped(err) {
			t.Errorf("answer %d to mail that proves nothing: %v", i+1, err)
		}
	}
	if n := len(h.queued()); n != MaxUnprovenPerDay {
		t.Errorf("%d answers queued, want %d", n, MaxUnprovenPerDay)
	}
	if strings.Join(capped, " ") != "unproven unproven" {
		t.Errorf("caps told = %q, want unproven twice", capped)
	}
	// alice's own mail is not held back by them.
	for range 2 {
		h.send("alice@x.example", "player:1", "her board")
	}
	if n, _ := due(h.queued(), h.clock.Now()); n != MaxUnprovenPerDay+2 {
		t.Errorf("alice's own mail behind the answers: %d due, want %d", n, MaxUnprovenPerDay+2)
	}
	h.clock.Advance(23 * time.Hour)
	if err := h.queueMail(Mail{Unproven: true, Out: mailmsg.Outgoing{To: "alice@x.example"}}); !IsCapped(err) {
		t.Errorf("23 hours later: %v, want still capped", err)
	}
	h.clock.Advance(2 * time.Hour)
	if err := h.queueMail(Mail{Unproven: true, Out: mailmsg.Outgoing{To: "alice@x.example"}}); err != nil {
		t.Errorf("a day later: %v, want queued", err)
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

// TestScrubOwnAddresses: a mail that holds its recipient's own personal
// address many times (the one-tap moves of a board mail, M71) keeps them
// all; another's among them, or a longer secret that starts with the
// recipient's, is still removed.
func TestScrubOwnAddresses(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	own := `<a href="mailto:congo+alicesecret7@example.org?subject=x">a5</a>` + "\n"
	tests := []struct{ html, removed string }{
		{strings.Repeat(own, 30), ""},
		{strings.Repeat(own, 10) + "congo+bobsecret2@example.org" + strings.Repeat(own, 10), "bobsecret2"},
		{own + "Congo+AliceSecret7X@example.org", "alicesecret7x"},
		{own + "congo&#43;bobsecret2&#64;example.org", "bobsecret2"},
	}
	for _, tt := range tests {
		out := mailmsg.Outgoing{ReplyTo: "congo+alicesecret7@example.org"}
		got := h.o.scrub(tt.html, out)
		if tt.removed == "" && got != tt.html {
			t.Errorf("scrub changed a mail with only the recipient's own address:\n%s", got)
		}
		if tt.removed != "" && (strings.Contains(strings.ToLower(got), tt.removed) || !strings.Contains(got, "congo+alicesecret7@example.org")) {
			t.Errorf("scrub kept %s, or removed the recipient's own:\n%s", tt.removed, got)
		}
	}
}
