package play

import (
	"context"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/congobymail/congo/command"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/templates"
)

// MaxNoteChars is the most characters of notes a player keeps in one
// game (M68): a note past it is not kept, and the answer says so.
const MaxNoteChars = 32 << 10

// Note keeps a private note of the sender's in one of their games, with
// the last move played (or the start), for them alone (M68). It mails
// nobody else, and spends none of the sender's budget for others.
func Note(ctx context.Context, r *command.Request, a parser.NoteArgs) (command.Result, error) {
	st, err := r.OwnGame(ctx)
	if err != nil {
		return command.Result{}, err
	}
	_, chars, err := r.Tx.NotesSize(ctx, st.ID(), r.Sender.ID)
	if err != nil {
		return command.Result{}, err
	}
	if chars+utf8.RuneCountInString(a.Text) > MaxNoteChars {
		e := r.GameError(&st, templates.TooManyNotes, strconv.Itoa(chars))
		e.Board, e.Game = nil, nil
		return command.Result{}, command.Refuse(e)
	}
	moves, err := r.Tx.Moves(ctx, st.ID())
	if err != nil {
		return command.Result{}, err
	}
	if err := r.Tx.AddNote(ctx, db.Note{Game: st.ID(), Player: r.Sender.ID, Ply: len(moves), Text: a.Text, At: r.Now}); err != nil {
		return command.Result{}, err
	}
	// The log says that a note was kept, never what it says.
	res := command.Answer(fmt.Sprintf("note %d", st.ID()), templates.NoteKept{GameID: st.ID(), At: plyLabel(&st, moves, len(moves)), Text: a.Text})
	res.Game = st.ID()
	return res, nil
}

// Notes answers with the sender's notes in one of their games, each
// under the move it was written at (M68).
func Notes(ctx context.Context, r *command.Request) (command.Result, error) {
	st, err := r.OwnGame(ctx)
	if err != nil {
		return command.Result{}, err
	}
	notes, err := r.Tx.Notes(ctx, st.ID(), r.Sender.ID)
	if err != nil {
		return command.Result{}, err
	}
	moves, err := r.Tx.Moves(ctx, st.ID())
	if err != nil {
		return command.Result{}, err
	}
	list := templates.NoteList{GameID: st.ID()}
	for i, n := range notes {
		if i == 0 || n.Ply != notes[i-1].Ply {
			list.Moves = append(list.Moves, templates.NotedMove{At: plyLabel(&st, moves, n.Ply)})
		}
		m := &list.Moves[len(list.Moves)-1]
		m.Notes = append(m.Notes, n.Text)
	}
	res := command.Answer(fmt.Sprintf("notes %d", st.ID()), list)
	res.Game = st.ID()
	return res, nil
}

// plyLabel is the move of ply (from 1) of the game of st with its R21
// number, "12. d2-e3"; "" for ply 0, the start.
func plyLabel(st *game.State, moves []db.Move, ply int) string {
	if ply <= 0 || ply > len(moves) {
		return ""
	}
	n, side := game.MoveNumber(st.Start, ply)
	return templates.MoveLabel(n, side, moves[ply-1].Move)
}
