package tournament_test

import (
	"context"
	"strings"
	"testing"

	"github.com/congobymail/congo/config"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

// TestTournamentWithRobot (M60): the director adds the robot before the
// start, at a level; at the start it plays its games like any player,
// found and played by its worker, unrated and at that level; it is never
// mailed. Only the director adds it, only the robot is added, and not
// twice.
func TestTournamentWithRobot(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{Settings: config.Settings{Robot: config.DefaultRobot}})
	if err := w.Server.EnsureRobot(context.Background()); err != nil {
		t.Fatal(err)
	}
	w.Register("alice", "bob", "carol")
	w.SendProven("alice", "tournament new roundrobin Club")
	w.SendProven("bob", "join tournament 1")
	w.DeliverChecked()

	w.SendProven("bob", "tournament 1 add robot")
	servertest.WantWords(t, servertest.Only(t, w.DeliverChecked(), "bob"), "Only the director, alice, may add the robot to it")
	w.SendProven("alice", "tournament 1 add carol")
	servertest.WantWords(t, servertest.Only(t, w.DeliverChecked(), "alice"), "carol is not the computer player", "join tournament 1")
	w.SendProven("alice", "tournament 1 add robot level=2")
	added := servertest.Only(t, w.DeliverChecked(), "alice")
	if added.Subject != "Congo tournament 1: Club" {
		t.Errorf("the answer's Subject = %q, want the tournament's", added.Subject)
	}
	servertest.WantWords(t, added, "robot, the computer player, is in tournament 1, Club, at level 2 of 5.",
		"It has 3 players now:", "Its games are unrated.")
	w.SendProven("alice", "tournament 1 add robot")
	servertest.WantWords(t, servertest.Only(t, w.DeliverChecked(), "alice"), "robot is a player of Club already")

	w.SendProven("carol", "join tournament 1")
	w.SendProven("alice", "tournament start 1")
	w.DeliverChecked() // the robot is mailed nothing (DeliverChecked)
	var games []db.Game
	robot := w.Player("robot")
	w.InTx(func(ctx context.Context, tx *db.Tx) error {
		var err error
		games, err = tx.TournamentGames(ctx, 1)
		return err
	})
	if len(games) != 6 {
		t.Fatalf("%d games, want the 6 of a round robin of 4", len(games))
	}
	robotGames := 0
	for _, g := range games {
		if !g.Has(robot.ID) {
			if !g.Rated {
				t.Errorf("game %d between players is unrated, want rated", g.ID)
			}
			continue
		}
		robotGames++
		if g.Rated {
			t.Errorf("game %d against the robot is rated, want unrated (M60)", g.ID)
		}
		w.InTx(func(ctx context.Context, tx *db.Tx) error {
			if level, err := tx.RobotLevel(ctx, g.ID); err != nil || level != 2 {
				t.Errorf("game %d: robot level %d, %v, want 2", g.ID, level, err)
			}
			return nil
		})
	}
	if robotGames != 3 {
		t.Fatalf("the robot has %d games, want 3", robotGames)
	}

	// The robot plays white in some of its games: its worker finds them
	// and plays, and its opponents get its moves.
	played := 0
	for servertest.RobotStep(t, w.Server) {
		played++
	}
	mails := w.DeliverChecked()
	if played == 0 || len(mails) != played {
		t.Fatalf("the robot played %d moves, and %d mails went: want a mail to its opponent for each", played, len(mails))
	}
	m := mails[0]
	servertest.WantText(t, m, "robot: ")
	servertest.WantNoWords(t, m, "accepted the challenge") // there was none: the round began
	if !strings.Contains(m.Subject, "(Club, round ") {
		t.Errorf("Subject %q names not the tournament's round", m.Subject)
	}
	id := servertest.GameOf(t, mails[:1])
	// Its opponent answers, and the robot answers in turn.
	g := w.Game(id)
	who := "alice"
	for _, h := range []string{"bob", "carol"} {
		if p := w.Player(h); g.Has(p.ID) {
			who = h
		}
	}
	w.Reply(m, "a6-a5") // the robot played white
	w.DeliverChecked()
	if !servertest.RobotStep(t, w.Server) {
		t.Fatalf("the robot did not answer %s's move in game %d", who, id)
	}
	servertest.WantText(t, servertest.Only(t, w.DeliverChecked(), who), "You: a6-a5", "robot: ")
}
