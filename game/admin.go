package game

import (
	"context"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/rules"
)

// Adjourn stops a game being played, for the operator: nobody moves in
// it and its clock stands still, the mover keeping the time left now.
func Adjourn(ctx context.Context, tx *db.Tx, st *State) ([]Event, error) {
	if err := st.active(); err != nil {
		return nil, err
	}
	if st.Game.IsAdjourned() {
		return nil, refuse(AdjournedAlready)
	}
	st.stopClock()
	st.Game.ClockStart, st.Game.TurnTime, st.Game.Adjourned = AdjournedClock, *st.leftOf(st.Pos.Turn()), st.Now
	if err := tx.SetAdjourned(ctx, st.ID(), st.Now); err != nil {
		return nil, err
	}
	return []Event{event(Adjourned, st, db.Player{})}, st.save(ctx, tx)
}

// Resume starts an adjourned game again: the mover's clock runs from now.
func Resume(ctx context.Context, tx *db.Tx, st *State) ([]Event, error) {
	if err := st.active(); err != nil {
		return nil, err
	}
	if !st.Game.IsAdjourned() {
		return nil, refuse(NotAdjourned)
	}
	st.Game.Adjourned = time.Time{}
	st.startTurn()
	if err := tx.SetAdjourned(ctx, st.ID(), time.Time{}); err != nil {
		return nil, err
	}
	return []Event{event(Resumed, st, db.Player{})}, st.save(ctx, tx)
}

// Adjudicate ends a game being played with the result the operator
// decided (rated as any other).
func Adjudicate(ctx context.Context, tx *db.Tx, st *State, result db.Result) ([]Event, error) {
	if err := st.active(); err != nil {
		return nil, err
	}
	if err := finish(ctx, tx, st, result, rules.Adjudicated); err != nil {
		return nil, err
	}
	if st.Game.IsAdjourned() {
		st.Game.Adjourned = time.Time{}
		if err := tx.SetAdjourned(ctx, st.ID(), time.Time{}); err != nil {
			return nil, err
		}
	}
	return []Event{event(Adjudicated, st, db.Player{}), event(Ended, st, db.Player{})}, st.save(ctx, tx)
}

// active checks that the game is being played.
func (st *State) active() error {
	if !st.Active() {
		return refuse(NotActive)
	}
	return nil
}
