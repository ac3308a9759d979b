package play

import (
	"context"
	"fmt"

	"github.com/congobymail/congo/command"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/tell"
	"github.com/congobymail/congo/templates"
)

// Preview answers with the board of a game the sender plays in or
// observes as it would be after the moves given, played in turn from the
// position now, each checked as a move is (M70): a board mail of its
// own, in the game's thread, whose first line says that nothing was
// played. Nothing is played or stored, and nobody else is mailed.
func Preview(ctx context.Context, r *command.Request, a parser.PreviewArgs) (command.Result, error) {
	st, err := r.VisibleGame(ctx)
	if err != nil {
		return command.Result{}, err
	}
	effs, after, err := game.Preview(&st, a.Moves)
	if err != nil {
		return command.Result{}, r.GameRefusal(&st, err)
	}
	data := templates.PreviewData{Lang: r.Lang(r.Sender), Game: tell.GameWords(&st), To: r.Sender.Handle}
	if err := r.Subject(ctx, &data.Game, r.Sender); err != nil {
		return command.Result{}, err
	}
	mover := st.Pos.Turn()
	for _, eff := range effs {
		data.Moves = append(data.Moves, templates.MoveOf(st.Player(mover).Handle, eff))
		mover = mover.Other()
	}
	data.After = afterWords(&st, after)
	data.Board = templates.ViewOf(after, st.Side(r.Sender.ID)).WithLast(effs[len(effs)-1].Move)
	if st.Active() && st.ToMove().ID == r.Sender.ID {
		data.First = effs[0].Move.String()
	}
	subject, text, html, err := templates.PreviewMail(data)
	if err != nil {
		return command.Result{}, err
	}
	if _, err := r.GameMail(ctx, r.Sender, st.Game, subject, text, html); err != nil {
		return command.Result{}, err
	}
	return command.Result{Notes: []string{fmt.Sprintf("preview %d", st.ID())}}, nil
}

// afterWords is where the game of st would stand at pos, for the
// preview's words: who is to move, or how it would end (R15-R17).
func afterWords(st *game.State, pos rules.Position) templates.Game {
	g := templates.Game{ID: st.ID(), White: st.White.Handle, Black: st.Black.Handle, MoveNumber: pos.MoveNumber(),
		State: templates.Playing, ToMove: st.Player(pos.Turn()).Handle}
	switch o := pos.Outcome(); o.State {
	case rules.Won:
		g.State, g.Winner, g.Reason, g.ToMove = templates.Won, st.Player(o.Winner).Handle, o.Reason, ""
	case rules.Drawn:
		g.State, g.Reason, g.ToMove = templates.Drawn, o.Reason, ""
	}
	return g
}
