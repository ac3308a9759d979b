package server

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/rules"
)

const startLine = "Position: " + rules.StartPosition

func TestChallenge(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.sendProven("alice", "challenge congo bob")
	mails := h.deliver()
	if len(mails) != 2 {
		t.Fatalf("%d mails after a challenge, want 2", len(mails))
	}
	toBob, toAlice := only(t, mails, "bob"), only(t, mails, "alice")
	const subject = "Congo game 1: alice vs bob"
	for _, m := range mails {
		if m.Subject != subject {
			t.Errorf("mail to %s: Subject %q, want %q", m.To, m.Subject, subject)
		}
		if m.ReplyTo != h.personal(strings.TrimSuffix(m.To, "@"+players)) {
			t.Errorf("mail to %s: Reply-To %q is not the recipient's personal address", m.To, m.ReplyTo)
		}
	}
	wantText(t, toBob, "alice challenges you", "accept congo 1", "decline congo 1")
	wantText(t, toAlice, "game 1")

	g := h.game(1)
	if g.Status != db.Challenged || g.White != h.player("alice").ID || g.Black != h.player("bob").ID || g.Position != rules.StartPosition {
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

	h.sendProven("bob", "challenge congo alice black")
	only(t, h.deliver(), "alice")
	g2 := h.game(2)
	if g2.White != h.player("alice").ID || g2.Challenger != h.player("bob").ID {
		t.Errorf("challenge congo alice black: white %d, challenger %d; want alice white, bob challenger", g2.White, g2.Challenger)
	}
}

func TestChallengeErrors(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	tests := []struct {
		body string
		want string
	}{
		{"challenge congo zed", "No player has the handle zed"},
		{"challenge congo alice", "cannot challenge yourself"},
		{"challenge congo ALICE", "cannot challenge yourself"},
	}
	for _, tt := range tests {
		h.sendProven("alice", tt.body)
		mails := h.deliver()
		if len(mails) != 1 {
			t.Errorf("%q: %d mails, want 1", tt.body, len(mails))
			continue
		}
		wantText(t, only(t, mails, "alice"), "> "+tt.body, tt.want)
	}
}

func TestAccept(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.sendProven("alice", "challenge congo bob")
	h.deliver()
	h.sendProven("bob", "accept congo 1")
	mails := h.deliver()
	const subject = "Congo game 1: alice vs bob"
	for _, m := range []received{only(t, mails, "alice"), only(t, mails, "bob")} {
		if m.Subject != subject {
			t.Errorf("mail to %s: Subject %q, want %q", m.To, m.Subject, subject)
		}
		wantText(t, m, "accepted", startLine, "Move 1: alice (white) to move.")
	}
	wantText(t, only(t, mails, "alice"), "It is your move")
	wantNoText(t, only(t, mails, "bob"), "It is your move")
	if g := h.game(1); g.Status != db.Active {
		t.Errorf("game status after accept = %v, want active", g.Status)
	}
}

func TestDecline(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.sendProven("alice", "challenge congo bob")
	h.deliver()
	h.sendProven("bob", "decline congo 1")
	mails := h.deliver()
	const subject = "Congo game 1: alice vs bob"
	wantText(t, only(t, mails, "alice"), "bob declined your challenge")
	wantText(t, only(t, mails, "bob"), "You declined alice's challenge")
	for _, m := range mails {
		if m.Subject != subject {
			t.Errorf("mail to %s: Subject %q, want %q", m.To, m.Subject, subject)
		}
	}
	if g := h.game(1); g.Status != db.Declined {
		t.Errorf("game status after decline = %v, want declined", g.Status)
	}
	h.sendProven("alice", "move congo 1 b2-b3")
	wantText(t, only(t, h.deliver(), "alice"), "not being played", "declined")
}

func TestAnswerErrors(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob", "carol")
	h.sendProven("alice", "challenge congo bob")
	h.deliver()
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
		h.sendProven(tt.from, tt.body)
		mails := h.deliver()
		if len(mails) != 1 {
			t.Errorf("%s: %q: %d mails, want 1", tt.from, tt.body, len(mails))
			continue
		}
		wantText(t, only(t, mails, tt.from), "> "+tt.body, tt.want)
	}
	if g := h.game(1); g.Status != db.Challenged {
		t.Errorf("game status = %v, want still challenged", g.Status)
	}
	h.sendProven("bob", "accept congo 1")
	h.deliver()
	h.sendProven("bob", "accept congo 1")
	wantText(t, only(t, h.deliver(), "bob"), "not waiting for an answer", "being played")
}

