package tournament_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

// ladderSubject is the Subject of every mail about the ladder of the
// tests.
const ladderSubject = "Congo tournament 1: Club Ladder"

// tournamentMail returns the one mail of the tournament (not a game's)
// to the player.
func tournamentMail(t *testing.T, mails []servertest.Received, handle, subject string) servertest.Received {
	t.Helper()
	var got []servertest.Received
	for _, m := range servertest.To(mails, handle) {
		if m.Subject == subject || m.Subject == "Re: "+subject {
			got = append(got, m)
		}
	}
	if len(got) != 1 {
		t.Fatalf("%s got %d mails %q, want 1", handle, len(got), subject)
	}
	return got[0]
}

// places reads the ladder's order from the store: "alice bob ...".
func places(t *testing.T, w *servertest.World) string {
	t.Helper()
	var out []string
	w.InTx(func(ctx context.Context, tx *db.Tx) error {
		ps, err := tx.LadderRun(ctx, 1, 1, 100)
		for _, p := range ps {
			out = append(out, p.Handle)
		}
		return err
	})
	return strings.Join(out, " ")
}

// TestLadderByMail: a ladder of four players by mail (M73), start to
// end. alice makes it and is at its top; bob, carol and dave join at the
// bottom. dave challenges alice, three places up, and wins: he takes her
// place and alice, bob and carol move down one, each told. carol's
// challenge of alice while alice plays is refused, naming the game;
// then carol challenges alice and loses: nothing moves. The ladder by
// mail shows each player's wins, draws and losses, and the games in
// progress; closed, every player gets the final order.
func TestLadderByMail(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob", "carol", "dave")

	w.SendProven("alice", "tournament new ladder days=3 Club Ladder")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "alice"), "Tournament 1: Club Ladder",
		"It is a ladder, days=3, rated. You direct it, and you are its first player, at the top: place 1.",
		"join tournament 1", "challenge ladder 1 alice", "tournament close 1")
	for i, p := range []string{"bob", "carol", "dave"} {
		w.SendProven(p, "join tournament 1")
		mails := w.Deliver()
		servertest.WantWords(t, tournamentMail(t, mails, p, ladderSubject),
			fmt.Sprintf("You joined Club Ladder, a ladder, days=3, rated: you are at place %d of %d, the bottom.", i+2, i+2))
		servertest.WantWords(t, servertest.Only(t, mails, "alice"), fmt.Sprintf("%s joined Club Ladder at place %d, the bottom", p, i+2))
	}
	if got := places(t, w); got != "alice bob carol dave" {
		t.Fatalf("the ladder is %q", got)
	}
	w.SendProven("alice", "tournament start 1")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "alice"), "Club Ladder is a ladder: it has no start")

	// dave challenges alice: the game begins at once, dave White; alice
	// is told by a mail of the ladder and the game's board.
	w.SendProven("dave", "challenge ladder 1 alice")
	mails := w.Deliver()
	servertest.WantWords(t, tournamentMail(t, mails, "dave", ladderSubject),
		"You challenged alice on Club Ladder: game 1 begins, and you have White. If you win, you take alice's place (place 1)")
	servertest.WantWords(t, tournamentMail(t, mails, "alice", ladderSubject),
		"dave, at place 4, challenged you on Club Ladder: game 1 begins, and dave has White.")
	for _, p := range []string{"alice", "dave"} {
		servertest.WantWords(t, tournamentMail(t, mails, p, "Congo game 1: dave vs alice (Club Ladder)"), "Club Ladder: the game begins.")
	}
	if g := w.Game(1); g.Status != db.Active || g.White != w.Player("dave").ID || g.Tournament != 1 {
		t.Fatalf("game 1: %+v, want dave White, begun, of the ladder", g)
	}

	// alice is busy: carol's challenge is refused, naming the game; and
	// bob may not challenge dave, who is below him.
	w.SendProven("carol", "challenge ladder 1 alice")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "carol"),
		"alice is playing a game of Club Ladder, game 1: each player has one ladder game at a time.")
	w.SendProven("bob", "challenge ladder 1 dave")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "bob"), "dave is at place 4 of Club Ladder, you at 2")
	if n := w.Games(); n != 1 {
		t.Fatalf("%d games, want only game 1", n)
	}

	// alice resigns: dave wins, takes place 1; alice, bob and carol move
	// down one, each told in the same transaction as the game's end.
	w.SendProven("alice", "resign congo 1")
	mails = w.Deliver()
	servertest.WantWords(t, tournamentMail(t, mails, "dave", ladderSubject), "You beat alice in game 1 and take place 1 on Club Ladder.",
		"1. dave (was 4)", "2. alice (was 1)", "3. bob (was 2)", "4. carol (was 3)")
	servertest.WantWords(t, tournamentMail(t, mails, "alice", ladderSubject), "dave beat you in game 1 and takes your place on Club Ladder (place 1): you move down one place.")
	for _, p := range []string{"bob", "carol"} {
		servertest.WantWords(t, servertest.Only(t, mails, p), "dave beat alice in game 1 and takes place 1 on Club Ladder: you move down one place.")
	}
	if got := places(t, w); got != "dave alice bob carol" {
		t.Fatalf("after dave's win the ladder is %q", got)
	}

	// carol challenges alice, two up, and loses: no place changes, and
	// nobody gets a mail of the ladder.
	w.SendProven("carol", "challenge ladder 1 alice")
	w.Deliver()
	w.SendProven("carol", "resign congo 2")
	mails = w.Deliver()
	for _, m := range mails {
		if m.Subject == ladderSubject {
			t.Errorf("carol's loss moved someone: a mail to %s:\n%s", m.To, m.Text)
		}
	}
	if got := places(t, w); got != "dave alice bob carol" {
		t.Fatalf("after carol's loss the ladder is %q", got)
	}

	// The ladder by mail, with bob's game of it in progress.
	w.SendProven("bob", "challenge ladder 1 dave")
	w.Deliver()
	w.SendProven("carol", "tournament 1")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "carol"), "4 players. The ladder, wins-draws-losses:\n\n"+
		"1. dave  (1-0-0)\n2. alice  (1-0-1)\n3. bob  (0-0-0)\n4. carol  (0-0-1)\n", "Being played:\n\n  game 3  bob vs dave\n")

	// Only the director closes it; bob's game plays on, and when it
	// ends (a draw) every player gets the final ladder.
	w.SendProven("bob", "tournament close 1")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "bob"), "Only the director, alice, may close it")
	w.SendProven("alice", "tournament close 1")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "alice"), "You closed Club Ladder: it takes no more challenges or players. 1 game is still being played")
	w.SendProven("carol", "challenge ladder 1 bob")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "carol"), "Club Ladder is closed: it takes no more challenges or players")
	w.SendProven("bob", "draw congo 3")
	w.SendProven("dave", "draw congo 3")
	mails = w.Deliver()
	for _, p := range []string{"alice", "bob", "carol", "dave"} {
		servertest.WantText(t, tournamentMail(t, mails, p, ladderSubject), "The final ladder, wins-draws-losses:\n\n"+
			"1. dave  (1-1-0)\n2. alice  (1-0-1)\n3. bob  (0-1-0)\n4. carol  (0-0-1)\n")
	}
	servertest.WantWords(t, tournamentMail(t, mails, "dave", ladderSubject), "Club Ladder is closed, and its last game has ended: you are at the top.")
}

