package outbox

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/mailer"
)

const (
	// sendBatch is how many mails one SendDue sends at most over each
	// connection.
	sendBatch = 15
	// DefaultConnections is how many mails are sent at once, each over
	// an SMTP session of its own, when Config.Connections is 0.
	DefaultConnections = 8
	// firstRetry and lastRetry bound the wait after a failed attempt,
	// which doubles with each attempt.
	firstRetry = time.Minute
	lastRetry  = time.Hour
	// poll is the longest the send loop sleeps.
	poll = time.Minute
	// giveUpAfter is how long a mail is retried before it is given up.
	giveUpAfter = 5 * 24 * time.Hour
	// inFlightGrace is how long a send under way may go on once the loop
	// is asked to stop: the mail is finished, not cut off half-sent.
	inFlightGrace = 3 * time.Second
	// maxUnapplied is how many records the sent log may hold before they
	// are carried into the outbox whatever else waits for the database.
	maxUnapplied = 2000
)

// SendDue sends the mails of the outbox that are due and returns how many
// were sent: each recipient's in the order they were queued (db.Due), one
// after another, and the mails of different recipients over up to
// Config.Connections SMTP sessions at once. A mail that fails for a
// while is tried again later, with exponential backoff, and the
// recipient's later mails wait behind it; one that fails permanently, or
// for longer than giveUpAfter, is recorded as failed. When every send of
// a round works, the mails waiting out a backoff are made due at once:
// the SMTP server is back. A send that fails because the server refused
// the login, or because no login is tried for a while after a refusal
// (mailer.LoginBlockedUntil), is no attempt: nothing is recorded, the
// mail stays due with its attempts and backoff as they were, and no mail
// is sent before the login may be tried again. Once ctx is done it sends
// no other mail, but those under way are finished (inFlightGrace at
// most) and recorded. It returns an error when the database fails or ctx
// is done.
//
// The outbox is read without waiting for the database's lock, which mail
// being handled may hold: the sent log's records not carried into it yet
// are taken as sent.
func (o *Outbox) SendDue(ctx context.Context, send Sender) (int, error) {
	sent, _, err := o.sendDue(ctx, send)
	return sent, err
}

// sendDue is SendDue, and tells whether it took as many mails as a round
// takes: then more may be due at once.
func (o *Outbox) sendDue(ctx context.Context, send Sender) (int, bool, error) {
	if err := o.applySentLog(ctx); err != nil {
		return 0, false, err
	}
	if o.loginWait() > 0 {
		return 0, false, nil // no mail can go before the login block's end
	}
	var due []db.Mail
	limit := o.connections * sendBatch
	err := o.db.Read(ctx, func(tx *db.Tx) error {
		var err error
		due, err = tx.Due(ctx, o.now(), limit, o.unapplied()...)
		return err
	})
	if err != nil {
		return 0, false, err
	}
	sent, err := o.sendLanes(ctx, send, due)
	return sent, len(due) == limit, err
}

// sendLanes sends due, the mails of a round.
func (o *Outbox) sendLanes(ctx context.Context, send Sender, due []db.Mail) (int, error) {
	lanes := spread(due, o.connections)
	results := make([]laneResult, len(lanes))
	var wg sync.WaitGroup
	for i, ms := range lanes {
		if len(ms) > 0 {
			wg.Go(func() { results[i] = o.sendLane(context.WithValue(ctx, laneKey{}, i), send, ms) })
		}
	}
	wg.Wait()
	sent, failed := 0, 0
	var errs []error
	for _, r := range results {
		sent += r.sent
		failed += r.failed
		if r.err != nil {
			errs = append(errs, r.err)
		}
	}
	if len(errs) > 0 {
		return sent, errors.Join(errs...)
	}
	if sent > 0 && failed == 0 {
		if err := o.retryNow(ctx); err != nil {
			return sent, err
		}
	}
	// Carried into the outbox now, so that the loop sees them sent.
	if err := o.applySentLog(context.WithoutCancel(ctx)); err != nil {
		return sent, err
	}
	return sent, ctx.Err()
}

type (
	laneKey      struct{}
	messageIDKey struct{}
)

// Lane is the lane, from 0 to Config.Connections-1, of the send whose
// context is ctx, when the send loop made it: the sends of one lane come
// one after another, each recorded (sent, to retry, or failed) before the
// next begins.
func Lane(ctx context.Context) (int, bool) {
	i, ok := ctx.Value(laneKey{}).(int)
	return i, ok
}

// MessageID is the Message-ID of the mail that the send whose context is
// ctx sends, when the send loop made it, so that a Sender need not read
// it from the mail's bytes.
func MessageID(ctx context.Context) (string, bool) {
	id, ok := ctx.Value(messageIDKey{}).(string)
	return id, ok
}

