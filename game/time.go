package game

import (
	"context"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/rules"
)

// Limits of the time players give each other and take by agreement.
const (
	// MaxPause is the most time a game's pauses by agreement add up to
	// (M63).
	MaxPause = 30 * Day
	// MaxGiven is the most time the players of a game give each other
	// (M65).
	MaxGiven = 30 * Day
)

// PauseLeft is how much longer the game's pauses may take, as at st.Now.
func (st *State) PauseLeft() time.Duration {
	used := st.Game.PausedFor
	if st.Game.IsPaused() {
		used += st.Now.Sub(st.Game.Paused)
	}
	return min(max(MaxPause-used, 0), MaxPause)
}

// pauseEnds is when the pause going on ends by itself: it has then taken
// all the time a game's pauses may.
func (st *State) pauseEnds() time.Time {
	return st.Game.Paused.Add(max(MaxPause-st.Game.PausedFor, 0))
}

// Pause asks the opponent for a pause for player, or agrees to the
// pause the opponent asked for: both clocks then stand still until
// either player resumes the game, or its pauses have taken MaxPause
// (M63). A tournament's game may be paused only when its tournament
// allows it.
func Pause(ctx context.Context, tx *db.Tx, st *State, player db.Player) ([]Event, error) {
	if err := st.active(); err != nil {
		return nil, err
	}
	opp := st.Opponent(player.ID)
	switch {
	case st.Game.IsPaused():
		return nil, &Refusal{Problem: PausedAlready, Until: st.Game.Paused, Left: st.PauseLeft()}
	case st.Game.Tournament != 0 && !st.Pauses:
		return nil, refuse(NoPauses)
	case st.PauseLeft() < time.Minute:
		return nil, refuse(PauseUsedUp)
	case st.Game.PauseAsked == player.ID:
		return nil, &Refusal{Problem: PauseAskedAlready, Other: opp.Handle}
	case st.Game.PauseAsked != opp.ID:
		st.Game.PauseAsked = player.ID
		return []Event{event(PauseAsked, st, player)}, st.save(ctx, tx)
	}
	st.stopClock()
	st.Game.PauseAsked, st.Game.Paused = 0, st.Now
	st.runClock() // stands still
	return []Event{event(Paused, st, player)}, st.save(ctx, tx)
}

// EndPause ends the pause of a game for player, who resumes it: the
// clocks run again (M63).
func EndPause(ctx context.Context, tx *db.Tx, st *State, player db.Player) ([]Event, error) {
	if err := st.active(); err != nil {
		return nil, err
	}
	if !st.Game.IsPaused() {
		return nil, refuse(NotPaused)
	}
	return unpause(ctx, tx, st, player)
}

// unpause ends the pause of a game, by player (zero for the clock, when
// the game's pauses have taken all the time they may): the mover's
// clock runs again, with the time and reminders the mover had.
func unpause(ctx context.Context, tx *db.Tx, st *State, by db.Player) ([]Event, error) {
	st.Game.PausedFor = min(st.Game.PausedFor+st.Now.Sub(st.Game.Paused), MaxPause)
	st.Game.Paused = time.Time{}
	st.runClock()
	return []Event{event(Unpaused, st, by)}, st.save(ctx, tx)
}

// paused refuses a change that a pause stops: a move, a claim.
func (st *State) paused() error {
	if st.Game.IsPaused() {
		return &Refusal{Problem: GamePaused, Until: st.Game.Paused, Left: st.PauseLeft()}
	}
	return nil
}

