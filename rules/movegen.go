package rules

import "math/bits"

// Move generation. Congo has no check (R16), so every move a piece can make
// by R4-R12 is legal; the game ends only by R15-R17. gen* functions list
// the moves, count* functions count them with bitboards for perft; the two
// are kept in agreement by the tests.

// all returns the occupied squares.
func (p *Position) all() uint64 { return p.occ[White] | p.occ[Black] }

// over reports whether the game is over before looking for moves: a lion is
// gone (R15), or only the lions are left and the side to move cannot capture
// the other (R17).
func (p *Position) over() bool {
	if p.lion[White] == NoSquare || p.lion[Black] == NoSquare {
		return true
	}
	return p.bareLions() && !p.canFly()
}

// bareLions reports whether the two lions are the only pieces left.
func (p *Position) bareLions() bool { return bits.OnesCount64(p.all()) == 2 }

// canFly reports whether the lion of the side to move can capture the other
// lion along a file or diagonal (R4). Both lions must be on the board.
func (p *Position) canFly() bool {
	b := tab.between[p.lion[p.turn]][p.lion[p.turn^1]]
	return b&notAligned == 0 && b&p.all() == 0
}

// Legal returns every legal move in p, or nil when the game is over. Moves
// come piece by piece, in the order of the pieces' squares.
func (p Position) Legal() []Move {
	if p.over() {
		return nil
	}
	var moves []Move
	p.gen(&moves)
	if len(moves) == 0 {
		return nil
	}
	return moves
}

// gen appends the moves of the side to move to out; the caller checks over.
func (p *Position) gen(out *[]Move) {
	for own := p.occ[p.turn]; own != 0; own &= own - 1 {
		p.genFrom(Square(bits.TrailingZeros64(own)), out)
	}
}

func simple(from, to Square, capture bool) Move {
	m := Move{n: 2, capture: capture}
	m.path[0], m.path[1] = from, to
	return m
}

// genTargets appends a move from s to each square of targets.
func (p *Position) genTargets(s Square, targets uint64, out *[]Move) {
	them := p.occ[p.turn^1]
	for ; targets != 0; targets &= targets - 1 {
		t := Square(bits.TrailingZeros64(targets))
		*out = append(*out, simple(s, t, them&t.bit() != 0))
	}
}

// genFrom appends the moves of the piece of the side to move on s to out.
func (p *Position) genFrom(s Square, out *[]Move) {
	pc := p.board[s]
	us := p.turn
	if pc == NoPiece || pc.Color() != us || p.over() {
		return
	}
	own, them, all := p.occ[us], p.occ[us^1], p.all()
	switch pc.Kind() {
	case Lion:
		p.genTargets(s, tab.lion[us][s]&^own, out)
		if p.canFly() {
			*out = append(*out, simple(s, p.lion[us^1], true))
		}
	case Zebra:
		p.genTargets(s, tab.knight[s]&^own, out)
	case Elephant:
		p.genTargets(s, tab.elephant[s]&^own, out)
	case Giraffe:
		p.genTargets(s, tab.king[s]&^all, out)
		p.genTargets(s, tab.giraffeJump[s]&^own, out)
	case Monkey:
		p.genTargets(s, tab.king[s]&^all, out)
		var path [maxPath]Square
		path[0] = s
		p.genChains(&path, 1, 0, ^all|s.bit(), out)
	case Crocodile:
		p.genTargets(s, tab.king[s]&^own, out)
		for _, r := range tab.crocRays[s] {
			// r[0] is a step, generated above; slide beyond it.
			for i, t := range r {
				if all&t.bit() != 0 {
					if i > 0 && them&t.bit() != 0 {
						*out = append(*out, simple(s, t, true))
					}
					break
				}
				if i > 0 {
					*out = append(*out, simple(s, t, false))
				}
			}
		}
	case Pawn:
		for _, t := range tab.pawnFwdList[us][s] {
			if own&t.bit() == 0 {
				*out = append(*out, simple(s, t, them&t.bit() != 0))
			}
		}
		genSlides(s, tab.pawnBack[us][s], all, out)
	case Superpawn:
		for _, t := range tab.superFwdList[us][s] {
			if own&t.bit() == 0 {
				*out = append(*out, simple(s, t, them&t.bit() != 0))
			}
		}
		for _, r := range tab.superBack[us][s] {
			genSlides(s, r, all, out)
		}
	}
}

