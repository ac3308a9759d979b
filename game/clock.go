package game

import (
	"context"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/rules"
)

// Day is a day of a time control.
const Day = 24 * time.Hour

// DefaultControl is the time control of a challenge or seek that names
// none: 3 days for every move.
var DefaultControl = parser.TimeControl{Days: 3}

// AdjournedClock is the start of the mover's clock while a game is
// adjourned or paused (M63): a time that never comes, so that the clock
// stands still. Whether a game is adjourned is db.Game.IsAdjourned, and
// paused db.Game.IsPaused, not this time: whatever starts or stops
// clocks (moves, vacations, the robot, the clock loop) leaves adjourned
// and paused games alone.
var AdjournedClock = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)

// Control returns a game's time control.
func Control(g db.Game) parser.TimeControl {
	tc, ok := parser.ParseTimeControl(g.TimeControl)
	if !ok {
		return DefaultControl
	}
	return tc
}

// bank is the most time a player can have: what each side starts with.
func bank(tc parser.TimeControl) time.Duration {
	return time.Duration(tc.Days) * Day
}

// increment is the time added after each move: the whole bank for
// days=N, I days for bank=D+I.
func increment(tc parser.TimeControl) time.Duration {
	if tc.Bank {
		return time.Duration(tc.Increment) * Day
	}
	return bank(tc)
}

// leftOf points at the stored time left of the player of colour c.
func (st *State) leftOf(c rules.Color) *time.Duration {
	if c == rules.White {
		return &st.Game.WhiteLeft
	}
	return &st.Game.BlackLeft
}

// moverWeekends are the weekends in which the mover's clock stands
// still (M64).
func (st *State) moverWeekends() weekends { return weekendsOf(st.ToMove()) }

// used is how much of the mover's time is gone at t: nothing before the
// clock starts (it starts late while the mover is on vacation, and never
// while the game is adjourned or paused), nor in the mover's paused
// weekends (M64).
func (st *State) used(t time.Time) time.Duration {
	return st.moverWeekends().running(st.Game.ClockStart, t)
}

// Deadline is when the player to move runs out of time: their clock
// runs out after the time they have left, its weekends (M64) not
// counted.
func (st *State) Deadline() time.Time {
	left := *st.leftOf(st.Pos.Turn())
	if st.Game.ClockStart.Equal(AdjournedClock) {
		return AdjournedClock.Add(left)
	}
	return st.moverWeekends().after(st.Game.ClockStart, left)
}

// Late reports whether the player to move has run out of time in a
// game being played, whose clock runs.
func (st *State) Late() bool {
	return st.Active() && !st.Game.IsAdjourned() && !st.Game.IsPaused() && !st.Now.Before(st.Deadline())
}

// startClocks gives both players the full bank and starts White's clock.
func (st *State) startClocks() {
	full := bank(Control(st.Game))
	st.Game.WhiteLeft, st.Game.BlackLeft = full, full
	st.startTurn()
}

// startTurn starts the clock of the player to move, for a turn of
// theirs (runClock).
func (st *State) startTurn() {
	st.runClock()
	st.Game.TurnTime, st.Game.Reminders = *st.leftOf(st.Pos.Turn()), 0
}

// runClock starts the clock of the player to move: now, or when their
// vacation ends (but in a tournament without vacations, M67); never
// while the game is adjourned or paused.
func (st *State) runClock() {
	start := st.Now
	if until := st.ToMove().VacationUntil; until.After(start) && !st.NoVacation {
		start = until
	}
	if st.Game.IsAdjourned() || st.Game.IsPaused() {
		start = AdjournedClock
	}
	st.Game.ClockStart = start
}

// chargeMove takes the time the player to move used off their clock and
// adds the increment, up to the bank; it returns the time left before
// the increment. A player who moves late, in a timeout=claim game
// (M66), starts their next clock as usual: from nothing left, with the
// increment. Call it before the move is applied.
func (st *State) chargeMove() time.Duration {
	tc := Control(st.Game)
	left := st.leftOf(st.Pos.Turn())
	before := max(*left-st.used(st.Now), 0)
	*left = min(before+increment(tc), bank(tc))
	return before
}

