package play_test

import (
	"testing"

	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

func TestConditionalMoves(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")

	w.SendProven("alice", "conditional congo 1\nif b6-b5 then c2-c3")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "It is your move in game 1")

	// A move and the lines in one mail; an illegal line is refused.
	w.SendProven("alice", "move congo 1 b2-b3\nconditional congo 1\nif b6-b5 then c2-c3 if c6-c5 then d2-d3\nif a6-a5 then a2-a3\nif g6-g5 then b3-b5")
	mails := w.Deliver()
	reply := servertest.To(mails, "alice")[len(servertest.To(mails, "alice"))-1]
	servertest.WantText(t, reply, "Added 2 conditional lines in game 1", "if b6-b5 then c2-c3 if c6-c5 then d2-d3", "if a6-a5 then a2-a3",
		"> if g6-g5 then b3-b5", "Not kept")
	for _, m := range servertest.To(mails, "bob") {
		servertest.WantNoText(t, m, "if b6-b5")
	}
	w.SendProven("alice", "conditional congo 1\nif b6-b5 then d2-d3")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "you answer b6-b5 with c2-c3 already")

	// bob's move matches: alice's answer is played at once, the other
	// branch is dropped and the rest of the matching one is kept.
	w.SendProven("bob", "move congo 1 b6-b5")
	mails = w.Deliver()
	// One mail, with both moves (M23).
	servertest.WantText(t, servertest.Only(t, mails, "bob"), "You: b6-b5", "alice: c2-c3", "Played from alice's conditional", "Position: gmelecz/p1ppppp/1p5/7/1PP4/P2PPPP/GMELECZ b 2")
	servertest.WantText(t, servertest.Only(t, mails, "alice"), "bob: b6-b5", "You: c2-c3", "Played from your conditional")
	w.SendProven("alice", "conditional congo 1")
	m := servertest.Only(t, w.Deliver(), "alice")
	servertest.WantText(t, m, "  if c6-c5 then d2-d3")
	servertest.WantNoText(t, m, "a6-a5")

	// A move that matches no branch drops them all.
	w.SendProven("bob", "move congo 1 a6-a5")
	w.Deliver()
	w.SendProven("alice", "conditional congo 1")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "You have no conditional moves in game 1.")

	// Clear.
	w.SendProven("alice", "move congo 1 a2-a3")
	w.Deliver()
	w.SendProven("alice", "conditional congo 1\nif c6-c5 then d2-d3\nconditional congo 1 clear")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "Cleared 1 conditional line", "You have no conditional moves")
}

func TestConditionalLineTwoDeep(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	w.SendProven("alice", "move congo 1 b2-b3\nconditional congo 1\nif b6-b5 then c2-c3 if a6-a5 then d2-d3")
	w.Deliver()
	for _, tt := range []struct{ bob, alice string }{{"b6-b5", "c2-c3"}, {"a6-a5", "d2-d3"}} {
		w.SendProven("bob", "move congo 1 "+tt.bob)
		servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "bob: "+tt.bob, "You: "+tt.alice, "Played from your conditional")
	}
	if g := w.Game(1); g.Position != "gmelecz/2ppppp/pp5/7/1PPP3/P3PPP/GMELECZ b 3" {
		t.Errorf("position after the line = %q", g.Position)
	}
}
