package db

import (
	"fmt"

	"github.com/congobymail/congo/rules"
)

// Status is where a game is in its life. The zero value means none.
type Status uint8

const (
	NoStatus   Status = iota
	Challenged        // waiting for the challenged player to accept or decline
	Declined          // the challenge was declined
	Active            // being played
	Finished          // over; see Result and Reason
)

var statusNames = [...]string{
	Challenged: "challenged",
	Declined:   "declined",
	Active:     "active",
	Finished:   "finished",
}

// String returns the name the status is stored under.
func (s Status) String() string {
	if s == NoStatus || int(s) >= len(statusNames) {
		return fmt.Sprintf("Status(%d)", uint8(s))
	}
	return statusNames[s]
}

func parseStatus(s string) (Status, error) {
	for st, name := range statusNames {
		if name != "" && name == s {
			return Status(st), nil
		}
	}
	return NoStatus, fmt.Errorf("unknown game status %q", s)
}

// Result is how a finished game ended. The zero value means not finished.
type Result uint8

const (
	NoResult  Result = iota
	WhiteWins        // stored as "white"
	BlackWins        // stored as "black"
	Draw             // stored as "draw"
)

var resultNames = [...]string{NoResult: "", WhiteWins: "white", BlackWins: "black", Draw: "draw"}

// String returns the name the result is stored under ("" for NoResult).
func (r Result) String() string {
	if int(r) >= len(resultNames) {
		return fmt.Sprintf("Result(%d)", uint8(r))
	}
	return resultNames[r]
}

// Token is the result as a game record (PGN) writes it: "1-0", "0-1",
// "1/2-1/2", or "*" for a game not over or aborted.
func (r Result) Token() string {
	switch r {
	case WhiteWins:
		return "1-0"
	case BlackWins:
		return "0-1"
	case Draw:
		return "1/2-1/2"
	}
	return "*"
}

// Score is the result as mails and pages show it: Token, with a draw
// written "½-½".
func (r Result) Score() string {
	if r == Draw {
		return "½-½"
	}
	return r.Token()
}

func parseResult(s string) (Result, error) {
	for r, name := range resultNames {
		if name == s {
			return Result(r), nil
		}
	}
	return NoResult, fmt.Errorf("unknown game result %q", s)
}

// reasonText is the stored form of a reason: its words, "" for none.
func reasonText(r rules.Reason) string {
	if r == rules.NoReason {
		return ""
	}
	return r.String()
}

// parseReason reads a stored reason; one this program does not know
// (written by hand, or by a newer version) reads as none rather than
// making the game unreadable.
func parseReason(s string) (rules.Reason, error) {
	r, err := rules.ParseReason(s)
	if err != nil {
		return rules.NoReason, nil
	}
	return r, nil
}
