package tablebase

import (
	"math/bits"

	"github.com/congobymail/congo/rules"
)

// Indexing. A table is an array of one byte per position: the side to
// move (one side only for a material that is its own color mirror), the
// pair of lion squares, and the square of each piece in the order of the
// material, 49 squares each. Two symmetries shrink it (RULES.md R1-R12):
//
//   - the color mirror: ranks flipped (1 <-> 7), colors and the side to
//     move swapped; the castles, the river and every piece's moves map onto
//     themselves, so a material and its mirror share one table
//     (Material.canonical);
//   - the left-right mirror: files flipped (a <-> g); the castles (c-e)
//     and the river (a whole rank) are symmetric and so is every piece
//     (the pawns' and superpawns' steps go both ways), so the white lion
//     stands on file c or d, and when on d, the black lion on c or d: 45
//     lion pairs of 81.

// squares is the number of squares of the board.
const squares = 49

// lionPairs is the number of placements of the two lions a table holds.
const lionPairs = 45

var (
	// lionPair[w][b] is the index of the lions on w and b among the
	// canonical pairs, -1 for a pair the left-right mirror maps onto one.
	lionPair [squares][squares]int8
	// pairLions are the squares of White's and Black's lion by pair.
	pairLions [lionPairs][2]rules.Square
)

func init() {
	for w := range lionPair {
		for b := range lionPair[w] {
			lionPair[w][b] = -1
		}
	}
	n := 0
	for wr := 0; wr < 3; wr++ {
		for wf := 2; wf <= 3; wf++ {
			for br := 4; br < 7; br++ {
				for bf := 2; bf <= 4; bf++ {
					if wf == 3 && bf == 4 {
						continue
					}
					w, b := square(wf, wr), square(bf, br)
					lionPair[w][b] = int8(n)
					pairLions[n] = [2]rules.Square{w, b}
					n++
				}
			}
		}
	}
	if n != lionPairs {
		panic("tablebase: lion pairs miscounted")
	}
}

func square(f, r int) rules.Square { return rules.Square(r*7 + f) }

func flipRank(s rules.Square) rules.Square { return square(s.File(), 6-s.Rank()) }
func flipFile(s rules.Square) rules.Square { return square(6-s.File(), s.Rank()) }

// setup is a position as the tables see it: the side to move, the lions,
// and the other pieces.
type setup struct {
	turn  rules.Color
	lion  [2]rules.Square
	n     int
	piece [MaxPieces]rules.Piece
	sq    [MaxPieces]rules.Square
}

// setupOf reads p, which must have both lions and at most MaxPieces other
// pieces.
func setupOf(p *rules.Position) setup {
	s := setup{turn: p.Turn(), lion: [2]rules.Square{p.Lion(rules.White), p.Lion(rules.Black)}}
	rest := (p.Occupied(rules.White) | p.Occupied(rules.Black)) &^ (1<<s.lion[0] | 1<<s.lion[1])
	for ; rest != 0; rest &= rest - 1 {
		sq := rules.Square(bits.TrailingZeros64(rest))
		s.piece[s.n], s.sq[s.n] = p.At(sq), sq
		s.n++
	}
	return s
}

// material returns the material of s, its pieces sorted.
func (s *setup) material() Material {
	m := Material{n: s.n, pieces: s.piece}
	m.sort()
	return m
}

// canonicalize maps s onto the position the table of its material's
// canonical form stores (which has the same value for the side to move):
// colors swapped when the material is not canonical, or is its own
// mirror with Black to move; files flipped as the lions ask; the pieces
// sorted as the material, equal pieces by square.
func (s *setup) canonicalize(flipColors bool) {
	if flipColors {
		s.turn = s.turn.Other()
		s.lion = [2]rules.Square{flipRank(s.lion[1]), flipRank(s.lion[0])}
		for i := range s.n {
			s.piece[i] = rules.NewPiece(s.piece[i].Color().Other(), s.piece[i].Kind())
			s.sq[i] = flipRank(s.sq[i])
		}
	}
	if wf, bf := s.lion[0].File(), s.lion[1].File(); wf > 3 || wf == 3 && bf > 3 {
		s.lion = [2]rules.Square{flipFile(s.lion[0]), flipFile(s.lion[1])}
		for i := range s.n {
			s.sq[i] = flipFile(s.sq[i])
		}
	}
	for i := 1; i < s.n; i++ {
		for j := i; j > 0; j-- {
			a, b := j-1, j
			if s.piece[a] < s.piece[b] || s.piece[a] == s.piece[b] && s.sq[a] < s.sq[b] {
				break
			}
			s.piece[a], s.piece[b] = s.piece[b], s.piece[a]
			s.sq[a], s.sq[b] = s.sq[b], s.sq[a]
		}
	}
}

