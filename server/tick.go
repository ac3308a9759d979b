package server

import (
	"context"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/templates"
)

const (
	// maxClockWait bounds the clock loop's sleep, so that it looks again
	// now and then even when nothing is due.
	maxClockWait = time.Hour
	// digestEvery is how often a digest goes out (M18).
	digestEvery = 24 * time.Hour
	// minWakeGap is the least time between two Ticks caused by handled
	// mail: a Tick reads every active game, and mail may come in floods.
	// Deadlines are kept to the minute all the same.
	minWakeGap = 10 * time.Second
	// keepSent is how long a mail sent, or given up, stays in the outbox
	// (its whole text, for the operator to look at) before a Tick deletes
	// it, at most pruneBatch at a time.
	keepSent   = 30 * 24 * time.Hour
	pruneBatch = 1000
)

// Tick does what is due at the server's time now: games lost on time,
// reminders to players to move (neither in adjourned games), digests,
// and the pruning of old mail from the outbox (keepSent). It
// returns when something is next due (zero when nothing is). It is safe
// to call at any time; the work for each game, and the digests, are
// recorded in a transaction of their own, so that a restart neither
// loses nor repeats any of it, and a game that cannot be done (its error
// is logged) holds up no other: it is tried again a minute later.
func (s *Server) Tick(ctx context.Context) (time.Time, error) {
	now := s.now().UTC()
	var next time.Time
	queued := 0
	defer func() {
		if queued > 0 {
			s.wakeOutbox()
		}
	}()
	// The games with something due now, found in a read-only pass.
	var due []int64
	err := s.db.Tx(ctx, func(tx *db.Tx) error {
		next, due = time.Time{}, nil
		h := newHandling(s, tx, nil, now)
		games, err := tx.ActiveGames(ctx)
		if err != nil {
			return err
		}
		for _, g := range games {
			if g.IsAdjourned() {
				continue // its clock stands still: no time out, no reminder
			}
			gs, err := h.gameState(ctx, g)
			if err != nil {
				s.log.Error("clock", "game", g.ID, "err", err)
				next = earliest(next, now.Add(time.Minute))
				continue
			}
			if at, doNow := gs.clockNext(h.now, s.finalReminder); doNow {
				due = append(due, g.ID)
			} else {
				next = earliest(next, at)
			}
		}
		return nil
	})
	if err != nil {
		return time.Time{}, err
	}
	for _, id := range due {
		var at time.Time
		n := 0
		err := s.db.Tx(ctx, func(tx *db.Tx) error {
			h := newHandling(s, tx, nil, now)
			g, err := tx.Game(ctx, id)
			if err != nil {
				return err
			}
			if g.Status != db.Active || g.IsAdjourned() {
				at = time.Time{}
				return nil // ended or adjourned meanwhile
			}
			gs, err := h.gameState(ctx, g)
			if err != nil {
				return err
			}
			if at, err = h.clockDue(ctx, &gs); err != nil {
				return err
			}
			n = h.queued
			return nil
		})
		if err != nil {
			if ctx.Err() != nil {
				return time.Time{}, ctx.Err()
			}
			s.log.Error("clock", "game", id, "err", err)
			at = now.Add(time.Minute)
		} else {
			queued += n
		}
		next = earliest(next, at)
	}
	err = s.db.Tx(ctx, func(tx *db.Tx) error {
		h := newHandling(s, tx, nil, now)
		at, err := h.digests(ctx)
		if err != nil {
			return err
		}
		next = earliest(next, at)
		queued += h.queued
		return nil
	})
	if err != nil {
		return time.Time{}, err
	}
	var pruned int64
	err = s.db.Tx(ctx, func(tx *db.Tx) error {
		var err error
		pruned, err = tx.PruneOutbox(ctx, now.Add(-keepSent), pruneBatch)
		return err
	})
	if err != nil {
		return time.Time{}, err
	}
	if pruned > 0 {
		s.log.Info("old mail pruned from the outbox", "mails", pruned, "before", now.Add(-keepSent))
	}
	return next, nil
}

// earliest returns the earlier of two times, a zero time meaning none.
func earliest(a, b time.Time) time.Time {
	if a.IsZero() || !b.IsZero() && b.Before(a) {
		return b
	}
	return a
}

// RunClock runs Tick until ctx is done, and then returns ctx.Err(): at
// every deadline, reminder and digest, exact to the minute, and whenever
// a mail was handled (a move starts a new clock).
func (s *Server) RunClock(ctx context.Context) error {
	timer := time.NewTimer(0)
	defer timer.Stop()
	var last, due time.Time // of the last Tick and of the timer, by the server's clock
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
		case <-s.clockWake:
			if at := last.Add(minWakeGap); s.now().Before(at) {
				// Soon, not now: the timer is moved up to at, if later.
				if due.After(at) {
					timer.Reset(at.Sub(s.now())) // Go 1.23 timers: no stale tick
					due = at
				}
				continue
			}
		}
		last = s.now()
		next, err := s.Tick(ctx)
		wait := maxClockWait
		switch {
		case err != nil && ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			s.log.Error("clock", "err", err)
			wait = time.Minute
		case !next.IsZero():
			wait = min(max(next.Sub(s.now()), 0), maxClockWait)
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		timer.Reset(wait)
		due = s.now().Add(wait)
	}
}

