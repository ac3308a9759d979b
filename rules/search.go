package rules

import "math/bits"

// Fast paths for programs that search the game tree: they list moves into
// a slice they own, apply moves they got from p without checking them
// again, and key positions by a Zobrist hash kept up to date by every move.

// AppendLegal appends the legal moves of p to dst and returns the extended
// slice: the moves Legal returns, in the same order, without allocating
// when dst has room. It appends nothing when the game is over.
func (p Position) AppendLegal(dst []Move) []Move {
	if p.over() {
		return dst
	}
	p.gen(&dst)
	return dst
}

// AppendCaptures appends the legal moves of p that capture to dst and
// returns the extended slice: the moves of AppendLegal for which IsCapture
// reports true, in the same order.
func (p Position) AppendCaptures(dst []Move) []Move {
	if p.over() {
		return dst
	}
	us := p.turn
	own, them, all := p.occ[us], p.occ[us^1], p.all()
	for b := own; b != 0; b &= b - 1 {
		s := Square(bits.TrailingZeros64(b))
		switch p.board[s].Kind() {
		case Lion:
			p.genTargets(s, tab.lion[us][s]&them, &dst)
			if p.canFly() {
				dst = append(dst, simple(s, p.lion[us^1], true))
			}
		case Zebra:
			p.genTargets(s, tab.knight[s]&them, &dst)
		case Elephant:
			p.genTargets(s, tab.elephant[s]&them, &dst)
		case Giraffe:
			p.genTargets(s, tab.giraffeJump[s]&them, &dst)
		case Monkey:
			var path [maxPath]Square
			path[0] = s
			p.genChains(&path, 1, 0, ^all|s.bit(), &dst)
		case Crocodile:
			p.genTargets(s, tab.king[s]&them, &dst)
			for _, r := range tab.crocRays[s] {
				if all&r[0].bit() != 0 {
					continue
				}
				for _, t := range r[1:] {
					if all&t.bit() != 0 {
						if them&t.bit() != 0 {
							dst = append(dst, simple(s, t, true))
						}
						break
					}
				}
			}
		case Pawn:
			for _, t := range tab.pawnFwdList[us][s] {
				if them&t.bit() != 0 {
					dst = append(dst, simple(s, t, true))
				}
			}
		case Superpawn:
			for _, t := range tab.superFwdList[us][s] {
				if them&t.bit() != 0 {
					dst = append(dst, simple(s, t, true))
				}
			}
		}
	}
	return dst
}

// After returns the position after m, like Apply, but without checking that
// m is legal and without reporting what the move did. m must be a legal
// move of p, from Legal, AppendLegal, AppendCaptures or ParseMove; After
// gives a wrong position otherwise.
func (p Position) After(m Move) Position {
	p.play(&m, nil)
	return p
}

// Hash returns the Zobrist key of p: a function of the pieces on the board
// and the side to move, not of the move number. Equal boards with the same
// side to move have equal keys, and different ones almost never do. It is
// kept up to date by every move, so it costs nothing to ask.
func (p Position) Hash() uint64 { return p.hash }

// zobrist computes the Zobrist key of p from scratch.
func (p *Position) zobrist() uint64 {
	var h uint64
	for b := p.all(); b != 0; b &= b - 1 {
		s := Square(bits.TrailingZeros64(b))
		h ^= tab.zobrist[p.board[s]][s]
	}
	if p.turn == Black {
		h ^= tab.zobristBlack
	}
	return h
}

// Lion returns the square of the lion of color c, NoSquare when it has been
// captured.
func (p Position) Lion(c Color) Square { return p.lion[c] }

// Occupied returns the squares the pieces of color c stand on, as a
// bitboard: bit s is set when a piece of c stands on Square s.
func (p Position) Occupied(c Color) uint64 { return p.occ[c] }

// PathLen returns the number of squares the piece lands on: len(m.Path()),
// without allocating.
func (m Move) PathLen() int {
	if m.n == 0 {
		return 0
	}
	return int(m.n) - 1
}

// PathAt returns m.Path()[i] without allocating; i must be below
// m.PathLen().
func (m Move) PathAt(i int) Square { return m.path[i+1] }

// splitmix64 returns the next number of the SplitMix64 sequence from
// *state, for filling the Zobrist keys with fixed pseudo-random numbers.
func splitmix64(state *uint64) uint64 {
	*state += 0x9e3779b97f4a7c15
	z := *state
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Attacks reports whether a piece of color c could capture on s if it were
// c's turn in p, s holding a piece of the other color: by a step, a jump, a
// crocodile's slide, a monkey's chain through s, or the lion's flying
// capture when s holds the other lion (R4-R12). Programs use it to see a
// lion in danger.
func (p Position) Attacks(c Color, s Square) bool {
	if s >= NoSquare || p.occ[c^1]&s.bit() == 0 {
		return false
	}
	all := p.all()
	bit := s.bit()
	for b := p.occ[c]; b != 0; b &= b - 1 {
		t := Square(bits.TrailingZeros64(b))
		switch p.board[t].Kind() {
		case Lion:
			if tab.lion[c][t]&bit != 0 {
				return true
			}
			if s == p.lion[c^1] {
				if btw := tab.between[t][s]; btw&notAligned == 0 && btw&all == 0 {
					return true
				}
			}
		case Zebra:
			if tab.knight[t]&bit != 0 {
				return true
			}
		case Elephant:
			if tab.elephant[t]&bit != 0 {
				return true
			}
		case Giraffe:
			if tab.giraffeJump[t]&bit != 0 {
				return true
			}
		case Crocodile:
			if tab.king[t]&bit != 0 {
				return true
			}
			for _, r := range tab.crocRays[t] {
				for _, u := range r {
					if all&u.bit() != 0 {
						if u == s {
							return true
						}
						break
					}
				}
			}
		case Pawn:
			if tab.pawnFwd[c][t]&bit != 0 {
				return true
			}
		case Superpawn:
			if tab.superFwd[c][t]&bit != 0 {
				return true
			}
		case Monkey:
			if p.chainReaches(t, s, p.occ[c^1], ^all|t.bit()) {
				return true
			}
		}
	}
	return false
}

// chainReaches reports whether a monkey chain from at can jump s; them
// holds the pieces not jumped yet, empty the squares it may land on (see
// genChains).
func (p *Position) chainReaches(at, s Square, them, empty uint64) bool {
	for _, j := range tab.monkeyJumps[at] {
		if them&j.mid.bit() == 0 || empty&j.land.bit() == 0 {
			continue
		}
		if j.mid == s {
			return true
		}
		if j.mid == p.lion[p.board[j.mid].Color()] && p.board[j.mid].Kind() == Lion {
			continue // jumping the lion ends the chain
		}
		if p.chainReaches(j.land, s, them&^j.mid.bit(), empty) {
			return true
		}
	}
	return false
}
