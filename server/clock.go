package server

import (
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/templates"
)

const (
	day = 24 * time.Hour
	// defaultFinalReminder is when the last reminder goes out: this much
	// time before the player to move runs out.
	defaultFinalReminder = day
)

// defaultControl is the time control of a challenge or seek that names
// none: 3 days for every move.
var defaultControl = parser.TimeControl{Days: 3}

// control returns a game's time control.
func control(g db.Game) parser.TimeControl {
	tc, ok := parser.ParseTimeControl(g.TimeControl)
	if !ok {
		return defaultControl
	}
	return tc
}

// bank is the most time a player can have: what each side starts with.
func bank(tc parser.TimeControl) time.Duration {
	return time.Duration(tc.Days) * day
}

// increment is the time added after each move: the whole bank for
// days=N, I days for bank=D+I.
func increment(tc parser.TimeControl) time.Duration {
	if tc.Bank {
		return time.Duration(tc.Increment) * day
	}
	return bank(tc)
}

// leftOf points at the stored time left of the player of colour c.
func (gs *gameState) leftOf(c rules.Color) *time.Duration {
	if c == rules.White {
		return &gs.g.WhiteLeft
	}
	return &gs.g.BlackLeft
}

// used is how much of the mover's time is gone at t: nothing before the
// clock starts (it starts late while the mover is on vacation).
func used(g db.Game, t time.Time) time.Duration {
	if t.Before(g.ClockStart) {
		return 0
	}
	return t.Sub(g.ClockStart)
}

// deadline is when the player to move runs out of time.
func (gs *gameState) deadline() time.Time {
	return gs.g.ClockStart.Add(*gs.leftOf(gs.pos.Turn()))
}

// startClocks gives both players the full bank and starts White's clock.
func (gs *gameState) startClocks() {
	full := bank(control(gs.g))
	gs.g.WhiteLeft, gs.g.BlackLeft = full, full
	gs.startTurn()
}

// startTurn starts the clock of the player to move: now, or when their
// vacation ends; never while the game is adjourned.
func (gs *gameState) startTurn() {
	start := gs.now
	if until := gs.player(gs.pos.Turn()).VacationUntil; until.After(start) {
		start = until
	}
	if gs.g.IsAdjourned() {
		start = adjournedClock
	}
	gs.g.ClockStart, gs.g.TurnTime, gs.g.Reminders = start, *gs.leftOf(gs.pos.Turn()), 0
}

// chargeMove takes the time the player to move used off their clock and
// adds the increment, up to the bank; it returns the time left before
// the increment. Call it before the move is applied.
func (gs *gameState) chargeMove() time.Duration {
	tc := control(gs.g)
	left := gs.leftOf(gs.pos.Turn())
	before := *left - used(gs.g, gs.now)
	*left = max(min(before+increment(tc), bank(tc)), 0)
	return max(before, 0)
}

// clocks is both players' time left now, for a mail; nil unless the game
// is being played.
func (gs *gameState) clocks() *templates.Clocks {
	if gs.g.Status != db.Active {
		return nil
	}
	c := &templates.Clocks{
		White: templates.Clock{Left: gs.g.WhiteLeft, Vacation: onVacation(gs.white, gs.now)},
		Black: templates.Clock{Left: gs.g.BlackLeft, Vacation: onVacation(gs.black, gs.now)},
	}
	mover := &c.White
	if gs.pos.Turn() == rules.Black {
		mover = &c.Black
	}
	mover.Left = max(mover.Left-used(gs.g, gs.now), 0)
	return c
}

// onVacation returns the end of p's vacation, or zero when p is not on
// vacation at t.
func onVacation(p db.Player, t time.Time) time.Time {
	if p.VacationUntil.After(t) {
		return p.VacationUntil
	}
	return time.Time{}
}

// reminderPoints are the times left at which the player to move is
// reminded, the earliest first: when half the time for the move is gone
// and when final is left, each only when it comes after the turn begins.
func reminderPoints(turnTime, final time.Duration) []time.Duration {
	var points []time.Duration
	if half := turnTime / 2; half > final {
		points = append(points, half)
	}
	if final > 0 && final < turnTime {
		points = append(points, final)
	}
	return points
}

// reminderDue returns how many reminders are due at t in the game, and
// when the next one is due (zero for none). No reminder falls before the
// clock starts, so none comes during a vacation.
func (gs *gameState) reminderDue(t time.Time, final time.Duration) (due int, next time.Time) {
	deadline := gs.deadline()
	for i, p := range reminderPoints(gs.g.TurnTime, final) {
		at := deadline.Add(-p)
		if at.Before(gs.g.ClockStart) {
			at = gs.g.ClockStart
		}
		if t.Before(at) {
			return due, at
		}
		due = i + 1
	}
	return due, time.Time{}
}
