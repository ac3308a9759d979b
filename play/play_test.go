package play_test

import (
	"context"
	"testing"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

const startLine = "Position: " + rules.StartPosition

func TestMove(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	id := w.StartGame("alice", "bob")
	if id != 1 {
		t.Fatalf("first game is %d, want 1", id)
	}
	w.SendProven("alice", "move congo 1 b2-b3 #1")
	mails := w.Deliver()
	after, _, err := rules.Start().Play("b2-b3")
	if err != nil {
		t.Fatal(err)
	}
	const subject = "Congo game 1: alice vs bob"
	toAlice, toBob := servertest.Only(t, mails, "alice"), servertest.Only(t, mails, "bob")
	for _, m := range []servertest.Received{toAlice, toBob} {
		if m.Subject != subject {
			t.Errorf("mail to %s: Subject %q, want %q", m.To, m.Subject, subject)
		}
		servertest.WantText(t, m, "Position: "+after.String(), "Move 1: bob (black) to move.")
	}
	// The mover reads their own move as theirs (M27).
	servertest.WantText(t, toBob, "alice: b2-b3 — the pawn moved to b3")
	servertest.WantText(t, toAlice, "You: b2-b3 — your pawn moved to b3")
	// Each player sees the board from their own side.
	servertest.WantText(t, toAlice, after.Diagram(rules.White))
	servertest.WantText(t, toBob, after.Diagram(rules.Black), "It is your move")
	if g := w.Game(1); g.Position != after.String() {
		t.Errorf("stored position %q, want %q", g.Position, after.String())
	}
	var moves []db.Move
	w.InTx(func(ctx context.Context, tx *db.Tx) error {
		var err error
		moves, err = tx.Moves(ctx, 1)
		return err
	})
	if len(moves) != 1 || moves[0].Ply != 1 || moves[0].Move != "b2-b3" || moves[0].Position != after.String() {
		t.Errorf("stored moves = %+v, want ply 1 b2-b3", moves)
	}

	// Black's reply shares the move number; then it is white's move 2.
	w.SendProven("bob", "move congo 1 b6-b5 #1")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "bob: b6-b5", "Move 2: alice (white) to move.")
}

func TestMoveErrors(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob", "carol")
	w.StartGame("alice", "bob")
	tests := []struct {
		from, body string
		want       []string
	}{
		{"alice", "move congo 1 b2-b5", []string{"not legal", "the pawn on b2 can go to", startLine}},
		{"alice", "move congo 1 c4-c5", []string{"not legal", "no piece on c4", startLine}},
		{"bob", "move congo 1 b6-b5", []string{"It is alice's move in game 1", startLine}},
		{"alice", "move congo 1 b2-b3 #2", []string{"is #1", startLine}},
		{"alice", "move congo 1 b2-b3#3", []string{"is #1", startLine}},
		{"carol", "move congo 1 b2-b3", []string{"not one of your games"}},
		{"alice", "move congo 7 b2-b3", []string{"There is no game 7"}},
	}
	for _, tt := range tests {
		w.SendProven(tt.from, tt.body)
		mails := w.Deliver()
		if len(mails) != 1 {
			t.Errorf("%s: %q: %d mails, want only the answer", tt.from, tt.body, len(mails))
			continue
		}
		servertest.WantText(t, servertest.Only(t, mails, tt.from), append([]string{"> " + tt.body}, tt.want...)...)
	}
	if g := w.Game(1); g.Position != rules.StartPosition {
		t.Errorf("position after refused moves = %q, want the start", g.Position)
	}
}

// TestGameToLionCapture plays a short game to its end: with d2 and d6
// gone, the white lion flies up the d file and takes the black one.
func TestGameToLionCapture(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	w.SendProven("alice", "move congo 1 d2-e3")
	w.SendProven("bob", "move congo 1 d6-c5 anyway")
	w.Deliver()
	w.SendProven("alice", "move congo 1 d1xd7")
	mails := w.Deliver()
	const subject = "Congo game 1: alice vs bob"
	for _, m := range []servertest.Received{servertest.Only(t, mails, "alice"), servertest.Only(t, mails, "bob")} {
		if m.Subject != subject {
			t.Errorf("mail to %s: Subject %q, want %q", m.To, m.Subject, subject)
		}
		servertest.WantText(t, m, "d1xd7 — ", "lion captured the lion on d7", "Position: ")
		servertest.WantNoText(t, m, "to move")
	}
	servertest.WantText(t, servertest.Only(t, mails, "alice"), "You win: bob's lion was captured.")
	servertest.WantText(t, servertest.Only(t, mails, "bob"), "alice wins: your lion was captured.")
	g := w.Game(1)
	if g.Status != db.Finished || g.Result != db.WhiteWins || g.Reason != rules.LionCaptured {
		t.Errorf("game after the lion capture: status %v, result %v, reason %q", g.Status, g.Result, g.Reason)
	}
	w.SendProven("bob", "move congo 1 e7-d7")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "bob"), "not being played", "over", "alice wins")
}

func TestResign(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	w.SendProven("bob", "resign congo 1")
	mails := w.Deliver()
	const subject = "Congo game 1: alice vs bob"
	for _, m := range []servertest.Received{servertest.Only(t, mails, "alice"), servertest.Only(t, mails, "bob")} {
		if m.Subject != subject {
			t.Errorf("mail to %s: Subject %q, want %q", m.To, m.Subject, subject)
		}
		// New players: 1500 with a wide deviation, which moves far.
		servertest.WantText(t, m, "resigned.", "Ratings now: alice 1662 (+162), bob 1338 (-162).", startLine)
	}
	servertest.WantText(t, servertest.Only(t, mails, "alice"), "You win: bob resigned.")
	servertest.WantText(t, servertest.Only(t, mails, "bob"), "alice wins: you resigned.")
	if g := w.Game(1); g.Status != db.Finished || g.Result != db.WhiteWins || g.Reason != rules.Resigned {
		t.Errorf("game after resign: status %v, result %v, reason %q", g.Status, g.Result, g.Reason)
	}
}
