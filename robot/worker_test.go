package robot_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/config"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/engine"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/robot"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
	"github.com/congobymail/congo/tell"
)

// newRobotWorld is a World whose server has the robot, registered,
// and the players alice and bob.
func newRobotWorld(t *testing.T) *servertest.World {
	t.Helper()
	w := servertest.New(t, server.Config{Settings: config.Settings{Robot: config.DefaultRobot}})
	if err := w.Server.EnsureRobot(context.Background()); err != nil {
		t.Fatalf("EnsureRobot: %v", err)
	}
	w.Register("alice", "bob")
	return w
}

// robotLevel is the level stored for a game.
func robotLevel(t *testing.T, w *servertest.World, game int64) int {
	t.Helper()
	var level int
	w.InTx(func(ctx context.Context, tx *db.Tx) error {
		var err error
		level, err = tx.RobotLevel(ctx, game)
		return err
	})
	return level
}

func TestRobotLevels(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
			t.Parallel()
			w := newRobotWorld(t)
			w.SendProven("alice", c.command)
			if c.robotFirst {
				if mails := w.DeliverChecked(); len(mails) != 0 {
					t.Errorf("%q: %d mails before the robot moved, want none", c.command, len(mails))
				}
				servertest.RobotStep(t, w.Server)
			}
			m := servertest.Only(t, w.DeliverChecked(), "alice")
			if c.level == 0 {
				servertest.WantText(t, m, c.problem)
				w.InTx(func(ctx context.Context, tx *db.Tx) error {
					if _, err := tx.Game(ctx, 1); !errors.Is(err, db.ErrNotFound) {
						t.Errorf("%q started game 1 (%v), want no game", c.command, err)
					}
					return nil
				})
				return
			}
			servertest.WantText(t, m, c.want...)
			id := servertest.GameOf(t, []servertest.Received{m})
			g := w.Game(id)
			if g.Status != c.status || (g.White == w.Player("alice").ID) != c.white {
				t.Errorf("%q: game %+v, want status %v, alice white %v", c.command, g, c.status, c.white)
			}
			if got := robotLevel(t, w, id); got != c.level {
				t.Errorf("%q: level %d, want %d", c.command, got, c.level)
			}
			if !strings.Contains(m.Text, ": "+c.toMove+" (") || !strings.Contains(m.Text, ") to move.") {
				t.Errorf("%q: body says not %s to move:\n%s", c.command, c.toMove, m.Text)
			}
		})
	}
}

