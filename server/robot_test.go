package server

import (
	"context"
	"errors"
	"fmt"
	"github.com/congobymail/congo/config"
	"github.com/congobymail/congo/tell"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/engine"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/robot"
	"github.com/congobymail/congo/rules"
)

// newRobotHarness is a harness whose server has the robot, registered,
// and the players alice and bob.
func newRobotHarness(t *testing.T) *harness {
	t.Helper()
	h := newHarnessWith(t, Config{Settings: config.Settings{Robot: config.DefaultRobot}})
	if err := h.s.EnsureRobot(context.Background()); err != nil {
		t.Fatalf("EnsureRobot: %v", err)
	}
	h.register("alice", "bob")
	return h
}

// deliverChecked is deliver, failing the test when a mail went to the
// robot.
func (h *harness) deliverChecked() []received {
	h.t.Helper()
	mails := h.deliver()
	for _, m := range mails {
		if tell.IsRobotAddress(m.To) {
			h.t.Errorf("mail %q sent to the robot at %s", m.Subject, m.To)
		}
	}
	return mails
}

// robotStep runs one RobotStep of s and reports whether it played.
func (h *harness) robotStep(s *Server) bool {
	h.t.Helper()
	played, err := s.Robot().Step(context.Background())
	if err != nil {
		h.t.Fatalf("RobotStep: %v", err)
	}
	return played
}

// robotLevel is the level stored for a game.
func (h *harness) robotLevel(game int64) int {
	h.t.Helper()
	var level int
	h.inTx(func(ctx context.Context, tx *db.Tx) error {
		var err error
		level, err = tx.RobotLevel(ctx, game)
		return err
	})
	return level
}

func TestRobotLevels(t *testing.T) {
	// The parser's levels are the engine's.
	for _, n := range []int{parser.MinLevel, parser.MaxLevel} {
		if _, err := engine.LevelOf(n); err != nil {
			t.Errorf("engine.LevelOf(parser level %d): %v", n, err)
		}
	}
	if _, err := engine.LevelOf(robot.DefaultLevel); err != nil {
		t.Errorf("engine.LevelOf(robot.DefaultLevel): %v", err)
	}
}

func TestRobotChallenge(t *testing.T) {
	for _, c := range []struct {
		command string
		level   int      // 0: no game
		white   bool     // alice plays white
		want    []string // in alice's mail
		problem string   // in alice's answer, when no game starts
		toMove  string   // who is to move after the challenge
		status  db.Status
		// robotFirst: the robot plays white, and no mail goes out before
		// its first move.
		robotFirst bool
	}{
		{command: "challenge congo robot", level: robot.DefaultLevel, white: true, toMove: "alice",
			want: []string{"accepted the challenge: the game begins", "plays at level 3 of 5", "It is your move"}, status: db.Active},
		{command: "challenge congo robot level=1", level: 1, white: true, toMove: "alice",
			want: []string{"plays at level 1 of 5"}, status: db.Active},
		// The robot plays white: its first move's mail is the first.
		{command: "challenge congo ROBOT black level=2 days=5 unrated", level: 2, toMove: "alice", robotFirst: true,
			want: []string{"accepted the challenge: the game begins", "plays at level 2 of 5", "robot: ", "alice (black) to move",
				"days=5, unrated", "It is your move"}, status: db.Active},
		{command: "challenge congo bob level=2", problem: "bob is not the computer player"},
	} {
		t.Run(c.command, func(t *testing.T) {
			h := newRobotHarness(t)
			h.sendProven("alice", c.command)
			if c.robotFirst {
				if mails := h.deliverChecked(); len(mails) != 0 {
					t.Errorf("%q: %d mails before the robot moved, want none", c.command, len(mails))
				}
				h.robotStep(h.s)
			}
			m := only(t, h.deliverChecked(), "alice")
			if c.level == 0 {
				wantText(t, m, c.problem)
				h.inTx(func(ctx context.Context, tx *db.Tx) error {
					if _, err := tx.Game(ctx, 1); !errors.Is(err, db.ErrNotFound) {
						t.Errorf("%q started game 1 (%v), want no game", c.command, err)
					}
					return nil
				})
				return
			}
			wantText(t, m, c.want...)
			id := gameOf(t, m.asList())
			g := h.game(id)
			if g.Status != c.status || (g.White == h.player("alice").ID) != c.white {
				t.Errorf("%q: game %+v, want status %v, alice white %v", c.command, g, c.status, c.white)
			}
			if got := h.robotLevel(id); got != c.level {
				t.Errorf("%q: level %d, want %d", c.command, got, c.level)
			}
			if !strings.Contains(m.Text, ": "+c.toMove+" (") || !strings.Contains(m.Text, ") to move.") {
				t.Errorf("%q: body says not %s to move:\n%s", c.command, c.toMove, m.Text)
			}
		})
	}
}