// Give adds d to the clock of giver's opponent, for the move they are to
// make (M65): when it is their move, to the time they have left now
// (from nothing, when it has run out in a timeout=claim game); else to
// the time their next move starts with. The players of a game give at
// most MaxGiven in all.
func Give(ctx context.Context, tx *db.Tx, st *State, giver db.Player, d time.Duration) ([]Event, error) {
	if err := st.active(); err != nil {
		return nil, err
	}
	if st.Game.Given+d > MaxGiven {
		return nil, &Refusal{Problem: TooMuchGiven, Left: MaxGiven - st.Game.Given}
	}
	c := st.ColorOf(giver.ID).Other()
	if st.Pos.Turn() == c && st.Game.ClockStart.Before(st.Now) {
		// Their clock runs: what they have left now, and then the
		// time given, from now on.
		st.stopClock()
		st.Game.ClockStart = st.Now
		st.Game.TurnTime += d
		*st.leftOf(c) += d
		// The reminders come again as the time left calls for them.
		due, _ := st.reminderDue(st.Now, FinalReminder)
		st.Game.Reminders = min(st.Game.Reminders, due)
	} else {
		*st.leftOf(c) += d
		if st.Pos.Turn() == c {
			st.Game.TurnTime += d
		}
	}
	st.Game.Given += d
	e := event(TimeGiven, st, giver)
	e.Given = d
	return []Event{e}, st.save(ctx, tx)
}

// Claim ends a timeout=claim game won on time by claimer, whose
// opponent, to move, has run out of time (M66).
func Claim(ctx context.Context, tx *db.Tx, st *State, claimer db.Player) ([]Event, error) {
	if err := st.active(); err != nil {
		return nil, err
	}
	switch opp := st.Opponent(claimer.ID); {
	case !st.Game.TimeoutClaim:
		return nil, refuse(NoClaim)
	case st.ToMove().ID == claimer.ID:
		return nil, refuse(ClaimOnMove)
	case st.Game.IsPaused():
		return nil, st.paused()
	case !st.Late():
		w, b, _ := st.Clocks()
		left := w.Left
		if st.Pos.Turn() == rules.Black {
			left = b.Left
		}
		return nil, &Refusal{Problem: NotLate, Other: opp.Handle, Left: left}
	}
	if err := finish(ctx, tx, st, resultOf(st.ColorOf(claimer.ID)), rules.OutOfTime); err != nil {
		return nil, err
	}
	return []Event{event(Ended, st, claimer)}, st.save(ctx, tx)
}

// SetTime sets p's time zone, an IANA name ("" for UTC), and whether
// their clock stands still on their weekends (M64), from now on: in
// each game where p is to move, the time used so far is charged as it
// ran, and their clock runs on as the new setting says. A weekend that
// has begun, in the time zone set, when a player asks to pause weekends
// (or changes the time zone of paused weekends) is not paused: so a
// change of time zone does not lengthen a weekend. It returns p as
// stored, and the events of games found lost on time meanwhile.
func SetTime(ctx context.Context, tx *db.Tx, p db.Player, zone string, pauseWeekends bool, now time.Time) (db.Player, []Event, error) {
	from := time.Time{}
	switch {
	case !pauseWeekends:
	case p.PausesWeekends() && zone == p.TimeZone:
		from = p.WeekendsFrom
	default:
		from = now
	}
	if zone == p.TimeZone && from.Equal(p.WeekendsFrom) {
		return p, nil, nil
	}
	games, err := tx.GamesOf(ctx, p.ID)
	if err != nil {
		return p, nil, err
	}
	var evs []Event
	var changed []State
	for _, g := range games {
		if g.Status != db.Active || g.IsAdjourned() || g.IsPaused() {
			continue
		}
		st, err := Of(ctx, tx, g, now)
		if err != nil {
			return p, nil, err
		}
		if st.ToMove().ID != p.ID {
			continue
		}
		if st.Late() && !st.Game.TimeoutClaim {
			more, err := TimeOut(ctx, tx, &st)
			if err != nil {
				return p, nil, err
			}
			evs = append(evs, more...)
			continue
		}
		if st.Game.ClockStart.Before(now) {
			st.stopClock()
			st.Game.ClockStart = now
		}
		changed = append(changed, st)
	}
	p.TimeZone, p.WeekendsFrom = zone, from
	if err := tx.SetTime(ctx, p.ID, zone, from); err != nil {
		return p, nil, err
	}
	for _, st := range changed {
		if st.White.ID == p.ID {
			st.White = p
		} else {
			st.Black = p
		}
		if err := st.save(ctx, tx); err != nil {
			return p, nil, err
		}
	}
	return p, evs, nil
}