// TestRobotAnswers plays a few moves against the robot: no board mail
// until the robot answers, then one, with both moves, to the player and
// to an observer.
func TestRobotAnswers(t *testing.T) {
	t.Parallel()
	w := newRobotWorld(t)
	w.SendProven("alice", "challenge congo robot level=1")
	start := servertest.Only(t, w.DeliverChecked(), "alice")
	id := servertest.GameOf(t, []servertest.Received{start})
	w.SendProven("bob", fmt.Sprintf("observe congo %d", id))
	w.DeliverChecked()
	if servertest.RobotStep(t, w.Server) {
		t.Fatalf("RobotStep played on alice's turn")
	}
	last := start
	for i, move := range []string{"b2-b3", "f2-f3", "a2-a3"} {
		w.Reply(last, move)
		if mails := w.DeliverChecked(); len(mails) != 0 {
			t.Fatalf("move %d: %d mails before the robot answered, want none: %v", i+1, len(mails), mails[0].Subject)
		}
		if !servertest.RobotStep(t, w.Server) {
			t.Fatalf("move %d: RobotStep did not play", i+1)
		}
		if servertest.RobotStep(t, w.Server) {
			t.Fatalf("move %d: RobotStep played twice", i+1)
		}
		mails := w.DeliverChecked()
		last = servertest.Only(t, mails, "alice")
		seen := servertest.Only(t, mails, "bob")
		var moves []db.Move
		w.InTx(func(ctx context.Context, tx *db.Tx) error {
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
		for _, got := range []servertest.Received{last, seen} {
			servertest.WantText(t, got, "robot: "+reply.Move, "Position: "+reply.Position)
		}
		servertest.WantText(t, last, "It is your move")
		g := w.Game(id)
		if g.Status != db.Active || g.Position != reply.Position {
			t.Errorf("move %d: game %+v, want active at %s", i+1, g, reply.Position)
		}
	}
}

// A crash between the player's move and the robot's answer loses
// nothing: a new server on the same database answers, once.
func TestRobotAfterCrash(t *testing.T) {
	t.Parallel()
	w := newRobotWorld(t)
	w.SendProven("alice", "challenge congo robot level=1")
	start := servertest.Only(t, w.DeliverChecked(), "alice")
	w.Reply(start, "c2-c3")
	// The old server is gone; a new one starts on the same database.
	restarted, err := server.New(server.Config{DB: w.DB, Now: w.Clock.Now, Logger: w.Logger, Settings: config.Settings{Address: servertest.ServerAddress, Robot: config.DefaultRobot}})
	if err != nil {
		t.Fatal(err)
	}
	if err := restarted.EnsureRobot(context.Background()); err != nil {
		t.Fatalf("EnsureRobot again: %v", err)
	}
	if !servertest.RobotStep(t, restarted) {
		t.Fatalf("RobotStep after the restart did not play")
	}
	if servertest.RobotStep(t, restarted) || servertest.RobotStep(t, w.Server) {
		t.Fatalf("RobotStep played again")
	}
	m := servertest.Only(t, w.DeliverChecked(), "alice")
	servertest.WantText(t, m, "You: c2-c3", "robot: ")
	if mails := w.DeliverChecked(); len(mails) != 0 {
		t.Errorf("%d more mails, want none", len(mails))
	}
}

// TestRobotRecheck: a move chosen for a position that changed meanwhile
// is not recorded.
func TestRobotRecheck(t *testing.T) {
	t.Parallel()
	w := newRobotWorld(t)
	w.SendProven("alice", "challenge congo robot black level=1")
	w.DeliverChecked() // none: the robot's first move comes first
	const id = 1
	var turn robot.Turn
	w.InTx(func(ctx context.Context, tx *db.Tx) error {
		me, err := tx.PlayerByHandle(ctx, config.DefaultRobot)
		if err != nil {
			return err
		}
		var found bool
		turn, found, err = robot.NextTurn(ctx, tx, me, nil, 0, w.Logger)
		if !found && err == nil {
			err = errors.New("no robot turn")
		}
		return err
	})
	d, err := robot.Choose(context.Background(), turn.Pos, turn.Level, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.SendProven("alice", fmt.Sprintf("resign congo %d", id)) // meanwhile
	w.DeliverChecked()
	if err := w.Server.Robot().Play(context.Background(), turn, d); err != nil {
		t.Fatalf("robotPlay: %v", err)
	}
	if mails := w.DeliverChecked(); len(mails) != 0 {
		t.Errorf("robotPlay in a finished game sent %q", mails[0].Subject)
	}
	if g := w.Game(id); g.Position != rules.StartPosition || g.Result != db.WhiteWins {
		t.Errorf("game %+v, want the start position, won by the robot", g)
	}
}

func TestRobotOffers(t *testing.T) {
	t.Parallel()
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
			t.Parallel()
			// The robot is to move, and its search of a move before
			// found c.score.
			w := newRobotWorld(t)
			w.SendProven("alice", "challenge congo robot black level=1")
			w.DeliverChecked()
			if c.score != 1 {
				w.InTx(func(ctx context.Context, tx *db.Tx) error {
					return tx.AddRobotMove(ctx, db.RobotMove{Game: 1, Ply: 1, Score: c.score})
				})
			}
			w.SendProven("alice", c.command)
			servertest.WantText(t, servertest.Only(t, w.DeliverChecked(), "alice"), c.want...)
			g := w.Game(1)
			if g.Status != c.status || g.Result != c.result || g.DrawOffer != 0 || g.Takeback != 0 {
				t.Errorf("%q: game %+v, want %v, result %v, no offer", c.command, g, c.status, c.result)
			}
		})
	}
}

// TestRobotResigns: after its third hopeless search in a row, the robot
// resigns, politely.
func TestRobotResigns(t *testing.T) {
	t.Parallel()
	w := newRobotWorld(t)
	w.SendProven("alice", "challenge congo robot black level=2")
	w.DeliverChecked() // none: the robot's first move comes first
	const id = 1
	// The robot (white) has its lion left, and lost twice already.
	w.InTx(func(ctx context.Context, tx *db.Tx) error {
		g, err := tx.Game(ctx, id)
		if err != nil {
			return err
		}
		g.Position = "gmelecz/ppppppp/7/7/7/7/3L3 w 3"
		if err := tx.SetGame(ctx, g, w.Clock.Now()); err != nil {
			return err
		}
		for _, p := range []int{1, 3} {
			if err := tx.AddRobotMove(ctx, db.RobotMove{Game: id, Ply: p, Score: -engine.ResignScore - 500}); err != nil {
				return err
			}
		}
		return nil
	})
	if !servertest.RobotStep(t, w.Server) {
		t.Fatalf("RobotStep did not play")
	}
	m := servertest.Only(t, w.DeliverChecked(), "alice")
	servertest.WantText(t, m, "robot resigns", "Thank you for the game", "You win: robot resigned")
	if g := w.Game(id); g.Status != db.Finished || g.Result != db.BlackWins || g.Reason != rules.Resigned {
		t.Errorf("game %+v, want won by black (alice), resigned", g)
	}
}