// TestLadderLeaveAndRefusals: a player who leaves during a ladder game
// loses it and gives up the place, the challenger taking it; one who
// comes back is at the bottom. A challenge of oneself, of a player not
// on the ladder, from a player not on it, and on a tournament that is
// no ladder are refused, and nothing begins.
func TestLadderLeaveAndRefusals(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob", "carol", "dave")
	w.SendProven("alice", "tournament new ladder Club Ladder")
	w.SendProven("bob", "join tournament 1")
	w.SendProven("carol", "join tournament 1")
	w.SendProven("dave", "tournament new swiss Cup")
	w.Deliver()

	for _, tt := range []struct {
		from, line, want string
	}{
		{"carol", "challenge ladder 1 carol", "You cannot challenge yourself"},
		{"carol", "challenge ladder 1 dave", "dave is not a player of Club Ladder"},
		{"dave", "challenge ladder 1 alice", "You are not a player of Club Ladder"},
		{"carol", "challenge ladder 2 dave", "Cup is no ladder"},
		{"carol", "challenge ladder 9 alice", "There is no tournament 9."},
		{"bob", "join tournament 1", "You are a player of Club Ladder already."},
	} {
		w.SendProven(tt.from, tt.line)
		servertest.WantWords(t, servertest.Only(t, w.Deliver(), tt.from), tt.want)
	}
	if n := w.Games(); n != 0 {
		t.Fatalf("%d games begun by refused challenges", n)
	}

	// carol challenges alice and bob leaves meanwhile: carol's game
	// goes on; then alice leaves during it: her game is lost to carol,
	// who takes her place, and alice is off the ladder.
	w.SendProven("carol", "challenge ladder 1 alice")
	w.Deliver()
	w.SendProven("alice", "leave tournament 1")
	mails := w.Deliver()
	servertest.WantWords(t, tournamentMail(t, mails, "alice", ladderSubject), "You withdrew from tournament 1, Club Ladder. Your game in progress (1) is lost.",
		"You are off the ladder once the game's result has moved the places")
	servertest.WantWords(t, tournamentMail(t, mails, "carol", ladderSubject), "You beat alice in game 1 and take place 1 on Club Ladder.")
	if got := places(t, w); got != "carol bob" {
		t.Fatalf("after alice left the ladder is %q, want carol bob", got)
	}
	w.SendProven("alice", "join tournament 1")
	servertest.WantWords(t, tournamentMail(t, w.Deliver(), "alice", ladderSubject), "you are at place 3 of 3, the bottom.",
		"The players at most 3 places above you, whom you may challenge, are bob and carol")
	if got := places(t, w); got != "carol bob alice" {
		t.Fatalf("alice back: the ladder is %q", got)
	}
}
