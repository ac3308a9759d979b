package server

import (
	"context"
	"testing"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/rules"
)

func TestDrawOffers(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.startGame("alice", "bob")

	h.sendProven("bob", "nodraw congo 1")
	wantText(t, only(t, h.deliver(), "bob"), "no draw offer to decline")

	// An offer lapses when the offerer's opponent moves.
	h.sendProven("alice", "draw congo 1")
	mails := h.deliver()
	wantText(t, only(t, mails, "bob"), "alice offers a draw", "draw congo 1", "nodraw congo 1")
	wantText(t, only(t, mails, "alice"), "You offer a draw")
	h.sendProven("alice", "move congo 1 b2-b3") // the offerer's own move keeps it
	h.deliver()
	if g := h.game(1); g.DrawOffer != h.player("alice").ID {
		t.Errorf("offer after the offerer's move = %d, want alice's", g.DrawOffer)
	}
	h.sendProven("bob", "move congo 1 b6-b5")
	h.deliver()
	if g := h.game(1); g.DrawOffer != 0 {
		t.Errorf("offer after the opponent's move = %d, want none", g.DrawOffer)
	}

	// Declined, then offered on the other's turn and accepted.
	h.sendProven("bob", "draw congo 1")
	h.deliver()
	h.sendProven("alice", "nodraw congo 1")
	wantText(t, only(t, h.deliver(), "bob"), "alice declined the draw offer")
	h.sendProven("bob", "draw congo 1")
	h.deliver()
	h.sendProven("alice", "draw congo 1")
	for _, m := range h.deliver() {
		wantText(t, m, "Draw by agreement.")
	}
	if g := h.game(1); g.Status != db.Finished || g.Result != db.Draw || g.Reason != rules.Agreed {
		t.Errorf("game after an agreed draw = %+v", g)
	}
}

func TestTakeback(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.startGame("alice", "bob")
	h.sendProven("alice", "takeback congo 1")
	wantText(t, only(t, h.deliver(), "alice"), "nothing to take back")

	h.sendProven("alice", "move congo 1 b2-b3")
	h.deliver()
	h.sendProven("bob", "takeback congo 1") // bob made no move to take back
	wantText(t, only(t, h.deliver(), "bob"), "Only the player who made the last move")
	h.sendProven("alice", "takeback congo 1")
	wantText(t, only(t, h.deliver(), "bob"), "alice asks to take back the last move")
	h.sendProven("bob", "takeback congo 1")
	for _, m := range h.deliver() {
		wantText(t, m, "The last move was taken back", startLine, "alice (white) to move")
	}
	h.inTx(func(ctx context.Context, tx *db.Tx) error {
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
	h := newHarness(t)
	h.register("alice", "bob")
	h.deliver()
	h.sendProven("alice", "challenge congo bob bank=5+1")
	h.deliver()
	h.sendProven("bob", "accept congo 1")
	h.deliver()
	h.clock.Advance(48 * time.Hour)
	h.sendProven("alice", "move congo 1 b2-b3") // 5d - 2d + 1d
	wantText(t, only(t, h.deliver(), "bob"), "alice: 4 days left")
	h.sendProven("alice", "takeback congo 1")
	h.deliver()
	h.sendProven("bob", "takeback congo 1")
	for _, m := range h.deliver() {
		wantText(t, m, "The last move was taken back", "alice: 3 days left")
	}
}

// TestTakebackAtTheCap: when the bank's cap cut the increment a move
// earned, a takeback gives back the time the mover had when moving.
func TestTakebackAtTheCap(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.deliver()
	h.sendProven("alice", "challenge congo bob bank=5+1")
	h.deliver()
	h.sendProven("bob", "accept congo 1")
	h.deliver()
	h.clock.Advance(time.Hour)
	h.sendProven("alice", "move congo 1 b2-b3") // 5d - 1h + 1d, capped at 5d
	wantText(t, only(t, h.deliver(), "bob"), "alice: 5 days left")
	h.sendProven("alice", "takeback congo 1")
	h.deliver()
	h.sendProven("bob", "takeback congo 1")
	for _, m := range h.deliver() {
		wantText(t, m, "The last move was taken back", "alice: 4 days 23 hours left")
	}
}

func TestAbort(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.startGame("alice", "bob")
	h.sendProven("alice", "move congo 1 b2-b3")
	h.deliver()
	h.sendProven("bob", "abort congo 1")
	for _, m := range h.deliver() {
		if m.Subject != "Congo game 1: alice vs bob" {
			t.Errorf("abort mail to %s: Subject %q", m.To, m.Subject)
		}
		wantText(t, m, "The game was aborted: it ends without a result.")
	}
	if g := h.game(1); g.Status != db.Finished || g.Result != db.NoResult {
		t.Errorf("game after abort = %+v", g)
	}

	h.startGame("alice", "bob")
	h.sendProven("alice", "move congo 2 b2-b3")
	h.sendProven("bob", "move congo 2 b6-b5")
	h.deliver()
	h.sendProven("alice", "abort congo 2")
	wantText(t, only(t, h.deliver(), "alice"), "cannot be aborted: both sides have moved")
}
