package lobby_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/congobymail/congo/config"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

const startLine = "Position: " + rules.StartPosition

func TestChallenge(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.SendProven("alice", "challenge congo bob")
	mails := w.Deliver()
	if len(mails) != 2 {
		t.Fatalf("%d mails after a challenge, want 2", len(mails))
	}
	toBob, toAlice := servertest.Only(t, mails, "bob"), servertest.Only(t, mails, "alice")
	const subject = "Congo game 1: alice vs bob"
	for _, m := range mails {
		if m.Subject != subject {
			t.Errorf("mail to %s: Subject %q, want %q", m.To, m.Subject, subject)
		}
		if m.ReplyTo != w.Personal(strings.TrimSuffix(m.To, "@"+congotest.PlayersDomain)) {
			t.Errorf("mail to %s: Reply-To %q is not the recipient's personal address", m.To, m.ReplyTo)
		}
	}
	servertest.WantText(t, toBob, "alice challenges you", "accept congo 1", "decline congo 1")
	servertest.WantText(t, toAlice, "game 1")

	g := w.Game(1)
	if g.Status != db.Challenged || g.White != w.Player("alice").ID || g.Black != w.Player("bob").ID || g.Position != rules.StartPosition {
		t.Errorf("game 1 after the challenge = %+v", g)
	}
	// M9: the mail to the challenged player is the thread's root.
	if g.ThreadRoot != toBob.MessageID {
		t.Errorf("thread root = %q, want the challenge mail's id %q", g.ThreadRoot, toBob.MessageID)
	}
	if len(toBob.References) != 0 {
		t.Errorf("the root mail has References %q", toBob.References)
	}
	if !slices.Equal(toAlice.References, []string{g.ThreadRoot}) || !slices.Equal(toAlice.InReplyTo, []string{g.ThreadRoot}) {
		t.Errorf("mail to alice: References %q, In-Reply-To %q, want the root %q", toAlice.References, toAlice.InReplyTo, g.ThreadRoot)
	}

	w.SendProven("bob", "challenge congo alice black")
	servertest.Only(t, w.Deliver(), "alice")
	g2 := w.Game(2)
	if g2.White != w.Player("alice").ID || g2.Challenger != w.Player("bob").ID {
		t.Errorf("challenge congo alice black: white %d, challenger %d; want alice white, bob challenger", g2.White, g2.Challenger)
	}
}

func TestChallengeErrors(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	tests := []struct {
		body string
		want string
	}{
		{"challenge congo zed", "No player has the handle zed"},
		{"challenge congo alice", "cannot challenge yourself"},
		{"challenge congo ALICE", "cannot challenge yourself"},
	}
	for _, tt := range tests {
		w.SendProven("alice", tt.body)
		mails := w.Deliver()
		if len(mails) != 1 {
			t.Errorf("%q: %d mails, want 1", tt.body, len(mails))
			continue
		}
		servertest.WantText(t, servertest.Only(t, mails, "alice"), "> "+tt.body, tt.want)
	}
}

func TestAccept(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.SendProven("alice", "challenge congo bob")
	w.Deliver()
	w.SendProven("bob", "accept congo 1")
	mails := w.Deliver()
	const subject = "Congo game 1: alice vs bob"
	for _, m := range []servertest.Received{servertest.Only(t, mails, "alice"), servertest.Only(t, mails, "bob")} {
		if m.Subject != subject {
			t.Errorf("mail to %s: Subject %q, want %q", m.To, m.Subject, subject)
		}
		servertest.WantText(t, m, "accepted", startLine, "Move 1: alice (white) to move.")
	}
	servertest.WantText(t, servertest.Only(t, mails, "alice"), "It is your move")
	servertest.WantNoText(t, servertest.Only(t, mails, "bob"), "It is your move")
	if g := w.Game(1); g.Status != db.Active {
		t.Errorf("game status after accept = %v, want active", g.Status)
	}
}

func TestDecline(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.SendProven("alice", "challenge congo bob")
	w.Deliver()
	w.SendProven("bob", "decline congo 1")
	mails := w.Deliver()
	const subject = "Congo game 1: alice vs bob"
	servertest.WantText(t, servertest.Only(t, mails, "alice"), "bob declined your challenge")
	servertest.WantText(t, servertest.Only(t, mails, "bob"), "You declined alice's challenge")
	for _, m := range mails {
		if m.Subject != subject {
			t.Errorf("mail to %s: Subject %q, want %q", m.To, m.Subject, subject)
		}
	}
	if g := w.Game(1); g.Status != db.Declined {
		t.Errorf("game status after decline = %v, want declined", g.Status)
	}
	w.SendProven("alice", "move congo 1 b2-b3")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "not being played", "declined")
}

func TestAnswerErrors(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob", "carol")
	w.SendProven("alice", "challenge congo bob")
	w.Deliver()
	tests := []struct {
		from, body string
		want       string
	}{
		{"alice", "accept congo 1", "bob is the one to accept or decline it"},
		{"alice", "decline congo 1", "bob is the one to accept or decline it"},
		{"carol", "accept congo 1", "not one of your games"},
		{"bob", "accept congo 9", "There is no game 9"},
		{"bob", "move congo 1 b2-b3", "has not been accepted yet"},
		{"bob", "resign congo 1", "has not been accepted yet"},
	}
	for _, tt := range tests {
		w.SendProven(tt.from, tt.body)
		mails := w.Deliver()
		if len(mails) != 1 {
			t.Errorf("%s: %q: %d mails, want 1", tt.from, tt.body, len(mails))
			continue
		}
		servertest.WantText(t, servertest.Only(t, mails, tt.from), "> "+tt.body, tt.want)
	}
	if g := w.Game(1); g.Status != db.Challenged {
		t.Errorf("game status = %v, want still challenged", g.Status)
	}
	w.SendProven("bob", "accept congo 1")
	w.Deliver()
	w.SendProven("bob", "accept congo 1")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "bob"), "not waiting for an answer", "being played")
}

// TestChallengeCaps (M29): at most ChallengesPerDay challenges a day, and
// RobotGames games against the robot at once, per player.
func TestChallengeCaps(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{Settings: config.Settings{Robot: config.DefaultRobot, ChallengesPerDay: 3, RobotGames: 2}})
	if err := w.Server.EnsureRobot(context.Background()); err != nil {
		t.Fatal(err)
	}
	w.Register("alice", "bob", "carol", "dave", "erin")
	w.SendProven("alice", "challenge congo bob\nchallenge congo carol\nchallenge congo dave\nchallenge congo erin")
	servertest.WantText(t, servertest.Answer(t, w.Deliver(), "alice"), "You have made 3 challenges in the last day")
	if n := w.Games(); n != 3 {
		t.Errorf("4 challenges with a cap of 3 a day made %d games", n)
	}
	w.SendProven("bob", strings.Repeat("challenge congo robot level=1\n", 5))
	servertest.WantText(t, servertest.Answer(t, w.Deliver(), "bob"), "You play 2 games against robot already")
	if n := w.Games(); n != 3+2 {
		t.Errorf("5 robot challenges with a cap of 2 made %d games, want 2", n-3)
	}
}
