// Package rules implements the game of Congo as decided in RULES.md.
package rules

import "fmt"

// Color is a side: White or Black. White moves first (R1).
type Color uint8

// The two sides.
const (
	White Color = iota
	Black
)

// Other returns the opponent of c.
func (c Color) Other() Color { return c ^ 1 }

// String returns "white" or "black".
func (c Color) String() string {
	switch c {
	case White:
		return "white"
	case Black:
		return "black"
	}
	return fmt.Sprintf("Color(%d)", uint8(c))
}

// Square is a square of the board: a1..g7 are 0..48, numbered rank*7+file,
// so a1 is 0, g1 is 6, a2 is 7 and g7 is 48.
type Square uint8

// NoSquare stands for no square at all.
const NoSquare Square = 49

// size is the number of files and of ranks.
const size = 7

// river is the rank index (0-based) of the river (R2).
const river = 3

// squareAt returns the square on file f and rank r, both 0-based.
func squareAt(f, r int) Square { return Square(r*size + f) }

// ParseSquare reads a square written as in R20: a file letter a..g and a
// rank digit 1..7, in either case.
func ParseSquare(s string) (Square, error) {
	if len(s) == 2 {
		f, r := lower(s[0]), s[1]
		if 'a' <= f && f <= 'g' && '1' <= r && r <= '7' {
			return squareAt(int(f-'a'), int(r-'1')), nil
		}
	}
	return NoSquare, fmt.Errorf("%q is not a square: want a file a-g and a rank 1-7, like b2", s)
}

// File returns the 0-based file of s: 0 for file a, 6 for file g.
func (s Square) File() int { return int(s) % size }

// Rank returns the 0-based rank of s: 0 for rank 1, 6 for rank 7.
func (s Square) Rank() int { return int(s) / size }

// String returns the square as written in R20, like "b2".
func (s Square) String() string {
	if s >= NoSquare {
		return "none"
	}
	return string([]byte{byte('a' + s.File()), byte('1' + s.Rank())})
}

// bit returns the bitboard with only s set.
func (s Square) bit() uint64 { return 1 << s }

// Kind is a kind of piece. The zero value NoKind means no piece.
type Kind uint8

// The kinds of piece (R4-R12).
const (
	NoKind Kind = iota
	Lion
	Zebra
	Elephant
	Giraffe
	Monkey
	Crocodile
	Pawn
	Superpawn
	numKinds
)

var kindNames = [numKinds]string{"none", "lion", "zebra", "elephant", "giraffe", "monkey", "crocodile", "pawn", "superpawn"}

// kindLetters holds the R21 letters (White's, uppercase) by kind.
var kindLetters = [numKinds]byte{0, 'L', 'Z', 'E', 'G', 'M', 'C', 'P', 'S'}

// String returns the name of the kind in lowercase, like "superpawn".
func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Piece is a piece of one color and kind. The zero value NoPiece stands for
// an empty square.
type Piece uint8

// NoPiece is an empty square.
const NoPiece Piece = 0

// colorShift places the color above the kind bits of a Piece.
const colorShift = 4

// NewPiece returns the piece of color c and kind k, or NoPiece when k is
// NoKind or not a kind.
func NewPiece(c Color, k Kind) Piece {
	if k == NoKind || k >= numKinds || c > Black {
		return NoPiece
	}
	return Piece(k) | Piece(c)<<colorShift
}

// Color returns the color of p. NoPiece reports White.
func (p Piece) Color() Color { return Color(p >> colorShift) }

// Kind returns the kind of p; NoKind for NoPiece.
func (p Piece) Kind() Kind { return Kind(p & (1<<colorShift - 1)) }

// Letter returns the R21 letter of p: uppercase for White ('L'), lowercase
// for Black ('l'). It returns 0 for NoPiece.
func (p Piece) Letter() byte {
	k := p.Kind()
	if k == NoKind || k >= numKinds {
		return 0
	}
	l := kindLetters[k]
	if p.Color() == Black {
		l += 'a' - 'A'
	}
	return l
}

// String returns the color and kind, like "white lion"; "no piece" for
// NoPiece.
func (p Piece) String() string {
	if p == NoPiece {
		return "no piece"
	}
	return p.Color().String() + " " + p.Kind().String()
}

// pieceFromLetter returns the piece an R21 letter stands for.
func pieceFromLetter(b byte) (Piece, bool) {
	c := White
	if 'a' <= b && b <= 'z' {
		c, b = Black, b-('a'-'A')
	}
	for k := Lion; k < numKinds; k++ {
		if kindLetters[k] == b {
			return NewPiece(c, k), true
		}
	}
	return NoPiece, false
}

// lower returns b in lowercase when it is an ASCII letter.
func lower(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + ('a' - 'A')
	}
	return b
}
