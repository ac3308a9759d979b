package robot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/engine"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/tell"
	"github.com/congobymail/congo/templates"
)

const (
	// rescan bounds the worker's sleep, so that it looks again now and
	// then even when nothing wakes it.
	rescan = 10 * time.Minute
	// retry is the wait after the worker failed.
	retry = time.Minute
)

// Moved tells the Metrics about one move the robot chose.
type Moved struct {
	Game     int64
	Level    int
	Duration time.Duration // the search's, by the worker's clock
	// TimedOut is set when the time cap (engine.SafetyTime) stopped the
	// search before the level's node limit: the move may differ from
	// machine to machine. It should not happen.
	TimedOut bool
}

// Metrics is told about each move the robot chose. Its method must not
// block.
type Metrics interface {
	RobotMoved(Moved)
}

// Analyses are what the worker does while no robot turn waits: the
// analyses players ask for (package analyst). Next makes the next one,
// giving way to a robot turn, and reports whether there was one.
type Analyses interface {
	Next(ctx context.Context) (bool, error)
}

// Worker plays the robot's moves by mail, and between them makes the
// analyses waiting (Analyses).
type Worker struct {
	db     *db.DB
	tell   *tell.Teller
	handle string // the robot's handle; "" for none
	now    func() time.Time
	log    *slog.Logger
	wake   chan struct{}
	// last is the player the robot last played, for the turns' order
	// (Pick).
	last atomic.Int64

	// Metrics, when set, is told about each move; Analyses, when set,
	// are made between the turns; AfterMove, when set, is called after
	// each move the robot recorded (the clock has a new deadline).
	Metrics   Metrics
	Analyses  Analyses
	AfterMove func()
	// Tables, when set, are the endgame tables levels 4 and 5 play by
	// (M77).
	Tables engine.Tables
}

// NewWorker returns the worker of the robot of t (tell.Teller.Robot) in
// the games of store, reading the time from now.
func NewWorker(store *db.DB, t *tell.Teller, now func() time.Time) *Worker {
	return &Worker{db: store, tell: t, handle: t.Robot(), now: now, log: t.Log(), wake: make(chan struct{}, 1)}
}

// Wake tells the worker to look for the robot's turns, without waiting.
func (r *Worker) Wake() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Woken is the channel Wake signals, for an analysis under way to watch.
func (r *Worker) Woken() <-chan struct{} { return r.wake }

// Ensure registers the robot player, unless it is registered already or
// there is none. A player of another address holding the robot's handle
// is an error. newSecret makes the secret of its personal address, which
// is never told: nobody may send the robot's commands.
func (r *Worker) Ensure(ctx context.Context, newSecret func() (string, error)) error {
	if r.handle == "" {
		return nil
	}
	return r.db.Tx(ctx, func(tx *db.Tx) error {
		p, err := tx.PlayerByHandle(ctx, r.handle)
		switch {
		case err == nil && r.tell.IsRobot(p):
			return nil
		case err == nil:
			return fmt.Errorf("robot: the handle %q belongs to the player at %s: choose another robot handle", p.Handle, p.Address)
		case !errors.Is(err, db.ErrNotFound):
			return err
		}
		secret, err := newSecret()
		if err != nil {
			return err
		}
		p, err = tx.AddPlayer(ctx, r.handle, tell.RobotAddress(r.handle), secret, r.now().UTC())
		if err != nil {
			return fmt.Errorf("robot: %w", err)
		}
		if err := tx.SetConfirmed(ctx, p.ID); err != nil {
			return fmt.Errorf("robot: %w", err)
		}
		r.log.Info("robot registered", "handle", p.Handle)
		return nil
	})
}

// Run plays the robot's moves, and makes the analyses players ask for
// (M49), until ctx is done, and then returns ctx.Err(). It plays every
// game where the robot is to move, one at a time, whenever it is woken,
// and now and then besides, so that a turn left by a crash is played at
// the start. Between the robot's turns it makes the analyses: a robot
// turn always comes first.
func (r *Worker) Run(ctx context.Context) error {
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
		case <-r.wake:
		}
		// A game that fails is left for the next round, so that it
		// does not hold up the others.
		wait := rescan
		failed := map[int64]bool{}
		for {
			if r.turns(ctx, failed) {
				wait = retry
			}
			if r.Analyses == nil {
				break
			}
			more, err := r.Analyses.Next(ctx)
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if err != nil {
				r.log.Error("analysis", "err", err)
				wait = retry
				break
			}
			if !more {
				break
			}
		}
		timer.Reset(wait) // Go 1.23 timers: no stale tick
	}
}