// genSlides appends the non-capturing moves from s along r, up to the
// first occupied square.
func genSlides(s Square, r []Square, all uint64, out *[]Move) {
	for _, t := range r {
		if all&t.bit() != 0 {
			return
		}
		*out = append(*out, simple(s, t, false))
	}
}

// genChains appends every monkey capture chain (R8) that continues the
// n squares of path: each jump is a move of its own, then the chain goes
// on from where it landed unless it jumped the lion. jumped holds the
// pieces jumped so far, which stay on the board until the move ends; empty
// holds the squares the monkey may land on.
func (p *Position) genChains(path *[maxPath]Square, n int, jumped, empty uint64, out *[]Move) {
	them := p.occ[p.turn^1] &^ jumped
	for _, j := range tab.monkeyJumps[path[n-1]] {
		if them&j.mid.bit() == 0 || empty&j.land.bit() == 0 {
			continue
		}
		path[n] = j.land
		m := Move{n: uint8(n + 1), capture: true}
		copy(m.path[:n+1], path[:n+1])
		*out = append(*out, m)
		if j.mid != p.lion[p.turn^1] {
			p.genChains(path, n+1, jumped|j.mid.bit(), empty, out)
		}
	}
}

// count returns the number of legal moves in p: len(p.Legal()), without
// listing them.
func (p *Position) count() int {
	if p.over() {
		return 0
	}
	us := p.turn
	own, them, all := p.occ[us], p.occ[us^1], p.all()
	n := 0
	for b := own; b != 0; b &= b - 1 {
		s := Square(bits.TrailingZeros64(b))
		switch p.board[s].Kind() {
		case Lion:
			n += bits.OnesCount64(tab.lion[us][s] &^ own)
			if p.canFly() {
				n++
			}
		case Zebra:
			n += bits.OnesCount64(tab.knight[s] &^ own)
		case Elephant:
			n += bits.OnesCount64(tab.elephant[s] &^ own)
		case Giraffe:
			n += bits.OnesCount64(tab.king[s]&^all) + bits.OnesCount64(tab.giraffeJump[s]&^own)
		case Monkey:
			n += bits.OnesCount64(tab.king[s] &^ all)
			n += p.countChains(s, them, ^all|s.bit())
		case Crocodile:
			n += bits.OnesCount64(tab.king[s] &^ own)
			for _, r := range tab.crocRays[s] {
				if all&r[0].bit() != 0 {
					continue
				}
				for _, t := range r[1:] {
					if all&t.bit() != 0 {
						if them&t.bit() != 0 {
							n++
						}
						break
					}
					n++
				}
			}
		case Pawn:
			n += bits.OnesCount64(tab.pawnFwd[us][s] &^ own)
			n += countSlides(tab.pawnBack[us][s], all)
		case Superpawn:
			n += bits.OnesCount64(tab.superFwd[us][s] &^ own)
			for _, r := range tab.superBack[us][s] {
				n += countSlides(r, all)
			}
		}
	}
	return n
}

func countSlides(r []Square, all uint64) int {
	n := 0
	for _, t := range r {
		if all&t.bit() != 0 {
			break
		}
		n++
	}
	return n
}

// countChains counts the monkey chains from at (see genChains); them holds
// the enemy pieces not jumped yet.
func (p *Position) countChains(at Square, them, empty uint64) int {
	count := 0
	lion := p.lion[p.turn^1]
	for _, j := range tab.monkeyJumps[at] {
		if them&j.mid.bit() == 0 || empty&j.land.bit() == 0 {
			continue
		}
		count++
		if j.mid != lion {
			count += p.countChains(j.land, them&^j.mid.bit(), empty)
		}
	}
	return count
}
