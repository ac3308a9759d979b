package rules

import "fmt"

// State says whether a game goes on. The zero value is Playing.
type State uint8

// The states of a game.
const (
	Playing State = iota
	Won
	Drawn
)

func (s State) String() string {
	switch s {
	case Playing:
		return "playing"
	case Won:
		return "won"
	case Drawn:
		return "drawn"
	}
	return fmt.Sprintf("State(%d)", uint8(s))
}

// Reason says why a game ended: on the board (R15-R17, the reasons
// Outcome gives) or off it (a resignation, an agreement, the clock, the
// operator). The zero value is NoReason.
type Reason uint8

const (
	NoReason     Reason = iota
	LionCaptured        // R15
	NoLegalMove         // R16: the side to move has none, and loses
	BareLions           // R17: only the lions are left, and neither can take the other
	Resigned            // the loser resigned
	Agreed              // a draw agreed by both players
	OutOfTime           // the loser ran out of time
	Aborted             // ended without result before both sides moved
	Adjudicated         // the result was decided by the server's operator
)

var reasonNames = [...]string{
	NoReason:     "no reason",
	LionCaptured: "lion captured",
	NoLegalMove:  "no legal move",
	BareLions:    "bare lions",
	Resigned:     "resigned",
	Agreed:       "agreed",
	OutOfTime:    "time",
	Aborted:      "aborted",
	Adjudicated:  "adjudicated",
}

// String returns the reason in a word or two, as game records write it
// ("lion captured", "resigned", "time", ...).
func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return fmt.Sprintf("Reason(%d)", uint8(r))
}

// ParseReason returns the reason that String writes as s.
func ParseReason(s string) (Reason, error) {
	for r, name := range reasonNames {
		if name == s {
			return Reason(r), nil
		}
	}
	return NoReason, fmt.Errorf("%q is not a reason a game ends for", s)
}

// Outcome is the state of the game at a position. Winner means something
// only when State is Won.
type Outcome struct {
	State  State
	Winner Color
	Reason Reason
}

// Over reports whether the game is over.
func (o Outcome) Over() bool { return o.State != Playing }

// String describes the outcome in a few words, like "white won: black's
// lion was captured".
func (o Outcome) String() string {
	switch {
	case o.State == Playing:
		return "the game goes on"
	case o.State == Won && o.Reason == LionCaptured:
		return fmt.Sprintf("%s won: %s's lion was captured", o.Winner, o.Winner.Other())
	case o.State == Won && o.Reason == NoLegalMove:
		return fmt.Sprintf("%s won: %s has no legal move", o.Winner, o.Winner.Other())
	case o.State == Drawn && o.Reason == BareLions:
		return "drawn: only the two lions are left"
	}
	return fmt.Sprintf("%s (%s)", o.State, o.Reason)
}

// Outcome reports whether the game is over at p, and how (R15-R17).
func (p Position) Outcome() Outcome {
	switch {
	case p.lion[Black] == NoSquare:
		return Outcome{State: Won, Winner: White, Reason: LionCaptured}
	case p.lion[White] == NoSquare:
		return Outcome{State: Won, Winner: Black, Reason: LionCaptured}
	case p.bareLions() && !p.canFly():
		return Outcome{State: Drawn, Reason: BareLions}
	case p.count() == 0:
		return Outcome{State: Won, Winner: p.turn.Other(), Reason: NoLegalMove}
	}
	return Outcome{}
}
