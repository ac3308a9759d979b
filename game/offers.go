package game

import (
	"context"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/rules"
)

// Draw offers a draw for player, or accepts the opponent's offer (M13).
func Draw(ctx context.Context, tx *db.Tx, st *State, player db.Player) ([]Event, error) {
	var e Event
	if st.Game.DrawOffer == st.Opponent(player.ID).ID {
		if err := finish(ctx, tx, st, db.Draw, rules.Agreed); err != nil {
			return nil, err
		}
		e = event(Ended, st, player)
	} else {
		st.Game.DrawOffer = player.ID
		e = event(DrawOffered, st, player)
	}
	return []Event{e}, st.save(ctx, tx)
}

// AgreeDraw ends the game drawn by agreement, player accepting an offer
// at once (the robot does, when it stands clearly lost).
func AgreeDraw(ctx context.Context, tx *db.Tx, st *State, player db.Player) ([]Event, error) {
	if err := finish(ctx, tx, st, db.Draw, rules.Agreed); err != nil {
		return nil, err
	}
	if err := st.save(ctx, tx); err != nil {
		return nil, err
	}
	return []Event{event(Ended, st, player)}, nil
}

// NoDraw declines the opponent's draw offer for player; without one it
// is a *Refusal.
func NoDraw(ctx context.Context, tx *db.Tx, st *State, player db.Player) ([]Event, error) {
	if st.Game.DrawOffer != st.Opponent(player.ID).ID {
		return nil, refuse(NoOffer)
	}
	return declineDraw(ctx, tx, st, player)
}

// DeclineDraw withdraws the draw offer standing in the game, whoever made
// it, player declining it (the robot declines an offer so at once).
func DeclineDraw(ctx context.Context, tx *db.Tx, st *State, player db.Player) ([]Event, error) {
	return declineDraw(ctx, tx, st, player)
}

func declineDraw(ctx context.Context, tx *db.Tx, st *State, player db.Player) ([]Event, error) {
	st.Game.DrawOffer = 0
	if err := st.save(ctx, tx); err != nil {
		return nil, err
	}
	return []Event{event(DrawDeclined, st, player)}, nil
}

// Takeback asks, for player, to undo their last move, or grants the
// opponent's request, which undoes it (M13).
func Takeback(ctx context.Context, tx *db.Tx, st *State, player db.Player) ([]Event, error) {
	moves, err := tx.Moves(ctx, st.ID())
	if err != nil {
		return nil, err
	}
	if len(moves) == 0 {
		return nil, refuse(NoMoves)
	}
	lastMover := st.Player(st.Pos.Turn().Other())
	switch {
	case lastMover.ID == player.ID:
		st.Game.Takeback = player.ID
		if err := st.save(ctx, tx); err != nil {
			return nil, err
		}
		return []Event{event(TakebackAsked, st, player)}, nil
	case st.Game.Takeback != lastMover.ID:
		return nil, &Refusal{Problem: NotYourTakeback, Other: lastMover.Handle}
	}
	if err := undo(ctx, tx, st, moves); err != nil {
		return nil, err
	}
	return []Event{event(TakebackDone, st, player)}, nil
}

// undo takes back the last of a game's moves: the player who made it is
// to move again, with the time they had left when they made it (a
// takeback gives no time; a days=N clock, which every move fills, is
// full), and conditional moves are dropped.
func undo(ctx context.Context, tx *db.Tx, st *State, moves []db.Move) error {
	if err := tx.DeleteLastMove(ctx, st.ID()); err != nil {
		return err
	}
	pos := st.Start
	if len(moves) > 1 {
		var err error
		if pos, err = rules.ParsePosition(moves[len(moves)-2].Position); err != nil {
			return err
		}
	}
	// The notes written at the move taken back stay with the move before
	// it (M68).
	if err := tx.NotesBack(ctx, st.ID(), len(moves)-1); err != nil {
		return err
	}
	st.Pos, st.Game.Position = pos, pos.String()
	st.Game.Takeback, st.Game.DrawOffer = 0, 0
	tc, left := Control(st.Game), st.leftOf(pos.Turn())
	switch last := moves[len(moves)-1]; {
	case increment(tc) >= bank(tc):
		*left = bank(tc)
	case last.TimeLeft > 0:
		*left = last.TimeLeft
	default:
		// A move stored before its time left was: the increment off
		// again, which is that time unless the bank's cap cut it.
		*left = max(*left-increment(tc), 0)
	}
	st.startTurn()
	for _, p := range []int64{st.Game.White, st.Game.Black} {
		if _, err := tx.DeleteConditionals(ctx, st.ID(), p); err != nil {
			return err
		}
	}
	return st.save(ctx, tx)
}

// Abort ends the game without result, for player, while not both sides
// have moved (M13).
func Abort(ctx context.Context, tx *db.Tx, st *State, player db.Player) ([]Event, error) {
	if st.Ply() > 2 {
		return nil, refuse(TooLate)
	}
	if err := finish(ctx, tx, st, db.NoResult, rules.Aborted); err != nil {
		return nil, err
	}
	if err := st.save(ctx, tx); err != nil {
		return nil, err
	}
	return []Event{event(Ended, st, player)}, nil
}
