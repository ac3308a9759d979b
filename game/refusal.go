package game

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/congobymail/congo/rules"
)

// Problem is why a change to a game is refused. The zero value means
// none.
type Problem uint8

const (
	NoProblem         Problem = iota
	NotChallenged             // accept/decline of a game that waits for no answer
	OwnChallenge              // accept/decline by the challenger; Other is the challenged player
	NotActive                 // a move, offer or the like in a game not being played
	NotYourTurn               // a move when the opponent is to move
	StaleMoveNumber           // the #N guard is not the number of the move to make
	IllegalMove               // Move and Detail have the rules' explanation
	NoOffer                   // declining a draw nobody offered
	NotYourTakeback           // granting a takeback nobody asked for; Other is the player who may ask
	NoMoves                   // a takeback before any move
	TooLate                   // an abort after both sides moved
	YourMove                  // conditional moves when it is the player's own move
	BadConditional            // conditional moves that cannot be played; Detail (and Move) say why
	NoVacation                // more vacation asked than left; Left is what is left
	NotOnVacation             // ending a vacation that is not being taken
	OnVacation                // a vacation during a vacation; Until is its end
	NotAdjourned              // resuming a game that is not adjourned
	AdjournedAlready          // adjourning a game twice
	PausedAlready             // a pause asked for in a paused game; Until is when it began, Left the pause left
	PauseAskedAlready         // a pause asked for twice; Other is the opponent, who may agree
	NoPauses                  // a pause in a tournament game, whose tournament has no pauses (M63)
	PauseUsedUp               // a pause in a game whose pauses have taken all the time they may
	NotPaused                 // resume of a game that is not paused
	GamePaused                // a move, or a claim, in a paused game; Until is when the pause began, Left the pause left
	TooMuchGiven              // a give past what a game's gives may add up to; Left is what may still be given (M65)
	NoClaim                   // a claim in a timeout=auto game (M66)
	ClaimOnMove               // a claim by the player to move
	NotLate                   // a claim before the opponent, Other, ran out of time; Left is their time left
	PreviewOver               // a preview of a game that is over (M70)
	BadPreview                // a preview whose moves cannot be played; Detail (and Move) say why
)

var problemNames = [...]string{
	NoProblem:         "no problem",
	NotChallenged:     "not challenged",
	OwnChallenge:      "own challenge",
	NotActive:         "not active",
	NotYourTurn:       "not your turn",
	StaleMoveNumber:   "stale move number",
	IllegalMove:       "illegal move",
	NoOffer:           "no offer",
	NotYourTakeback:   "not your takeback",
	NoMoves:           "no moves",
	TooLate:           "too late",
	YourMove:          "your move",
	BadConditional:    "bad conditional",
	NoVacation:        "no vacation",
	NotOnVacation:     "not on vacation",
	OnVacation:        "on vacation",
	NotAdjourned:      "not adjourned",
	AdjournedAlready:  "adjourned already",
	PausedAlready:     "paused already",
	PauseAskedAlready: "pause asked already",
	NoPauses:          "no pauses",
	PauseUsedUp:       "pause used up",
	NotPaused:         "not paused",
	GamePaused:        "game paused",
	TooMuchGiven:      "too much given",
	NoClaim:           "no claim",
	ClaimOnMove:       "claim on move",
	NotLate:           "not late",
	PreviewOver:       "preview over",
	BadPreview:        "bad preview",
}

func (p Problem) String() string {
	if int(p) < len(problemNames) {
		return problemNames[p]
	}
	return fmt.Sprintf("Problem(%d)", uint8(p))
}

// Refusal is a change to a game that the game's state does not allow.
// Nothing was changed.
type Refusal struct {
	Problem Problem
	// Detail is what the rules say, in English: the move it is about,
	// Move, and fmt.Sprintf(Format, Args...), which a mail may say in
	// another language (Format is the key of its translations).
	Detail string
	Move   string
	Format string
	Args   []any
	Other  string        // the handle of the other player concerned, if any
	Until  time.Time     // the end of the vacation concerned; when the pause concerned began
	Left   time.Duration // the vacation allowance left; the pause left; the time left to give or until a claim
}

func (r *Refusal) Error() string {
	if r.Detail != "" {
		return r.Problem.String() + ": " + r.Detail
	}
	return r.Problem.String()
}

// refuse returns the Refusal for p.
func refuse(p Problem) error {
	return &Refusal{Problem: p}
}

// refusef returns the Refusal for p about move (as written; "" for
// none), which is fmt.Sprintf(format, args...).
func refusef(p Problem, move, format string, args ...any) *Refusal {
	r := &Refusal{Problem: p, Move: move, Format: format, Args: args, Detail: fmt.Sprintf(format, args...)}
	if move != "" {
		r.Detail = move + ": " + r.Detail
	}
	return r
}

// moveRefusal is the Refusal for p of the move text, which the rules
// refused with err.
func moveRefusal(p Problem, text string, err error) *Refusal {
	if me, ok := errors.AsType[*rules.MoveError](err); ok {
		return refusef(p, me.Input, me.Format, me.Args...)
	}
	return refusef(p, strings.TrimSpace(text), "the game is over")
}
