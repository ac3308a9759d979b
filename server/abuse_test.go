package server_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/config"
	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

// TestForgedRegisterBringsOneMail (M28): an address registered by a
// forged mail gets its welcome, then nothing until it answers: a second
// register within the day is not mailed, challenges to it are refused,
// and the attacker's mails naming it reach nobody.
func TestForgedRegisterBringsOneMail(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("mallory")
	w.Send("victim", "register victim") // forged: the victim never wrote
	if got := servertest.To(w.Deliver(), "victim"); len(got) != 1 {
		t.Fatalf("a forged register gave the victim %d mails, want the welcome", len(got))
	}
	w.Send("victim", "register victim")
	w.Send("victim", "games\nhelp")
	if got := w.Deliver(); len(got) != 0 {
		t.Errorf("more forged mail within the day gave %d mails, want none: %q", len(got), got[0].Subject)
	}
	w.SendProven("mallory", "challenge congo victim\nchallenge congo victim days=5 Spam spam spam")
	r := servertest.Only(t, w.Deliver(), "mallory")
	servertest.WantText(t, r, "victim has not confirmed their address yet")
	if n := w.Games(); n != 0 {
		t.Errorf("challenges to an address not confirmed made %d games", n)
	}
	// Once the victim answers the welcome, they are a player like any.
	w.SendProven("victim", "games")
	w.Deliver()
	w.SendProven("mallory", "challenge congo victim")
	if got := servertest.To(w.Deliver(), "victim"); len(got) != 1 {
		t.Errorf("a challenge once confirmed gave %d mails to the victim, want 1", len(got))
	}
}

// TestStrangerAnsweredThreeADay: a forged From of an address that is not
// registered brings it at most MaxUnprovenPerDay answers a day, whatever
// its +tag (M31, M52).
func TestStrangerAnsweredThreeADay(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Send("victim", "help")
	for i, text := range []string{"help", "hello", "rules"} {
		m := w.Mail("victim", "", text)
		m.From = fmt.Sprintf("VICTIM+%d@%s", i+1, congotest.PlayersDomain)
		w.Process(m)
	}
	if got := w.Deliver(); len(got) != outbox.MaxUnprovenPerDay {
		t.Errorf("four mails from victim, victim+1, victim+2 and victim+3 gave %d answers, want %d", len(got), outbox.MaxUnprovenPerDay)
	}
	w.Clock.Advance(25 * time.Hour)
	w.Send("victim", "help")
	if got := w.Deliver(); len(got) != 1 {
		t.Errorf("a day later: %d answers, want 1", len(got))
	}
}

// TestRelayedSecretIsRemoved (M30): a player's personal address quoted in
// a comment (an Italian Outlook reply quoting the welcome, the command in
// the Subject) never reaches the opponent, nor the operator's.
func TestRelayedSecretIsRemoved(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{Settings: config.Settings{Operator: congotest.Address("oper")}})
	w.Register("alice", "bob", "oper")
	w.StartGame("alice", "bob")
	alicePA, operPA := w.Personal("alice"), w.Personal("oper")
	body := "In bocca al lupo!\n\nDa: Congo <congo@example.org>\nIl tuo indirizzo personale:\n  " + alicePA + "\n"
	m := w.ProvenMail("alice", body)
	m.Subject = "move congo 1 b2-b3"
	w.Process(m)
	for _, r := range servertest.To(w.Deliver(), "bob") {
		if strings.Contains(strings.ToLower(r.Text), strings.ToLower(alicePA)) {
			t.Errorf("bob's mail carries alice's personal address:\n%s", r.Text)
		}
		servertest.WantText(t, r, "In bocca al lupo!")
	}
	m = w.ProvenMail("alice", "Write to "+strings.ToUpper(operPA)+" if in doubt")
	m.Subject = "draw congo 1"
	w.Process(m)
	for _, r := range servertest.To(w.Deliver(), "bob") {
		if strings.Contains(strings.ToLower(r.Text), strings.ToLower(operPA)) {
			t.Errorf("bob's mail carries the operator's personal address:\n%s", r.Text)
		}
		servertest.WantText(t, r, outbox.Removed)
	}
}

// TestUnprovenAnswerIsShort (M31): an answer to a mail that proves nothing
// quotes at most 3 of its lines and shows no board.
func TestUnprovenAnswerIsShort(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	lines := []string{"move congo 1 b2-b3", "board congo 1"}
	for i := range 197 {
		lines = append(lines, fmt.Sprintf("buy cheap watches at evil.example, offer %d", i))
	}
	w.Send("alice", strings.Join(lines, "\n"))
	r := servertest.Only(t, w.Deliver(), "alice")
	quoted := 0
	for _, l := range strings.Split(r.Text, "\n") {
		if strings.Contains(l, "move congo 1 b2-b3") || strings.Contains(l, "board congo 1") || strings.Contains(l, "evil.example") {
			quoted++
		}
	}
	if quoted > 3 {
		t.Errorf("the answer to a forged mail quotes %d of its lines, want at most 3:\n%s", quoted, r.Text)
	}
	if len(r.Text) > 4000 {
		t.Errorf("the answer to a forged mail is %d bytes, want a short one", len(r.Text))
	}
	servertest.WantNoText(t, r, "Position:")
	servertest.WantText(t, r, "did not come to your personal address")
}

// TestLoopWithAResponder: a broken automatic responder (no Auto-Submitted)
// answering every mail gets a few answers and the notice, then none,
// however long it goes on; mail with a command is answered all the while.
func TestLoopWithAResponder(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice")
	answers := 0
	for range 100 {
		w.SendProven("alice", "I am out of the office until Monday.")
		answers += len(w.Deliver())
		w.Clock.Advance(time.Second)
	}
	if answers != server.LoopMails {
		t.Errorf("100 mails from a responder got %d answers, want %d (the last of them the notice)", answers, server.LoopMails)
	}
	w.SendProven("alice", "games")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "You have no games")
	w.Clock.Advance(server.LoopQuiet + time.Minute)
	w.SendProven("alice", "I am out of the office until Monday.")
	if n := len(w.Deliver()); n != 1 {
		t.Errorf("an hour after the loop: %d answers, want 1", n)
	}
}

// TestProvenMailAlwaysAnswered: forged mail in a player's name that fills
// their cap does not keep their own proven mail from being answered.
func TestProvenMailAlwaysAnswered(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("carol")
	for range 101 {
		w.Send("carol", "games") // forged
	}
	w.Deliver()
	w.SendProven("carol", "games")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "carol"), "You have no games")
}
