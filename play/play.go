// Package play is the room of the games being played by mail: the
// commands that change a game (move, resign, draw, nodraw, takeback,
// abort, conditional moves), those that show one (board, history, games,
// ratings, observe), and the clock that ends games on time, reminds
// players and sends the digests. The life of a game itself is package
// game's; the mails its events cause are package tell's.
package play

import (
	"context"
	"fmt"

	"github.com/congobymail/congo/command"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/robot"
	"github.com/congobymail/congo/templates"
)

// Move plays a move in one of the sender's games, unless the lion guard
// keeps it back (M61).
func Move(ctx context.Context, r *command.Request, a parser.MoveArgs) (command.Result, error) {
	return change(ctx, r, func(st *game.State, message string) ([]game.Event, error) {
		if err := guard(ctx, r, st, a); err != nil {
			return nil, err
		}
		return game.Move(ctx, r.Tx, st, r.Sender, a.Move, a.Number, message)
	})
}

// guard is the lion guard (M61): it refuses a move that lets the
// opponent take the sender's lion with their next move (R15: there is
// no check, so the rules allow it), naming the capture, unless the move
// says anyway or the sender turned the guard off. A move the game
// refuses for another reason (not the sender's turn, a stale #N, not
// legal) it leaves to game.Move. Only a player's move by mail is
// guarded: conditional moves and the robot's are played as chosen.
func guard(ctx context.Context, r *command.Request, st *game.State, a parser.MoveArgs) error {
	if a.Anyway || st.Pos.Turn() != st.ColorOf(r.Sender.ID) || a.Number != 0 && a.Number != st.Pos.MoveNumber() {
		return nil
	}
	m, err := st.Pos.ParseMove(a.Move)
	if err != nil {
		return nil
	}
	capture, exposed := st.Pos.LionExposed(m)
	if !exposed {
		return nil
	}
	on, err := r.Tx.Guarded(ctx, r.Sender.ID)
	if err != nil || !on {
		return err
	}
	e := r.GameError(st, templates.LionExposed, capture.String())
	e.Move, e.Handle = m.String(), st.Opponent(r.Sender.ID).Handle
	res := command.Fail(e)
	res.Notes = append(res.Notes, fmt.Sprintf("move %d %s: not played, it exposes the lion to %s", st.ID(), m, capture))
	return &command.Refusal{Result: res}
}

// Resign ends one of the sender's games in the opponent's favour.
func Resign(ctx context.Context, r *command.Request) (command.Result, error) {
	return change(ctx, r, func(st *game.State, _ string) ([]game.Event, error) {
		return game.Resign(ctx, r.Tx, st, r.Sender)
	})
}

// Draw offers a draw, or accepts the opponent's offer (M13); the robot
// answers an offer at once.
func Draw(ctx context.Context, r *command.Request) (command.Result, error) {
	return change(ctx, r, func(st *game.State, _ string) ([]game.Event, error) {
		if other := st.Opponent(r.Sender.ID); r.IsRobot(other) {
			return robot.AnswerDraw(ctx, r.Tx, st, other)
		}
		return game.Draw(ctx, r.Tx, st, r.Sender)
	})
}

// NoDraw declines the opponent's draw offer.
func NoDraw(ctx context.Context, r *command.Request) (command.Result, error) {
	return change(ctx, r, func(st *game.State, _ string) ([]game.Event, error) {
		return game.NoDraw(ctx, r.Tx, st, r.Sender)
	})
}

// Takeback asks to undo the sender's last move, or grants the opponent's
// request (M13); the robot takes nothing back.
func Takeback(ctx context.Context, r *command.Request) (command.Result, error) {
	return change(ctx, r, func(st *game.State, _ string) ([]game.Event, error) {
		if other := st.Opponent(r.Sender.ID); r.IsRobot(other) {
			e := r.GameError(st, templates.RobotTakeback, "")
			e.Handle = other.Handle
			return nil, command.Refuse(e)
		}
		return game.Takeback(ctx, r.Tx, st, r.Sender)
	})
}

// Abort ends a game without result, while not both sides have moved
// (M13).
func Abort(ctx context.Context, r *command.Request) (command.Result, error) {
	return change(ctx, r, func(st *game.State, _ string) ([]game.Event, error) {
		if st.Event != "" {
			return nil, command.Refuse(r.GameError(st, templates.TournamentAbort, st.Event))
		}
		return game.Abort(ctx, r.Tx, st, r.Sender)
	})
}

// change makes a change to one of the sender's games being played: fn
// makes it, given the sender's message, and returns the events, or a
// *game.Refusal, which is answered.
func change(ctx context.Context, r *command.Request, fn func(st *game.State, message string) ([]game.Event, error)) (command.Result, error) {
	st, evs, err := r.ActiveGame(ctx)
	if err != nil {
		return command.Result{}, err
	}
	if err := r.Budget(ctx, st.Opponent(r.Sender.ID)); err != nil {
		return command.Result{}, err
	}
	more, err := fn(&st, r.MessageText(st.ID()))
	if err != nil {
		return command.Result{}, r.GameRefusal(&st, err)
	}
	return command.Result{Events: append(evs, more...), Message: r.Message(st.ID())}, nil
}
