package game

import (
	"context"
	"fmt"

	"github.com/congobymail/congo/db"
)

// AddConditional keeps a line of conditional moves for player (M14): the
// opponent's move, player's answer, the opponent's next, and so on, each
// legal in turn from the position now. It is refused while it is
// player's move, when a move of it cannot be played, and when it answers
// a move that player answers differently already.
func AddConditional(ctx context.Context, tx *db.Tx, st *State, player db.Player, line []string) error {
	if st.Pos.Turn() == st.ColorOf(player.ID) {
		return refuse(YourMove, "")
	}
	moves, why := checkLine(st, line)
	if why == "" {
		var err error
		if why, err = conflict(ctx, tx, st, player, moves); err != nil {
			return err
		}
	}
	if why != "" {
		return refuse(BadConditional, why)
	}
	return tx.AddConditional(ctx, st.ID(), player.ID, moves)
}

// checkLine plays the moves of a conditional line from the position now
// and returns them in canonical notation, or why they cannot be played.
func checkLine(st *State, line []string) ([]string, string) {
	pos := st.Pos
	var moves []string
	for _, text := range line {
		if pos.Outcome().Over() {
			return nil, fmt.Sprintf("the game is over before %s", text)
		}
		m, err := pos.ParseMove(text)
		if err != nil {
			return nil, err.Error()
		}
		moves = append(moves, m.String())
		pos = pos.After(m)
	}
	return moves, ""
}

// conflict says why a new line contradicts a line the player has
// already: both answer the same moves with different moves.
func conflict(ctx context.Context, tx *db.Tx, st *State, player db.Player, moves []string) (string, error) {
	branches, err := tx.Conditionals(ctx, st.ID(), player.ID)
	if err != nil {
		return "", err
	}
	for _, b := range branches {
		for i := 0; i < len(b) && i < len(moves) && b[i] == moves[i]; i++ {
			if i+1 < len(b) && i+1 < len(moves) && i%2 == 0 && b[i+1] != moves[i+1] {
				return fmt.Sprintf("you answer %s with %s already", b[i], b[i+1]), nil
			}
		}
	}
	return "", nil
}