// turns plays the robot's turns until none is left but in the games of
// failed, to which it adds those that fail; it reports whether one
// failed. It returns early when ctx ends.
func (r *Worker) turns(ctx context.Context, failed map[int64]bool) (anyFailed bool) {
	for {
		game, err := r.step(ctx, failed)
		if err != nil && ctx.Err() != nil {
			return anyFailed
		}
		if err != nil {
			r.log.Error("robot", "game", game, "err", err)
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

// Step plays the robot's turn in one game where it is to move, if there
// is one, and reports whether it did: the players' turns in turn (Pick). The move is chosen outside any
// transaction; then, in one, the game is checked to be as it was and the
// move is recorded like any player's, with the board mail to the
// opponent showing both the opponent's last move and the answer.
func (r *Worker) Step(ctx context.Context) (bool, error) {
	game, err := r.step(ctx, nil)
	return game != 0, err
}

// TurnWaits reports whether the robot is to move in a game. An error
// reads as no, and is logged.
func (r *Worker) TurnWaits(ctx context.Context) bool {
	_, found, err := r.next(ctx, nil)
	if err != nil && ctx.Err() == nil {
		r.log.Warn("could not look for a robot turn", "err", err)
	}
	return found
}

// next finds the robot's next turn, leaving out the games in skip.
func (r *Worker) next(ctx context.Context, skip map[int64]bool) (turn Turn, found bool, err error) {
	if r.handle == "" {
		return Turn{}, false, nil
	}
	err = r.db.Tx(ctx, func(tx *db.Tx) error {
		me, err := tx.PlayerByHandle(ctx, r.handle)
		if errors.Is(err, db.ErrNotFound) || err == nil && !r.tell.IsRobot(me) {
			return nil
		}
		if err != nil {
			return err
		}
		turn, found, err = NextTurn(ctx, tx, me, skip, r.last.Load(), r.log)
		return err
	})
	return turn, found, err
}

// step is Step, leaving out the games in skip. It returns the game it
// played in, or failed in; 0 for none.
func (r *Worker) step(ctx context.Context, skip map[int64]bool) (int64, error) {
	turn, found, err := r.next(ctx, skip)
	if err != nil || !found {
		return 0, err
	}
	r.last.Store(turn.Player)
	turn.Tables = r.Tables
	began := r.now()
	d, err := turn.Choose(ctx)
	if err != nil {
		return turn.Game, fmt.Errorf("robot in game %d: %w", turn.Game, err)
	}
	took := r.now().Sub(began)
	if d.TimedOut {
		// The level's node limit should decide (M51's determinism holds
		// for the robot too): the machine is far too slow or loaded.
		r.log.Warn("robot move stopped by the time cap", "game", turn.Game, "level", turn.Level,
			"depth", d.Depth, "nodes", d.Nodes, "took", took)
	}
	if r.Metrics != nil {
		r.Metrics.RobotMoved(Moved{Game: turn.Game, Level: turn.Level, Duration: took, TimedOut: d.TimedOut})
	}
	if err := ctx.Err(); err != nil {
		return turn.Game, err // cut short by shutdown: the turn is played after the restart
	}
	return turn.Game, r.Play(ctx, turn, d)
}

// Play records the robot's decision d in its turn, unless the game
// changed meanwhile or was adjourned.
func (r *Worker) Play(ctx context.Context, turn Turn, d Decision) error {
	now := r.now().UTC()
	var notes []string
	queued, err := r.tell.Tx(ctx, r.db, now, func(w *tell.Work) error {
		st, err := game.Load(ctx, w.Tx, turn.Game, now)
		if err != nil {
			return err
		}
		me := st.ToMove()
		if !st.Active() || st.Game.Position != turn.Position || !r.tell.IsRobot(me) {
			return nil // the game went on without the robot: its turn is looked for again
		}
		if st.Game.IsAdjourned() || st.Game.IsPaused() {
			return nil // adjourned or paused while the robot thought: it plays when the game is resumed
		}
		// The mail shows the opponent's last move too: its mail waited
		// for this turn.
		if eff, by, ok, err := game.LastMove(ctx, w.Tx, &st); err != nil {
			return err
		} else if ok {
			w.Earlier = []templates.Move{templates.MoveOf(by.Handle, eff)}
		}
		if st.Ply() == 1 && st.Game.Tournament == 0 {
			// The game's first move, and its first mail: the robot
			// accepted a challenge. A tournament's game had a first
			// mail of its own, when the round began (M60).
			w.Opening = turn.Level
		}
		var evs []game.Event
		if evs, err = game.CheckTime(ctx, w.Tx, &st); err == nil && len(evs) == 0 {
			evs, err = move(ctx, w.Tx, &st, me, d)
		}
		if err != nil {
			return err
		}
		if err = w.Tell(ctx, evs, nil); err == nil {
			err = w.Flush(ctx)
		}
		notes = w.Notes()
		return err
	})
	if err != nil {
		return fmt.Errorf("robot in game %d: %w", turn.Game, err)
	}
	r.log.Info("robot played", "game", turn.Game, "level", turn.Level, "score", d.Score, "depth", d.Depth,
		"nodes", d.Nodes, "timed_out", d.TimedOut, "queued", queued, "summary", strings.Join(notes, "; "))
	if r.AfterMove != nil {
		r.AfterMove()
	}
	return nil
}

// move plays the robot's move, or resigns, in its turn in st.
func move(ctx context.Context, tx *db.Tx, st *game.State, me db.Player, d Decision) ([]game.Event, error) {
	if d.Resign {
		return game.Resign(ctx, tx, st, me)
	}
	m, err := st.Pos.ParseMove(d.Move.String())
	if err != nil {
		return nil, fmt.Errorf("robot chose %v: %w", d.Move, err)
	}
	err = tx.AddRobotMove(ctx, db.RobotMove{Game: st.ID(), Ply: st.Ply(), Score: d.Score, Depth: d.Depth, Nodes: d.Nodes})
	if err != nil {
		return nil, err
	}
	evs, err := game.Play(ctx, tx, st, me, m, "")
	if err != nil {
		return nil, err
	}
	// The opponent's conditional line may answer the move with a draw
	// offer (M69), which the robot answers at once, as any.
	if st.Active() && st.Game.DrawOffer == st.Opponent(me.ID).ID {
		more, err := AnswerDraw(ctx, tx, st, me)
		if err != nil {
			return nil, err
		}
		evs = append(evs, more...)
	}
	return evs, nil
}
