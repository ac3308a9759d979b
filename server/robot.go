package server

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/robot"
	"github.com/congobymail/congo/templates"
)

const (
	// robotRescan bounds the robot loop's sleep, so that it looks again
	// now and then even when no mail wakes it.
	robotRescan = 10 * time.Minute
	// robotRetry is the wait after the robot loop failed.
	robotRetry = time.Minute
)

// isRobot reports whether p is the robot player, and the robot plays.
func (s *Server) isRobot(p db.Player) bool {
	return s.robot != "" && p.Address == robot.Address(s.robot)
}

// EnsureRobot registers the robot player, unless it is registered
// already or there is none (Config.Robot). A player of another address
// holding the robot's handle is an error.
func (s *Server) EnsureRobot(ctx context.Context) error {
	if s.robot == "" {
		return nil
	}
	return s.db.Tx(ctx, func(tx *db.Tx) error {
		p, err := tx.PlayerByHandle(ctx, s.robot)
		switch {
		case err == nil && s.isRobot(p):
			return nil
		case err == nil:
			return fmt.Errorf("robot: the handle %q belongs to the player at %s: choose another robot handle", p.Handle, p.Address)
		case !errors.Is(err, db.ErrNotFound):
			return err
		}
		// The secret is never told: nobody may send the robot's commands.
		secret, err := s.newSecret()
		if err != nil {
			return err
		}
		p, err = tx.CreatePlayer(ctx, s.robot, robot.Address(s.robot), secret, s.now().UTC())
		if err != nil {
			return fmt.Errorf("robot: %w", err)
		}
		if err := tx.ConfirmPlayer(ctx, p.ID); err != nil {
			return fmt.Errorf("robot: %w", err)
		}
		s.log.Info("robot registered", "handle", p.Handle)
		return nil
	})
}

// wakeRobot tells the robot loop to look for its turns, without waiting.
func (s *Server) wakeRobot() {
	select {
	case s.robotWake <- struct{}{}:
	default:
	}
}

// RunRobot plays the robot's moves, and makes the analyses players ask
// for (M49), until ctx is done, and then returns ctx.Err(). It registers
// the robot, then plays every game where the robot is to move, one at a
// time, whenever a mail was handled, and now and then besides, so that a
// turn left by a crash is played at the start. Between the robot's turns
// it makes the analyses waiting in the queue, oldest first, one at a
// time: a robot turn always comes first, and stops an analysis under way
// (which is made again after it). Without a robot it makes the analyses
// alone.
func (s *Server) RunRobot(ctx context.Context) error {
	if err := s.EnsureRobot(ctx); err != nil {
		return err
	}
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
		case <-s.robotWake:
		}
		// A game that fails is left for the next round, so that it
		// does not hold up the others.
		wait := robotRescan
		failed := map[int64]bool{}
		for {
			if s.robotTurns(ctx, failed) {
				wait = robotRetry
			}
			more, err := s.analyseNext(ctx)
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if err != nil {
				s.log.Error("analysis", "err", err)
				wait = robotRetry
				break
			}
			if !more {
				break
			}
		}
		timer.Reset(wait) // Go 1.23 timers: no stale tick
	}
}

// robotTurns plays the robot's turns until none is left but in the games
// of failed, to which it adds those that fail; it reports whether one
// failed. It returns early when ctx ends.
func (s *Server) robotTurns(ctx context.Context, failed map[int64]bool) (anyFailed bool) {
	for {
		game, err := s.robotStep(ctx, failed)
		if err != nil && ctx.Err() != nil {
			return anyFailed
		}
		if err != nil {
			s.log.Error("robot", "game", game, "err", err)
			anyFailed = true
			if game == 0 {
				return anyFailed
			}
			failed[game] = true
			continue
		}
		if game == 0 {
			return anyFailed
		}
	}
}

// RobotStep plays the robot's turn in one game where it is to move, if
// there is one, and reports whether it did. The move is chosen outside
// any transaction; then, in one, the game is checked to be as it was and
// the move is recorded like any player's, with the board mail to the
// opponent showing both the opponent's last move and the answer.
func (s *Server) RobotStep(ctx context.Context) (bool, error) {
	game, err := s.robotStep(ctx, nil)
	return game != 0, err
}

