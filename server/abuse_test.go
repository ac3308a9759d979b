package server

import (
	"context"
	"fmt"
	"github.com/congobymail/congo/config"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/outbox"
)

// games counts the games there are.
func (h *harness) games() int {
	h.t.Helper()
	n := 0
	h.inTx(func(ctx context.Context, tx *db.Tx) error {
		for id := int64(1); ; id++ {
			if _, err := tx.Game(ctx, id); err != nil {
				return nil
			}
			n++
		}
	})
	return n
}

// answerTo returns the one answer (not a mail of a game's) among mails
// to the player with the handle.
func answerTo(t *testing.T, mails []received, handle string) received {
	t.Helper()
	var answers []received
	for _, r := range to(mails, handle) {
		if !strings.HasPrefix(r.Subject, "Congo game ") {
			answers = append(answers, r)
		}
	}
	if len(answers) != 1 {
		t.Fatalf("%s got %d answers, want 1", handle, len(answers))
	}
	return answers[0]
}

// TestForgedRegisterBringsOneMail (M28): an address registered by a
// forged mail gets its welcome, then nothing until it answers: a second
// register within the day is not mailed, challenges to it are refused,
// and the attacker's mails naming it reach nobody.
func TestForgedRegisterBringsOneMail(t *testing.T) {
	h := newHarness(t)
	h.register("mallory")
	h.send("victim", "register victim") // forged: the victim never wrote
	if got := to(h.deliver(), "victim"); len(got) != 1 {
		t.Fatalf("a forged register gave the victim %d mails, want the welcome", len(got))
	}
	h.send("victim", "register victim")
	h.send("victim", "games\nhelp")
	if got := h.deliver(); len(got) != 0 {
		t.Errorf("more forged mail within the day gave %d mails, want none: %q", len(got), got[0].Subject)
	}
	h.sendProven("mallory", "challenge congo victim\nchallenge congo victim days=5 Spam spam spam")
	r := only(t, h.deliver(), "mallory")
	wantText(t, r, "victim has not confirmed their address yet")
	if n := h.games(); n != 0 {
		t.Errorf("challenges to an address not confirmed made %d games", n)
	}
	// Once the victim answers the welcome, they are a player like any.
	h.sendProven("victim", "games")
	h.deliver()
	h.sendProven("mallory", "challenge congo victim")
	if got := to(h.deliver(), "victim"); len(got) != 1 {
		t.Errorf("a challenge once confirmed gave %d mails to the victim, want 1", len(got))
	}
}

// TestStrangerAnsweredThreeADay: a forged From of an address that is not
// registered brings it at most MaxUnprovenPerDay answers a day, whatever
// its +tag (M31, M52).
func TestStrangerAnsweredThreeADay(t *testing.T) {
	h := newHarness(t)
	h.send("victim", "help")
	for i, text := range []string{"help", "hello", "rules"} {
		m := h.mail("victim", "", text)
		m.From = fmt.Sprintf("VICTIM+%d@%s", i+1, players)
		h.handle(m)
	}
	if got := h.deliver(); len(got) != outbox.MaxUnprovenPerDay {
		t.Errorf("four mails from victim, victim+1, victim+2 and victim+3 gave %d answers, want %d", len(got), outbox.MaxUnprovenPerDay)
	}
	h.clock.Advance(25 * time.Hour)
	h.send("victim", "help")
	if got := h.deliver(); len(got) != 1 {
		t.Errorf("a day later: %d answers, want 1", len(got))
	}
}

// TestChallengeCaps (M29): at most ChallengesPerDay challenges a day, and
// RobotGames games against the robot at once, per player.
func TestChallengeCaps(t *testing.T) {
	h := newHarnessWith(t, Config{Settings: config.Settings{Robot: config.DefaultRobot, ChallengesPerDay: 3, RobotGames: 2}})
	if err := h.s.EnsureRobot(context.Background()); err != nil {
		t.Fatal(err)
	}
	h.register("alice", "bob", "carol", "dave", "erin")
	h.sendProven("alice", "challenge congo bob\nchallenge congo carol\nchallenge congo dave\nchallenge congo erin")
	wantText(t, answerTo(t, h.deliver(), "alice"), "You have made 3 challenges in the last day")
	if n := h.games(); n != 3 {
		t.Errorf("4 challenges with a cap of 3 a day made %d games", n)
	}
	h.sendProven("bob", strings.Repeat("challenge congo robot level=1\n", 5))
	wantText(t, answerTo(t, h.deliver(), "bob"), "You play 2 games against robot already")
	if n := h.games(); n != 3+2 {
		t.Errorf("5 robot challenges with a cap of 2 made %d games, want 2", n-3)
	}
}