// spread puts the mails of a round into n lanes, sent at once: each
// recipient's in one lane, in their order, and the lanes as even as can
// be (the recipients with the most mails first, each into the lane with
// fewest), as the round ends when its longest lane does.
func spread(due []db.Mail, n int) [][]db.Mail {
	byTo := map[string][]db.Mail{}
	var tos []string
	for _, m := range due {
		if _, ok := byTo[m.To]; !ok {
			tos = append(tos, m.To)
		}
		byTo[m.To] = append(byTo[m.To], m)
	}
	slices.SortStableFunc(tos, func(a, b string) int { return len(byTo[b]) - len(byTo[a]) })
	lanes := make([][]db.Mail, n)
	for _, to := range tos {
		i := 0
		for j := range lanes {
			if len(lanes[j]) < len(lanes[i]) {
				i = j
			}
		}
		lanes[i] = append(lanes[i], byTo[to]...)
	}
	return lanes
}

// laneResult is what one lane of a round did.
type laneResult struct {
	sent, failed int
	err          error // the database failed, or the lease was lost
}

// sendLane sends ms, in order: a recipient whose mail fails waits until
// the next round, its later mails with it. The lane stops at a login
// block: its mails wait, due, for the block's end.
func (o *Outbox) sendLane(ctx context.Context, send Sender, ms []db.Mail) (r laneResult) {
	held := map[string]bool{} // recipients whose mail failed this round: the rest waits behind it
	for _, m := range ms {
		if ctx.Err() != nil || o.loginWait() > 0 {
			break
		}
		if held[m.To] {
			continue
		}
		if o.maySend != nil {
			if r.err = o.maySend(); r.err != nil {
				return r
			}
		}
		sendErr := o.sendOne(ctx, send, m)
		if sendErr != nil && ctx.Err() != nil {
			break // cut short by shutdown: the mail stays due
		}
		if until, ok := mailer.LoginBlockedUntil(sendErr); ok {
			o.blockLogins(until)
			if o.now().Sub(m.Created) < giveUpAfter {
				// Not handed to the server: no attempt. The mail stays
				// due, its attempts and backoff as they were.
				break
			}
			// Given up below, at its 5 days, as after any failure.
		}
		if r.err = o.recordSend(ctx, m, sendErr); r.err != nil {
			return r
		}
		if sendErr == nil {
			r.sent++
		} else {
			r.failed++
			held[m.To] = !mailer.IsPermanent(sendErr)
		}
	}
	return r
}

// blockLogins records that no mail can be sent before until, when the
// SMTP server may be logged in to again.
func (o *Outbox) blockLogins(until time.Time) {
	o.loginMu.Lock()
	defer o.loginMu.Unlock()
	if until.After(o.loginUntil) {
		o.loginUntil = until
		o.log.Debug("outbox waits for the smtp login", "until", until)
	}
}

// loginWait is how long no mail can be sent for a login block: 0 when
// there is none.
func (o *Outbox) loginWait() time.Duration {
	o.loginMu.Lock()
	defer o.loginMu.Unlock()
	return max(time.Until(o.loginUntil), 0)
}

// retryNow makes the mails waiting out a backoff due now, when there may
// be some: this process made none wait since it last looked (waiting,
// set at the start and by every mail it leaves to retry), so that a
// round of mail sent does not wait for the database's lock to find none.
func (o *Outbox) retryNow(ctx context.Context) error {
	if !o.waiting.Swap(false) {
		return nil
	}
	var n int64
	err := o.db.TxNoSync(ctx, func(tx *db.Tx) error {
		var err error
		n, err = tx.SetRetriesDue(ctx, o.now())
		return err
	})
	if err != nil {
		o.waiting.Store(true)
	}
	if n > 0 {
		o.log.Info("sending works again: the mails waiting to be tried again are due now", "mails", n)
	}
	return err
}

// sendOne sends m, letting the send go on for inFlightGrace once ctx is
// done.
func (o *Outbox) sendOne(ctx context.Context, send Sender, m db.Mail) error {
	sctx, cancel := context.WithCancel(context.WithValue(context.WithoutCancel(ctx), messageIDKey{}, m.MessageID))
	defer cancel()
	stop := context.AfterFunc(ctx, func() {
		t := time.AfterFunc(inFlightGrace, cancel)
		context.AfterFunc(sctx, func() { t.Stop() })
	})
	defer stop()
	return send.Send(sctx, m.From, []string{m.To}, m.Raw)
}

