package game

import (
	"context"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/parser"
)

// AddConditional keeps a line of conditional moves for player (M14): the
// opponent's move, player's answer, the opponent's next, and so on, each
// legal in turn from the position now. It is refused while it is
// player's move, when a move of it cannot be played, and when it answers
// a move that player answers differently already.
func AddConditional(ctx context.Context, tx *db.Tx, st *State, player db.Player, line []string) error {
	if st.Pos.Turn() == st.ColorOf(player.ID) {
		return refuse(YourMove)
	}
	moves, why := checkLine(st, line)
	if why == nil {
		var err error
		if why, err = conflict(ctx, tx, st, player, moves); err != nil {
			return err
		}
	}
	if why != nil {
		return why
	}
	return tx.AddConditional(ctx, st.ID(), player.ID, moves)
}

// checkLine plays the moves of a conditional line from the position now
// and returns them in canonical notation, or the BadConditional refusal
// that says why they cannot be played. The player's last answer may be
// parser.ThenResign or parser.ThenDraw instead of a move (M69).
func checkLine(st *State, line []string) ([]string, *Refusal) {
	pos := st.Pos
	var moves []string
	for i, text := range line {
		if pos.Outcome().Over() {
			return nil, refusef(BadConditional, "", "the game is over before %s", text)
		}
		if text == parser.ThenResign || text == parser.ThenDraw {
			if i%2 == 0 || i != len(line)-1 {
				return nil, refusef(BadConditional, "", "resign and draw end a conditional line: nothing may follow them")
			}
			moves = append(moves, text)
			continue
		}
		m, err := pos.ParseMove(text)
		if err != nil {
			return nil, moveRefusal(BadConditional, text, err)
		}
		moves = append(moves, m.String())
		pos = pos.After(m)
	}
	return moves, nil
}

// conflict returns the BadConditional refusal of a new line that
// contradicts a line the player has already: both answer the same moves
// with different moves. It is nil when there is none.
func conflict(ctx context.Context, tx *db.Tx, st *State, player db.Player, moves []string) (*Refusal, error) {
	branches, err := tx.Conditionals(ctx, st.ID(), player.ID)
	if err != nil {
		return nil, err
	}
	for _, b := range branches {
		for i := 0; i < len(b) && i < len(moves) && b[i] == moves[i]; i++ {
			if i+1 < len(b) && i+1 < len(moves) && i%2 == 0 && b[i+1] != moves[i+1] {
				return refusef(BadConditional, "", "you answer %s with %s already", b[i], b[i+1]), nil
			}
		}
	}
	return nil, nil
}
