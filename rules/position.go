package rules

import (
	"fmt"
	"strconv"
	"strings"
)

// StartPosition is the start of every game (R3) in R21 notation.
const StartPosition = "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1"

// Position is a board with the side to move and the move number. It is a
// small value: copy it freely and compare it with ==. The zero value is not a
// valid position; get one from Start, ParsePosition or Apply.
type Position struct {
	board  [49]Piece
	turn   Color
	lion   [2]Square // NoSquare when that lion is gone
	occ    [2]uint64 // the squares each side occupies
	hash   uint64    // the Zobrist key of board and turn (Hash)
	number int32
}

// Start returns the start position (R3).
func Start() Position {
	p, err := ParsePosition(StartPosition)
	if err != nil {
		panic(err)
	}
	return p
}

// Turn returns the side to move.
func (p Position) Turn() Color { return p.turn }

// MoveNumber returns the R21 move number: 1 for the first move of each side,
// increased after each move of Black.
func (p Position) MoveNumber() int { return int(p.number) }

// At returns the piece on sq, NoPiece when it is empty or sq is not a square.
func (p Position) At(sq Square) Piece {
	if sq >= NoSquare {
		return NoPiece
	}
	return p.board[sq]
}

// Flaw says what is wrong with a position's text. The zero value means
// nothing is.
type Flaw uint8

// The flaws ParsePosition reports.
const (
	NoFlaw            Flaw = iota
	BadFields              // not three fields: board, side to move, move number
	BadRanks               // not 7 ranks
	BadFiles               // a rank without exactly 7 files
	BadLetter              // a character that is no piece or digit
	ExtraLion              // more than one lion of a color
	NoLions                // neither lion on the board
	LionOutsideCastle      // a lion outside its castle
	PawnOnLastRank         // a pawn on its last rank
	BadSide                // side to move not w or b
	BadMoveNumber          // move number not a whole number from 1
)

// PositionError is the error ParsePosition returns: what is wrong with the
// text and where.
type PositionError struct {
	Input  string // the text given
	Flaw   Flaw   // what is wrong
	Rank   int    // the rank concerned (1..7), 0 if none
	Square Square // the square concerned, NoSquare if none
	Reason string // what is wrong, for people
}

func (e *PositionError) Error() string {
	return fmt.Sprintf("bad position %q: %s", e.Input, e.Reason)
}

// ParsePosition reads a position written as in R21, like StartPosition.
// Fields may be separated by any run of spaces. The errors are
// *PositionError.
func ParsePosition(s string) (Position, error) {
	fail := func(flaw Flaw, rank int, sq Square, format string, args ...any) (Position, error) {
		return Position{}, &PositionError{Input: s, Flaw: flaw, Rank: rank, Square: sq, Reason: fmt.Sprintf(format, args...)}
	}
	fields := strings.Fields(s)
	if len(fields) != 3 {
		return fail(BadFields, 0, NoSquare, "want 3 fields (board, side to move, move number), got %d", len(fields))
	}
	ranks := strings.Split(fields[0], "/")
	if len(ranks) != size {
		return fail(BadRanks, 0, NoSquare, "want 7 ranks separated by /, got %d", len(ranks))
	}
	var p Position
	p.lion = [2]Square{NoSquare, NoSquare}
	for i, text := range ranks {
		r := size - 1 - i
		f := 0
		for j := 0; j < len(text); j++ {
			b := text[j]
			if '1' <= b && b <= '7' {
				f += int(b - '0')
				continue
			}
			pc, ok := pieceFromLetter(b)
			if !ok {
				return fail(BadLetter, r+1, NoSquare, "rank %d: %q is not a piece letter (LZEGMCPS, lowercase for black) or a digit 1-7", r+1, rune(b))
			}
			if f >= size {
				f++
				continue // reported below as too many files
			}
			sq := squareAt(f, r)
			c := pc.Color()
			switch pc.Kind() {
			case Lion:
				if p.lion[c] != NoSquare {
					return fail(ExtraLion, r+1, sq, "two %s lions, on %s and %s", c, p.lion[c], sq)
				}
				p.lion[c] = sq
			case Pawn:
				if tab.lastRank[c]&sq.bit() != 0 {
					return fail(PawnOnLastRank, r+1, sq, "a %s pawn on %s, its last rank (it would be a superpawn)", c, sq)
				}
			}
			p.board[sq] = pc
			p.occ[c] |= sq.bit()
			f++
		}
		if f != size {
			return fail(BadFiles, r+1, NoSquare, "rank %d %q has %d files, want 7", r+1, text, f)
		}
	}
	if p.lion[White] == NoSquare && p.lion[Black] == NoSquare {
		return fail(NoLions, 0, NoSquare, "neither lion is on the board")
	}
	for c := White; c <= Black; c++ {
		// A lion leaves its castle only by capturing the other lion (R4),
		// which ends the game: that lion then stands in the other castle.
		sq := p.lion[c]
		if sq == NoSquare || tab.castle[c]&sq.bit() != 0 ||
			tab.castle[c^1]&sq.bit() != 0 && p.lion[c^1] == NoSquare {
			continue
		}
		return fail(LionOutsideCastle, sq.Rank()+1, sq, "the %s lion on %s is outside its castle", c, sq)
	}
	switch fields[1] {
	case "w":
		p.turn = White
	case "b":
		p.turn = Black
	default:
		return fail(BadSide, 0, NoSquare, "side to move %q, want w or b", fields[1])
	}
	n, err := strconv.ParseInt(fields[2], 10, 32)
	if err != nil || n < 1 || fields[2][0] == '+' {
		return fail(BadMoveNumber, 0, NoSquare, "move number %q, want a whole number from 1", fields[2])
	}
	p.number = int32(n)
	p.hash = p.zobrist()
	return p, nil
}

// String returns p in R21 notation; ParsePosition reads it back to p.
func (p Position) String() string {
	var b strings.Builder
	b.Grow(64)
	for r := size - 1; r >= 0; r-- {
		empty := 0
		for f := 0; f < size; f++ {
			pc := p.board[squareAt(f, r)]
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(pc.Letter())
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	if p.turn == White {
		b.WriteString(" w ")
	} else {
		b.WriteString(" b ")
	}
	b.WriteString(strconv.Itoa(int(p.number)))
	return b.String()
}