// applySentLog carries the records of the sent log, if any, into the
// outbox, when the database's lock is free or the log holds many.
func (o *Outbox) applySentLog(ctx context.Context) error {
	if o.sentLog == nil {
		return nil
	}
	if o.sentLog.Len() < maxUnapplied {
		_, _, err := o.sentLog.TryApply(ctx, o.db)
		return err
	}
	_, err := o.sentLog.Apply(ctx, o.db)
	return err
}

// unapplied returns the ids of the mails the sent log holds as sent.
func (o *Outbox) unapplied() []int64 {
	if o.sentLog == nil {
		return nil
	}
	return o.sentLog.Unapplied()
}

// recordSend records what happened when m was sent, at once, even when
// shutdown begins meanwhile, so that a mail sent is not sent again: in the
// sent log when it went out and there is one, else in the outbox. The
// record need not wait for the disk: losing it to a power failure only
// makes the mail be sent again.
func (o *Outbox) recordSend(ctx context.Context, m db.Mail, sendErr error) error {
	if sendErr == nil && o.sentLog != nil {
		err := o.sentLog.Record(m, o.now())
		if err == nil {
			o.attemptLog(m).Info("mail sent")
			return nil
		}
		o.log.Error("sent log", "err", err) // the outbox records it instead
	}
	ctx = context.WithoutCancel(ctx)
	return o.db.TxNoSync(ctx, func(tx *db.Tx) error { return o.recordAttempt(ctx, tx, m, sendErr) })
}

// attemptLog is the logger for what happened to an attempt to send m.
func (o *Outbox) attemptLog(m db.Mail) *slog.Logger {
	return o.log.With("id", m.ID, "message_id", m.MessageID, "to", m.To, "attempts", m.Attempts+1)
}

// recordAttempt records the outcome of sending m in the outbox: sent, to
// retry, or failed for good.
func (o *Outbox) recordAttempt(ctx context.Context, tx *db.Tx, m db.Mail, sendErr error) error {
	now := o.now()
	log := o.attemptLog(m)
	switch {
	case sendErr == nil:
		log.Info("mail sent")
		return tx.SetSent(ctx, m.ID, now)
	case mailer.IsPermanent(sendErr):
		log.Error("mail refused; not sending it again", "err", sendErr)
		return tx.SetFailed(ctx, m.ID, now, sendErr.Error())
	case now.Sub(m.Created) >= giveUpAfter:
		log.Error("mail not sent for too long; giving up", "err", sendErr, "since", m.Created)
		return tx.SetFailed(ctx, m.ID, now, sendErr.Error())
	}
	next := now.Add(backoff(m.Attempts + 1))
	log.Warn("mail not sent; will try again", "err", sendErr, "next", next)
	o.waiting.Store(true)
	return tx.SetRetry(ctx, m.ID, next, sendErr.Error())
}

// backoff is the wait after the given number of failed attempts: it
// doubles from firstRetry up to lastRetry, and a random part of up to a
// half of it keeps many mails from being retried at once.
func backoff(attempts int) time.Duration {
	d := firstRetry
	for i := 1; i < attempts && d < lastRetry; i++ {
		d *= 2
	}
	d = min(d, lastRetry)
	return d/2 + rand.N(d/2+1)
}

// Run sends the outbox until ctx is done, and then returns ctx.Err(),
// once the send under way, if any, is finished and recorded. It sends
// what is due, then sleeps until the next mail is due or Wake is called.
// Database failures are logged and retried.
func (o *Outbox) Run(ctx context.Context, send Sender) error {
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
		case <-o.wake:
		}
		wait, err := o.sendRound(ctx, send)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			o.log.Error("outbox", "err", err)
			wait = firstRetry
		}
		// Look at least every poll: mail may be queued by another process
		// (congod admin), which cannot wake this loop.
		timer.Reset(min(wait, poll))
	}
}

// sendRound sends what is due and returns how long to wait for the next
// mail to become due: lastRetry when none is waiting (a wake-up comes
// sooner when mail is queued), the rest of a login block while one lasts.
func (o *Outbox) sendRound(ctx context.Context, send Sender) (time.Duration, error) {
	_, full, err := o.sendDue(ctx, send)
	if err != nil {
		return 0, err
	}
	if wait := o.loginWait(); wait > 0 {
		return wait, nil // the mails it holds are due at its end
	}
	if full {
		// More may be due: the next round comes at once. (The mails of
		// this one that failed wait out their backoff, and those behind
		// them with them: it takes others.)
		return 0, nil
	}
	var (
		next time.Time
		ok   bool
	)
	err = o.db.Read(ctx, func(tx *db.Tx) error {
		var err error
		next, ok, err = tx.NextDue(ctx, o.now(), o.unapplied()...)
		return err
	})
	if err != nil || !ok {
		return lastRetry, err
	}
	return max(next.Sub(o.now()), 0), nil
}