func TestMove(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	id := h.startGame("alice", "bob")
	if id != 1 {
		t.Fatalf("first game is %d, want 1", id)
	}
	h.sendProven("alice", "move congo 1 b2-b3 #1")
	mails := h.deliver()
	after, _, err := rules.Start().Play("b2-b3")
	if err != nil {
		t.Fatal(err)
	}
	const subject = "Congo game 1: alice vs bob"
	toAlice, toBob := only(t, mails, "alice"), only(t, mails, "bob")
	for _, m := range []received{toAlice, toBob} {
		if m.Subject != subject {
			t.Errorf("mail to %s: Subject %q, want %q", m.To, m.Subject, subject)
		}
		wantText(t, m, "Position: "+after.String(), "Move 1: bob (black) to move.")
	}
	// The mover reads their own move as theirs (M27).
	wantText(t, toBob, "alice: b2-b3 — the pawn moved to b3")
	wantText(t, toAlice, "You: b2-b3 — your pawn moved to b3")
	// Each player sees the board from their own side.
	wantText(t, toAlice, after.Diagram(rules.White))
	wantText(t, toBob, after.Diagram(rules.Black), "It is your move")
	if g := h.game(1); g.Position != after.String() {
		t.Errorf("stored position %q, want %q", g.Position, after.String())
	}
	var moves []db.Move
	h.inTx(func(ctx context.Context, tx *db.Tx) error {
		var err error
		moves, err = tx.Moves(ctx, 1)
		return err
	})
	if len(moves) != 1 || moves[0].Ply != 1 || moves[0].Move != "b2-b3" || moves[0].Position != after.String() {
		t.Errorf("stored moves = %+v, want ply 1 b2-b3", moves)
	}

	// Black's reply shares the move number; then it is white's move 2.
	h.sendProven("bob", "move congo 1 b6-b5 #1")
	wantText(t, only(t, h.deliver(), "alice"), "bob: b6-b5", "Move 2: alice (white) to move.")
}

func TestMoveErrors(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob", "carol")
	h.startGame("alice", "bob")
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
		h.sendProven(tt.from, tt.body)
		mails := h.deliver()
		if len(mails) != 1 {
			t.Errorf("%s: %q: %d mails, want only the answer", tt.from, tt.body, len(mails))
			continue
		}
		wantText(t, only(t, mails, tt.from), append([]string{"> " + tt.body}, tt.want...)...)
	}
	if g := h.game(1); g.Position != rules.StartPosition {
		t.Errorf("position after refused moves = %q, want the start", g.Position)
	}
}

// TestGameToLionCapture plays a short game to its end: with d2 and d6
// gone, the white lion flies up the d file and takes the black one.
func TestGameToLionCapture(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.startGame("alice", "bob")
	h.sendProven("alice", "move congo 1 d2-e3")
	h.sendProven("bob", "move congo 1 d6-c5")
	h.deliver()
	h.sendProven("alice", "move congo 1 d1xd7")
	mails := h.deliver()
	const subject = "Congo game 1: alice vs bob"
	for _, m := range []received{only(t, mails, "alice"), only(t, mails, "bob")} {
		if m.Subject != subject {
			t.Errorf("mail to %s: Subject %q, want %q", m.To, m.Subject, subject)
		}
		wantText(t, m, "d1xd7 — ", "lion captured the lion on d7", "Position: ")
		wantNoText(t, m, "to move")
	}
	wantText(t, only(t, mails, "alice"), "You win: bob's lion was captured.")
	wantText(t, only(t, mails, "bob"), "alice wins: your lion was captured.")
	g := h.game(1)
	if g.Status != db.Finished || g.Result != db.WhiteWins || g.Reason != rules.LionCaptured {
		t.Errorf("game after the lion capture: status %v, result %v, reason %q", g.Status, g.Result, g.Reason)
	}
	h.sendProven("bob", "move congo 1 e7-d7")
	wantText(t, only(t, h.deliver(), "bob"), "not being played", "over", "alice wins")
}

