package game

import (
	"context"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/rules"
)

// Terms are what a new game is played under.
type Terms struct {
	White, Black db.Player
	Challenger   db.Player // White or Black: who proposed the game
	Control      parser.TimeControl
	Unrated      bool
	// TimeoutClaim is set when a player who runs out of time loses only
	// when the opponent claims it (timeout=claim, M66).
	TimeoutClaim bool
	// Start is the position the game begins from (M72), as the rules
	// write it; "" for the start of every game (R3). A game from a
	// position is unrated.
	Start string
	// Tournament and Round place a tournament's game; zero for others.
	Tournament int64
	Round      int
}

// newGame is the stored form of a game under terms t.
func (t Terms) newGame(status db.Status) db.Game {
	tc := t.Control
	if tc.Days == 0 {
		tc = DefaultControl
	}
	pos := rules.StartPosition
	if t.Start != "" {
		pos = t.Start
	}
	return db.Game{White: t.White.ID, Black: t.Black.ID, Challenger: t.Challenger.ID, Status: status,
		Position: pos, Start: t.Start, TimeControl: tc.String(), Rated: !t.Unrated && t.Start == "",
		Tournament: t.Tournament, Round: t.Round, TimeoutClaim: t.TimeoutClaim}
}

// Challenge creates a game under t that waits for the challenged player
// to accept or decline it.
func Challenge(ctx context.Context, tx *db.Tx, t Terms, now time.Time) (State, []Event, error) {
	st, err := create(ctx, tx, t, db.Challenged, now)
	if err != nil {
		return State{}, nil, err
	}
	return st, []Event{event(Challenged, &st, t.Challenger)}, nil
}

// Start creates a game under t that begins at once, its clocks running.
func Start(ctx context.Context, tx *db.Tx, t Terms, now time.Time) (State, []Event, error) {
	st, err := create(ctx, tx, t, db.Active, now)
	if err != nil {
		return State{}, nil, err
	}
	st.startClocks()
	if err := st.save(ctx, tx); err != nil {
		return State{}, nil, err
	}
	return st, []Event{event(Started, &st, db.Player{})}, nil
}

func create(ctx context.Context, tx *db.Tx, t Terms, status db.Status, now time.Time) (State, error) {
	g, err := tx.AddGame(ctx, t.newGame(status), now)
	if err != nil {
		return State{}, err
	}
	return Of(ctx, tx, g, now)
}

// Challenged checks that player may answer the challenge of st: it waits
// for an answer, and player is the one challenged. Otherwise it returns
// the *Refusal.
func (st *State) Challenged(player db.Player) error {
	switch {
	case st.Game.Status != db.Challenged:
		return refuse(NotChallenged)
	case st.Game.Challenger == player.ID:
		return &Refusal{Problem: OwnChallenge, Other: st.Opponent(player.ID).Handle}
	}
	return nil
}

// Accept starts a game player was challenged to.
func Accept(ctx context.Context, tx *db.Tx, st *State, player db.Player) ([]Event, error) {
	if err := st.Challenged(player); err != nil {
		return nil, err
	}
	st.Game.Status = db.Active
	st.startClocks()
	if err := st.save(ctx, tx); err != nil {
		return nil, err
	}
	return []Event{event(Accepted, st, player)}, nil
}

// Decline refuses a game player was challenged to.
func Decline(ctx context.Context, tx *db.Tx, st *State, player db.Player) ([]Event, error) {
	if err := st.Challenged(player); err != nil {
		return nil, err
	}
	st.Game.Status = db.Declined
	if err := st.save(ctx, tx); err != nil {
		return nil, err
	}
	return []Event{event(Declined, st, player)}, nil
}