// stopClock charges the player to move the time used so far, so that
// their clock can stand still from now on.
func (st *State) stopClock() {
	left := st.leftOf(st.Pos.Turn())
	*left = max(*left-st.used(st.Now), 0)
}

// Clock is the time one player has left.
type Clock struct {
	Left     time.Duration
	Vacation time.Time // the end of the player's vacation; zero when not on vacation, or when it stops no clock (M67)
	// Weekends is the time zone of a player whose clock stands still on
	// their weekends (M64), as a mail names it ("UTC" for none); "" for
	// a player who plays them.
	Weekends string
	// Out is set for the player to move when their time has run out in
	// a timeout=claim game (M66), which goes on until the opponent
	// claims the win.
	Out bool
}

// Clocks returns both players' time left now; ok is false unless the
// game is being played.
func (st *State) Clocks() (white, black Clock, ok bool) {
	if !st.Active() {
		return Clock{}, Clock{}, false
	}
	white, black = st.clockOf(st.White, st.Game.WhiteLeft), st.clockOf(st.Black, st.Game.BlackLeft)
	mover := &white
	if st.Pos.Turn() == rules.Black {
		mover = &black
	}
	mover.Left = max(mover.Left-st.used(st.Now), 0)
	mover.Out = st.Game.TimeoutClaim && st.Late()
	return white, black, true
}

