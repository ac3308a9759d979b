package outbox

import (
	"context"
	"strings"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/mailmsg"
)

// Undeliverable reports whether addr is an address no mail is queued to:
// one in the .invalid domain (RFC 2606), like the robot's.
func Undeliverable(addr string) bool {
	i := strings.LastIndexByte(addr, '@')
	if i <= 0 || i == len(addr)-1 {
		return false
	}
	domain := strings.ToLower(addr[i+1:])
	return domain == "invalid" || strings.HasSuffix(domain, ".invalid")
}

// Queue composes m and queues it, in tx, from the server's address,
// recording its Message-ID with the game it is about (0 for none), so
// that every retry sends the same bytes and replies to it are known. It
// returns the Message-ID; "" for mail to an address never mailed (the
// robot's), which is not queued.
func (o *Outbox) Queue(ctx context.Context, tx *db.Tx, m mailmsg.Outgoing, game int64, now time.Time) (string, error) {
	if Undeliverable(m.To) {
		return "", nil
	}
	raw, id, err := mailmsg.Compose(m, o.hostname)
	if err != nil {
		return "", err
	}
	if _, err := tx.Enqueue(ctx, db.Mail{Created: now, From: o.from, To: m.To, MessageID: id, Raw: raw}); err != nil {
		return "", err
	}
	if err := tx.RecordSent(ctx, id, game, now); err != nil {
		return "", err
	}
	return id, nil
}

// DefaultMaxPerHour is the default of Config.MaxPerHour.
const DefaultMaxPerHour = 100

// Allowed reports whether an answer may still be queued to the address
// to at now: fewer than the cap (Config.MaxPerHour) were queued to it in
// the hour before, so that a flood of mail, or a loop with another robot,
// does not make the server a mail cannon. A refusal is logged.
func (o *Outbox) Allowed(ctx context.Context, tx *db.Tx, to string, now time.Time) (bool, error) {
	if o.maxPerHour <= 0 {
		return true, nil
	}
	n, err := tx.QueuedTo(ctx, to, now.Add(-time.Hour))
	if err != nil || n < o.maxPerHour {
		return err == nil, err
	}
	o.log.Warn("reply not sent: too many mails to this address in the last hour", "to", to, "limit", o.maxPerHour)
	return false, nil
}

// KeepSent is how long a mail sent, or given up, stays in the outbox
// (its whole text, for the operator to look at) before Prune deletes it,
// at most pruneBatch at a time.
const KeepSent = 30 * 24 * time.Hour

const pruneBatch = 1000

// Prune deletes old mail, sent or given up KeepSent before now, at most
// pruneBatch mails a call, each call a transaction of its own.
func (o *Outbox) Prune(ctx context.Context, now time.Time) error {
	var pruned int64
	err := o.db.Tx(ctx, func(tx *db.Tx) error {
		var err error
		pruned, err = tx.PruneOutbox(ctx, now.Add(-KeepSent), pruneBatch)
		return err
	})
	if err != nil {
		return err
	}
	if pruned > 0 {
		o.log.Info("old mail pruned from the outbox", "mails", pruned, "before", now.Add(-KeepSent))
	}
	return nil
}
