package rules

import (
	"errors"
	"fmt"
	"strings"
)

// SetUpError is the error for a position a game cannot begin from (M72):
// what is wrong, for people.
type SetUpError struct {
	Input  string // the position as written
	Reason string // what is wrong: fmt.Sprintf(Format, Args...)
	// Format and Args make Reason, so that a mail can say it in another
	// language: Format is the key of its translations. A Kind among
	// Args is a piece's name.
	Format string
	Args   []any
}

func (e *SetUpError) Error() string {
	return fmt.Sprintf("no game begins from %q: %s", e.Input, e.Reason)
}

// setUpError is the SetUpError of s for fmt.Sprintf(format, args...).
func setUpError(s, format string, args ...any) error {
	return &SetUpError{Input: s, Format: format, Args: args, Reason: fmt.Sprintf(format, args...)}
}

// startCount is how many pieces of each kind a side has at the start
// (R3), the most it can ever have: pawns and superpawns count together,
// as a superpawn was a pawn (R11).
var startCount = [numKinds]int{Lion: 1, Zebra: 1, Elephant: 2, Giraffe: 1, Monkey: 1, Crocodile: 1, Pawn: 7}

// ParseSetUp reads a position a game may begin from (M72): written as
// R21 says, each lion in its castle, no side with more pieces of a kind
// than it starts with, at most one piece of each side in the river
// besides its crocodile (the one that moved there last: every other
// would have drowned, R13), and the game not over (R16, R17). The side to
// move and the move number are the position's. The errors are
// *SetUpError.
func ParseSetUp(s string) (Position, error) {
	s = strings.Join(strings.Fields(s), " ")
	p, err := ParsePosition(s)
	if pe, ok := errors.AsType[*PositionError](err); ok {
		switch pe.Flaw {
		case ExtraLion:
			return Position{}, setUpError(s, "a side has two lions: a second one stands on %s", pe.Square.String())
		case NoLions:
			return Position{}, setUpError(s, "there is no lion on the board: each side needs its lion, in its castle")
		case LionOutsideCastle:
			return Position{}, setUpError(s, "the lion on %s stands outside its castle", pe.Square.String())
		case PawnOnLastRank:
			return Position{}, setUpError(s, "the pawn on %s stands on its last rank: put a superpawn there (S or s)", pe.Square.String())
		}
		return Position{}, setUpError(s, "this is not a position written as R21 says: the ranks from 7 down to 1 separated by /, the side to move (w or b) and the move number")
	}
	if err != nil {
		return Position{}, err
	}
	for c := White; c <= Black; c++ {
		if p.lion[c] == NoSquare || tab.castle[c]&p.lion[c].bit() == 0 {
			if c == White {
				return Position{}, setUpError(s, "White has no lion in its castle: each side needs its lion, in its castle")
			}
			return Position{}, setUpError(s, "Black has no lion in its castle: each side needs its lion, in its castle")
		}
		var count [numKinds]int
		var river []string
		for sq := Square(0); sq < NoSquare; sq++ {
			pc := p.board[sq]
			if pc == NoPiece || pc.Color() != c {
				continue
			}
			k := pc.Kind()
			if k == Superpawn {
				k = Pawn
			}
			count[k]++
			if inRiver(sq) && pc.Kind() != Crocodile {
				river = append(river, sq.String())
			}
		}
		for k := Lion; k < numKinds; k++ {
			switch {
			case count[k] <= startCount[k]:
			case k == Pawn && c == White:
				return Position{}, setUpError(s, "White has %d pawns and superpawns, more than the %d it starts with", count[k], startCount[k])
			case k == Pawn:
				return Position{}, setUpError(s, "Black has %d pawns and superpawns, more than the %d it starts with", count[k], startCount[k])
			case c == White:
				return Position{}, setUpError(s, "White has more pieces of one kind than it starts with: %s %d, at most %d", k, count[k], startCount[k])
			default:
				return Position{}, setUpError(s, "Black has more pieces of one kind than it starts with: %s %d, at most %d", k, count[k], startCount[k])
			}
		}
		if len(river) > 1 {
			if c == White {
				return Position{}, setUpError(s, "white pieces other than the crocodile stand in the river on %s: only the one that moved there last can, the others would have drowned (R13)", strings.Join(river, ", "))
			}
			return Position{}, setUpError(s, "black pieces other than the crocodile stand in the river on %s: only the one that moved there last can, the others would have drowned (R13)", strings.Join(river, ", "))
		}
	}
	switch o := p.Outcome(); o.Reason {
	case NoReason:
	case BareLions:
		return Position{}, setUpError(s, "only the two lions are left: the game would be drawn before it began (R17)")
	default:
		return Position{}, setUpError(s, "the side to move has no legal move: the game would be lost before it began (R16)")
	}
	return p, nil
}
