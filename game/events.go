package game

import (
	"fmt"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/rules"
)

// Kind says what happened in a game. The zero value means nothing.
type Kind uint8

const (
	NoEvent         Kind = iota
	Challenged           // a game was proposed: the challenged player is to answer
	Accepted             // the challenge was accepted: the game begins
	Declined             // the challenge was declined
	Started              // a game began without a challenge (seeks, the robot)
	Moved                // By moved: Move says how
	Ended                // the game is over: Game says how (Result, Reason, Rated)
	DrawOffered          // By offers a draw
	DrawDeclined         // By declined the draw offer
	TakebackAsked        // By asks to take back their last move
	TakebackDone         // the last move was taken back, By granting it
	Reminded             // the player to move was reminded of the clock; Final for the last time
	VacationStarted      // By went on vacation: their clock in the game stands still
	Adjourned            // the operator stopped the game
	Resumed              // the operator started it again
	Adjudicated          // the operator decided the result
	PauseAsked           // By asks for a pause (M63)
	Paused               // By agreed to the opponent's request: the game is paused
	Unpaused             // By ended the pause; zero By when it took all the time a game's pauses may
	TimeGiven            // By gave the opponent Given more time (M65)
	TimeUp               // the player to move ran out of time in a timeout=claim game: the opponent may claim (M66)
)

var kindNames = [...]string{
	NoEvent:         "none",
	Challenged:      "challenged",
	Accepted:        "accepted",
	Declined:        "declined",
	Started:         "started",
	Moved:           "moved",
	Ended:           "ended",
	DrawOffered:     "draw offered",
	DrawDeclined:    "draw declined",
	TakebackAsked:   "takeback asked",
	TakebackDone:    "takeback done",
	Reminded:        "reminded",
	VacationStarted: "vacation started",
	Adjourned:       "adjourned",
	Resumed:         "resumed",
	Adjudicated:     "adjudicated",
	PauseAsked:      "pause asked",
	Paused:          "paused",
	Unpaused:        "unpaused",
	TimeGiven:       "time given",
	TimeUp:          "time up",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Event is one thing that happened in a game.
type Event struct {
	Kind Kind
	// Game is the game just after the event, so that a list of events
	// can be told one by one: a move, then the conditional answer to it.
	Game State
	// By is the player who caused it; zero (ID 0) for the clock and the
	// operator.
	By db.Player
	// Move is what a move did (Moved).
	Move *rules.Effects
	// Conditional is true for a move played from its player's
	// conditional moves (M14), and for a resignation, a draw offered or
	// a draw accepted by them (M69: Ended, DrawOffered).
	Conditional bool
	// Final is true for the last reminder before the time runs out.
	Final bool
	// Given is the time given (TimeGiven).
	Given time.Duration
	// Fault, when not nil, is something found wrong in the stored game
	// and worked around, for the operator's log.
	Fault *Fault
}

// Fault is something wrong in a stored game that a change worked
// around, such as a conditional move no longer legal.
type Fault struct {
	Game int64
	What string // what is wrong, as the log says it
	Move string // the move concerned, if any
	Err  error
}

func (f *Fault) Error() string {
	return fmt.Sprintf("game %d: %s %s: %v", f.Game, f.What, f.Move, f.Err)
}
func (f *Fault) Unwrap() error { return f.Err }

// event is an event of kind k in st as it is now, caused by by.
func event(k Kind, st *State, by db.Player) Event {
	return Event{Kind: k, Game: *st, By: by}
}

// Ends reports whether the events hold the end of a game, and returns
// the game as it ended.
func Ends(events []Event) (State, bool) {
	for _, e := range events {
		if e.Kind == Ended {
			return e.Game, true
		}
	}
	return State{}, false
}
