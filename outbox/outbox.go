// Package outbox queues the mail the server sends and sends it: the one
// place a mail is queued, the send loop with its retries and backoff,
// the sent log, and the pruning of old mail.
package outbox

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
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

	// The caps (M29): the most mails sent in a sliding hour to one
	// recipient (its address lowercased, without a +tag), caused by one
	// player's mails to others, and from the whole server. Past the
	// recipient's or the server's, a mail waits (M53); the sender's is a
	// budget the server checks before a command (Budget). Defaults
	// DefaultMaxPerRecipient, DefaultMaxPerSender and DefaultMaxPerHour;
	// negative for no cap.
	MaxPerRecipient, MaxPerSender, MaxPerHour int

	// OnCapped, when set, is told of every answer to a mail that proves
	// nothing dropped by a cap, with the cap's name ("unproven" or
	// "server"); OnDeferred of every mail that waits for a cap, with its
	// name ("recipient" or "server"): for the operator's metrics. They
	// must not block.
	OnCapped, OnDeferred func(cap string)

	// Connections is how many mails are sent at once, each over an SMTP
	// session of its own (the Sender must allow as many Sends at once):
	// default DefaultConnections; 1 sends one mail after another. The
	// mails to one recipient go one after another, in order, whatever
	// it is.
	Connections int

	// MaySend, when set, is asked before each mail is sent: an error
	// (this process no longer holds the lease of M48, say) ends the round
	// with it, the mail left for whoever sends next.
	MaySend func() error

	// Now gives the time; default time.Now.
	Now func() time.Time

	// Logger receives what the outbox does; default slog.Default().
	Logger *slog.Logger
}

// Outbox is the mail waiting to be sent, in the database.
type Outbox struct {
	db       *db.DB
	from     string
	hostname string
	sentLog  *db.SentLog
	personal *regexp.Regexp // our addresses with a +tag
	local    string         // the local part of From, lowercase

	maxPerRecipient, maxPerSender, maxPerHour int
	onCapped, onDeferred                      func(string)
	maySend                                   func() error
	connections                               int

	now func() time.Time
	log *slog.Logger
	// wake tells the send loop that mail was queued.
	wake chan struct{}
	// waiting is set while mails may wait out a backoff (retryNow).
	waiting atomic.Bool
	// loginUntil is when the SMTP server may be logged in to again, after
	// it refused a login (mailer.LoginBlockedUntil); until then no mail is
	// sent, and none is charged for it. In time.Now's time, the mailer's,
	// whatever Now; in memory only: after a restart the mailer tries a
	// login at once.
	loginMu    sync.Mutex
	loginUntil time.Time
	// composers bounds the mails composed at once (Queue): one token a
	// processor.
	composers chan struct{}
}

// New returns the Outbox of cfg.
func New(cfg Config) (*Outbox, error) {
	if cfg.DB == nil || cfg.From == "" || cfg.Hostname == "" {
		return nil, errors.New("outbox: a database, a From address and a hostname are required")
	}
	if !strings.Contains(cfg.From, "@") {
		return nil, fmt.Errorf("outbox: From %q is not an address", cfg.From)
	}
	o := &Outbox{db: cfg.DB, from: cfg.From, hostname: cfg.Hostname, sentLog: cfg.SentLog,
		personal:        personalAddresses(strings.ToLower(cfg.From)),
		local:           strings.ToLower(cfg.From[:strings.LastIndexByte(cfg.From, '@')]),
		maxPerRecipient: or(cfg.MaxPerRecipient, DefaultMaxPerRecipient),
		maxPerSender:    or(cfg.MaxPerSender, DefaultMaxPerSender),
		maxPerHour:      or(cfg.MaxPerHour, DefaultMaxPerHour),
		onCapped:        cfg.OnCapped,
		onDeferred:      cfg.OnDeferred,
		maySend:         cfg.MaySend,
		connections:     max(cfg.Connections, 0),
		now:             cfg.Now, log: cfg.Logger, wake: make(chan struct{}, 1),
		composers: make(chan struct{}, runtime.GOMAXPROCS(0))}
	if o.now == nil {
		o.now = time.Now
	}
	o.waiting.Store(true) // from before this process, maybe
	if o.connections == 0 {
		o.connections = DefaultConnections
	}
	if o.log == nil {
		o.log = slog.Default()
	}
	return o, nil
}

// or is v, or def when v is zero.
func or(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// Wake tells the send loop that there is mail to send, without waiting:
// one pending wake-up is enough.
func (o *Outbox) Wake() {
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// Caps are the caps of an outbox (M29): the most mails an hour; 0 for
// none.
type Caps struct {
	PerRecipient, PerSender, PerHour int
}

// Caps returns the outbox's caps.
func (o *Outbox) Caps() Caps {
	return Caps{PerRecipient: max(o.maxPerRecipient, 0), PerSender: max(o.maxPerSender, 0), PerHour: max(o.maxPerHour, 0)}
}
