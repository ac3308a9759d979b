package command

import (
	"context"
	"errors"
	"fmt"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/tell"
	"github.com/congobymail/congo/templates"
)

// NamedGame loads the game the command names, or refuses the command:
// there is no such game.
func (r *Request) NamedGame(ctx context.Context) (game.State, error) {
	st, err := game.Load(ctx, r.Tx, r.Game, r.Now)
	if errors.Is(err, db.ErrNotFound) {
		return game.State{}, Refuse(templates.Error{Line: r.Line, Problem: templates.NoSuchGame, GameID: r.Game})
	}
	return st, err
}

// OwnGame loads the game the command names, when the sender plays in it;
// otherwise it refuses the command.
func (r *Request) OwnGame(ctx context.Context) (game.State, error) {
	st, err := r.NamedGame(ctx)
	if err != nil {
		return st, err
	}
	if !st.Game.Has(r.Sender.ID) {
		return game.State{}, Refuse(templates.Error{Line: r.Line, Problem: templates.NotYourGame, GameID: r.Game})
	}
	return st, nil
}

// ActiveGame loads a game of the sender's that is being played, or
// refuses the command. A game whose player to move ran out of time ends
// now, if the clock has not come to it yet: its events are returned, to
// tell, also with the refusal.
func (r *Request) ActiveGame(ctx context.Context) (game.State, []game.Event, error) {
	st, err := r.OwnGame(ctx)
	if err != nil {
		return st, nil, err
	}
	evs, err := game.CheckTime(ctx, r.Tx, &st)
	if err != nil {
		return game.State{}, nil, err
	}
	if !st.Active() {
		res := Fail(r.GameError(&st, templates.NotActive, ""))
		res.Events = evs
		return game.State{}, nil, &Refusal{res}
	}
	return st, evs, nil
}

// VisibleGame loads a game the sender plays in or observes, or refuses
// the command: they may not see it.
func (r *Request) VisibleGame(ctx context.Context) (game.State, error) {
	st, err := r.NamedGame(ctx)
	if err != nil || st.Game.Has(r.Sender.ID) {
		return st, err
	}
	observers, err := r.Tx.Observers(ctx, st.ID())
	if err != nil {
		return game.State{}, err
	}
	for _, o := range observers {
		if o.ID == r.Sender.ID {
			return st, nil
		}
	}
	return game.State{}, Refuse(templates.Error{Line: r.Line, Problem: templates.NotYourGame, GameID: r.Game})
}

// GameError is an answer about one of the sender's games, with its board
// as the sender sees it (M3).
func (r *Request) GameError(st *game.State, p templates.Problem, detail string) templates.Error {
	t := tell.GameWords(st)
	v := templates.ViewOf(st.Pos, st.ColorOf(r.Sender.ID))
	return templates.Error{Line: r.Line, Problem: p, Detail: detail, GameID: st.ID(), Game: &t, Board: &v}
}

// GameRefusal turns err, when it is a *game.Refusal of the command about
// st, into the refusal of the command, with the game's board; any other
// error it returns as it is. The mails name a game's problems with the
// game's words (TestRefusalsHaveWords).
func (r *Request) GameRefusal(st *game.State, err error) error {
	var gr *game.Refusal
	if !errors.As(err, &gr) {
		return err
	}
	e := r.GameError(st, templates.Problem(gr.Problem.String()), "")
	e.Handle, e.Move, e.Reason = gr.Other, gr.Move, templates.Phrase{Format: gr.Format, Args: gr.Args}
	e.Until, e.Left = gr.Until, gr.Left
	return Refuse(e)
}

// Budget refuses the command when the sender's mails have caused as many
// mails to others in the last hour as one player's may, or to one of to
// as many as they may to one other (outbox.Outbox.Budget): nothing is
// done, and the answer says so. The robot, which is never mailed, costs
// nothing.
func (r *Request) Budget(ctx context.Context, to ...db.Player) error {
	var addrs []string
	for _, p := range to {
		if !r.IsRobot(p) && p.ID != r.Sender.ID {
			addrs = append(addrs, p.Address)
		}
	}
	over, limit, err := r.Outbox().Budget(ctx, r.Tx, r.Sender.ID, r.Now, addrs...)
	if err != nil || over == "" {
		return err
	}
	e := templates.Error{Line: r.Line, Problem: templates.TooManyMails, Detail: fmt.Sprint(limit)}
	for _, p := range to {
		if p.Address == over {
			e.Handle = p.Handle
		}
	}
	return Refuse(e)
}