// robotStep is RobotStep, leaving out the games in skip. It returns the
// game it played in, or failed in; 0 for none.
func (s *Server) robotStep(ctx context.Context, skip map[int64]bool) (int64, error) {
	if s.robot == "" {
		return 0, nil
	}
	var (
		turn  robot.Turn
		found bool
	)
	err := s.db.Tx(ctx, func(tx *db.Tx) error {
		me, err := tx.PlayerByHandle(ctx, s.robot)
		if errors.Is(err, db.ErrNotFound) || err == nil && !s.isRobot(me) {
			return nil
		}
		if err != nil {
			return err
		}
		turn, found, err = robot.NextTurn(ctx, tx, me, skip, s.log)
		return err
	})
	if err != nil || !found {
		return 0, err
	}
	began := s.now()
	d, err := turn.Choose(ctx)
	if err != nil {
		return turn.Game, fmt.Errorf("robot in game %d: %w", turn.Game, err)
	}
	took := s.now().Sub(began)
	if d.TimedOut {
		// The level's node limit should decide (M51's determinism holds
		// for the robot too): the machine is far too slow or loaded.
		s.log.Warn("robot move stopped by the time cap", "game", turn.Game, "level", turn.Level,
			"depth", d.Depth, "nodes", d.Nodes, "took", took)
	}
	if s.metrics != nil {
		s.metrics.RobotMoved(RobotMoved{Game: turn.Game, Level: turn.Level, Duration: took, TimedOut: d.TimedOut})
	}
	if err := ctx.Err(); err != nil {
		return turn.Game, err // cut short by shutdown: the turn is played after the restart
	}
	return turn.Game, s.robotPlay(ctx, turn, d)
}

// robotPlay records the robot's decision in its turn, unless the game
// changed meanwhile or was adjourned.
func (s *Server) robotPlay(ctx context.Context, turn robot.Turn, d robot.Decision) error {
	now := s.now().UTC()
	var (
		queued int
		notes  []string
	)
	err := s.db.Tx(ctx, func(tx *db.Tx) error {
		w := s.newWork(tx, now)
		st, err := game.Load(ctx, tx, turn.Game, now)
		if err != nil {
			return err
		}
		me := st.ToMove()
		if !st.Active() || st.Game.Position != turn.Position || !s.isRobot(me) {
			return nil // the game went on without the robot: its turn is looked for again
		}
		if st.Game.IsAdjourned() {
			return nil // adjourned while the robot thought: it plays when the game is resumed
		}
		// The mail shows the opponent's last move too: its mail waited
		// for this turn.
		if eff, by, ok, err := game.LastMove(ctx, tx, &st); err != nil {
			return err
		} else if ok {
			w.earlier = []templates.Move{templates.MoveOf(by.Handle, eff)}
		}
		if game.Ply(st.Pos) == 1 { // the game's first move
			w.opening = turn.Level
		}
		var evs []game.Event
		if evs, err = game.CheckTime(ctx, tx, &st); err == nil && len(evs) == 0 {
			evs, err = w.robotMove(ctx, &st, me, d)
		}
		if err != nil {
			return err
		}
		if err = w.tell(ctx, evs, nil); err == nil {
			err = w.flush(ctx)
		}
		queued, notes = w.queued, w.notes
		return err
	})
	if err != nil {
		return fmt.Errorf("robot in game %d: %w", turn.Game, err)
	}
	s.log.Info("robot played", "game", turn.Game, "level", turn.Level, "score", d.Score, "depth", d.Depth,
		"nodes", d.Nodes, "timed_out", d.TimedOut, "queued", queued, "summary", strings.Join(notes, "; "))
	if queued > 0 {
		s.outbox.Wake()
	}
	s.wakeClock()
	return nil
}

// robotMove plays the robot's move, or resigns, in its turn in st.
func (w *work) robotMove(ctx context.Context, st *game.State, me db.Player, d robot.Decision) ([]game.Event, error) {
	if d.Resign {
		return game.Resign(ctx, w.tx, st, me)
	}
	m, err := st.Pos.ParseMove(d.Move.String())
	if err != nil {
		return nil, fmt.Errorf("robot chose %v: %w", d.Move, err)
	}
	err = w.tx.AddRobotMove(ctx, db.RobotMove{Game: st.ID(), Ply: game.Ply(st.Pos), Score: d.Score, Depth: d.Depth, Nodes: d.Nodes})
	if err != nil {
		return nil, err
	}
	return game.Play(ctx, w.tx, st, me, m, "")
}

// robotDraw answers a draw offer to the robot, me, in st at once:
// accepted when the robot's last search found its position clearly lost,
// or when a position of the game has occurred three times and the robot
// is not ahead (robot.AcceptsDraw); declined otherwise.
func (h *handling) robotDraw(ctx context.Context, st *game.State, me db.Player) ([]game.Event, error) {
	scores, err := h.tx.RobotScores(ctx, st.ID())
	if err != nil {
		return nil, err
	}
	before, err := robot.GameHistory(ctx, h.tx, st.ID())
	if err != nil {
		return nil, err
	}
	if robot.AcceptsDraw(st.Pos, before, scores) {
		return game.AgreeDraw(ctx, h.tx, st, me)
	}
	return game.DeclineDraw(ctx, h.tx, st, me)
}
