package server

import (
	"context"
	"fmt"
	"slices"

	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/templates"
)

// answerConditional plays the conditional answer of the player to move to
// the move just made, m, if they have one (M14): the branches that start
// with m and that answer keep their rest; all others are dropped.
func (h *handling) answerConditional(ctx context.Context, gs *gameState, m fmt.Stringer) error {
	player := gs.player(gs.pos.Turn())
	branches, err := h.tx.Conditionals(ctx, gs.g.ID, player.ID)
	if err != nil || len(branches) == 0 {
		return err
	}
	if _, err := h.tx.ClearConditionals(ctx, gs.g.ID, player.ID); err != nil {
		return err
	}
	var answer string
	for _, b := range branches {
		if len(b) < 2 || b[0] != m.String() || answer != "" && b[1] != answer {
			continue
		}
		answer = b[1]
		if len(b) >= 4 {
			if err := h.tx.AddConditional(ctx, gs.g.ID, player.ID, b[2:]); err != nil {
				return err
			}
		}
	}
	if answer == "" {
		return nil
	}
	reply, err := gs.pos.ParseMove(answer)
	if err != nil { // the lines were checked when sent; a takeback clears them
		h.s.log.Error("conditional move no longer legal", "game", gs.g.ID, "move", answer, "err", err)
		return nil
	}
	return h.play(ctx, gs, player, reply, nil, true)
}

// ifLine keeps a line of conditional moves, after checking that every
// move of it is legal in turn from the position now.
func (h *handling) ifLine(ctx context.Context, c parser.Command) error {
	gs, ok, err := h.activeGame(ctx, c)
	if err != nil || !ok {
		return err
	}
	if gs.pos.Turn() == gs.colorOf(h.sender.ID) {
		h.fail(h.gameError(c, gs, templates.YourMove, ""))
		return nil
	}
	moves, why := checkLine(gs, c.Moves)
	if why == "" {
		why, err = h.conflict(ctx, gs, moves)
		if err != nil {
			return err
		}
	}
	if why != "" {
		h.fail(h.gameError(c, gs, templates.BadConditional, why))
		return nil
	}
	if err := h.tx.AddConditional(ctx, gs.g.ID, h.sender.ID, moves); err != nil {
		return err
	}
	h.note(fmt.Sprintf("conditional %d", gs.g.ID))
	if !slices.Contains(h.conditionals, gs.g.ID) {
		h.conditionals = append(h.conditionals, gs.g.ID)
	}
	h.added[gs.g.ID]++
	return nil
}

// checkLine plays the moves of a conditional line from the position now
// and returns them in canonical notation, or why they cannot be played.
func checkLine(gs gameState, line []string) ([]string, string) {
	pos := gs.pos
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

// conflict says why a new line contradicts a line the sender has
// already: both answer the same moves with different moves.
func (h *handling) conflict(ctx context.Context, gs gameState, moves []string) (string, error) {
	branches, err := h.tx.Conditionals(ctx, gs.g.ID, h.sender.ID)
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

// conditional shows, or clears, the sender's conditional moves in a game.
func (h *handling) conditional(ctx context.Context, c parser.Command) error {
	gs, ok, err := h.ownGame(ctx, c)
	if err != nil || !ok {
		return err
	}
	if c.Clear {
		n, err := h.tx.ClearConditionals(ctx, gs.g.ID, h.sender.ID)
		if err != nil {
			return err
		}
		h.cleared[gs.g.ID] += n
	}
	if !slices.Contains(h.conditionals, gs.g.ID) {
		h.conditionals = append(h.conditionals, gs.g.ID)
	}
	h.note(fmt.Sprintf("conditional %d", gs.g.ID))
	return nil
}

// listConditionals answers, once per game, the commands about
// conditional moves with the lines kept after the whole mail.
func (h *handling) listConditionals(ctx context.Context) error {
	for _, game := range h.conditionals {
		branches, err := h.tx.Conditionals(ctx, game, h.sender.ID)
		if err != nil {
			return err
		}
		h.answer(templates.ConditionalList{GameID: game, Branches: branches, Added: h.added[game], Cleared: h.cleared[game]})
	}
	return nil
}
