package engine

import (
	"math/bits"

	"github.com/congobymail/congo/rules"
)

// Weights are the terms of the evaluation, in hundredths of a pawn.
type Weights struct {
	// Piece is the value of each kind of piece, by rules.Kind. The lion's
	// is not counted: losing it loses the game.
	Piece [9]int
	// Advance is a pawn's bonus by the ranks it has gone forward (0 on its
	// first rank, 5 one step before promotion).
	Advance [7]int
	// Center is the bonus per step nearer the centre (d4) for zebras,
	// monkeys, elephants and giraffes.
	Center int
	// Wet is the part of its value, in 1/16, that a piece other than a
	// crocodile loses for standing in the river: it must leave on its
	// owner's next move or drown (R13), which costs a tempo at least.
	Wet int
	// Near is the cost, per enemy piece by kind, of enemy pieces within two
	// steps of a lion.
	Near [9]int
	// Pinned is the cost of being the only piece between the two lions on
	// a file or diagonal: it may not move, or the enemy lion flies (R4).
	Pinned int
	// Tempo is the bonus for having the move.
	Tempo int
}

// DefaultWeights returns the weights the levels play with (see
// defaultWeights).
func DefaultWeights() Weights { return defaultWeights }

// defaultWeights are the weights the levels play with. The piece values
// were measured in two steps (measure_test.go): a logistic fit of the
// results of 1500 self-play games at level 2 to the material on the board
// (TestMeasureValues) gave zebra 179, elephant 346, giraffe 251, monkey 210,
// crocodile 458, superpawn 328 for a pawn of 100; halfway between those and
// the first guesses (300, 250, 250, 350, 250, 300) won a 400-game match at
// level 3 against the guesses by +61 ± 20 Elo, the fit itself by +29 ± 20
// (TestMeasureMatch).
var defaultWeights = Weights{
	Piece: [9]int{
		rules.Zebra:     240,
		rules.Elephant:  300,
		rules.Giraffe:   250,
		rules.Monkey:    280,
		rules.Crocodile: 350,
		rules.Pawn:      100,
		rules.Superpawn: 310,
	},
	Advance: [7]int{0, 0, 5, 10, 25, 40, 0},
	Center:  4,
	Wet:     4,
	Near: [9]int{
		rules.Zebra:     20,
		rules.Elephant:  15,
		rules.Giraffe:   15,
		rules.Monkey:    25,
		rules.Crocodile: 15,
		rules.Pawn:      10,
		rules.Superpawn: 15,
	},
	Pinned: 30,
	Tempo:  10,
}

// geometry holds the squares the evaluation looks at, computed once.
type geometry struct {
	zone    [49]uint64     // squares within two steps
	center  [49]int        // steps nearer d4 than the corners: 0..3
	between [49][49]uint64 // strictly between, on a file or diagonal
	aligned [49][49]bool   // the two squares share a file or diagonal
}

var geo = buildGeometry()

func buildGeometry() *geometry {
	g := new(geometry)
	abs := func(x int) int {
		if x < 0 {
			return -x
		}
		return x
	}
	for a := range 49 {
		fa, ra := a%7, a/7
		g.center[a] = 3 - max(abs(fa-3), abs(ra-3))
		for b := range 49 {
			fb, rb := b%7, b/7
			if a != b && max(abs(fa-fb), abs(ra-rb)) <= 2 {
				g.zone[a] |= 1 << b
			}
			df, dr := fb-fa, rb-ra
			if a == b || !(df == 0 || abs(df) == abs(dr)) {
				continue
			}
			g.aligned[a][b] = true
			sf, sr := sign(df), sign(dr)
			for f, r := fa+sf, ra+sr; f != fb || r != rb; f, r = f+sf, r+sr {
				g.between[a][b] |= 1 << (r*7 + f)
			}
		}
	}
	return g
}

func sign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

// evaluate returns the static score of p for the side to move. Both lions
// are on the board.
func evaluate(p *rules.Position, w *Weights) int {
	var score [2]int
	occ := [2]uint64{p.Occupied(rules.White), p.Occupied(rules.Black)}
	all := occ[0] | occ[1]
	for c := rules.White; c <= rules.Black; c++ {
		for b := occ[c]; b != 0; b &= b - 1 {
			s := rules.Square(bits.TrailingZeros64(b))
			k := p.At(s).Kind()
			v := w.Piece[k]
			switch k {
			case rules.Pawn:
				r := s.Rank()
				if c == rules.Black {
					r = 6 - r
				}
				v += w.Advance[r]
			case rules.Zebra, rules.Monkey, rules.Elephant, rules.Giraffe:
				v += w.Center * geo.center[s]
			}
			if s.Rank() == 3 && k != rules.Crocodile {
				v -= w.Piece[k] * w.Wet / 16
			}
			score[c] += v
		}
		// Enemy pieces near the lion.
		lion := p.Lion(c)
		for b := geo.zone[lion] & occ[c^1]; b != 0; b &= b - 1 {
			s := rules.Square(bits.TrailingZeros64(b))
			score[c] -= w.Near[p.At(s).Kind()]
		}
	}
	// A lone piece between the lions may not leave the line.
	wl, bl := p.Lion(rules.White), p.Lion(rules.Black)
	if geo.aligned[wl][bl] {
		if btw := geo.between[wl][bl] & all; bits.OnesCount64(btw) == 1 {
			if btw&occ[rules.White] != 0 {
				score[rules.White] -= w.Pinned
			} else {
				score[rules.Black] -= w.Pinned
			}
		}
	}
	us := p.Turn()
	return score[us] - score[us^1] + w.Tempo
}