// TestRelayedSecretIsRemoved (M30): a player's personal address quoted in
// a comment (an Italian Outlook reply quoting the welcome, the command in
// the Subject) never reaches the opponent, nor the operator's.
func TestRelayedSecretIsRemoved(t *testing.T) {
	h := newHarnessWith(t, Config{Settings: config.Settings{Operator: addr("oper")}})
	h.register("alice", "bob", "oper")
	h.startGame("alice", "bob")
	alicePA, operPA := h.personal("alice"), h.personal("oper")
	body := "In bocca al lupo!\n\nDa: Congo <congo@example.org>\nIl tuo indirizzo personale:\n  " + alicePA + "\n"
	m := h.provenMail("alice", body)
	m.Subject = "move congo 1 b2-b3"
	h.handle(m)
	for _, r := range to(h.deliver(), "bob") {
		if strings.Contains(strings.ToLower(r.Text), strings.ToLower(alicePA)) {
			t.Errorf("bob's mail carries alice's personal address:\n%s", r.Text)
		}
		wantText(t, r, "In bocca al lupo!")
	}
	m = h.provenMail("alice", "Write to "+strings.ToUpper(operPA)+" if in doubt")
	m.Subject = "draw congo 1"
	h.handle(m)
	for _, r := range to(h.deliver(), "bob") {
		if strings.Contains(strings.ToLower(r.Text), strings.ToLower(operPA)) {
			t.Errorf("bob's mail carries the operator's personal address:\n%s", r.Text)
		}
		wantText(t, r, outbox.Removed)
	}
}

// TestUnprovenAnswerIsShort (M31): an answer to a mail that proves nothing
// quotes at most 3 of its lines and shows no board.
func TestUnprovenAnswerIsShort(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.startGame("alice", "bob")
	lines := []string{"move congo 1 b2-b3", "board congo 1"}
	for i := range 197 {
		lines = append(lines, fmt.Sprintf("buy cheap watches at evil.example, offer %d", i))
	}
	h.send("alice", strings.Join(lines, "\n"))
	r := only(t, h.deliver(), "alice")
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
	wantNoText(t, r, "Position:")
	wantText(t, r, "did not come to your personal address")
}

// TestLoopWithAResponder: a broken automatic responder (no Auto-Submitted)
// answering every mail gets a few answers and the notice, then none,
// however long it goes on; mail with a command is answered all the while.
func TestLoopWithAResponder(t *testing.T) {
	h := newHarness(t)
	h.register("alice")
	answers := 0
	for range 100 {
		h.sendProven("alice", "I am out of the office until Monday.")
		answers += len(h.deliver())
		h.clock.Advance(time.Second)
	}
	if answers != loopMails {
		t.Errorf("100 mails from a responder got %d answers, want %d (the last of them the notice)", answers, loopMails)
	}
	h.sendProven("alice", "games")
	wantText(t, only(t, h.deliver(), "alice"), "You have no games")
	h.clock.Advance(loopQuiet + time.Minute)
	h.sendProven("alice", "I am out of the office until Monday.")
	if n := len(h.deliver()); n != 1 {
		t.Errorf("an hour after the loop: %d answers, want 1", n)
	}
}

// TestProvenMailAlwaysAnswered: forged mail in a player's name that fills
// their cap does not keep their own proven mail from being answered.
func TestProvenMailAlwaysAnswered(t *testing.T) {
	h := newHarness(t)
	h.register("carol")
	for range 101 {
		h.send("carol", "games") // forged
	}
	h.deliver()
	h.sendProven("carol", "games")
	wantText(t, only(t, h.deliver(), "carol"), "You have no games")
}
