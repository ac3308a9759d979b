package rules

import (
	"cmp"
	"slices"
)

// Perft returns the number of sequences of depth legal moves from p (R22):
// a position where the game is over ends every sequence through it, so it
// counts at depth 0 only.
func Perft(p Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	s := perfter{bufs: make([][]Move, depth+1)}
	for i := range s.bufs {
		s.bufs[i] = make([]Move, 0, 128)
	}
	return s.perft(&p, depth)
}

// perfter holds one reusable move list per depth, so that perft does not
// allocate once the lists have grown.
type perfter struct{ bufs [][]Move }

func (s *perfter) perft(p *Position, depth int) uint64 {
	if depth == 1 {
		return uint64(p.count())
	}
	if p.over() {
		return 0
	}
	moves := s.bufs[depth][:0]
	p.gen(&moves)
	s.bufs[depth] = moves
	var n uint64
	for i := range moves {
		child := *p
		child.play(&moves[i], nil)
		n += s.perft(&child, depth-1)
	}
	return n
}

// DivideEntry is one line of Divide: a legal move and the perft count
// below it.
type DivideEntry struct {
	Move  string // canonical R20 notation
	Nodes uint64
}

// Divide returns, for each legal move of p, the perft count of depth-1
// after it, sorted by move. The counts add up to Perft(p, depth). It
// returns nil when depth < 1 or the game is over.
func Divide(p Position, depth int) []DivideEntry {
	if depth < 1 {
		return nil
	}
	var out []DivideEntry
	for _, m := range p.Legal() {
		next := p
		next.play(&m, nil)
		out = append(out, DivideEntry{Move: m.String(), Nodes: Perft(next, depth-1)})
	}
	slices.SortFunc(out, func(a, b DivideEntry) int { return cmp.Compare(a.Move, b.Move) })
	return out
}
