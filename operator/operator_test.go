package operator_test

import (
	"context"
	"testing"

	"github.com/congobymail/congo/config"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/robot"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

// wantStandsStill checks that the adjourned game's clock stands still,
// and that the game is not lost on time however long it waits.
func wantStandsStill(t *testing.T, w *servertest.World, id int64) {
	t.Helper()
	if g := w.Game(id); !g.ClockStart.Equal(game.AdjournedClock) || !g.IsAdjourned() {
		t.Errorf("adjourned game %d: clock start %v, adjourned %v; want %v, adjourned", id, g.ClockStart, g.Adjourned, game.AdjournedClock)
	}
	w.Clock.Advance(10 * game.Day)
	if _, err := w.Server.Clock().Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	if g := w.Game(id); g.Status != db.Active {
		t.Errorf("adjourned game %d ended: %v %s", id, g.Result, g.Reason)
	}
}

// adjournedAgainstRobot starts a game of alice against the robot, where
// the robot is to move, and adjourns it.
func adjournedAgainstRobot(t *testing.T) (*servertest.World, int64) {
	w := servertest.New(t, server.Config{Settings: config.Settings{Robot: config.DefaultRobot}})
	if err := w.Server.EnsureRobot(context.Background()); err != nil {
		t.Fatal(err)
	}
	w.Register("alice")
	w.SendProven("alice", "challenge congo robot level=1")
	w.Deliver()
	w.SendProven("alice", "move congo 1 b2-b3")
	w.Deliver()
	if g := w.Game(1); g.Status != db.Active || g.White != w.Player("alice").ID {
		t.Fatalf("game 1: %+v, want alice as White against the robot", g)
	}
	w.Admin("adjourn congo 1")
	w.Deliver()
	return w, 1
}

func TestRobotDoesNotPlayInAdjournedGame(t *testing.T) {
	t.Parallel()
	w, id := adjournedAgainstRobot(t)
	position := w.Game(id).Position
	if servertest.RobotStep(t, w.Server) {
		t.Errorf("robot played in an adjourned game")
	}
	if g := w.Game(id); g.Position != position {
		t.Errorf("adjourned game's position went from %s to %s", position, g.Position)
	}
	wantStandsStill(t, w, id)

	w.Admin("resume congo 1")
	if !servertest.RobotStep(t, w.Server) {
		t.Errorf("robot did not play in the resumed game")
	}
	if g := w.Game(id); g.Position == position {
		t.Errorf("resumed game's position is still %s", position)
	}
}

// A game adjourned while the robot thinks: its move is not recorded.
func TestRobotMoveDroppedWhenAdjournedWhileThinking(t *testing.T) {
	t.Parallel()
	w, id := adjournedAgainstRobot(t)
	w.Admin("resume congo 1")
	var (
		turn  robot.Turn
		found bool
	)
	w.InTx(func(ctx context.Context, tx *db.Tx) error {
		me, err := tx.PlayerByHandle(ctx, config.DefaultRobot)
		if err != nil {
			return err
		}
		turn, found, err = robot.NextTurn(ctx, tx, me, nil, 0, w.Logger)
		return err
	})
	if !found || turn.Game != id {
		t.Fatalf("NextTurn = %+v, %v; want game %d", turn, found, id)
	}
	d, err := turn.Choose(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	w.Admin("adjourn congo 1") // while the robot thinks
	if err := w.Server.Robot().Play(context.Background(), turn, d); err != nil {
		t.Fatal(err)
	}
	if g := w.Game(id); g.Position != turn.Position {
		t.Errorf("robot moved in a game adjourned while it thought: position %s, was %s", g.Position, turn.Position)
	}
	wantStandsStill(t, w, id)
}

// adjournedOnBobsMove starts a game of alice against bob, where bob is to
// move, and adjourns it.
func adjournedOnBobsMove(t *testing.T) (*servertest.World, int64) {
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	id := w.StartGame("alice", "bob")
	w.SendProven("alice", "move congo 1 b2-b3")
	w.Deliver()
	w.Admin("adjourn congo 1")
	w.Deliver()
	return w, id
}

func TestVacationLeavesAdjournedClockStill(t *testing.T) {
	t.Parallel()
	w, id := adjournedOnBobsMove(t)
	w.SendProven("bob", "vacation 1")
	w.Deliver()
	if p := w.Player("bob"); !p.VacationUntil.After(w.Clock.Now()) {
		t.Fatalf("bob is not on vacation: until %v", p.VacationUntil)
	}
	wantStandsStill(t, w, id)
}

func TestVacationOffLeavesAdjournedClockStill(t *testing.T) {
	t.Parallel()
	w, id := adjournedOnBobsMove(t)
	w.SendProven("bob", "vacation 2")
	w.Deliver()
	w.SendProven("bob", "vacation off")
	w.Deliver()
	if p := w.Player("bob"); !p.VacationUntil.IsZero() {
		t.Fatalf("bob is still on vacation: until %v", p.VacationUntil)
	}
	wantStandsStill(t, w, id)
}

// Tick ends no adjourned game on time, whatever its clock says.
func TestTickSkipsAdjournedGame(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	id := w.StartGame("alice", "bob")
	w.InTx(func(ctx context.Context, tx *db.Tx) error {
		return tx.SetAdjourned(ctx, id, w.Clock.Now()) // the clock left running
	})
	w.Clock.Advance(10 * game.Day)
	if _, err := w.Server.Clock().Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	if g := w.Game(id); g.Status != db.Active {
		t.Errorf("adjourned game %d ended: %v %s", id, g.Result, g.Reason)
	}
	if got := w.Deliver(); len(got) != 0 {
		t.Errorf("%d mails about an adjourned game, want none", len(got))
	}
}

// TestOperatorLinesStopWhereParserStops: the operator's commands in a
// quoted old mail, below an attribution or separator, are not carried
// out.
func TestOperatorLinesStopWhereParserStops(t *testing.T) {
	t.Parallel()
	for _, below := range []string{
		"On Mon, 3 Mar 2025, Alice wrote:\nban carol",
		"-----Original Message-----\nban carol",
		"-- \nban carol",
		"> ban carol",
	} {
		w := servertest.New(t, server.Config{Settings: config.Settings{Operator: congotest.Address("oper")}})
		w.Register("oper", "bob", "carol")
		w.SendProven("oper", "ban bob\n\n"+below)
		if !w.Banned("bob") {
			t.Errorf("%q: bob, above, not banned", below)
		}
		if w.Banned("carol") {
			t.Errorf("%q: carol, below, banned", below)
		}
	}
}