// clockOf is the clock of player p, with left stored.
func (st *State) clockOf(p db.Player, left time.Duration) Clock {
	c := Clock{Left: left}
	if !st.NoVacation {
		c.Vacation = onVacation(p, st.Now)
	}
	if p.PausesWeekends() {
		c.Weekends = ZoneName(p.TimeZone)
	}
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
// when the next one is due (zero for none): each when the mover has so
// much time left. No reminder falls before the clock starts, so none
// comes during a vacation, nor in the mover's paused weekend (M64): one
// that would is due when the weekend ends.
func (st *State) reminderDue(t time.Time, final time.Duration) (due int, next time.Time) {
	w, left := st.moverWeekends(), *st.leftOf(st.Pos.Turn())
	for i, p := range reminderPoints(st.Game.TurnTime, final) {
		at := st.Game.ClockStart
		if left > p {
			at = w.after(at, left-p)
		}
		if at = w.outside(at); t.Before(at) {
			return due, at
		}
		due = i + 1
	}
	return due, time.Time{}
}

// notices is how many notices of the clock one turn of the mover's may
// bring: the reminders, and in a timeout=claim game (M66) the notice
// that their time ran out.
func (st *State) notices(final time.Duration) int {
	n := len(reminderPoints(st.Game.TurnTime, final))
	if st.Game.TimeoutClaim {
		n++
	}
	return n
}

// ClockNext tells whether the game's clock has something to do at t (a
// loss on time, the notice that time ran out in a timeout=claim game, a
// reminder, with the last reminder final before the deadline, or the
// end of a pause by agreement that has taken all the time a game's
// pauses may), and if not, when it next will; zero for never.
func (st *State) ClockNext(t time.Time, final time.Duration) (time.Time, bool) {
	if st.Game.IsPaused() {
		end := st.pauseEnds()
		return end, !t.Before(end)
	}
	deadline := st.Deadline()
	if !t.Before(deadline) {
		// The game is lost on time; or, with timeout=claim, the players
		// are told once, and it waits for a move or a claim.
		return time.Time{}, !st.Game.TimeoutClaim || st.Game.Reminders < st.notices(final)
	}
	due, next := st.reminderDue(t, final)
	if due > st.Game.Reminders {
		return time.Time{}, true
	}
	return Earliest(deadline, next), false
}

// FinalReminder is when the last reminder goes out: this much time
// before the player to move runs out; the first goes out when half the
// time for the move is gone.
const FinalReminder = Day

// clockDue is when the clock loop next has something to do in the game
// (db.Game.ClockDue): now when something is due, zero when the game is
// not being played or is adjourned (its clock stands still).
func (st *State) clockDue() time.Time {
	if !st.Active() || st.Game.IsAdjourned() {
		return time.Time{}
	}
	at, now := st.ClockNext(st.Now, FinalReminder)
	if now {
		return st.Now
	}
	return at
}

// dueBatch is how many games one DueClocks looks at, at most.
const dueBatch = 500

// DueClocks returns the games being played whose clock has something to
// do at now (ClockNext), up to dueBatch of them: it reads the games whose
// db.Game.ClockDue has come alone, and sets a later one for those that
// turn out to have nothing to do yet (as after the migration that gave
// every game its clock start). more is set when there may be more due
// than it returned. A game that cannot be read is left out, its error in
// broken, and looked at again a minute later.
func DueClocks(ctx context.Context, tx *db.Tx, now time.Time) (due []int64, more bool, broken []error, err error) {
	games, err := tx.ClocksDue(ctx, now, dueBatch)
	if err != nil {
		return nil, false, nil, err
	}
	for _, g := range games {
		var at time.Time
		if !g.IsAdjourned() { // else its clock stands still: no time out, no reminder
			st, err := Of(ctx, tx, g, now)
			if err != nil {
				broken = append(broken, &Fault{Game: g.ID, What: "clock", Err: err})
				at = now.Add(time.Minute)
			} else {
				var doNow bool
				if at, doNow = st.ClockNext(now, FinalReminder); doNow {
					due = append(due, g.ID)
					continue
				}
			}
		}
		if err := tx.SetClockDue(ctx, g.ID, at); err != nil {
			return nil, false, nil, err
		}
	}
	return due, len(games) == dueBatch, broken, nil
}

// ClockDue ends a game whose player to move ran out of time (in a
// timeout=claim game, M66, it tells the players once), or sends the
// reminder due (FinalReminder before the deadline for the last), or
// ends a pause by agreement that has taken all the time a game's pauses
// may (M63).
func ClockDue(ctx context.Context, tx *db.Tx, st *State) ([]Event, error) {
	if st.Game.IsPaused() {
		if st.Now.Before(st.pauseEnds()) {
			return nil, st.save(ctx, tx)
		}
		return unpause(ctx, tx, st, db.Player{})
	}
	if !st.Now.Before(st.Deadline()) {
		if !st.Game.TimeoutClaim {
			return TimeOut(ctx, tx, st)
		}
		var evs []Event
		if n := st.notices(FinalReminder); st.Game.Reminders < n {
			st.Game.Reminders = n
			evs = append(evs, event(TimeUp, st, db.Player{}))
		}
		return evs, st.save(ctx, tx)
	}
	var evs []Event
	due, _ := st.reminderDue(st.Now, FinalReminder)
	if due > st.Game.Reminders {
		st.Game.Reminders = due
		e := event(Reminded, st, db.Player{})
		e.Final = due == len(reminderPoints(st.Game.TurnTime, FinalReminder))
		evs = append(evs, e)
	}
	// Saved whatever happened, so that its ClockDue moves on.
	return evs, st.save(ctx, tx)
}

// TimeOut ends a game lost on time by the player to move.
func TimeOut(ctx context.Context, tx *db.Tx, st *State) ([]Event, error) {
	if err := finish(ctx, tx, st, resultOf(st.Pos.Turn().Other()), rules.OutOfTime); err != nil {
		return nil, err
	}
	if err := st.save(ctx, tx); err != nil {
		return nil, err
	}
	return []Event{event(Ended, st, db.Player{})}, nil
}

// CheckTime ends an active game whose player to move is out of time, in
// case the clock loop has not come to it yet: the time is up all the
// same. It returns the events, none when there is time left, and none
// in a timeout=claim game (M66), which goes on until a claim.
func CheckTime(ctx context.Context, tx *db.Tx, st *State) ([]Event, error) {
	if !st.Game.TimeoutClaim && st.Late() {
		return TimeOut(ctx, tx, st)
	}
	return nil, nil
}

// Earliest returns the earlier of two times, a zero time meaning none.
func Earliest(a, b time.Time) time.Time {
	if a.IsZero() || !b.IsZero() && b.Before(a) {
		return b
	}
	return a
}
