package rules

import (
	"fmt"
	"math"
	"math/bits"
)

// Placed is a piece on a square.
type Placed struct {
	Square Square
	Piece  Piece
}

// Effects is what a move did, for putting it into words.
type Effects struct {
	Move     Move
	Piece    Piece    // the piece that moved, as it was before any promotion
	Captured []Placed // the pieces captured, in the order of the chain
	Drowned  []Placed // the mover's pieces drowned at the end of the move (R13)
	Promoted bool     // the pawn that moved became a superpawn (R11)
	Outcome  Outcome  // the state of the game after the move
}

// Apply returns the position after m and what the move did. m must be a
// legal move of p, from Legal or ParseMove; Apply panics otherwise.
func (p Position) Apply(m Move) (Position, Effects) {
	if !p.isLegal(m) {
		panic(fmt.Sprintf("rules: Apply(%v) in %q: not a legal move", m, p))
	}
	eff := Effects{Move: m, Piece: p.board[m.From()]}
	p.play(&m, &eff)
	eff.Outcome = p.Outcome()
	return p, eff
}

// isLegal reports whether m is one of the legal moves of p.
func (p *Position) isLegal(m Move) bool {
	if m.n < 2 || m.From() >= NoSquare {
		return false
	}
	var moves []Move
	p.genFrom(m.From(), &moves)
	for _, l := range moves {
		if l == m {
			return true
		}
	}
	return false
}

// play makes the legal move m in p. When eff is not nil, it records the
// captures, drownings and promotion there.
func (p *Position) play(m *Move, eff *Effects) {
	us, them := p.turn, p.turn^1
	from, to := m.path[0], m.path[m.n-1]
	pc := p.board[from]
	if m.capture {
		if pc.Kind() == Monkey {
			// Each jump captures the piece halfway between two landings (R8).
			for i := 1; i < int(m.n); i++ {
				p.remove((m.path[i-1]+m.path[i])/2, them, eff, false)
			}
		} else {
			p.remove(to, them, eff, false)
		}
	}
	// A monkey's chain may end where it started: clear, then set.
	p.board[from] = NoPiece
	p.hash ^= tab.zobrist[pc][from]
	p.occ[us] = p.occ[us]&^from.bit() | to.bit()
	switch pc.Kind() {
	case Lion:
		p.lion[us] = to
	case Pawn:
		if tab.lastRank[us]&to.bit() != 0 { // R11
			pc = NewPiece(us, Superpawn)
			if eff != nil {
				eff.Promoted = true
			}
		}
	}
	p.board[to] = pc
	p.hash ^= tab.zobrist[pc][to]

	// R13: the mover's pieces in the river drown, except crocodiles and a
	// piece that has just entered it. R14: after the captures.
	if wet := p.occ[us] & riverMask; wet != 0 {
		if entered(m) {
			wet &^= to.bit()
		}
		for ; wet != 0; wet &= wet - 1 {
			s := Square(bits.TrailingZeros64(wet))
			if p.board[s].Kind() != Crocodile {
				p.remove(s, us, eff, true)
			}
		}
	}
	// R21. The number stops at the largest one ParsePosition reads, so
	// that every position can be written and read back.
	if us == Black && p.number < math.MaxInt32 {
		p.number++
	}
	p.turn = them
	p.hash ^= tab.zobristBlack
}

// entered reports whether the piece making m counts as having just entered
// the river: it started outside the river (R13 b), or it is a monkey whose
// chain landed outside the river (R13 c). Only monkeys make moves of more
// than one landing, and a monkey's one-landing jump that starts in the river
// and lands outside it ends outside it.
func entered(m *Move) bool {
	for _, s := range m.path[:m.n-1] {
		if !inRiver(s) {
			return true
		}
	}
	return false
}

// remove takes the piece of color c off s, recording it in eff.
func (p *Position) remove(s Square, c Color, eff *Effects, drowned bool) {
	pc := p.board[s]
	if eff != nil {
		if drowned {
			eff.Drowned = append(eff.Drowned, Placed{s, pc})
		} else {
			eff.Captured = append(eff.Captured, Placed{s, pc})
		}
	}
	p.board[s] = NoPiece
	p.hash ^= tab.zobrist[pc][s]
	p.occ[c] &^= s.bit()
	if pc.Kind() == Lion {
		p.lion[c] = NoSquare
	}
}
