package play_test

import (
	"fmt"
	"testing"

	"github.com/congobymail/congo/config"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

// TestConditionalResign: a conditional line that ends in resign (M69)
// resigns at once when the opponent's move matches; both are told, in
// the one mail of the move.
func TestConditionalResign(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	w.SendProven("alice", "move congo 1 b2-b3\nconditional congo 1\nif c6-c5 then resign\nif d6-d5 then c2-c3")
	mails := w.Deliver()
	servertest.WantText(t, servertest.To(mails, "alice")[len(servertest.To(mails, "alice"))-1],
		"Added 2 conditional lines in game 1", "  if c6-c5 then resign", "  if d6-d5 then c2-c3")
	for _, m := range servertest.To(mails, "bob") {
		servertest.WantNoText(t, m, "resign")
	}
	w.SendProven("bob", "move congo 1 c6-c5")
	mails = w.Deliver()
	toAlice, toBob := servertest.Only(t, mails, "alice"), servertest.Only(t, mails, "bob")
	servertest.WantWords(t, toBob, "You: c6-c5", "alice resigned, by a conditional line sent ahead.", "You win: alice resigned.")
	servertest.WantWords(t, toAlice, "bob: c6-c5", "You resigned, as a conditional line of yours said.", "bob wins: you resigned.")
	if g := w.Game(1); g.Status != db.Finished || g.Result != db.BlackWins || g.Reason != rules.Resigned {
		t.Errorf("game after the conditional resignation: %v %v %v", g.Status, g.Result, g.Reason)
	}
}

// TestConditionalDraw: a conditional line that ends in draw (M69)
// offers a draw when the opponent's move matches, or accepts the one the
// opponent made.
func TestConditionalDraw(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	// An offer: bob may accept it.
	w.StartGame("alice", "bob")
	w.SendProven("alice", "move congo 1 b2-b3\nconditional congo 1\nif b6-b5 then draw")
	w.Deliver()
	w.SendProven("bob", "move congo 1 b6-b5")
	mails := w.Deliver()
	servertest.WantWords(t, servertest.Only(t, mails, "bob"), "alice offers a draw, by a conditional line sent ahead.", `To accept, reply "draw congo 1"`)
	servertest.WantWords(t, servertest.Only(t, mails, "alice"), "You offer a draw, as a conditional line of yours said.")
	if g := w.Game(1); g.Status != db.Active || g.DrawOffer != w.Player("alice").ID {
		t.Errorf("game 1: %v, offer by %d, want active with alice's offer", g.Status, g.DrawOffer)
	}
	w.SendProven("bob", "draw congo 1")
	w.Deliver()
	if g := w.Game(1); g.Status != db.Finished || g.Result != db.Draw {
		t.Errorf("game 1 after bob accepted: %v %v, want drawn", g.Status, g.Result)
	}

	// An acceptance: bob offers and moves in one mail; alice's line
	// accepts at once.
	id := w.StartGame("alice", "bob")
	w.SendProven("alice", fmt.Sprintf("move congo %d b2-b3\nconditional congo %d\nif b6-b5 then draw", id, id))
	w.Deliver()
	w.SendProven("bob", fmt.Sprintf("draw congo %d\nmove congo %d b6-b5", id, id))
	mails = w.Deliver()
	servertest.WantWords(t, servertest.Only(t, mails, "bob"), "alice accepted the draw offer, by a conditional line sent ahead.", "Draw by agreement.")
	servertest.WantWords(t, servertest.Only(t, mails, "alice"), "You accepted the draw offer, as a conditional line of yours said.")
	if g := w.Game(id); g.Status != db.Finished || g.Result != db.Draw || g.Reason != rules.Agreed {
		t.Errorf("game %d: %v %v %v, want drawn by agreement", id, g.Status, g.Result, g.Reason)
	}

	// resign and draw end a line, and answer the opponent's move.
	id = w.StartGame("alice", "bob")
	w.SendProven("alice", fmt.Sprintf("move congo %d b2-b3\nconditional congo %d\nif b6-b5 then resign if c6-c5 then draw", id, id))
	servertest.WantWords(t, servertest.To(w.Deliver(), "alice")[1], "resign and draw end a conditional line")
}

// TestConditionalResignCzech: the mails of a conditional resignation in
// Czech (M40, M69).
func TestConditionalResignCzech(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("jan", "eva")
	w.StartGame("jan", "eva")
	w.SendProven("jan", "language cs")
	w.SendProven("eva", "language cs")
	w.Deliver()
	w.SendProven("jan", "move congo 1 b2-b3\nconditional congo 1\nif c6-c5 then resign")
	servertest.WantText(t, servertest.To(w.Deliver(), "jan")[1], "if c6-c5 then resign")
	w.SendProven("eva", "move congo 1 c6-c5")
	mails := w.Deliver()
	servertest.WantWords(t, servertest.Only(t, mails, "eva"), "jan se vzdává podle předem poslaného řádku podmíněných tahů.", "Výhra je vaše: partie skončila vzdáním.")
	servertest.WantWords(t, servertest.Only(t, mails, "jan"), "Vzdáváte se, jak určil váš řádek podmíněných tahů.", "Výhra: eva. Partie skončila vaším vzdáním.")
}

// TestConditionalDrawRobot: a conditional draw offer to the robot, made
// by its move, is answered by the robot at once, as any offer.
func TestConditionalDrawRobot(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{Settings: config.Settings{Robot: config.DefaultRobot}})
	if err := w.Server.EnsureRobot(t.Context()); err != nil {
		t.Fatal(err)
	}
	w.Register("alice")
	w.SendProven("alice", "challenge congo robot level=1")
	w.Deliver()
	// A line for every answer the robot has to b2-b3.
	after, _, err := rules.Start().Play("b2-b3")
	if err != nil {
		t.Fatal(err)
	}
	body := "move congo 1 b2-b3\nconditional congo 1"
	for _, m := range after.Legal() {
		body += "\nif " + m.String() + " then draw"
	}
	w.SendProven("alice", body)
	w.Deliver()
	if !servertest.RobotStep(t, w.Server) {
		t.Fatal("the robot did not play")
	}
	m := servertest.Only(t, w.DeliverChecked(), "alice")
	servertest.WantWords(t, m, "You offer a draw, as a conditional line of yours said.", "robot declined the draw offer.")
	if g := w.Game(1); g.Status != db.Active || g.DrawOffer != 0 {
		t.Errorf("game 1: %v, offer %d, want active with no offer standing", g.Status, g.DrawOffer)
	}
}
