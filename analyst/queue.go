package analyst

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/congobymail/congo/analysis"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/tell"
)

// Done tells the Metrics about one analysis of a game (M49) that the
// worker made, or began.
type Done struct {
	Game     int64
	Plies    int
	Duration time.Duration // by the queue's clock
	// Interrupted is set when a robot turn stopped it: it is made again
	// from the start after the turn. Failed is set when the game's moves
	// could not be analyzed (its players were told).
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

// Queue makes the analyses players wait for, oldest first, one at a
// time, giving way to the robot (robot.Worker.Analyses).
type Queue struct {
	db    *db.DB
	tell  *tell.Teller
	now   func() time.Time
	log   *slog.Logger
	nodes int64

	// Robot, when set, is watched while an analysis is made: a robot
	// turn stops it. Metrics, when set, is told about each analysis.
	Robot   Robot
	Metrics Metrics
}

// NewQueue returns the queue of the analyses of the games of store,
// which mails through t (searching t's Settings().AnalysisNodes nodes a
// position) and reads the time from now.
func NewQueue(store *db.DB, t *tell.Teller, now func() time.Time) *Queue {
	return &Queue{db: store, tell: t, now: now, log: t.Log(), nodes: t.Settings().AnalysisNodes}
}

// waiting is the analysis the oldest request waits for, as read before
// it is made.
type waiting struct {
	game  int64
	moves []rules.Move
	err   error // the game's moves cannot be read: the analysis fails
}

// Next makes the analysis the oldest request waits for and mails it, in
// one transaction, to every player waiting for it, marking their
// requests done. It reports whether there was one to make. The analysis
// is made outside any transaction, and gives way to the robot: when a
// mail handled meanwhile gave the robot a turn, it is stopped (to be
// made again from the start, as analysis.Analyze does after a cancel)
// and Next reports true, so that the robot plays the turn first.
func (q *Queue) Next(ctx context.Context) (bool, error) {
	var next waiting
	found := false
	err := q.db.Tx(ctx, func(tx *db.Tx) error {
		r, err := tx.NextAnalysisRequest(ctx)
		if errors.Is(err, db.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		found, next.game = true, r.Game
		moves, err := tx.Moves(ctx, r.Game)
		if err != nil {
			return err
		}
		p := rules.Start()
		for _, m := range moves {
			var eff rules.Effects
			if p, eff, err = p.Play(m.Move); err != nil {
				next.err = fmt.Errorf("move %d %s: %w", m.Ply, m.Move, err)
				return nil
			}
			next.moves = append(next.moves, eff.Move)
		}
		return nil
	})
	if err != nil || !found {
		return false, err
	}
	if next.err != nil {
		return true, q.finish(ctx, next.game, nil, 0, next.err)
	}
	q.log.Info("analysis begun", "game", next.game, "plies", len(next.moves), "nodes", q.nodes)
	actx, cancel := context.WithCancel(ctx)
	watched := q.watchRobot(actx, cancel)
	began := q.now()
	a, err := analysis.Analyze(actx, next.moves, analysis.Options{Nodes: q.nodes})
	cancel()
	<-watched
	took := q.now().Sub(began)
	switch {
	case ctx.Err() != nil:
		return false, ctx.Err() // cut short by shutdown: made again after the restart
	case errors.Is(err, context.Canceled):
		q.log.Info("analysis interrupted by a robot turn; made again after it", "game", next.game, "after", took)
		if q.Metrics != nil {
			q.Metrics.Analyzed(Done{Game: next.game, Plies: len(next.moves), Duration: took, Interrupted: true})
		}
		return true, nil
	}
	return true, q.finish(ctx, next.game, a, took, err)
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
			if err := tx.FinishAnalysisRequest(ctx, r.ID, now); err != nil {
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
