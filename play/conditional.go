package play

import (
	"context"
	"fmt"

	"github.com/congobymail/congo/command"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/templates"
)

// If keeps a line of conditional moves (M14); the lines are listed once
// a game after the whole mail (ListConditionals).
func If(ctx context.Context, r *command.Request, a parser.IfArgs) (command.Result, error) {
	st, evs, err := r.ActiveGame(ctx)
	if err != nil {
		return command.Result{}, err
	}
	if err := game.AddConditional(ctx, r.Tx, &st, r.Sender, a.Moves); err != nil {
		return command.Result{}, r.GameRefusal(&st, err)
	}
	return command.Result{Events: evs, Notes: []string{fmt.Sprintf("conditional %d", st.ID())},
		Conditionals: &command.Conditionals{Game: st.ID(), Added: 1}}, nil
}

// Conditional shows, or clears, the sender's conditional moves in a game.
func Conditional(ctx context.Context, r *command.Request, a parser.ConditionalArgs) (command.Result, error) {
	st, err := r.OwnGame(ctx)
	if err != nil {
		return command.Result{}, err
	}
	cleared := 0
	if a.Clear {
		if cleared, err = r.Tx.DeleteConditionals(ctx, st.ID(), r.Sender.ID); err != nil {
			return command.Result{}, err
		}
	}
	return command.Result{Notes: []string{fmt.Sprintf("conditional %d", st.ID())},
		Conditionals: &command.Conditionals{Game: st.ID(), Cleared: cleared}}, nil
}

// ListConditionals is the answer, after all of a mail's commands, about
// the sender's conditional moves in a game: the lines kept, and how many
// the mail added and cleared.
func ListConditionals(ctx context.Context, tx *db.Tx, sender db.Player, c command.Conditionals) (templates.Section, error) {
	branches, err := tx.Conditionals(ctx, c.Game, sender.ID)
	if err != nil {
		return nil, err
	}
	return templates.ConditionalList{GameID: c.Game, Branches: branches, Added: c.Added, Cleared: c.Cleared}, nil
}
