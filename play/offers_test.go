package play_test

import (
	"context"
	"testing"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

func TestDrawOffers(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")

	w.SendProven("bob", "nodraw congo 1")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "bob"), "no draw offer to decline")

	// An offer lapses when the offerer's opponent moves.
	w.SendProven("alice", "draw congo 1")
	mails := w.Deliver()
	servertest.WantText(t, servertest.Only(t, mails, "bob"), "alice offers a draw", "draw congo 1", "nodraw congo 1")
	servertest.WantText(t, servertest.Only(t, mails, "alice"), "You offer a draw")
	w.SendProven("alice", "move congo 1 b2-b3") // the offerer's own move keeps it
	w.Deliver()
	if g := w.Game(1); g.DrawOffer != w.Player("alice").ID {
		t.Errorf("offer after the offerer's move = %d, want alice's", g.DrawOffer)
	}
	w.SendProven("bob", "move congo 1 b6-b5")
	w.Deliver()
	if g := w.Game(1); g.DrawOffer != 0 {
		t.Errorf("offer after the opponent's move = %d, want none", g.DrawOffer)
	}

	// Declined, then offered on the other's turn and accepted.
	w.SendProven("bob", "draw congo 1")
	w.Deliver()
	w.SendProven("alice", "nodraw congo 1")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "bob"), "alice declined the draw offer")
	w.SendProven("bob", "draw congo 1")
	w.Deliver()
	w.SendProven("alice", "draw congo 1")
	for _, m := range w.Deliver() {
		servertest.WantText(t, m, "Draw by agreement.")
	}
	if g := w.Game(1); g.Status != db.Finished || g.Result != db.Draw || g.Reason != rules.Agreed {
		t.Errorf("game after an agreed draw = %+v", g)
	}
}

func TestTakeback(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	w.SendProven("alice", "takeback congo 1")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "nothing to take back")

	w.SendProven("alice", "move congo 1 b2-b3")
	w.Deliver()
	w.SendProven("bob", "takeback congo 1") // bob made no move to take back
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "bob"), "Only the player who made the last move")
	w.SendProven("alice", "takeback congo 1")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "bob"), "alice asks to take back the last move")
	w.SendProven("bob", "takeback congo 1")
	for _, m := range w.Deliver() {
		servertest.WantText(t, m, "The last move was taken back", startLine, "alice (white) to move")
	}
	w.InTx(func(ctx context.Context, tx *db.Tx) error {
		moves, err := tx.Moves(ctx, 1)
		if err != nil || len(moves) != 0 {
			t.Errorf("Moves() after the takeback = %+v, %v, want none", moves, err)
		}
		return nil
	})
}

// TestTakebackWithdrawsIncrement: a move taken back gives its player no
// time: the increment it earned is taken off their bank again.
func TestTakebackWithdrawsIncrement(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.Deliver()
	w.SendProven("alice", "challenge congo bob bank=5+1")
	w.Deliver()
	w.SendProven("bob", "accept congo 1")
	w.Deliver()
	w.Clock.Advance(48 * time.Hour)
	w.SendProven("alice", "move congo 1 b2-b3") // 5d - 2d + 1d
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "bob"), "alice: 4 days left")
	w.SendProven("alice", "takeback congo 1")
	w.Deliver()
	w.SendProven("bob", "takeback congo 1")
	for _, m := range w.Deliver() {
		servertest.WantText(t, m, "The last move was taken back", "alice: 3 days left")
	}
}

// TestTakebackAtTheCap: when the bank's cap cut the increment a move
// earned, a takeback gives back the time the mover had when moving.
func TestTakebackAtTheCap(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.Deliver()
	w.SendProven("alice", "challenge congo bob bank=5+1")
	w.Deliver()
	w.SendProven("bob", "accept congo 1")
	w.Deliver()
	w.Clock.Advance(time.Hour)
	w.SendProven("alice", "move congo 1 b2-b3") // 5d - 1h + 1d, capped at 5d
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "bob"), "alice: 5 days left")
	w.SendProven("alice", "takeback congo 1")
	w.Deliver()
	w.SendProven("bob", "takeback congo 1")
	for _, m := range w.Deliver() {
		servertest.WantText(t, m, "The last move was taken back", "alice: 4 days 23 hours left")
	}
}

func TestAbort(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	w.SendProven("alice", "move congo 1 b2-b3")
	w.Deliver()
	w.SendProven("bob", "abort congo 1")
	for _, m := range w.Deliver() {
		if m.Subject != "Congo game 1: alice vs bob" {
			t.Errorf("abort mail to %s: Subject %q", m.To, m.Subject)
		}
		servertest.WantText(t, m, "The game was aborted: it ends without a result.")
	}
	if g := w.Game(1); g.Status != db.Finished || g.Result != db.NoResult {
		t.Errorf("game after abort = %+v", g)
	}

	w.StartGame("alice", "bob")
	w.SendProven("alice", "move congo 2 b2-b3")
	w.SendProven("bob", "move congo 2 b6-b5")
	w.Deliver()
	w.SendProven("alice", "abort congo 2")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "cannot be aborted: both sides have moved")
}