// asList makes one mail a list, for gameOf.
func (r received) asList() []received { return []received{r} }

// TestRobotAnswers plays a few moves against the robot: no board mail
// until the robot answers, then one, with both moves, to the player and
// to an observer.
func TestRobotAnswers(t *testing.T) {
	h := newRobotHarness(t)
	h.sendProven("alice", "challenge congo robot level=1")
	start := only(t, h.deliverChecked(), "alice")
	id := gameOf(t, start.asList())
	h.sendProven("bob", fmt.Sprintf("observe congo %d", id))
	h.deliverChecked()
	if h.robotStep(h.s) {
		t.Fatalf("RobotStep played on alice's turn")
	}
	last := start
	for i, move := range []string{"b2-b3", "f2-f3", "a2-a3"} {
		h.reply(last, move)
		if mails := h.deliverChecked(); len(mails) != 0 {
			t.Fatalf("move %d: %d mails before the robot answered, want none: %v", i+1, len(mails), mails[0].Subject)
		}
		if !h.robotStep(h.s) {
			t.Fatalf("move %d: RobotStep did not play", i+1)
		}
		if h.robotStep(h.s) {
			t.Fatalf("move %d: RobotStep played twice", i+1)
		}
		mails := h.deliverChecked()
		last = only(t, mails, "alice")
		seen := only(t, mails, "bob")
		var moves []db.Move
		h.inTx(func(ctx context.Context, tx *db.Tx) error {
			var err error
			moves, err = tx.Moves(ctx, id)
			return err
		})
		if len(moves) != 2*(i+1) {
			t.Fatalf("move %d: %d moves recorded, want %d", i+1, len(moves), 2*(i+1))
		}
		reply := moves[len(moves)-1]
		// The robot's move is legal in the position before it.
		before, err := rules.ParsePosition(moves[len(moves)-2].Position)
		if err != nil {
			t.Fatal(err)
		}
		m, err := before.ParseMove(reply.Move)
		if err != nil || before.After(m).String() != reply.Position {
			t.Errorf("robot's move %s in %s: %v", reply.Move, before, err)
		}
		for _, got := range []received{last, seen} {
			wantText(t, got, "robot: "+reply.Move, "Position: "+reply.Position)
		}
		wantText(t, last, "It is your move")
		g := h.game(id)
		if g.Status != db.Active || g.Position != reply.Position {
			t.Errorf("move %d: game %+v, want active at %s", i+1, g, reply.Position)
		}
	}
}

// A crash between the player's move and the robot's answer loses
// nothing: a new server on the same database answers, once.
func TestRobotAfterCrash(t *testing.T) {
	h := newRobotHarness(t)
	h.sendProven("alice", "challenge congo robot level=1")
	start := only(t, h.deliverChecked(), "alice")
	h.reply(start, "c2-c3")
	// The old server is gone; a new one starts on the same database.
	restarted, err := New(Config{DB: h.db, Now: h.clock.Now, Logger: h.s.log, Settings: config.Settings{Address: ourAddress, Robot: config.DefaultRobot}})
	if err != nil {
		t.Fatal(err)
	}
	if err := restarted.EnsureRobot(context.Background()); err != nil {
		t.Fatalf("EnsureRobot again: %v", err)
	}
	if !h.robotStep(restarted) {
		t.Fatalf("RobotStep after the restart did not play")
	}
	if h.robotStep(restarted) || h.robotStep(h.s) {
		t.Fatalf("RobotStep played again")
	}
	m := only(t, h.deliverChecked(), "alice")
	wantText(t, m, "You: c2-c3", "robot: ")
	if mails := h.deliverChecked(); len(mails) != 0 {
		t.Errorf("%d more mails, want none", len(mails))
	}
}

