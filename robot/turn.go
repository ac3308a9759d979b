package robot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/rules"
)

// Turn is a game where the robot is to move, as read before thinking.
type Turn struct {
	Game     int64
	Position string // as stored, to check that the game waited
	Pos      rules.Position
	Level    int
	Scores   []int // of the robot's earlier moves in the game
	// Before are the game's positions before Pos, from the start
	// (History), so that the robot knows a position that comes back.
	Before []rules.Position
}

// NextTurn finds the first game of the robot me, neither in skip nor
// adjourned, where it is to move; ok is false when there is none. A game
// whose position cannot be read is logged and left alone.
func NextTurn(ctx context.Context, tx *db.Tx, me db.Player, skip map[int64]bool, log *slog.Logger) (t Turn, ok bool, err error) {
	games, err := tx.GamesOf(ctx, me.ID)
	if err != nil {
		return Turn{}, false, err
	}
	for _, g := range games {
		if g.Status != db.Active || g.IsAdjourned() || skip[g.ID] {
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
		level, err := tx.RobotLevel(ctx, g.ID)
		if errors.Is(err, db.ErrNotFound) {
			level = DefaultLevel
		} else if err != nil {
			return Turn{}, false, err
		}
		scores, err := tx.RobotScores(ctx, g.ID)
		if err != nil {
			return Turn{}, false, err
		}
		before, err := GameHistory(ctx, tx, g.ID)
		if err != nil {
			log.Error("robot: game not played", "game", g.ID, "err", err)
			continue
		}
		return Turn{Game: g.ID, Position: g.Position, Pos: pos, Level: level, Scores: scores, Before: before}, true, nil
	}
	return Turn{}, false, nil
}

// Choose decides the robot's move in the turn, as ChooseInGame, knowing
// the game's earlier positions.
func (t Turn) Choose(ctx context.Context) (Decision, error) {
	return ChooseInGame(ctx, t.Pos, t.Level, Seed(t.Game, game.Ply(t.Pos)), t.Scores, t.Before)
}

// GameHistory returns the positions of a stored game before each of its
// moves, from the start (History).
func GameHistory(ctx context.Context, tx *db.Tx, gameID int64) ([]rules.Position, error) {
	moves, err := tx.Moves(ctx, gameID)
	if err != nil {
		return nil, err
	}
	texts := make([]string, len(moves))
	for i, m := range moves {
		texts[i] = m.Move
	}
	before, err := History(texts)
	if err != nil {
		return nil, fmt.Errorf("game %d: %w", gameID, err)
	}
	return before, nil
}
