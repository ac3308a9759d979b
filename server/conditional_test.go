package server

import (
	"testing"
)

func TestConditionalMoves(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.startGame("alice", "bob")

	h.sendProven("alice", "conditional congo 1\nif b6-b5 then c2-c3")
	wantText(t, only(t, h.deliver(), "alice"), "It is your move in game 1")

	// A move and the lines in one mail; an illegal line is refused.
	h.sendProven("alice", "move congo 1 b2-b3\nconditional congo 1\nif b6-b5 then c2-c3 if c6-c5 then d2-d3\nif a6-a5 then a2-a3\nif g6-g5 then b3-b5")
	mails := h.deliver()
	reply := to(mails, "alice")[len(to(mails, "alice"))-1]
	wantText(t, reply, "Added 2 conditional lines in game 1", "if b6-b5 then c2-c3 if c6-c5 then d2-d3", "if a6-a5 then a2-a3",
		"> if g6-g5 then b3-b5", "Not kept")
	for _, m := range to(mails, "bob") {
		wantNoText(t, m, "if b6-b5")
	}
	h.sendProven("alice", "conditional congo 1\nif b6-b5 then d2-d3")
	wantText(t, only(t, h.deliver(), "alice"), "you answer b6-b5 with c2-c3 already")

	// bob's move matches: alice's answer is played at once, the other
	// branch is dropped and the rest of the matching one is kept.
	h.sendProven("bob", "move congo 1 b6-b5")
	mails = h.deliver()
	// One mail, with both moves (M23).
	wantText(t, only(t, mails, "bob"), "You: b6-b5", "alice: c2-c3", "Played from alice's conditional", "Position: gmelecz/p1ppppp/1p5/7/1PP4/P2PPPP/GMELECZ b 2")
	wantText(t, only(t, mails, "alice"), "bob: b6-b5", "You: c2-c3", "Played from your conditional")
	h.sendProven("alice", "conditional congo 1")
	m := only(t, h.deliver(), "alice")
	wantText(t, m, "  if c6-c5 then d2-d3")
	wantNoText(t, m, "a6-a5")

	// A move that matches no branch drops them all.
	h.sendProven("bob", "move congo 1 a6-a5")
	h.deliver()
	h.sendProven("alice", "conditional congo 1")
	wantText(t, only(t, h.deliver(), "alice"), "You have no conditional moves in game 1.")

	// Clear.
	h.sendProven("alice", "move congo 1 a2-a3")
	h.deliver()
	h.sendProven("alice", "conditional congo 1\nif c6-c5 then d2-d3\nconditional congo 1 clear")
	wantText(t, only(t, h.deliver(), "alice"), "Cleared 1 conditional line", "You have no conditional moves")
}

func TestConditionalLineTwoDeep(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.startGame("alice", "bob")
	h.sendProven("alice", "move congo 1 b2-b3\nconditional congo 1\nif b6-b5 then c2-c3 if a6-a5 then d2-d3")
	h.deliver()
	for _, tt := range []struct{ bob, alice string }{{"b6-b5", "c2-c3"}, {"a6-a5", "d2-d3"}} {
		h.sendProven("bob", "move congo 1 "+tt.bob)
		wantText(t, only(t, h.deliver(), "alice"), "bob: "+tt.bob, "You: "+tt.alice, "Played from your conditional")
	}
	if g := h.game(1); g.Position != "gmelecz/2ppppp/pp5/7/1PPP3/P3PPP/GMELECZ b 3" {
		t.Errorf("position after the line = %q", g.Position)
	}
}