// wakeClock tells the clock loop to look again, without waiting.
func (s *Server) wakeClock() {
	select {
	case s.clockWake <- struct{}{}:
	default:
	}
}

// clockDue ends a game whose player to move ran out of time, or sends
// the reminder due; it returns when the game's clock next needs looking
// at (zero when the game is over).
// clockNext tells whether the game's clock has something to do at t (a
// time out or a reminder), and if not, when it next will.
func (gs *gameState) clockNext(t time.Time, final time.Duration) (time.Time, bool) {
	deadline := gs.deadline()
	if !t.Before(deadline) {
		return time.Time{}, true
	}
	due, next := gs.reminderDue(t, final)
	if due > gs.g.Reminders {
		return time.Time{}, true
	}
	return earliest(deadline, next), false
}

func (h *handling) clockDue(ctx context.Context, gs *gameState) (time.Time, error) {
	deadline := gs.deadline()
	if !h.now.Before(deadline) {
		return time.Time{}, h.timeOut(ctx, gs)
	}
	due, next := gs.reminderDue(h.now, h.s.finalReminder)
	if due > gs.g.Reminders {
		gs.g.Reminders = due
		if err := h.tx.UpdateGame(ctx, gs.g, h.now); err != nil {
			return time.Time{}, err
		}
		final := due == len(reminderPoints(gs.g.TurnTime, h.s.finalReminder))
		if err := h.remind(ctx, gs, final); err != nil {
			return time.Time{}, err
		}
	}
	return earliest(deadline, next), nil
}

// timeOut ends a game lost on time by the player to move; both players
// (and the observers) are told.
func (h *handling) timeOut(ctx context.Context, gs *gameState) error {
	loser := gs.pos.Turn()
	if err := h.finish(ctx, gs, resultOf(loser.Other()), reasonTime); err != nil {
		return err
	}
	if err := h.tx.UpdateGame(ctx, gs.g, h.now); err != nil {
		return err
	}
	h.note("time out")
	h.s.log.Info("lost on time", "game", gs.g.ID, "player", gs.player(loser).Handle)
	return h.announce(ctx, gs, templates.BoardData{}, nil, nil, false)
}

// remind tells the player to move how much time is left.
func (h *handling) remind(ctx context.Context, gs *gameState, final bool) error {
	to := gs.player(gs.pos.Turn())
	data := templates.BoardData{Game: gs.template(), To: to.Handle, Event: templates.Reminder,
		Until: gs.deadline(), Board: gs.view(gs.pos.Turn()), Final: final}
	return h.boardMail(ctx, gs, to, data)
}

// digests sends the digests due (M18) and returns when the next one is
// due.
func (h *handling) digests(ctx context.Context) (time.Time, error) {
	due, err := h.tx.DigestsDue(ctx, h.now)
	if err != nil {
		return time.Time{}, err
	}
	for _, p := range due {
		if err := h.digest(ctx, p); err != nil {
			return time.Time{}, err
		}
		for !p.DigestAt.After(h.now) {
			p.DigestAt = p.DigestAt.Add(digestEvery)
		}
		if err := h.tx.UpdatePlayer(ctx, p); err != nil {
			return time.Time{}, err
		}
	}
	next, ok, err := h.tx.NextDigest(ctx)
	if err != nil || !ok {
		return time.Time{}, err
	}
	return next, nil
}

// digest sends a player the games where it is their move, if any.
func (h *handling) digest(ctx context.Context, p db.Player) error {
	games, err := h.tx.GamesOf(ctx, p.ID)
	if err != nil {
		return err
	}
	data := templates.DigestData{To: p.Handle}
	for _, g := range games {
		if g.Status != db.Active {
			continue
		}
		gs, err := h.gameState(ctx, g)
		if err != nil {
			return err
		}
		if gs.player(gs.pos.Turn()).ID != p.ID {
			continue
		}
		data.Games = append(data.Games, templates.DigestGame{Game: gs.template(), Board: gs.view(side(gs, p))})
	}
	if len(data.Games) == 0 {
		return nil
	}
	subject, body, err := templates.Digest(data)
	if err != nil {
		return err
	}
	o := h.mailTo(p, subject, body)
	if o.HTML, err = templates.DigestHTML(data); err != nil {
		return err
	}
	_, err = h.enqueue(ctx, o, 0)
	return err
}

// side is the colour p sees a game from: their own, or white.
func side(gs gameState, p db.Player) rules.Color {
	if gs.g.Has(p.ID) {
		return gs.colorOf(p.ID)
	}
	return rules.White
}
