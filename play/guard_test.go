package play_test

import (
	"testing"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

// TestLionGuard (M61): a move that lets the opponent take the mover's
// lion with the next move is not played, and the answer names the
// capture and how to play it anyway; with anyway it is played, and the
// board mail to the player to move says that their lion is attacked.
func TestLionGuard(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	w.SendProven("alice", "move congo 1 d2-e3")
	toBob := servertest.Only(t, w.Deliver(), "bob")
	servertest.WantNoText(t, toBob, "lion is attacked")

	// d6-c5 opens the d file: alice's lion flies up it.
	before := w.Game(1).Position
	w.Reply(toBob, "d6-c5")
	mails := w.Deliver()
	refusal := servertest.Only(t, mails, "bob")
	servertest.WantWords(t, refusal, "> d6-c5", "d6-c5 was not played: it lets alice take your lion with d1xd7.",
		`To play it anyway, send "move congo 1 d6-c5 anyway", or "d6-c5 anyway" in a reply to this mail.`,
		`"guard off" turns this check off`, "Position: "+before)
	if n := len(servertest.To(mails, "alice")); n != 0 {
		t.Errorf("alice got %d mails of a move not played", n)
	}
	if g := w.Game(1); g.Position != before {
		t.Errorf("game 1 at %q after a guarded move, want %q", g.Position, before)
	}

	// Played anyway, in a reply: alice's board says that her own lion is
	// attacked, along the same file.
	w.Reply(refusal, "d6-c5 anyway")
	mails = w.Deliver()
	toAlice := servertest.Only(t, mails, "alice")
	servertest.WantText(t, toAlice, "bob: d6-c5")
	servertest.WantWords(t, toAlice, "Your lion is attacked: bob can take it with d7xd1, unless your move prevents it.")
	servertest.WantNoWords(t, servertest.Only(t, mails, "bob"), "lion is attacked")

	// alice turns her guard off: her move that leaves her lion attacked
	// is played at once, and bob is told that his can be taken too...
	w.SendProven("alice", "guard off")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "alice"), "The lion guard is off")
	w.SendProven("alice", "move congo 1 a2-a3")
	mails = w.Deliver()
	toBob = servertest.Only(t, mails, "bob")
	servertest.WantText(t, toBob, "alice: a2-a3")
	servertest.WantWords(t, toBob, "Your lion is attacked: alice can take it with d1xd7")
	// ...and his capture, which ends the game, is never guarded.
	w.Reply(toBob, "d7xd1")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "bob"), "You win")
	if g := w.Game(1); g.Status != db.Finished || g.Result != db.BlackWins {
		t.Errorf("game 1 = %+v, want won by black", g)
	}

	// The guard on again.
	w.SendProven("alice", "guard on")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "alice"), "The lion guard is on", `"c3-c4 anyway"`)
}

// TestLionGuardForms (M61): anyway after a move in every form it is
// written, and the guard leaves a move the game refuses for another
// reason to the game's own answer.
func TestLionGuardForms(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	w.SendProven("alice", "move congo 1 d2-e3")
	w.Deliver()
	w.SendProven("bob", "move congo 1 d6-c5 #2")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "bob"), "The move to make in game 1 is #1")
	w.SendProven("bob", "move congo 1 d6-c5 #1")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "bob"), "d6-c5 was not played: it lets alice take your lion with d1xd7")
	w.SendProven("bob", "move congo 1 d6-c5 #1 anyway")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "bob: d6-c5")
}

// TestBoardWarnsOfAttack (M61): board congo <id> warns the player to
// move that their lion is attacked, as a board mail of a move does.
func TestBoardWarnsOfAttack(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	w.SendProven("alice", "move congo 1 d2-e3")
	w.SendProven("bob", "move congo 1 d6-c5 anyway")
	w.Deliver()
	w.SendProven("alice", "board congo 1")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "alice"), "Your lion is attacked: bob can take it with d7xd1")
	w.SendProven("bob", "board congo 1")
	servertest.WantNoWords(t, servertest.Only(t, w.Deliver(), "bob"), "lion is attacked")
}
