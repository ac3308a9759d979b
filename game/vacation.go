package game

import (
	"context"
	"time"

	"github.com/congobymail/congo/db"
)

// Vacation allowance (M17): it grows by vacationPerYear a year, up to
// maxVacation.
const (
	vacationPerYear = 30 * Day
	maxVacation     = 30 * Day
	year            = 365 * Day
)

// accrue brings a player's vacation allowance up to t.
func accrue(p *db.Player, t time.Time) {
	if p.VacationAccrued.IsZero() || t.Before(p.VacationAccrued) {
		p.VacationAccrued = t
		return
	}
	gained := time.Duration(float64(t.Sub(p.VacationAccrued)) * float64(vacationPerYear) / float64(year))
	p.VacationLeft = min(p.VacationLeft+gained, maxVacation)
	p.VacationAccrued = t
}

// StartVacation starts a vacation of days for p at now: their clocks
// stop in every game meanwhile (M17). It returns p as stored, the number
// of games being played, and the events: a VacationStarted for each game
// but those p lost on time already.
func StartVacation(ctx context.Context, tx *db.Tx, p db.Player, days int, now time.Time) (db.Player, int, []Event, error) {
	accrue(&p, now)
	switch {
	case p.VacationUntil.After(now):
		return p, 0, nil, &Refusal{Problem: OnVacation, Until: p.VacationUntil}
	case time.Duration(days)*Day > p.VacationLeft:
		return p, 0, nil, &Refusal{Problem: NoVacation, Left: p.VacationLeft}
	}
	length := time.Duration(days) * Day
	p.VacationLeft -= length
	p.VacationUntil = now.Add(length)
	if err := tx.SetPlayer(ctx, p); err != nil {
		return p, 0, nil, err
	}
	n, evs, err := stopClocks(ctx, tx, p, now)
	return p, n, evs, err
}

// VacationLeft is p's vacation allowance at now.
func VacationLeft(p db.Player, now time.Time) time.Duration {
	accrue(&p, now)
	return p.VacationLeft
}

// stopClocks stops p's clocks in the games where p is to move (but for
// adjourned and paused games, whose clocks stand still already) until
// the vacation ends. It returns the number of games being played whose
// clocks a vacation stops (not those of a tournament without vacations,
// M67), and the events.
func stopClocks(ctx context.Context, tx *db.Tx, p db.Player, now time.Time) (int, []Event, error) {
	games, err := tx.GamesOf(ctx, p.ID)
	if err != nil {
		return 0, nil, err
	}
	n := 0
	var evs []Event
	for _, g := range games {
		if g.Status != db.Active {
			continue
		}
		st, err := Of(ctx, tx, g, now)
		if err != nil {
			return 0, nil, err
		}
		if st.NoVacation {
			continue // its clocks run (M67)
		}
		// An adjourned or paused game's clock stands still already,
		// until the game is resumed.
		if st.ToMove().ID == p.ID && !st.Game.IsAdjourned() && !st.Game.IsPaused() {
			if st.Late() {
				if st.Game.TimeoutClaim {
					continue // the opponent may claim it (M66): no vacation brings the time back
				}
				// The clock loop has not come to it yet: the time is up
				// all the same, and no vacation brings it back.
				more, err := TimeOut(ctx, tx, &st)
				if err != nil {
					return 0, nil, err
				}
				evs = append(evs, more...)
				continue
			}
			st.stopClock()
			st.Game.ClockStart = p.VacationUntil
			if err := st.save(ctx, tx); err != nil {
				return 0, nil, err
			}
		}
		n++
		evs = append(evs, event(VacationStarted, &st, p))
	}
	return n, evs, nil
}

// EndVacation ends p's vacation early: what is left of it is given back,
// and p's clocks start now, but for those of adjourned games. It returns
// p as stored.
func EndVacation(ctx context.Context, tx *db.Tx, p db.Player, now time.Time) (db.Player, error) {
	accrue(&p, now)
	if !p.VacationUntil.After(now) {
		return p, refuse(NotOnVacation)
	}
	p.VacationLeft = min(p.VacationLeft+p.VacationUntil.Sub(now), maxVacation)
	p.VacationUntil = time.Time{}
	if err := tx.SetPlayer(ctx, p); err != nil {
		return p, err
	}
	games, err := tx.GamesOf(ctx, p.ID)
	if err != nil {
		return p, err
	}
	for _, g := range games {
		// An adjourned or paused game's clock starts only when the game
		// is resumed: its clock start in the future is not a vacation's.
		if g.Status != db.Active || g.IsAdjourned() || g.IsPaused() || !g.ClockStart.After(now) {
			continue
		}
		st, err := Of(ctx, tx, g, now)
		if err != nil {
			return p, err
		}
		if st.ToMove().ID == p.ID {
			st.Game.ClockStart = now
			if err := st.save(ctx, tx); err != nil {
				return p, err
			}
		}
	}
	return p, nil
}
