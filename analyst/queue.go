package analyst

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/congobymail/congo/analysis"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/engine"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/tell"
)

// Done tells the Metrics about one analysis of a game (M49) that the
// worker made, or paused.
type Done struct {
	Game     int64
	Plies    int
	Duration time.Duration // by the queue's clock, the pauses left out
	// Interrupted is set when a robot turn paused it: it goes on where
	// it stopped after the turn (M54). Failed is set when the game's
	// moves could not be analyzed (its players were told).
	Interrupted, Failed bool
}

// Metrics is told about each analysis. Its method must not block.
type Metrics interface {
	Analyzed(Done)
}

// Robot is the robot's worker as the queue sees it: Woken signals when
// a turn may have come, TurnWaits says whether one has.
type Robot interface {
	Woken() <-chan struct{}
	TurnWaits(ctx context.Context) bool
}

// Queue makes the analyses players wait for, one at a time, giving way
// to the robot (robot.Worker.Analyses): the players in turn, by their
// ids, each player's oldest request first (M54); a robot turn pauses the
// analysis under way, which then goes on where it stopped.
type Queue struct {
	db    *db.DB
	tell  *tell.Teller
	now   func() time.Time
	log   *slog.Logger
	nodes int64

	// job is the analysis under way, paused while the robot plays; nil
	// for none. last is the player whose request was taken last. Both
	// are the worker's alone (Next).
	job  *job
	last int64

	// Robot, when set, is watched while an analysis is made: a robot
	// turn stops it. Metrics, when set, is told about each analysis.
	Robot   Robot
	Metrics Metrics
	// Tables, when set, are the endgame tables the analyses judge
	// positions of four men or fewer by (M77).
	Tables engine.Tables
}

// NewQueue returns the queue of the analyses of the games of store,
// which mails through t (searching t's Settings().AnalysisNodes nodes a
// position) and reads the time from now.
func NewQueue(store *db.DB, t *tell.Teller, now func() time.Time) *Queue {
	return &Queue{db: store, tell: t, now: now, log: t.Log(), nodes: t.Settings().AnalysisNodes}
}

// job is an analysis under way.
type job struct {
	game  int64
	job   *analysis.Job
	plies int
	took  time.Duration // searching, the pauses left out
}

// Next makes, or goes on with, the analysis of the next game waited for
// (the queue's order), and once it is made mails it, in one transaction,
// to every player waiting for it, marking their requests done. It
// reports whether there was one. The analysis is made outside any
// transaction, and gives way to the robot: when a mail handled meanwhile
// gave the robot a turn, it pauses between two positions (analysis.Job),
// and Next reports true, so that the robot plays the turn first; the
// next Next goes on with it.
func (q *Queue) Next(ctx context.Context) (bool, error) {
	if q.job != nil {
		waited, err := q.waited(ctx, q.job.game)
		if err != nil {
			return false, err
		}
		if !waited { // no request left: nobody wants it any more
			q.job = nil
		} else {
			done, of := q.job.job.Progress()
			q.log.Info("analysis goes on", "game", q.job.game, "positions", done, "of", of)
		}
	}
	if q.job == nil {
		found, err := q.take(ctx)
		if err != nil || !found {
			return found, err
		}
		if q.job == nil {
			return true, nil // failed, and its players told
		}
		q.log.Info("analysis begun", "game", q.job.game, "plies", q.job.plies, "nodes", q.nodes)
	}
	j := q.job
	actx, cancel := context.WithCancel(ctx)
	watched := q.watchRobot(actx, cancel)
	began := q.now()
	var done bool
	var err error
	for !done && err == nil {
		done, err = j.job.Step(actx)
	}
	cancel()
	<-watched
	j.took += q.now().Sub(began)
	switch {
	case ctx.Err() != nil:
		return false, ctx.Err() // cut short by shutdown: made again after the restart
	case errors.Is(err, context.Canceled):
		at, of := j.job.Progress()
		q.log.Info("analysis paused for a robot turn; it goes on after it", "game", j.game, "positions", at, "of", of)
		if q.Metrics != nil {
			q.Metrics.Analyzed(Done{Game: j.game, Plies: j.plies, Duration: j.took, Interrupted: true})
		}
		return true, nil
	case err != nil:
		return true, err
	}
	q.job = nil
	return true, q.finish(ctx, j.game, j.job.Analysis(), j.took, nil)
}

// waited reports whether a request still waits for game's analysis.
func (q *Queue) waited(ctx context.Context, game int64) (bool, error) {
	var reqs []db.AnalysisRequest
	err := q.db.Read(ctx, func(tx *db.Tx) error {
		var err error
		reqs, err = tx.WaitingAnalysisRequests(ctx, game)
		return err
	})
	return len(reqs) > 0, err
}

