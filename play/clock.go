package play

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/tell"
	"github.com/congobymail/congo/templates"
)

const (
	// maxClockWait bounds the clock's sleep, so that it looks again now
	// and then even when nothing is due.
	maxClockWait = time.Hour
	// minWakeGap is the least time between two Ticks caused by handled
	// mail, which may come in floods. Deadlines are kept to the minute
	// all the same.
	minWakeGap = 10 * time.Second
	// DigestEvery is how often a digest goes out (M18).
	DigestEvery = 24 * time.Hour
)

// Clock is the worker of the games' clocks: it ends games on time,
// reminds players to move, sends the digests and prunes the outbox.
type Clock struct {
	db   *db.DB
	tell *tell.Teller
	now  func() time.Time
	log  *slog.Logger
	wake chan struct{}
}

// NewClock returns the clock of the games of store, which mails through
// t and reads the time from now.
func NewClock(store *db.DB, t *tell.Teller, now func() time.Time) *Clock {
	return &Clock{db: store, tell: t, now: now, log: t.Log(), wake: make(chan struct{}, 1)}
}

// Wake tells the clock to look again, without waiting: a mail was
// handled, and a move starts a new clock.
func (c *Clock) Wake() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// Tick does what is due at the clock's time now: games lost on time,
// reminders to players to move (neither in adjourned games), digests,
// and the pruning of old mail from the outbox. It returns when something
// is next due (zero when nothing is). It is safe to call at any time;
// the work for each game, and the digests, are recorded in a transaction
// of their own, so that a restart neither loses nor repeats any of it,
// and a game that cannot be done (its error is logged) holds up no
// other: it is tried again a minute later. It reads the games whose
// clock is due alone (db.Game.ClockDue), so that its cost does not grow
// with the games being played.
func (c *Clock) Tick(ctx context.Context) (time.Time, error) {
	now := c.now().UTC()
	var next time.Time
	queued := 0
	defer func() {
		if queued > 0 {
			c.tell.Outbox().Wake()
		}
	}()
	for more := true; more; {
		// The games with something due now.
		var due []int64
		err := c.db.Tx(ctx, func(tx *db.Tx) error {
			var broken []error
			var err error
			due, more, broken, err = game.DueClocks(ctx, tx, now)
			for _, b := range broken {
				var f *game.Fault
				errors.As(b, &f)
				c.log.Error("clock", "game", f.Game, "err", f.Err)
			}
			return err
		})
		if err != nil {
			return time.Time{}, err
		}
		for _, id := range due {
			n, err := c.game(ctx, id, now)
			if err != nil {
				if ctx.Err() != nil {
					return time.Time{}, ctx.Err()
				}
				c.log.Error("clock", "game", id, "err", err)
				// Tried again a minute later, the others meanwhile.
				err = c.db.Tx(ctx, func(tx *db.Tx) error { return tx.SetClockDue(ctx, id, now.Add(time.Minute)) })
				if err != nil {
					return time.Time{}, err
				}
			}
			queued += n
		}
	}
	err := c.db.Tx(ctx, func(tx *db.Tx) error {
		at, ok, err := tx.NextClockDue(ctx)
		if err != nil {
			return err
		}
		if ok {
			next = at
		}
		w := c.tell.NewWork(tx, now)
		if at, err = digests(ctx, w); err != nil {
			return err
		}
		next = game.Earliest(next, at)
		queued += w.Queued()
		return nil
	})
	if err != nil {
		return time.Time{}, err
	}
	if err := c.tell.Outbox().Prune(ctx, now); err != nil {
		return time.Time{}, err
	}
	return next, nil
}

// game does what is due in the clock of one game, in a transaction of
// its own, and returns how many mails it queued.
func (c *Clock) game(ctx context.Context, id int64, now time.Time) (int, error) {
	n := 0
	err := c.db.Tx(ctx, func(tx *db.Tx) error {
		w := c.tell.NewWork(tx, now)
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
		if err := w.Tell(ctx, evs, nil); err != nil {
			return err
		}
		if err := w.Flush(ctx); err != nil {
			return err
		}
		n = w.Queued()
		return nil
	})
	return n, err
}

// Run runs Tick until ctx is done, and then returns ctx.Err(): at every
// deadline, reminder and digest, exact to the minute, and whenever it is
// woken (a move starts a new clock).
func (c *Clock) Run(ctx context.Context) error {
	timer := time.NewTimer(0)
	defer timer.Stop()
	var last, due time.Time // of the last Tick and of the timer, by the clock's time
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
		case <-c.wake:
			if at := last.Add(minWakeGap); c.now().Before(at) {
				// Soon, not now: the timer is moved up to at, if later.
				if due.After(at) {
					timer.Reset(at.Sub(c.now())) // Go 1.23 timers: no stale tick
					due = at
				}
				continue
			}
		}
		last = c.now()
		next, err := c.Tick(ctx)
		wait := maxClockWait
		switch {
		case err != nil && ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			c.log.Error("clock", "err", err)
			wait = time.Minute
		case !next.IsZero():
			wait = min(max(next.Sub(c.now()), 0), maxClockWait)
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		timer.Reset(wait)
		due = c.now().Add(wait)
	}
}

// digests sends the digests due (M18) and returns when the next one is
// due.
func digests(ctx context.Context, w *tell.Work) (time.Time, error) {
	due, err := w.Tx.DigestsDue(ctx, w.Now)
	if err != nil {
		return time.Time{}, err
	}
	for _, p := range due {
		if err := digest(ctx, w, p); err != nil {
			return time.Time{}, err
		}
		for !p.DigestAt.After(w.Now) {
			p.DigestAt = p.DigestAt.Add(DigestEvery)
		}
		if err := w.Tx.SetPlayer(ctx, p); err != nil {
			return time.Time{}, err
		}
	}
	next, ok, err := w.Tx.NextDigest(ctx)
	if err != nil || !ok {
		return time.Time{}, err
	}
	return next, nil
}

// digest sends a player the games where it is their move, if any, but
// those paused by agreement.
func digest(ctx context.Context, w *tell.Work, p db.Player) error {
	games, err := w.Tx.GamesOf(ctx, p.ID)
	if err != nil {
		return err
	}
	data := templates.DigestData{Lang: w.Lang(p), To: p.Handle}
	var digested []int64
	for _, g := range games {
		if g.Status != db.Active {
			continue
		}
		st, err := game.Of(ctx, w.Tx, g, w.Now)
		if err != nil {
			return err
		}
		if st.ToMove().ID != p.ID || st.Game.IsPaused() {
			continue // nothing to do in a game paused by agreement (M63)
		}
		data.Games = append(data.Games, templates.DigestGame{Game: tell.GameWords(&st), Board: templates.ViewOf(st.Pos, st.Side(p.ID)),
			Page: w.GamePageFor(st.Game, p)})
		digested = append(digested, st.ID())
	}
	if len(data.Games) == 0 {
		return nil
	}
	subject, body, err := templates.Digest(data)
	if err != nil {
		return err
	}
	o := w.MailTo(p, subject, body)
	if o.HTML, err = templates.DigestHTML(data); err != nil {
		return err
	}
	_, err = w.Enqueue(ctx, outbox.Mail{Out: o, Games: digested})
	return err
}
