package server_test

import (
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

// TestChatBesideAMove (M19): the other lines of a reply about a game are
// the message to the opponent, relayed with the board, kept in the
// record, never answered with an error; the sender is told in one line.
func TestChatBesideAMove(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	w.SendProven("alice", "move congo 1 b2-b3") // a mail in the game's thread comes next
	toBob := servertest.Only(t, w.Deliver(), "bob")
	w.Reply(toBob, "Nice move, alice!\nb6-b5\nDobrý tah! よろしくお願いします。")
	mails := w.Deliver()
	toAlice, bobs := servertest.Only(t, mails, "alice"), servertest.Only(t, mails, "bob")
	servertest.WantText(t, toAlice, "bob: b6-b5", "bob writes:", "Nice move, alice!", "Dobrý tah! よろしくお願いします。")
	servertest.WantNoText(t, toAlice, "unknown command")
	servertest.WantText(t, bobs, "You: b6-b5", "Your message was passed on to alice.")
	servertest.WantNoText(t, bobs, "unknown command", "bob writes:")
	if n := len(servertest.To(mails, "bob")); n != 1 {
		t.Errorf("bob got %d mails, want his board alone (M23)", n)
	}
	w.SendProven("alice", "history congo 1")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "b6-b5 {Nice move, alice! Dobrý tah!")
}

// TestMessageAlone (M19): a reply about a game with no command relays its
// words alone to the opponent; from a mail that proves nothing, nothing
// is relayed.
func TestMessageAlone(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob", "carol")
	w.StartGame("alice", "bob")
	w.SendProven("carol", "observe congo 1")
	w.SendProven("alice", "move congo 1 b2-b3")
	toBob := servertest.Only(t, w.Deliver(), "bob")
	w.Reply(toBob, "Sorry, I am travelling: I will move on Sunday.")
	mails := w.Deliver()
	servertest.WantText(t, servertest.Only(t, mails, "alice"), "bob writes:", "I will move on Sunday.")
	servertest.WantText(t, servertest.Only(t, mails, "bob"), "Your message was passed on to alice.")
	if n := len(servertest.To(mails, "carol")); n != 0 {
		t.Errorf("the observer got %d mails of a message to the opponent", n)
	}
	m := w.Mail("bob", "Re: "+toBob.Subject, "Send your money to evil.example")
	m.InReplyTo = []string{toBob.MessageID}
	w.Process(m) // to the plain address: proves nothing
	mails = w.Deliver()
	if n := len(servertest.To(mails, "alice")); n != 0 {
		t.Errorf("a forged message reached alice (%d mails)", n)
	}
	servertest.WantText(t, servertest.Only(t, mails, "bob"), "did not come to your personal address")
}

// TestMoveAndOfferInOneMail (M23): a move and a draw offer sent together
// reach the opponent as one mail that says both.
func TestMoveAndOfferInOneMail(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	w.SendProven("alice", "move congo 1 b2-b3\ndraw congo 1")
	mails := w.Deliver()
	servertest.WantText(t, servertest.Only(t, mails, "bob"), "alice: b2-b3", "alice offers a draw")
	servertest.WantText(t, servertest.Only(t, mails, "alice"), "You: b2-b3", "You offer a draw")
}

// TestDigestReply (M24): a digest lists each game's board, clocks and
// Position; a reply to it plays "<id>: <move>" in that game, and a bare
// move when it listed one game.
func TestDigestReply(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob", "carol")
	w.StartGame("bob", "alice")   // 1: bob to move
	w.StartGame("carol", "alice") // 2: carol to move
	w.SendProven("alice", "notify digest")
	w.Deliver()
	// bob and carol move; alice, on digest, hears nothing until the digest.
	w.SendProven("bob", "move congo 1 b2-b3")
	w.SendProven("carol", "move congo 2 c2-c3")
	if n := len(servertest.To(w.Deliver(), "alice")); n != 0 {
		t.Fatalf("alice on digest got %d mails about moves", n)
	}
	w.Clock.Advance(25 * time.Hour)
	w.Tick()
	digest := servertest.Only(t, w.Deliver(), "alice")
	servertest.WantText(t, digest, "Game 1: bob", "Game 2: carol", "Position: ", "Time left", "1: <move>")
	w.Reply(digest, "1: b6-b5\n2 c6-c5")
	mails := w.Deliver()
	servertest.WantText(t, servertest.Only(t, mails, "bob"), "alice: b6-b5")
	servertest.WantText(t, servertest.Only(t, mails, "carol"), "alice: c6-c5")
	servertest.WantNoText(t, answerOrNone(servertest.To(mails, "alice")), "unknown command")
}

// answerOrNone returns the first mail, or an empty one.
func answerOrNone(mails []servertest.Received) servertest.Received {
	if len(mails) == 0 {
		return servertest.Received{}
	}
	return mails[0]
}

// TestFromHasAName (M26): the server's mails come From "Congo".
func TestFromHasAName(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice")
	w.SendProven("alice", "help")
	m := servertest.Only(t, w.Deliver(), "alice")
	if from := m.Header.Get("From"); !strings.HasPrefix(from, "Congo <congo@example.org>") && from != `"Congo" <congo@example.org>` {
		t.Errorf("From = %q, want Congo <congo@example.org>", from)
	}
}
