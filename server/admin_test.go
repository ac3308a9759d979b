package server

import (
	"context"
	"github.com/congobymail/congo/config"
	"testing"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/robot"
)

// admin carries out an operator's command.
func (h *harness) admin(line string) {
	h.t.Helper()
	a, e, ok := parser.ParseAdmin(line)
	if !ok || e.Problem != parser.NoProblem {
		h.t.Fatalf("ParseAdmin(%q) not ok: %+v", line, e)
	}
	if _, err := h.s.Admin(context.Background(), a, "test"); err != nil {
		h.t.Fatalf("Admin(%q): %v", line, err)
	}
}

// banned reports whether the player with the handle is banned.
func (h *harness) banned(handle string) bool {
	h.t.Helper()
	var b bool
	id := h.player(handle).ID
	h.inTx(func(ctx context.Context, tx *db.Tx) error {
		var err error
		b, err = tx.Banned(ctx, id)
		return err
	})
	return b
}

// wantStandsStill checks that the adjourned game's clock stands still,
// and that the game is not lost on time however long it waits.
func (h *harness) wantStandsStill(id int64) {
	h.t.Helper()
	if g := h.game(id); !g.ClockStart.Equal(game.AdjournedClock) || !g.IsAdjourned() {
		h.t.Errorf("adjourned game %d: clock start %v, adjourned %v; want %v, adjourned", id, g.ClockStart, g.Adjourned, game.AdjournedClock)
	}
	h.clock.Advance(10 * game.Day)
	if _, err := h.s.Clock().Tick(context.Background()); err != nil {
		h.t.Fatal(err)
	}
	if g := h.game(id); g.Status != db.Active {
		h.t.Errorf("adjourned game %d ended: %v %s", id, g.Result, g.Reason)
	}
}

// adjournedAgainstRobot starts a game of alice against the robot, where
// the robot is to move, and adjourns it.
func adjournedAgainstRobot(t *testing.T) (*harness, int64) {
	h := newHarnessWith(t, Config{Settings: config.Settings{Robot: config.DefaultRobot}})
	if err := h.s.EnsureRobot(context.Background()); err != nil {
		t.Fatal(err)
	}
	h.register("alice")
	h.sendProven("alice", "challenge congo robot level=1")
	h.deliver()
	h.sendProven("alice", "move congo 1 b2-b3")
	h.deliver()
	if g := h.game(1); g.Status != db.Active || g.White != h.player("alice").ID {
		t.Fatalf("game 1: %+v, want alice as White against the robot", g)
	}
	h.admin("adjourn congo 1")
	h.deliver()
	return h, 1
}

func TestRobotDoesNotPlayInAdjournedGame(t *testing.T) {
	h, id := adjournedAgainstRobot(t)
	position := h.game(id).Position
	if h.robotStep(h.s) {
		t.Errorf("robot played in an adjourned game")
	}
	if g := h.game(id); g.Position != position {
		t.Errorf("adjourned game's position went from %s to %s", position, g.Position)
	}
	h.wantStandsStill(id)

	h.admin("resume congo 1")
	if !h.robotStep(h.s) {
		t.Errorf("robot did not play in the resumed game")
	}
	if g := h.game(id); g.Position == position {
		t.Errorf("resumed game's position is still %s", position)
	}
}

// A game adjourned while the robot thinks: its move is not recorded.
func TestRobotMoveDroppedWhenAdjournedWhileThinking(t *testing.T) {
	h, id := adjournedAgainstRobot(t)
	h.admin("resume congo 1")
	var (
		turn  robot.Turn
		found bool
	)
	h.inTx(func(ctx context.Context, tx *db.Tx) error {
		me, err := tx.PlayerByHandle(ctx, config.DefaultRobot)
		if err != nil {
			return err
		}
		turn, found, err = robot.NextTurn(ctx, tx, me, nil, 0, h.s.log)
		return err
	})
	if !found || turn.Game != id {
		t.Fatalf("NextTurn = %+v, %v; want game %d", turn, found, id)
	}
	d, err := turn.Choose(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	h.admin("adjourn congo 1") // while the robot thinks
	if err := h.s.Robot().Play(context.Background(), turn, d); err != nil {
		t.Fatal(err)
	}
	if g := h.game(id); g.Position != turn.Position {
		t.Errorf("robot moved in a game adjourned while it thought: position %s, was %s", g.Position, turn.Position)
	}
	h.wantStandsStill(id)
}

// adjournedOnBobsMove starts a game of alice against bob, where bob is to
// move, and adjourns it.
func adjournedOnBobsMove(t *testing.T) (*harness, int64) {
	h := newHarness(t)
	h.register("alice", "bob")
	id := h.startGame("alice", "bob")
	h.sendProven("alice", "move congo 1 b2-b3")
	h.deliver()
	h.admin("adjourn congo 1")
	h.deliver()
	return h, id
}

func TestVacationLeavesAdjournedClockStill(t *testing.T) {
	h, id := adjournedOnBobsMove(t)
	h.sendProven("bob", "vacation 1")
	h.deliver()
	if p := h.player("bob"); !p.VacationUntil.After(h.clock.Now()) {
		t.Fatalf("bob is not on vacation: until %v", p.VacationUntil)
	}
	h.wantStandsStill(id)
}

func TestVacationOffLeavesAdjournedClockStill(t *testing.T) {
	h, id := adjournedOnBobsMove(t)
	h.sendProven("bob", "vacation 2")
	h.deliver()
	h.sendProven("bob", "vacation off")
	h.deliver()
	if p := h.player("bob"); !p.VacationUntil.IsZero() {
		t.Fatalf("bob is still on vacation: until %v", p.VacationUntil)
	}
	h.wantStandsStill(id)
}

// Tick ends no adjourned game on time, whatever its clock says.
func TestTickSkipsAdjournedGame(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	id := h.startGame("alice", "bob")
	h.inTx(func(ctx context.Context, tx *db.Tx) error {
		return tx.SetAdjourned(ctx, id, h.clock.Now()) // the clock left running
	})
	h.clock.Advance(10 * game.Day)
	if _, err := h.s.Clock().Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	if g := h.game(id); g.Status != db.Active {
		t.Errorf("adjourned game %d ended: %v %s", id, g.Result, g.Reason)
	}
	if got := h.deliver(); len(got) != 0 {
		t.Errorf("%d mails about an adjourned game, want none", len(got))
	}
}

// TestOperatorLinesStopWhereParserStops: the operator's commands in a
// quoted old mail, below an attribution or separator, are not carried
// out.
func TestOperatorLinesStopWhereParserStops(t *testing.T) {
	for _, below := range []string{
		"On Mon, 3 Mar 2025, Alice wrote:\nban carol",
		"-----Original Message-----\nban carol",
		"-- \nban carol",
		"> ban carol",
	} {
		h := newHarnessWith(t, Config{Settings: config.Settings{Operator: addr("oper")}})
		h.register("oper", "bob", "carol")
		h.sendProven("oper", "ban bob\n\n"+below)
		if !h.banned("bob") {
			t.Errorf("%q: bob, above, not banned", below)
		}
		if h.banned("carol") {
			t.Errorf("%q: carol, below, banned", below)
		}
	}
}
