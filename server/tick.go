package server

import (
	"context"
	"errors"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/templates"
)

const (
	// maxClockWait bounds the clock loop's sleep, so that it looks again
	// now and then even when nothing is due.
	maxClockWait = time.Hour
	// minWakeGap is the least time between two Ticks caused by handled
	// mail, which may come in floods. Deadlines are kept to the minute
	// all the same.
	minWakeGap = 10 * time.Second
)

// Tick does what is due at the server's time now: games lost on time,
// reminders to players to move (neither in adjourned games), digests,
// and the pruning of old mail from the outbox. It
// returns when something is next due (zero when nothing is). It is safe
// to call at any time; the work for each game, and the digests, are
// recorded in a transaction of their own, so that a restart neither
// loses nor repeats any of it, and a game that cannot be done (its error
// is logged) holds up no other: it is tried again a minute later. It
// reads the games whose clock is due alone (db.Game.ClockDue), so that
// its cost does not grow with the games being played.
func (s *Server) Tick(ctx context.Context) (time.Time, error) {
	now := s.now().UTC()
	var next time.Time
	queued := 0
	defer func() {
		if queued > 0 {
			s.outbox.Wake()
		}
	}()
	for more := true; more; {
		// The games with something due now.
		var due []int64
		err := s.db.Tx(ctx, func(tx *db.Tx) error {
			var broken []error
			var err error
			due, more, broken, err = game.DueClocks(ctx, tx, now)
			for _, b := range broken {
				var f *game.Fault
				errors.As(b, &f)
				s.log.Error("clock", "game", f.Game, "err", f.Err)
			}
			return err
		})
		if err != nil {
			return time.Time{}, err
		}
		for _, id := range due {
			n, err := s.clockGame(ctx, id, now)
			if err != nil {
				if ctx.Err() != nil {
					return time.Time{}, ctx.Err()
				}
				s.log.Error("clock", "game", id, "err", err)
				// Tried again a minute later, the others meanwhile.
				err = s.db.Tx(ctx, func(tx *db.Tx) error { return tx.SetClockDue(ctx, id, now.Add(time.Minute)) })
				if err != nil {
					return time.Time{}, err
				}
			}
			queued += n
		}
	}
	err := s.db.Tx(ctx, func(tx *db.Tx) error {
		at, ok, err := tx.NextClockDue(ctx)
		if err != nil {
			return err
		}
		if ok {
			next = at
		}
		w := s.newWork(tx, now)
		if at, err = w.digests(ctx); err != nil {
			return err
		}
		next = game.Earliest(next, at)
		queued += w.queued
		return nil
	})
	if err != nil {
		return time.Time{}, err
	}
	if err := s.outbox.Prune(ctx, now); err != nil {
		return time.Time{}, err
	}
	return next, nil
}

// clockGame does what is due in the clock of one game, in a transaction
// of its own, and returns how many mails it queued.
func (s *Server) clockGame(ctx context.Context, id int64, now time.Time) (int, error) {
	n := 0
	err := s.db.Tx(ctx, func(tx *db.Tx) error {
		w := s.newWork(tx, now)
		st, err := game.Load(ctx, tx, id, now)
		if err != nil {
			return err
		}
		if !st.Active() || st.Game.IsAdjourned() {
			return tx.SetClockDue(ctx, id, time.Time{}) // ended or adjourned meanwhile
		}
		evs, err := game.ClockDue(ctx, tx, &st)
		if err != nil {
			return err
		}
		if err := w.tell(ctx, evs, nil); err != nil {
			return err
		}
		if err := w.flush(ctx); err != nil {
			return err
		}
		n = w.queued
		return nil
	})
	return n, err
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

// digests sends the digests due (M18) and returns when the next one is
// due.
func (w *work) digests(ctx context.Context) (time.Time, error) {
	due, err := w.tx.DigestsDue(ctx, w.now)
	if err != nil {
		return time.Time{}, err
	}
	for _, p := range due {
		if err := w.digest(ctx, p); err != nil {
			return time.Time{}, err
		}
		for !p.DigestAt.After(w.now) {
			p.DigestAt = p.DigestAt.Add(digestEvery)
		}
		if err := w.tx.UpdatePlayer(ctx, p); err != nil {
			return time.Time{}, err
		}
	}
	next, ok, err := w.tx.NextDigest(ctx)
	if err != nil || !ok {
		return time.Time{}, err
	}
	return next, nil
}

// digest sends a player the games where it is their move, if any.
func (w *work) digest(ctx context.Context, p db.Player) error {
	games, err := w.tx.GamesOf(ctx, p.ID)
	if err != nil {
		return err
	}
	data := templates.DigestData{Lang: w.lang(p), To: p.Handle}
	var digested []int64
	for _, g := range games {
		if g.Status != db.Active {
			continue
		}
		st, err := game.Of(ctx, w.tx, g, w.now)
		if err != nil {
			return err
		}
		if st.ToMove().ID != p.ID {
			continue
		}
		data.Games = append(data.Games, templates.DigestGame{Game: gameWords(&st), Board: templates.ViewOf(st.Pos, st.Side(p.ID)),
			Page: w.s.gamePage(st.ID())})
		digested = append(digested, st.ID())
	}
	if len(data.Games) == 0 {
		return nil
	}
	subject, body, err := templates.Digest(data)
	if err != nil {
		return err
	}
	o := w.mailTo(p, subject, body)
	if o.HTML, err = templates.DigestHTML(data); err != nil {
		return err
	}
	_, err = w.enqueue(ctx, outbox.Mail{Out: o, Games: digested})
	return err
}