// TestRobotRecheck: a move chosen for a position that changed meanwhile
// is not recorded.
func TestRobotRecheck(t *testing.T) {
	h := newRobotHarness(t)
	h.sendProven("alice", "challenge congo robot black level=1")
	h.deliverChecked() // none: the robot's first move comes first
	const id = 1
	var turn robot.Turn
	h.inTx(func(ctx context.Context, tx *db.Tx) error {
		me, err := tx.PlayerByHandle(ctx, config.DefaultRobot)
		if err != nil {
			return err
		}
		var found bool
		turn, found, err = robot.NextTurn(ctx, tx, me, nil, 0, h.s.log)
		if !found && err == nil {
			err = errors.New("no robot turn")
		}
		return err
	})
	d, err := robot.Choose(context.Background(), turn.Pos, turn.Level, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	h.sendProven("alice", fmt.Sprintf("resign congo %d", id)) // meanwhile
	h.deliverChecked()
	if err := h.s.Robot().Play(context.Background(), turn, d); err != nil {
		t.Fatalf("robotPlay: %v", err)
	}
	if mails := h.deliverChecked(); len(mails) != 0 {
		t.Errorf("robotPlay in a finished game sent %q", mails[0].Subject)
	}
	if g := h.game(id); g.Position != rules.StartPosition || g.Result != db.WhiteWins {
		t.Errorf("game %+v, want the start position, won by the robot", g)
	}
}

func TestRobotOffers(t *testing.T) {
	lost := -engine.ResignScore
	for _, c := range []struct {
		name    string
		score   int // the robot's last score; 1 for none
		command string
		want    []string
		status  db.Status
		result  db.Result
	}{
		{"draw declined", 1, "draw congo 1", []string{"robot declined the draw offer", "robot (white) to move"}, db.Active, db.NoResult},
		{"draw declined, even game", 0, "draw congo 1", []string{"robot declined the draw offer"}, db.Active, db.NoResult},
		{"draw accepted, lost game", lost, "draw congo 1", []string{"Draw by agreement"}, db.Finished, db.Draw},
		{"takeback", 1, "takeback congo 1", []string{"robot does not take moves back"}, db.Active, db.NoResult},
	} {
		t.Run(c.name, func(t *testing.T) {
			// The robot is to move, and its search of a move before
			// found c.score.
			h := newRobotHarness(t)
			h.sendProven("alice", "challenge congo robot black level=1")
			h.deliverChecked()
			if c.score != 1 {
				h.inTx(func(ctx context.Context, tx *db.Tx) error {
					return tx.AddRobotMove(ctx, db.RobotMove{Game: 1, Ply: 1, Score: c.score})
				})
			}
			h.sendProven("alice", c.command)
			wantText(t, only(t, h.deliverChecked(), "alice"), c.want...)
			g := h.game(1)
			if g.Status != c.status || g.Result != c.result || g.DrawOffer != 0 || g.Takeback != 0 {
				t.Errorf("%q: game %+v, want %v, result %v, no offer", c.command, g, c.status, c.result)
			}
		})
	}
}

// TestRobotResigns: after its third hopeless search in a row, the robot
// resigns, politely.
func TestRobotResigns(t *testing.T) {
	h := newRobotHarness(t)
	h.sendProven("alice", "challenge congo robot black level=2")
	h.deliverChecked() // none: the robot's first move comes first
	const id = 1
	// The robot (white) has its lion left, and lost twice already.
	h.inTx(func(ctx context.Context, tx *db.Tx) error {
		g, err := tx.Game(ctx, id)
		if err != nil {
			return err
		}
		g.Position = "gmelecz/ppppppp/7/7/7/7/3L3 w 3"
		if err := tx.UpdateGame(ctx, g, h.clock.Now()); err != nil {
			return err
		}
		for _, p := range []int{1, 3} {
			if err := tx.AddRobotMove(ctx, db.RobotMove{Game: id, Ply: p, Score: -engine.ResignScore - 500}); err != nil {
				return err
			}
		}
		return nil
	})
	if !h.robotStep(h.s) {
		t.Fatalf("RobotStep did not play")
	}
	m := only(t, h.deliverChecked(), "alice")
	wantText(t, m, "robot resigns", "Thank you for the game", "You win: robot resigned")
	if g := h.game(id); g.Status != db.Finished || g.Result != db.BlackWins || g.Reason != rules.Resigned {
		t.Errorf("game %+v, want won by black (alice), resigned", g)
	}
}

// TestRobotMail: the robot never gets mail and never sends commands, and
// without a robot its handle is nobody's.
func TestRobotMail(t *testing.T) {
	h := newRobotHarness(t)
	forged := h.mail("alice", "", "challenge congo alice")
	forged.From = tell.RobotAddress("robot")
	h.handle(forged)
	if mails := h.deliverChecked(); len(mails) != 0 {
		t.Errorf("a mail from the robot's address was answered: %q", mails[0].Subject)
	}
	h.sendProven("alice", "help")
	wantText(t, only(t, h.deliverChecked(), "alice"), "challenge congo robot level=1")

	off := newHarness(t)
	off.register("alice")
	off.sendProven("alice", "challenge congo robot")
	wantText(t, only(t, off.deliverChecked(), "alice"), "No player has the handle robot")
	off.sendProven("alice", "help")
	wantNoText(t, only(t, off.deliverChecked(), "alice"), "challenge congo robot")
}

// TestRunRobot: the loop answers a move by itself, woken by the mail.
func TestRunRobot(t *testing.T) {
	h := newRobotHarness(t)
	h.sendProven("alice", "challenge congo robot black level=1")
	h.deliverChecked()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.s.Robot().Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("RunRobot = %v, want context.Canceled", err)
		}
	}()
	first := h.waitMail("alice") // the robot's first move, found at start
	wantText(t, first, "robot: ", "It is your move")
	h.reply(first, "b6-b5")
	wantText(t, h.waitMail("alice"), "You: b6-b5", "robot: ")
}

