// Package outbox queues the mail the server sends and sends it: the one
// place a mail is queued, the send loop with its retries and backoff,
// the sent log, and the pruning of old mail.
package outbox

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/mailer"
)

// Sender sends one mail. *mailer.SMTP is one.
type Sender interface {
	Send(ctx context.Context, from string, to []string, msg []byte) error
}

var _ Sender = (*mailer.SMTP)(nil)

// Config configures an Outbox.
type Config struct {
	// DB holds the outbox. Required.
	DB *db.DB

	// From is the envelope sender of every mail, the server's address.
	// Required.
	From string

	// Hostname is the right side of the Message-IDs of the mails
	// composed. Required.
	Hostname string

	// SentLog, when set, is where the send loop records each mail the
	// SMTP server accepted, at once and without waiting for the
	// database; the records are carried into the outbox before it is
	// next read. Without it each is recorded in its own transaction,
	// which may wait for the database's lock: longer, during which a
	// crash makes the mail be sent twice.
	SentLog *db.SentLog

	// MaxPerHour caps the answers queued to one address in an hour
	// (counting every mail queued to it): past it, Allowed says no.
	// Default DefaultMaxPerHour; negative for no cap.
	MaxPerHour int

	// Now gives the time; default time.Now.
	Now func() time.Time

	// Logger receives what the outbox does; default slog.Default().
	Logger *slog.Logger
}

// Outbox is the mail waiting to be sent, in the database.
type Outbox struct {
	db         *db.DB
	from       string
	hostname   string
	sentLog    *db.SentLog
	maxPerHour int
	now        func() time.Time
	log        *slog.Logger
	// wake tells the send loop that mail was queued.
	wake chan struct{}
}

// New returns the Outbox of cfg.
func New(cfg Config) (*Outbox, error) {
	if cfg.DB == nil || cfg.From == "" || cfg.Hostname == "" {
		return nil, errors.New("outbox: a database, a From address and a hostname are required")
	}
	o := &Outbox{db: cfg.DB, from: cfg.From, hostname: cfg.Hostname, sentLog: cfg.SentLog,
		maxPerHour: cfg.MaxPerHour, now: cfg.Now, log: cfg.Logger, wake: make(chan struct{}, 1)}
	if o.maxPerHour == 0 {
		o.maxPerHour = DefaultMaxPerHour
	}
	if o.now == nil {
		o.now = time.Now
	}
	if o.log == nil {
		o.log = slog.Default()
	}
	return o, nil
}

// Wake tells the send loop that there is mail to send, without waiting:
// one pending wake-up is enough.
func (o *Outbox) Wake() {
	select {
	case o.wake <- struct{}{}:
	default:
	}
}
