package servertest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

// TestWorld plays the opening of a game in a World: registered players,
// a challenge accepted, a move and a reply to it; a player registered
// alone is not confirmed.
func TestWorld(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	if p := w.Player("alice"); !p.Confirmed || p.Address != congotest.Address("alice") {
		t.Errorf("alice after Register: %+v, want confirmed at %s", p, congotest.Address("alice"))
	}
	id := w.StartGame("alice", "bob")
	if g := w.Game(id); g.Status != db.Active || w.Games() != 1 {
		t.Fatalf("game %d after StartGame: %+v (%d games), want the one game active", id, g, w.Games())
	}
	w.SendProven("alice", fmt.Sprintf("move congo %d b2-b3", id))
	mails := w.Deliver()
	toBob := servertest.Only(t, mails, "bob")
	servertest.WantText(t, toBob, "alice: b2-b3")
	servertest.WantWords(t, toBob, "It is your move")
	if toBob.ReplyTo != w.Personal("bob") {
		t.Errorf("Reply-To %q, want bob's personal address %q", toBob.ReplyTo, w.Personal("bob"))
	}
	w.Reply(toBob, "b6-b5")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "bob: b6-b5")

	w.RegisterOnly("carol")
	if p := w.Player("carol"); p.Confirmed {
		t.Errorf("carol after RegisterOnly: %+v, want not confirmed", p)
	}
}

// recorder is a testing.TB that keeps the errors a World reports.
type recorder struct {
	testing.TB
	got []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.got = append(r.got, fmt.Sprintf(format, args...))
}

// TestLeakCheck: a mail to one player that shows another's address or
// secret fails the test.
func TestLeakCheck(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	w := servertest.New(rec, server.Config{})
	w.Register("alice", "bob")
	if len(rec.got) != 0 {
		t.Fatalf("errors before the leak: %q", rec.got)
	}
	to := congotest.Address("alice")
	for _, leak := range []string{congotest.Address("bob"), w.Personal("bob")} {
		raw := "From: Congo <" + servertest.ServerAddress + ">\r\nTo: " + to + "\r\nSubject: hello\r\n" +
			"Message-ID: <leak@example.org>\r\n\r\nWrite to " + leak + ".\r\n"
		w.Parse(congotest.Sent{From: servertest.ServerAddress, To: []string{to}, Raw: []byte(raw)})
		if len(rec.got) != 1 || !strings.Contains(rec.got[0], "shows bob's address or secret") {
			t.Errorf("a mail to alice showing %q: errors %q, want the leak told", leak, rec.got)
		}
		rec.got = nil
	}
}