// take takes the next request (the players in turn, each one's oldest
// first) and begins its game's analysis (job); a game whose moves cannot
// be analyzed fails at once, and its players are told. It reports
// whether a request waited.
func (q *Queue) take(ctx context.Context) (bool, error) {
	var (
		found bool
		game  int64
		moves []rules.Move
		start rules.Position // the position the game began from (M72)
		bad   error          // the game's moves cannot be read: the analysis fails
	)
	err := q.db.Tx(ctx, func(tx *db.Tx) error {
		r, err := tx.NextAnalysisRequestAfter(ctx, q.last)
		if errors.Is(err, db.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		found, game, moves, bad = true, r.Game, nil, nil
		q.last = r.Player
		stored, err := tx.Moves(ctx, r.Game)
		if err != nil {
			return err
		}
		g, err := tx.Game(ctx, r.Game)
		if err != nil {
			return err
		}
		if start, err = rules.ParsePosition(g.StartPosition()); err != nil {
			bad = fmt.Errorf("its start: %w", err)
			return nil
		}
		p := start
		for _, m := range stored {
			var eff rules.Effects
			if p, eff, err = p.Play(m.Move); err != nil {
				bad = fmt.Errorf("move %d %s: %w", m.Ply, m.Move, err)
				return nil
			}
			moves = append(moves, eff.Move)
		}
		return nil
	})
	if err != nil || !found {
		return found, err
	}
	var j *analysis.Job
	if bad == nil {
		j, bad = analysis.NewJob(moves, analysis.Options{Nodes: q.nodes, Tables: q.Tables, Start: start})
	}
	if bad != nil {
		return true, q.finish(ctx, game, nil, 0, bad)
	}
	q.job = &job{game: game, job: j, plies: len(moves)}
	return true, nil
}

// watchRobot watches, until ctx ends, for the wake-ups of the robot's
// worker, and calls interrupt when one gave the robot a turn. The
// returned channel is closed when it has stopped.
func (q *Queue) watchRobot(ctx context.Context, interrupt func()) <-chan struct{} {
	done := make(chan struct{})
	if q.Robot == nil {
		close(done)
		return done
	}
	go func() {
		defer close(done)
		for {
			select {
			case <-ctx.Done():
				return
			case <-q.Robot.Woken():
			}
			if q.Robot.TurnWaits(ctx) {
				interrupt()
				return
			}
		}
	}()
	return done
}

// finish stores a, the analysis of a game made in took, and mails it to
// every player whose request waits for it, in their own words, marking
// each request done in the same transaction: a crash before the commit
// leaves the requests waiting, to be made again; after it, every mail is
// in the outbox. With failure set instead (the game's moves could not be
// analyzed) each player is told that it failed.
func (q *Queue) finish(ctx context.Context, gameID int64, a *analysis.Analysis, took time.Duration, failure error) error {
	now := q.now().UTC()
	queued, players := 0, 0
	err := q.db.Tx(ctx, func(tx *db.Tx) error {
		queued, players = 0, 0
		reqs, err := tx.WaitingAnalysisRequests(ctx, gameID)
		if err != nil || len(reqs) == 0 {
			return err
		}
		st, err := game.Load(ctx, tx, gameID, now)
		if err != nil {
			return err
		}
		if a != nil {
			data, err := a.Encode()
			if err != nil {
				return err
			}
			if _, err := tx.SetAnalysis(ctx, db.StoredAnalysis{Game: gameID, Nodes: a.Nodes, Data: data, Created: now}); err != nil {
				return err
			}
		}
		for _, r := range reqs {
			p, err := tx.Player(ctx, r.Player)
			if err != nil {
				return err
			}
			w := q.tell.NewWork(tx, now)
			w.Cause, w.AskedBy = outbox.Player(p.ID), p.Address // the request was proven
			var refs []string
			if st.Game.ThreadRoot != "" {
				refs = append(refs, st.Game.ThreadRoot)
			}
			if r.MessageID != "" && r.MessageID != st.Game.ThreadRoot {
				refs = append(refs, r.MessageID)
			}
			if a != nil {
				err = mail(ctx, w, &st, a, p, r.MessageID, refs)
			} else {
				err = failureMail(ctx, w, &st, p, r.MessageID, refs)
			}
			if err != nil {
				return err
			}
			if err := tx.SetAnalysisRequestDone(ctx, r.ID, now); err != nil {
				return err
			}
			queued += w.Queued()
			players++
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("analysis of game %d: %w", gameID, err)
	}
	if failure != nil {
		q.log.Error("analysis failed", "game", gameID, "players", players, "err", failure)
	} else {
		q.log.Info("analysis made", "game", gameID, "plies", len(a.Plies), "nodes", a.Nodes, "took", took, "players", players, "queued", queued)
	}
	if q.Metrics != nil {
		o := Done{Game: gameID, Duration: took, Failed: failure != nil}
		if a != nil {
			o.Plies = len(a.Plies)
		}
		q.Metrics.Analyzed(o)
	}
	if queued > 0 {
		q.tell.Outbox().Wake()
	}
	return nil
}