// TestRobotMail: the robot never gets mail and never sends commands, and
// without a robot its handle is nobody's.
func TestRobotMail(t *testing.T) {
	t.Parallel()
	w := newRobotWorld(t)
	forged := w.Mail("alice", "", "challenge congo alice")
	forged.From = tell.RobotAddress("robot")
	w.Process(forged)
	if mails := w.DeliverChecked(); len(mails) != 0 {
		t.Errorf("a mail from the robot's address was answered: %q", mails[0].Subject)
	}
	w.SendProven("alice", "help")
	servertest.WantText(t, servertest.Only(t, w.DeliverChecked(), "alice"), "challenge congo robot level=1")

	off := servertest.New(t, server.Config{})
	off.Register("alice")
	off.SendProven("alice", "challenge congo robot")
	servertest.WantText(t, servertest.Only(t, off.DeliverChecked(), "alice"), "No player has the handle robot")
	off.SendProven("alice", "help")
	servertest.WantNoText(t, servertest.Only(t, off.DeliverChecked(), "alice"), "challenge congo robot")
}

// TestRunRobot: the loop answers a move by itself, woken by the mail.
func TestRunRobot(t *testing.T) {
	t.Parallel()
	w := newRobotWorld(t)
	w.SendProven("alice", "challenge congo robot black level=1")
	w.DeliverChecked()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Server.Robot().Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("RunRobot = %v, want context.Canceled", err)
		}
	}()
	first := w.WaitMail("alice") // the robot's first move, found at start
	servertest.WantText(t, first, "robot: ", "It is your move")
	w.Reply(first, "b6-b5")
	servertest.WantText(t, w.WaitMail("alice"), "You: b6-b5", "robot: ")
}

