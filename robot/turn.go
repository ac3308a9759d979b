package robot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/engine"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/rules"
)

// Turn is a game where the robot is to move, as read before thinking.
type Turn struct {
	Game     int64
	Player   int64  // the robot's opponent
	Position string // as stored, to check that the game waited
	Pos      rules.Position
	Start    rules.Position // the position the game began from
	Level    int
	Scores   []int // of the robot's earlier moves in the game
	// Before are the game's positions before Pos, from the start
	// (History), so that the robot knows a position that comes back.
	Before []rules.Position
	// Tables are the endgame tables the robot plays by from level
	// engine.TablesLevel (ChooseWithTables); nil for none.
	Tables engine.Tables
}

// Waiting is a game where the robot is to move, as the turns are
// chosen (Pick): the player it plays, and since when the turn waits.
type Waiting struct {
	Game   int64
	Player int64     // the robot's opponent
	Since  time.Time // when the turn arose: the robot's clock started
}

// Pick chooses the turn the robot plays next among waiting (not empty),
// fairly (M54): one player at a time, in turn, by their ids, the first
// after the player last served (after the last player, the first); of
// that player's turns the one waiting longest. So one player's many games
// delay another's reply by one think per other player waiting at most.
func Pick(waiting []Waiting, last int64) Waiting {
	best := waiting[0]
	rank := func(w Waiting) (bool, int64) { return w.Player <= last, w.Player } // after last first, then by id
	for _, w := range waiting[1:] {
		wr, wp := rank(w)
		br, bp := rank(best)
		switch {
		case wr != br:
			if !wr {
				best = w
			}
		case wp != bp:
			if wp < bp {
				best = w
			}
		case w.Since.Before(best.Since) || w.Since.Equal(best.Since) && w.Game < best.Game:
			best = w
		}
	}
	return best
}

// WaitingTurns returns the games of the robot me, neither in skip nor
// adjourned nor paused, where it is to move. A game whose position cannot be read
// is logged and left alone.
func WaitingTurns(ctx context.Context, tx *db.Tx, me db.Player, skip map[int64]bool, log *slog.Logger) ([]Waiting, error) {
	games, err := tx.ActiveGamesOf(ctx, me.ID)
	if err != nil {
		return nil, err
	}
	var out []Waiting
	for _, g := range games {
		if g.IsAdjourned() || g.IsPaused() || skip[g.ID] {
			continue
		}
		pos, err := rules.ParsePosition(g.Position)
		if err != nil {
			log.Error("robot: game not played", "game", g.ID, "err", err)
			continue
		}
		if (pos.Turn() == rules.White) != (g.White == me.ID) || pos.Outcome().Over() {
			continue
		}
		opp := g.White
		if opp == me.ID {
			opp = g.Black
		}
		out = append(out, Waiting{Game: g.ID, Player: opp, Since: g.ClockStart})
	}
	return out, nil
}

// NextTurn finds the game of the robot me, neither in skip nor
// adjourned, where it plays next (Pick, the player last served being
// last); ok is false when there is none.
func NextTurn(ctx context.Context, tx *db.Tx, me db.Player, skip map[int64]bool, last int64, log *slog.Logger) (t Turn, ok bool, err error) {
	for {
		waiting, err := WaitingTurns(ctx, tx, me, skip, log)
		if err != nil || len(waiting) == 0 {
			return Turn{}, false, err
		}
		w := Pick(waiting, last)
		t, err := turnOf(ctx, tx, w.Game)
		if err == nil {
			return t, true, nil
		}
		var broken *brokenGame
		if !errors.As(err, &broken) {
			return Turn{}, false, err
		}
		log.Error("robot: game not played", "game", w.Game, "err", err)
		if skip == nil {
			skip = map[int64]bool{}
		}
		skip[w.Game] = true
	}
}

// brokenGame is a game whose moves cannot be read.
type brokenGame struct{ err error }

func (e *brokenGame) Error() string { return e.err.Error() }
func (e *brokenGame) Unwrap() error { return e.err }

// turnOf reads the robot's turn in a game: its level, its scores so far,
// and the game's positions before.
func turnOf(ctx context.Context, tx *db.Tx, id int64) (Turn, error) {
	g, err := tx.Game(ctx, id)
	if err != nil {
		return Turn{}, err
	}
	pos, err := rules.ParsePosition(g.Position)
	if err != nil {
		return Turn{}, &brokenGame{err}
	}
	level, err := tx.RobotLevel(ctx, g.ID)
	if errors.Is(err, db.ErrNotFound) {
		level = DefaultLevel
	} else if err != nil {
		return Turn{}, err
	}
	scores, err := tx.RobotScores(ctx, g.ID)
	if err != nil {
		return Turn{}, err
	}
	start, err := rules.ParsePosition(g.StartPosition())
	if err != nil {
		return Turn{}, &brokenGame{err}
	}
	before, err := GameHistory(ctx, tx, g)
	if err != nil {
		return Turn{}, &brokenGame{err}
	}
	return Turn{Game: g.ID, Player: opponent(g, pos), Position: g.Position, Pos: pos, Start: start, Level: level, Scores: scores, Before: before}, nil
}

// opponent is the player of g who is not to move at pos.
func opponent(g db.Game, pos rules.Position) int64 {
	if pos.Turn() == rules.White {
		return g.Black
	}
	return g.White
}

// Choose decides the robot's move in the turn, as ChooseWithTables,
// knowing the game's earlier positions.
func (t Turn) Choose(ctx context.Context) (Decision, error) {
	return ChooseWithTables(ctx, t.Tables, t.Pos, t.Level, Seed(t.Game, game.Ply(t.Start, t.Pos)), t.Scores, t.Before)
}

// GameHistory returns the positions of a stored game before each of its
// moves, from the position it began from (History).
func GameHistory(ctx context.Context, tx *db.Tx, g db.Game) ([]rules.Position, error) {
	start, err := rules.ParsePosition(g.StartPosition())
	if err != nil {
		return nil, fmt.Errorf("game %d: its start: %w", g.ID, err)
	}
	moves, err := tx.Moves(ctx, g.ID)
	if err != nil {
		return nil, err
	}
	texts := make([]string, len(moves))
	for i, m := range moves {
		texts[i] = m.Move
	}
	before, err := History(start, texts)
	if err != nil {
		return nil, fmt.Errorf("game %d: %w", g.ID, err)
	}
	return before, nil
}
