// Package game runs the life of a game of Congo over a database
// transaction: challenges, moves with their conditional answers, offers,
// clocks and deadlines, vacations, the end of a game and its rating. Each
// change returns the Events it caused; what they mean to people, and the
// mails that tell them, are the server's.
package game

import (
	"context"
	"fmt"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/rules"
)

// State is a game with its players and its position, at a time: Now, the
// time its clocks are read at and its changes are made at.
type State struct {
	Game         db.Game
	White, Black db.Player
	Pos          rules.Position
	// Start is the position the game began from: the start of every
	// game (R3), or the one its challenge named (M72).
	Start rules.Position
	Now   time.Time
	// Rated is set when the game just ended rated: the players hold their
	// new ratings, and Rated the changes of their rounded ratings.
	Rated *RatingChange
	// Event is the name of the tournament the game is part of (in round
	// Game.Round); "" for other games. Pauses is set when the
	// tournament's games may be paused by agreement (M63), NoVacation
	// when vacations do not stop their clocks (M67).
	Event      string
	Pauses     bool
	NoVacation bool
}

// RatingChange is how much the rounded ratings of a game's players
// changed when it ended.
type RatingChange struct {
	White, Black int
}

// Load reads a game with its players, as at now. A missing game is an
// error that wraps db.ErrNotFound.
func Load(ctx context.Context, tx *db.Tx, id int64, now time.Time) (State, error) {
	g, err := tx.Game(ctx, id)
	if err != nil {
		return State{}, err
	}
	return Of(ctx, tx, g, now)
}

// Of returns the state of game g, reading its players.
func Of(ctx context.Context, tx *db.Tx, g db.Game, now time.Time) (State, error) {
	st := State{Game: g, Now: now}
	var err error
	if st.White, err = tx.Player(ctx, g.White); err != nil {
		return State{}, err
	}
	if st.Black, err = tx.Player(ctx, g.Black); err != nil {
		return State{}, err
	}
	if st.Pos, err = rules.ParsePosition(g.Position); err != nil {
		return State{}, fmt.Errorf("game %d: %w", g.ID, err)
	}
	if st.Start, err = rules.ParsePosition(g.StartPosition()); err != nil {
		return State{}, fmt.Errorf("game %d: its start: %w", g.ID, err)
	}
	if g.Tournament != 0 {
		t, err := tx.Tournament(ctx, g.Tournament)
		if err != nil {
			return State{}, fmt.Errorf("game %d: %w", g.ID, err)
		}
		st.Event, st.Pauses, st.NoVacation = t.Name, t.Pauses, t.NoVacation
	}
	return st, nil
}

// ID is the game's number.
func (st *State) ID() int64 { return st.Game.ID }

// Player returns the player of colour c.
func (st *State) Player(c rules.Color) db.Player {
	if c == rules.White {
		return st.White
	}
	return st.Black
}

// ColorOf returns the colour the player plays.
func (st *State) ColorOf(player int64) rules.Color {
	if player == st.Game.White {
		return rules.White
	}
	return rules.Black
}

// Opponent returns the other player of the game.
func (st *State) Opponent(player int64) db.Player {
	return st.Player(st.ColorOf(player).Other())
}

// ToMove returns the player to move.
func (st *State) ToMove() db.Player { return st.Player(st.Pos.Turn()) }

// Side is the colour player sees the game from: their own, or White for
// someone who does not play in it.
func (st *State) Side(player int64) rules.Color {
	if st.Game.Has(player) {
		return st.ColorOf(player)
	}
	return rules.White
}

// Active reports whether the game is being played.
func (st *State) Active() bool { return st.Game.Status == db.Active }

// Ply is the number of the move about to be made at p in a game that
// began at start, counting both sides' moves from 1 (the first move of
// the game is ply 1, whichever side makes it).
func Ply(start, p rules.Position) int {
	return r21Ply(p) - r21Ply(start) + 1
}

// Ply is the number of the move about to be made in the game, counting
// both sides' moves from 1.
func (st *State) Ply() int { return Ply(st.Start, st.Pos) }

// r21Ply is the number of the move about to be made at p counted from
// the start of every game (R21's move number and side to move): 1 for
// White's first move, 2 for Black's, ...
func r21Ply(p rules.Position) int {
	n := 2 * (p.MoveNumber() - 1)
	if p.Turn() == rules.Black {
		n++
	}
	return n + 1
}

// MoveNumber is the R21 move number of a game's ply (counted from 1 in
// the game that began at start), and the side that makes it.
func MoveNumber(start rules.Position, ply int) (int, rules.Color) {
	n := r21Ply(start) + ply - 1
	if n%2 == 1 {
		return (n + 1) / 2, rules.White
	}
	return n / 2, rules.Black
}

// resultOf is the stored result of a game won by c.
func resultOf(c rules.Color) db.Result {
	if c == rules.White {
		return db.WhiteWins
	}
	return db.BlackWins
}

// save stores the game, with when its clock next has something to do.
func (st *State) save(ctx context.Context, tx *db.Tx) error {
	st.Game.ClockDue = st.clockDue()
	return tx.SetGame(ctx, st.Game, st.Now)
}

// PositionAfter is the position of the game of st after black's move n
// (M15, R21's numbers): the position it began from for 0; ok is false
// when the game has not come so far, and for a move before the position
// it began from (M72).
func PositionAfter(ctx context.Context, tx *db.Tx, st *State, n int) (rules.Position, bool, error) {
	if n == 0 {
		return st.Start, true, nil
	}
	// After black's move n, 2n moves were made since the start of every
	// game: those of this game after its first r21Ply-1.
	plies := 2*n - (r21Ply(st.Start) - 1)
	if plies == 0 {
		return st.Start, true, nil
	}
	moves, err := tx.Moves(ctx, st.ID())
	if err != nil || plies < 0 || plies > len(moves) {
		return rules.Position{}, false, err
	}
	pos, err := rules.ParsePosition(moves[plies-1].Position)
	return pos, err == nil, err
}

// LastMove returns the last move of a game and what it did, with the
// player who made it; ok is false at the start.
func LastMove(ctx context.Context, tx *db.Tx, st *State) (rules.Effects, db.Player, bool, error) {
	moves, err := tx.Moves(ctx, st.ID())
	if err != nil || len(moves) == 0 {
		return rules.Effects{}, db.Player{}, false, err
	}
	before := st.Start
	if len(moves) > 1 {
		if before, err = rules.ParsePosition(moves[len(moves)-2].Position); err != nil {
			return rules.Effects{}, db.Player{}, false, err
		}
	}
	m, err := before.ParseMove(moves[len(moves)-1].Move)
	if err != nil {
		return rules.Effects{}, db.Player{}, false, fmt.Errorf("game %d: last move: %w", st.ID(), err)
	}
	_, eff := before.Apply(m)
	return eff, st.Player(before.Turn()), true, nil
}