func TestResign(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.startGame("alice", "bob")
	h.sendProven("bob", "resign congo 1")
	mails := h.deliver()
	const subject = "Congo game 1: alice vs bob"
	for _, m := range []received{only(t, mails, "alice"), only(t, mails, "bob")} {
		if m.Subject != subject {
			t.Errorf("mail to %s: Subject %q, want %q", m.To, m.Subject, subject)
		}
		// New players: 1500 with a wide deviation, which moves far.
		wantText(t, m, "resigned.", "Ratings now: alice 1662 (+162), bob 1338 (-162).", startLine)
	}
	wantText(t, only(t, mails, "alice"), "You win: bob resigned.")
	wantText(t, only(t, mails, "bob"), "alice wins: you resigned.")
	if g := h.game(1); g.Status != db.Finished || g.Result != db.WhiteWins || g.Reason != rules.Resigned {
		t.Errorf("game after resign: status %v, result %v, reason %q", g.Status, g.Result, g.Reason)
	}
}

func TestBoard(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob", "carol")
	h.startGame("alice", "bob")
	h.sendProven("alice", "move congo 1 b2-b3")
	h.deliver()

	h.send("bob", "board congo 1") // a board needs proof (M31): no board answers a forged mail
	m := only(t, h.deliver(), "bob")
	wantText(t, m, "did not come to your personal address")
	wantNoText(t, m, "Position:")
	h.sendProven("bob", "board congo 1")
	m = only(t, h.deliver(), "bob")
	if m.Subject != "Congo game 1: alice vs bob" {
		t.Errorf("board Subject = %q", m.Subject)
	}
	pos := h.game(1).Position
	wantText(t, m, "Position: "+pos, "It is your move")
	if !slices.Contains(m.References, h.game(1).ThreadRoot) {
		t.Errorf("board mail References %q lack the thread root", m.References)
	}

	h.sendProven("carol", "board congo 1")
	wantText(t, only(t, h.deliver(), "carol"), "not one of your games")
}

func TestGames(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob", "carol", "dave")
	h.startGame("alice", "bob") // 1: alice to move
	h.startGame("carol", "alice")
	h.sendProven("carol", "move congo 2 b2-b3") // 2: alice to move
	h.startGame("alice", "dave")
	h.sendProven("alice", "move congo 3 b2-b3")    // 3: dave to move
	h.sendProven("bob", "challenge congo alice")   // 4: alice to answer
	h.sendProven("alice", "challenge congo carol") // 5: sent by alice
	h.startGame("dave", "alice")
	h.sendProven("alice", "resign congo 6")      // 6: finished
	h.sendProven("bob", "challenge congo carol") // 7: not alice's
	h.deliver()

	h.send("alice", "games")
	text := only(t, h.deliver(), "alice").Text
	order := []string{
		"Your move:", "game 1: alice vs bob - alice to move", "game 2: carol vs alice - alice to move",
		"Challenges to you", "game 4: bob vs alice - challenge",
		"Your opponent's move:", "game 3: alice vs dave - dave to move",
		"Your challenges", "game 5: alice vs carol - challenge",
		"Recent results:", "game 6: dave vs alice - dave wins",
	}
	last := -1
	for _, s := range order {
		i := strings.Index(text, s)
		if i < 0 || i < last {
			t.Fatalf("games answer does not list %q in order (at %d, after %d):\n%s", s, i, last, text)
		}
		last = i
	}
	if strings.Contains(text, "game 7") {
		t.Errorf("games lists another players' game 7:\n%s", text)
	}
}
