package server

import (
	"strings"
	"testing"
	"time"
)

// TestChatBesideAMove (M19): the other lines of a reply about a game are
// the message to the opponent, relayed with the board, kept in the
// record, never answered with an error; the sender is told in one line.
func TestChatBesideAMove(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.startGame("alice", "bob")
	h.sendProven("alice", "move congo 1 b2-b3") // a mail in the game's thread comes next
	toBob := only(t, h.deliver(), "bob")
	h.reply(toBob, "Nice move, alice!\nb6-b5\nDobrý tah! よろしくお願いします。")
	mails := h.deliver()
	toAlice, bobs := only(t, mails, "alice"), only(t, mails, "bob")
	wantText(t, toAlice, "bob: b6-b5", "bob writes:", "Nice move, alice!", "Dobrý tah! よろしくお願いします。")
	wantNoText(t, toAlice, "unknown command")
	wantText(t, bobs, "You: b6-b5", "Your message was passed on to alice.")
	wantNoText(t, bobs, "unknown command", "bob writes:")
	if n := len(to(mails, "bob")); n != 1 {
		t.Errorf("bob got %d mails, want his board alone (M23)", n)
	}
	h.sendProven("alice", "history congo 1")
	wantText(t, only(t, h.deliver(), "alice"), "b6-b5 {Nice move, alice! Dobrý tah!")
}

// TestMessageAlone (M19): a reply about a game with no command relays its
// words alone to the opponent; from a mail that proves nothing, nothing
// is relayed.
func TestMessageAlone(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob", "carol")
	h.startGame("alice", "bob")
	h.sendProven("carol", "observe congo 1")
	h.sendProven("alice", "move congo 1 b2-b3")
	toBob := only(t, h.deliver(), "bob")
	h.reply(toBob, "Sorry, I am travelling: I will move on Sunday.")
	mails := h.deliver()
	wantText(t, only(t, mails, "alice"), "bob writes:", "I will move on Sunday.")
	wantText(t, only(t, mails, "bob"), "Your message was passed on to alice.")
	if n := len(to(mails, "carol")); n != 0 {
		t.Errorf("the observer got %d mails of a message to the opponent", n)
	}
	m := h.mail("bob", "Re: "+toBob.Subject, "Send your money to evil.example")
	m.InReplyTo = []string{toBob.MessageID}
	h.handle(m) // to the plain address: proves nothing
	mails = h.deliver()
	if n := len(to(mails, "alice")); n != 0 {
		t.Errorf("a forged message reached alice (%d mails)", n)
	}
	wantText(t, only(t, mails, "bob"), "did not come to your personal address")
}

// TestMoveAndOfferInOneMail (M23): a move and a draw offer sent together
// reach the opponent as one mail that says both.
func TestMoveAndOfferInOneMail(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.startGame("alice", "bob")
	h.sendProven("alice", "move congo 1 b2-b3\ndraw congo 1")
	mails := h.deliver()
	wantText(t, only(t, mails, "bob"), "alice: b2-b3", "alice offers a draw")
	wantText(t, only(t, mails, "alice"), "You: b2-b3", "You offer a draw")
}

// TestDigestReply (M24): a digest lists each game's board, clocks and
// Position; a reply to it plays "<id>: <move>" in that game, and a bare
// move when it listed one game.
func TestDigestReply(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob", "carol")
	h.startGame("bob", "alice")   // 1: bob to move
	h.startGame("carol", "alice") // 2: carol to move
	h.sendProven("alice", "notify digest")
	h.deliver()
	// bob and carol move; alice, on digest, hears nothing until the digest.
	h.sendProven("bob", "move congo 1 b2-b3")
	h.sendProven("carol", "move congo 2 c2-c3")
	if n := len(to(h.deliver(), "alice")); n != 0 {
		t.Fatalf("alice on digest got %d mails about moves", n)
	}
	h.clock.Advance(25 * time.Hour)
	h.tick()
	digest := only(t, h.deliver(), "alice")
	wantText(t, digest, "Game 1: bob", "Game 2: carol", "Position: ", "Time left", "1: <move>")
	h.reply(digest, "1: b6-b5\n2 c6-c5")
	mails := h.deliver()
	wantText(t, only(t, mails, "bob"), "alice: b6-b5")
	wantText(t, only(t, mails, "carol"), "alice: c6-c5")
	wantNoText(t, answerOrNone(to(mails, "alice")), "unknown command")
}

// answerOrNone returns the first mail, or an empty one.
func answerOrNone(mails []received) received {
	if len(mails) == 0 {
		return received{}
	}
	return mails[0]
}

// TestFromHasAName (M26): the server's mails come From "Congo".
func TestFromHasAName(t *testing.T) {
	h := newHarness(t)
	h.register("alice")
	h.sendProven("alice", "help")
	m := only(t, h.deliver(), "alice")
	if from := m.Header.Get("From"); !strings.HasPrefix(from, "Congo <congo@example.org>") && from != `"Congo" <congo@example.org>` {
		t.Errorf("From = %q, want Congo <congo@example.org>", from)
	}
}