// index returns the place of the canonical setup s in a table of sides
// sides to move.
func (s *setup) index(sides int) int {
	i := int(lionPair[s.lion[0]][s.lion[1]])
	if sides == 2 && s.turn == rules.Black {
		i += lionPairs
	}
	for k := range s.n {
		i = i*squares + int(s.sq[k])
	}
	return i
}

// size returns the number of places in the table of m.
func size(m Material) int {
	n := lionPairs * sides(m)
	for range m.n {
		n *= squares
	}
	return n
}

// sides returns the sides to move the table of the canonical m holds.
func sides(m Material) int {
	if m.selfMirror() {
		return 1
	}
	return 2
}

// setupAt returns the setup at place i of the table of m, and whether it
// is a position at all: the pieces on distinct squares free of the lions,
// no pawn on its last rank (R11), equal pieces in the order of their
// squares.
func setupAt(m Material, i int) (setup, bool) {
	s := setup{n: m.n, piece: m.pieces}
	for k := m.n - 1; k >= 0; k-- {
		s.sq[k] = rules.Square(i % squares)
		i /= squares
	}
	if i >= lionPairs {
		s.turn = rules.Black
		i -= lionPairs
	}
	s.lion = pairLions[i]
	used := uint64(1)<<s.lion[0] | 1<<s.lion[1]
	for k := range s.n {
		sq := s.sq[k]
		if used&(1<<sq) != 0 {
			return s, false
		}
		used |= 1 << sq
		if k > 0 && s.piece[k] == s.piece[k-1] && sq < s.sq[k-1] {
			return s, false
		}
		if pc := s.piece[k]; pc.Kind() == rules.Pawn {
			if pc.Color() == rules.White && sq.Rank() == 6 || pc.Color() == rules.Black && sq.Rank() == 0 {
				return s, false
			}
		}
	}
	return s, true
}

// position returns s as a rules.Position, at move 1.
func (s *setup) position() rules.Position {
	var board [squares]byte
	for i := range board {
		board[i] = 0
	}
	board[s.lion[0]] = 'L'
	board[s.lion[1]] = 'l'
	for k := range s.n {
		board[s.sq[k]] = s.piece[k].Letter()
	}
	buf := make([]byte, 0, 64)
	for r := 6; r >= 0; r-- {
		empty := 0
		for f := 0; f < 7; f++ {
			b := board[r*7+f]
			if b == 0 {
				empty++
				continue
			}
			if empty > 0 {
				buf = append(buf, byte('0'+empty))
				empty = 0
			}
			buf = append(buf, b)
		}
		if empty > 0 {
			buf = append(buf, byte('0'+empty))
		}
		if r > 0 {
			buf = append(buf, '/')
		}
	}
	if s.turn == rules.White {
		buf = append(buf, " w 1"...)
	} else {
		buf = append(buf, " b 1"...)
	}
	p, err := rules.ParsePosition(string(buf))
	if err != nil {
		panic("tablebase: " + err.Error())
	}
	return p
}

// Places returns the number of places in the table of m (or of its color
// mirror): the positions of m, with White to move and Black, and places
// that are no position.
func (m Material) Places() int {
	if !m.canonical() {
		m = m.mirror()
	}
	return size(m)
}

// Position returns the position at place i (0 to Places()-1) of the
// table of m (or of its color mirror), at move 1, and whether the place
// is a position: drawing places at random draws positions of m at
// random.
func (m Material) Position(i int) (rules.Position, bool) {
	if !m.canonical() {
		m = m.mirror()
	}
	if i < 0 || i >= size(m) {
		return rules.Position{}, false
	}
	s, ok := setupAt(m, i)
	if !ok {
		return rules.Position{}, false
	}
	return s.position(), true
}
