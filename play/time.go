package play

import (
	"context"
	"time"

	"github.com/congobymail/congo/command"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/parser"
)

// Pause asks the opponent for a pause, or agrees to the pause the
// opponent asked for (M63): both clocks then stand still until either
// player resumes the game. The robot agrees at once.
func Pause(ctx context.Context, r *command.Request) (command.Result, error) {
	return change(ctx, r, func(st *game.State, _ string) ([]game.Event, error) {
		evs, err := game.Pause(ctx, r.Tx, st, r.Sender)
		if other := st.Opponent(r.Sender.ID); err == nil && r.IsRobot(other) {
			more, err := game.Pause(ctx, r.Tx, st, other)
			return append(evs, more...), err
		}
		return evs, err
	})
}

// Resume ends the pause of one of the sender's games (M63): the clocks
// run again.
func Resume(ctx context.Context, r *command.Request) (command.Result, error) {
	return change(ctx, r, func(st *game.State, _ string) ([]game.Event, error) {
		return game.EndPause(ctx, r.Tx, st, r.Sender)
	})
}

// Give adds time to the opponent's clock for the move they are to make
// (M65); both are told.
func Give(ctx context.Context, r *command.Request, a parser.GiveArgs) (command.Result, error) {
	return change(ctx, r, func(st *game.State, _ string) ([]game.Event, error) {
		return game.Give(ctx, r.Tx, st, r.Sender, time.Duration(a.Hours)*time.Hour)
	})
}

// Claim wins a timeout=claim game whose opponent has run out of time
// (M66).
func Claim(ctx context.Context, r *command.Request) (command.Result, error) {
	return change(ctx, r, func(st *game.State, _ string) ([]game.Event, error) {
		return game.Claim(ctx, r.Tx, st, r.Sender)
	})
}