// waitMail waits for the one mail to a player.
func (h *harness) waitMail(handle string) received {
	h.t.Helper()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	timeout := time.After(20 * time.Second)
	for {
		if mails := h.deliverChecked(); len(mails) > 0 {
			return only(h.t, mails, handle)
		}
		select {
		case <-tick.C:
		case <-timeout:
			h.t.Fatalf("no mail to %s", handle)
		}
	}
}

func TestEnsureRobot(t *testing.T) {
	h := newRobotHarness(t)
	if err := h.s.EnsureRobot(context.Background()); err != nil {
		t.Errorf("EnsureRobot again: %v", err)
	}
	if p := h.player("robot"); !h.s.tell.IsRobot(p) {
		t.Errorf("robot registered as %+v", p)
	}
	// A player holding the handle already: the robot cannot have it.
	taken := newHarness(t)
	taken.register("robot")
	s, err := New(Config{DB: taken.db, Now: taken.clock.Now, Logger: taken.s.log, Settings: config.Settings{Address: ourAddress, Robot: "robot"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.EnsureRobot(context.Background()); err == nil {
		t.Errorf("EnsureRobot with the handle taken succeeded, want an error")
	}
	if _, err := New(Config{DB: taken.db, Settings: config.Settings{Address: ourAddress, Robot: "no such handle"}}); err == nil {
		t.Errorf("New with a bad robot handle succeeded, want an error")
	}
}

// TestRobotTimeOut: a turn found after the robot's time ran out (the
// daemon was down) loses on time, and the mail shows the player's move.
func TestRobotTimeOut(t *testing.T) {
	h := newRobotHarness(t)
	h.sendProven("alice", "challenge congo robot level=1 days=1")
	start := only(t, h.deliverChecked(), "alice")
	h.reply(start, "b2-b3")
	h.clock.Advance(25 * time.Hour)
	h.robotStep(h.s)
	m := only(t, h.deliverChecked(), "alice")
	wantText(t, m, "You: b2-b3", "You win: robot ran out of time")
}

// TestRobotFirstMoveReachesEveryone: the robot's first move, as white,
// is the challenger's first mail of the game, so it goes out even to a
// player who asked for no mail per move.
func TestRobotFirstMoveReachesEveryone(t *testing.T) {
	for _, notify := range []string{"off", "digest"} {
		t.Run(notify, func(t *testing.T) {
			h := newRobotHarness(t)
			h.sendProven("alice", "notify "+notify)
			h.deliverChecked()
			h.sendProven("alice", "challenge congo robot black level=1")
			h.robotStep(h.s)
			wantText(t, only(t, h.deliverChecked(), "alice"), "accepted the challenge: the game begins", "robot: ", "It is your move")
		})
	}
}
