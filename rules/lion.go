package rules

// Attacks on a lion. Congo has no check (R16): a move may leave its
// side's lion where the enemy can take it, and taking it wins at once
// (R15). These functions say where that is so, for the server's lion
// guard and the warnings of its mails (MAIL.md M61); they decide
// nothing about legality.

// LionCaptures returns the legal moves of the side to move that capture
// the enemy lion (R15), by any piece and any kind of move: a step or a
// jump onto it, the lion's flying capture along an open file or
// diagonal (R4), a crocodile's slide (R9), a monkey's chain that jumps
// it (R8; the chain ends there, and every chain that captures other
// pieces first is a move of its own). They come in the order of Legal;
// none when the game is over.
func (p Position) LionCaptures() []Move {
	if p.over() {
		return nil
	}
	them := p.turn.Other()
	var moves, out []Move
	p.gen(&moves)
	for _, m := range moves {
		if !m.capture {
			continue
		}
		q := p
		q.play(&m, nil)
		if q.lion[them] == NoSquare {
			out = append(out, m)
		}
	}
	return out
}

// LionThreats returns the moves by which the side not to move could
// capture the lion of the side to move, were it their turn: the lion is
// attacked (M61), and unless the side to move does something about it,
// the opponent takes it with the next move. They come in the order of
// Legal; none when the game is over.
func (p Position) LionThreats() []Move {
	if p.over() {
		return nil
	}
	q := p
	q.turn = p.turn.Other()
	q.hash ^= tab.zobristBlack
	return q.LionCaptures()
}

// LionExposed reports whether the legal move m of p lets the opponent
// capture the mover's lion with the next move (R15): after m, its
// captures and its drownings (R13, R14), the opponent has a move that
// takes the lion. capture is the first such move, one with the fewest
// landings (a monkey's shortest chain). A move that ends the game, by
// capturing the enemy lion (R15), leaving only the lions (R17) or
// leaving the opponent no move (R16), exposes nothing.
func (p Position) LionExposed(m Move) (capture Move, exposed bool) {
	after, eff := p.Apply(m)
	if eff.Outcome.Over() {
		return Move{}, false
	}
	return shortest(after.LionCaptures())
}

// LionAttack returns the first of LionThreats, one with the fewest
// landings; ok is false when the lion of the side to move is not
// attacked.
func (p Position) LionAttack() (capture Move, ok bool) {
	return shortest(p.LionThreats())
}

// shortest returns the first of moves with the fewest landings, and
// whether there is one.
func shortest(moves []Move) (Move, bool) {
	if len(moves) == 0 {
		return Move{}, false
	}
	best := moves[0]
	for _, m := range moves[1:] {
		if m.n < best.n {
			best = m
		}
	}
	return best, true
}