func TestEnsureRobot(t *testing.T) {
	t.Parallel()
	w := newRobotWorld(t)
	if err := w.Server.EnsureRobot(context.Background()); err != nil {
		t.Errorf("EnsureRobot again: %v", err)
	}
	if p := w.Player("robot"); p.Address != tell.RobotAddress(config.DefaultRobot) {
		t.Errorf("robot registered as %+v", p)
	}
	// A player holding the handle already: the robot cannot have it.
	taken := servertest.New(t, server.Config{})
	taken.Register("robot")
	s, err := server.New(server.Config{DB: taken.DB, Now: taken.Clock.Now, Logger: taken.Logger, Settings: config.Settings{Address: servertest.ServerAddress, Robot: "robot"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.EnsureRobot(context.Background()); err == nil {
		t.Errorf("EnsureRobot with the handle taken succeeded, want an error")
	}
	if _, err := server.New(server.Config{DB: taken.DB, Settings: config.Settings{Address: servertest.ServerAddress, Robot: "no such handle"}}); err == nil {
		t.Errorf("New with a bad robot handle succeeded, want an error")
	}
}

// TestRobotTimeOut: a turn found after the robot's time ran out (the
// daemon was down) loses on time, and the mail shows the player's move.
func TestRobotTimeOut(t *testing.T) {
	t.Parallel()
	w := newRobotWorld(t)
	w.SendProven("alice", "challenge congo robot level=1 days=1")
	start := servertest.Only(t, w.DeliverChecked(), "alice")
	w.Reply(start, "b2-b3")
	w.Clock.Advance(25 * time.Hour)
	servertest.RobotStep(t, w.Server)
	m := servertest.Only(t, w.DeliverChecked(), "alice")
	servertest.WantText(t, m, "You: b2-b3", "You win: robot ran out of time")
}

// TestRobotFirstMoveReachesEveryone: the robot's first move, as white,
// is the challenger's first mail of the game, so it goes out even to a
// player who asked for no mail per move.
func TestRobotFirstMoveReachesEveryone(t *testing.T) {
	t.Parallel()
	for _, notify := range []string{"off", "digest"} {
		t.Run(notify, func(t *testing.T) {
			t.Parallel()
			w := newRobotWorld(t)
			w.SendProven("alice", "notify "+notify)
			w.DeliverChecked()
			w.SendProven("alice", "challenge congo robot black level=1")
			servertest.RobotStep(t, w.Server)
			servertest.WantText(t, servertest.Only(t, w.DeliverChecked(), "alice"), "accepted the challenge: the game begins", "robot: ", "It is your move")
		})
	}
}

// TestRobotDrawByRepetition: the robot accepts a draw offer when a
// position of the game has occurred three times and it is not ahead.
func TestRobotDrawByRepetition(t *testing.T) {
	t.Parallel()
	w := newRobotWorld(t)
	w.SendProven("alice", "challenge congo robot level=1") // alice white
	w.DeliverChecked()
	// Both zebras go out and back twice: the start position a third time.
	w.InTx(func(ctx context.Context, tx *db.Tx) error {
		p := rules.Start()
		cycle := strings.Fields("g1-f3 g7-f5 f3-g1 f5-g7")
		for i, m := range append(cycle, cycle...) {
			next, _, err := p.Play(m)
			if err != nil {
				return err
			}
			p = next
			if err := tx.AddMove(ctx, db.Move{Game: 1, Ply: i + 1, Move: m, Position: p.String(), At: w.Clock.Now()}); err != nil {
				return err
			}
		}
		g, err := tx.Game(ctx, 1)
		if err != nil {
			return err
		}
		g.Position = p.String()
		return tx.SetGame(ctx, g, w.Clock.Now())
	})
	w.SendProven("alice", "draw congo 1")
	servertest.WantWords(t, servertest.Only(t, w.DeliverChecked(), "alice"), "Draw by agreement")
	if g := w.Game(1); g.Status != db.Finished || g.Result != db.Draw {
		t.Errorf("game after the draw offer: %+v, want a draw", g)
	}
}

// TestRobotNeverGuarded: the lion guard (M61) keeps back players' moves
// by mail, never the robot's: where every move it has lets alice take
// its lion, it plays one, and alice takes it.
func TestRobotNeverGuarded(t *testing.T) {
	t.Parallel()
	w := newRobotWorld(t)
	w.SendProven("alice", "challenge congo robot black level=1")
	w.DeliverChecked() // none: the robot's first move comes first
	const id = 1
	// The robot's lion on d1 must move, and each square it can go to
	// is a zebra's: b3 covers c1 and d2, f3 e1 and d2, d4 c2 and e2.
	w.InTx(func(ctx context.Context, tx *db.Tx) error {
		g, err := tx.Game(ctx, id)
		if err != nil {
			return err
		}
		g.Position = "3l3/7/7/3z3/1z3z1/7/3L3 w 5"
		return tx.SetGame(ctx, g, w.Clock.Now())
	})
	if !servertest.RobotStep(t, w.Server) {
		t.Fatalf("RobotStep did not play where every move exposes the robot's lion")
	}
	m := servertest.Only(t, w.DeliverChecked(), "alice")
	servertest.WantWords(t, m, "robot: d1-", "the lion moved to", "It is your move")
	pos, err := rules.ParsePosition(w.Game(id).Position)
	if err != nil {
		t.Fatal(err)
	}
	captures := pos.LionCaptures()
	if len(captures) == 0 {
		t.Fatalf("after the robot's move %q, alice cannot take its lion", pos)
	}
	w.SendProven("alice", fmt.Sprintf("move congo %d %s", id, captures[0]))
	servertest.WantWords(t, servertest.Only(t, w.DeliverChecked(), "alice"), "You win: robot's lion was captured.")
}

// TestRobotGamesUnrated (M60): a game against the robot is unrated
// unless its challenge says rated.
func TestRobotGamesUnrated(t *testing.T) {
	t.Parallel()
	w := newRobotWorld(t)
	for _, c := range []struct {
		command string
		rated   bool
		terms   string
	}{
		{"challenge congo robot level=1", false, "(days=3, unrated)"},
		{"challenge congo robot rated level=1", true, "(days=3):"},
		{"challenge congo robot level=1 unrated", false, "(days=3, unrated)"},
	} {
		w.SendProven("alice", c.command)
		m := servertest.Only(t, w.DeliverChecked(), "alice")
		servertest.WantText(t, m, "Time left "+c.terms)
		if g := w.Game(servertest.GameOf(t, []servertest.Received{m})); g.Rated != c.rated {
			t.Errorf("%q: game rated %v, want %v", c.command, g.Rated, c.rated)
		}
	}
	w.SendProven("alice", "challenge congo robot rated unrated")
	servertest.WantWords(t, servertest.Only(t, w.DeliverChecked(), "alice"), "a game is rated or unrated, not both")
}
