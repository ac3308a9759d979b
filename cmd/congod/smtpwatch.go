package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/mailer"
	"github.com/congobymail/congo/outbox"
)

// The SMTP server is checked again probeFirst after a send found it
// unreachable, then at doubling intervals up to probeMax, each check
// bounded by probeTimeout.
const (
	probeFirst   = time.Second
	probeMax     = 2 * time.Second
	probeTimeout = 30 * time.Second
)

// smtpWatch brings the outbox back as soon as the SMTP server is: when a
// send finds the server unreachable (mailer.IsUnreachable), it checks the
// server every few seconds with a session that sends no mail, and once
// the server answers, it makes the mails waiting out their backoff due at
// once and wakes the outbox. Without it the first mail would wait out its
// backoff (a minute or more) after the server came back.
type smtpWatch struct {
	smtp  *mailer.SMTP
	store *db.DB
	ob    *outbox.Outbox
	now   func() time.Time
	log   *slog.Logger
	// down is told, without blocking, that a send found the server
	// unreachable.
	down chan struct{}
}

func newSMTPWatch(smtp *mailer.SMTP, store *db.DB, ob *outbox.Outbox, now func() time.Time, log *slog.Logger) *smtpWatch {
	if now == nil {
		now = time.Now
	}
	return &smtpWatch{smtp: smtp, store: store, ob: ob, now: now, log: log, down: make(chan struct{}, 1)}
}

// sender wraps s, the outbox's sender, to notice an unreachable server.
func (w *smtpWatch) sender(s outbox.Sender) outbox.Sender { return watchedSender{s: s, w: w} }

type watchedSender struct {
	s outbox.Sender
	w *smtpWatch
}

func (ws watchedSender) Send(ctx context.Context, from string, to []string, msg []byte) error {
	err := ws.s.Send(ctx, from, to, msg)
	if err != nil && ctx.Err() == nil && mailer.IsUnreachable(err) {
		select {
		case ws.w.down <- struct{}{}:
		default:
		}
	}
	return err
}

// run watches until ctx is done.
func (w *smtpWatch) run(ctx context.Context) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-w.down:
		}
		up, err := w.waitUp(ctx)
		if err != nil {
			return err
		}
		if !up {
			continue // it answers, but refuses: the outbox's backoff goes on
		}
		select {
		case <-w.down: // failures seen while it was down
		default:
		}
		var n int64
		err = w.store.TxNoSync(ctx, func(tx *db.Tx) error {
			var err error
			n, err = tx.SetRetriesDue(ctx, w.now())
			return err
		})
		if err != nil {
			w.log.Error("smtp server answers again, but the outbox could not be brought forward", "err", err)
			continue
		}
		w.log.Info("smtp server answers again: the mails waiting are sent now", "addr", w.smtp.Addr(), "mails", n)
		w.ob.Wake()
	}
}

// waitUp checks the server at growing intervals until it can be reached,
// and reports whether it then took a session (false: it refused the
// login, say). It returns an error only when ctx is done.
func (w *smtpWatch) waitUp(ctx context.Context) (bool, error) {
	delay := probeFirst
	t := time.NewTimer(delay)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-t.C:
		}
		cctx, cancel := context.WithTimeout(ctx, probeTimeout)
		err := w.smtp.Check(cctx)
		cancel()
		switch {
		case ctx.Err() != nil:
			return false, ctx.Err()
		case err == nil:
			return true, nil
		case !mailer.IsUnreachable(err):
			w.log.Warn("smtp server answers again, but refuses the session", "addr", w.smtp.Addr(), "err", err)
			return false, nil
		}
		w.log.Debug("smtp server still unreachable", "addr", w.smtp.Addr(), "err", err)
		delay = min(2*delay, probeMax)
		t.Reset(delay)
	}
}
