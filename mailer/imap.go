// Package mailer reads commands from an IMAP mailbox and sends answers by
// SMTP: the IMAP and SMTP sessions; package mailmsg parses and composes the
// mails.
package mailer

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/congobymail/congo/mailmsg"
	"github.com/emersion/go-imap/v2"
)

// Defaults of InboxConfig.
const (
	DefaultProcessed  = "Processed"
	DefaultQuarantine = "Quarantine"
	DefaultMaxTries   = 5
	DefaultPoll       = time.Minute
	DefaultMaxSize    = 1 << 20
	DefaultTimeout    = time.Minute
	DefaultBackoff    = time.Second
	DefaultBatch      = 32
	// maxBackoff bounds the wait before a reconnection, so that a restart
	// of the mail server costs seconds; after a refused login the wait
	// is a half to the whole of InboxConfig.LoginBlock, so as not to lock
	// the account at the provider.
	maxBackoff = 10 * time.Second
	// firstRetry is the wait before a mail whose handling failed is tried
	// again, doubling up to lastRetry while failures go on: within
	// seconds, whatever Poll, IDLE or not. While the handler is down it
	// stays firstRetry, so that mail goes on at once when it is up.
	firstRetry = time.Second
	lastRetry  = 30 * time.Second

	// maxBatchBytes bounds the bytes fetched for one batch: the sum of
	// min(size, MaxSize) of its mails. A batch holds at least one mail,
	// whatever its size.
	maxBatchBytes = 8 << 20

	// sizeWindow is the most messages whose sizes one FETCH asks for.
	sizeWindow = 1024

	// shutdownGrace is how long the bookkeeping of mail that was just
	// handled may go on after the context of Run is done.
	shutdownGrace = 2 * time.Second
)

// InboxConfig configures an Inbox. Only URL is required.
type InboxConfig struct {
	// URL is imap://user:pass@host:port/MAILBOX (no TLS), imaps://...
	// (implicit TLS) or imap+starttls://... (STARTTLS). User and password
	// are URL-decoded. The port defaults to 143, 993 and 143; the mailbox
	// to INBOX.
	URL string

	// TLS configures TLS; nil means the system's roots. Its ServerName
	// defaults to the URL's host.
	TLS *tls.Config

	// Processed is the mailbox that handled mail is moved to (M7), created
	// when missing; default DefaultProcessed.
	Processed string

	// Quarantine is the mailbox that a mail is set aside in when handling
	// it failed MaxTries times (created when missing); default
	// DefaultQuarantine. MaxTries defaults to DefaultMaxTries.
	Quarantine string
	MaxTries   int

	// Poll is how often the mailbox is searched when the server offers no
	// IDLE, and how long one IDLE lasts before the mailbox is searched
	// again (which also retries mail whose handling failed); default
	// DefaultPoll.
	Poll time.Duration

	// MaxSize is the most bytes fetched of one message, default
	// DefaultMaxSize. Of a larger message only its first MaxSize bytes are
	// fetched (a partial FETCH) and parsed: the header and usually the text,
	// but not the attachments after it. mailmsg.Incoming.Truncated is then
	// set.
	MaxSize int64

	// Timeout is how long the server may take to answer one command
	// before the connection is given up for a new one; default
	// DefaultTimeout.
	Timeout time.Duration

	// Backoff is the wait before the first reconnection after an error;
	// it doubles with every failure up to five minutes, with jitter.
	// Default DefaultBackoff.
	Backoff time.Duration

	// LoginBlock is how long no login is tried after the server refused
	// one: a random half to the whole of it; DefaultLoginBlock (as
	// SMTP's) when zero. Tests shorten it. The mail waiting is read as
	// soon as a login after it works, and is charged no try for it.
	LoginBlock time.Duration

	// Batch is the most mails handed to the handler at once, default
	// DefaultBatch; 1 hands them over one at a time. A batch also holds
	// at most 8 MiB of fetched mail (counting at most MaxSize of each
	// message), but always at least one mail.
	Batch int

	// Logger receives connection events and failures (never bodies or
	// passwords); nil discards them.
	Logger *slog.Logger
}

// Inbox reads commands from an IMAP mailbox and hands them to a handler in
// batches (RunBatch) or one at a time (Run), filing handled mail away.
type Inbox struct {
	addr       string
	sec        security
	user       string
	password   string
	mailbox    string
	tlsConfig  *tls.Config
	processed  string
	quarantine string
	maxTries   int
	poll       time.Duration
	maxSize    int64
	timeout    time.Duration
	backoff    time.Duration
	loginBlock time.Duration
	batch      int
	log        *slog.Logger
	status     inboxStatus
}

// NewInbox checks cfg and returns an Inbox; it does not connect.
func NewInbox(cfg InboxConfig) (*Inbox, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("imap url: %w", err)
	}
	b := &Inbox{
		processed:  cmp.Or(cfg.Processed, DefaultProcessed),
		quarantine: cmp.Or(cfg.Quarantine, DefaultQuarantine),
		maxTries:   cfg.MaxTries,
		poll:       positive(cfg.Poll, DefaultPoll),
		maxSize:    positive(cfg.MaxSize, DefaultMaxSize),
		timeout:    positive(cfg.Timeout, DefaultTimeout),
		backoff:    positive(cfg.Backoff, DefaultBackoff),
		loginBlock: positive(cfg.LoginBlock, DefaultLoginBlock),
		batch:      positive(cfg.Batch, DefaultBatch),
		log:        cfg.Logger,
	}
	if b.log == nil {
		b.log = slog.New(slog.DiscardHandler)
	}
	port := "143"
	switch u.Scheme {
	case "imap":
		b.sec = plainText
	case "imaps":
		b.sec, port = implicitTLS, "993"
	case "imap+starttls":
		b.sec = startTLS
	default:
		return nil, fmt.Errorf("imap url: unknown scheme %q (want imap, imaps or imap+starttls)", u.Scheme)
	}
	if u.Hostname() == "" {
		return nil, errors.New("imap url: no host")
	}
	if u.Port() != "" {
		port = u.Port()
	}
	b.addr = net.JoinHostPort(u.Hostname(), port)
	if u.User == nil || u.User.Username() == "" {
		return nil, errors.New("imap url: no user")
	}
	b.user = u.User.Username()
	b.password, _ = u.User.Password()
	b.mailbox = cmp.Or(strings.Trim(u.Path, "/"), "INBOX")
	if b.maxTries <= 0 {
		b.maxTries = DefaultMaxTries
	}
	if strings.EqualFold(b.mailbox, b.processed) {
		return nil, fmt.Errorf("imap: processed mailbox %q is the mailbox read", b.processed)
	}
	if strings.EqualFold(b.mailbox, b.quarantine) || strings.EqualFold(b.processed, b.quarantine) {
		return nil, fmt.Errorf("imap: quarantine mailbox %q is the mailbox read or the processed one", b.quarantine)
	}
	if b.sec != plainText {
		b.tlsConfig = &tls.Config{}
		if cfg.TLS != nil {
			b.tlsConfig = cfg.TLS.Clone()
		}
		if b.tlsConfig.ServerName == "" {
			b.tlsConfig.ServerName = u.Hostname()
		}
	}
	return b, nil
}

// positive returns v, or def when v is not positive.
func positive[T int | int64 | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// A BatchHandler handles mails in the order given and returns one error
// per mail (nil: handled, and the mail may be filed away); len(result) ==
// len(ms).
type BatchHandler func(ctx context.Context, ms []*mailmsg.Incoming) []error

// Run reads the mailbox until ctx is done, then returns ctx's error. It is
// RunBatch with a handler that calls handle for each mail of a batch in
// turn, a panic in handle counting as a failure of that mail.
//
// It connects, handles the unseen mail oldest first, then waits for new
// mail (IDLE when the server offers it, else polling every Poll), forever.
// After any error it reconnects, waiting longer after each failure
// (exponential backoff with jitter, up to five minutes).
//
// For each unseen message (and each \Seen one left in the mailbox where
// handled mail is moved away: see scan), handle gets an Incoming with
// UIDValidity and UID set; a message that parses badly still comes with
// what could be read. When handle returns nil the message is done: once
// handle has returned for every mail of its batch (see InboxConfig.Batch),
// the done ones are flagged \Seen and moved to the Processed mailbox
// together (with MOVE when offered, else COPY and, where UIDPLUS allows
// expunging just them, UID EXPUNGE; without UIDPLUS the originals stay in
// the mailbox, \Seen). When handle fails, the message is left unseen in
// place, the error is logged, and the message is offered again on a later
// pass; the other messages are handled meanwhile. A panic in handle counts
// as a failure. Each failure is counted on the message itself, as an IMAP
// keyword ($CongoTry1, $CongoTry2, ...), so that the count survives
// restarts; after MaxTries failures the message is moved to the
// Quarantine mailbox (or, where it cannot be moved, flagged
// $CongoQuarantined and \Seen) and an error is logged. A failure right
// after another message failed is not counted, as the handler itself may
// be failing (its database gone, say) rather than the message.
//
// handle is called from one goroutine, one message at a time. When ctx is
// done during handle, Run waits for handle to return, hands it no further
// message, and files the messages it handled (briefly) before it returns.
// Mail handled but not yet filed when the process dies (at most a batch)
// is offered again after a restart: handle must know it by its Message-ID.
func (b *Inbox) Run(ctx context.Context, handle func(ctx context.Context, m *mailmsg.Incoming) error) error {
	return b.RunBatch(ctx, func(ctx context.Context, ms []*mailmsg.Incoming) []error {
		errs := make([]error, len(ms))
		for i, m := range ms {
			if ctx.Err() != nil {
				errs[i] = ctx.Err() // not handled: it stays, and is not counted
				continue
			}
			errs[i] = callHandle(ctx, handle, m)
		}
		return errs
	})
}

// RunBatch reads the mailbox until ctx is done, as Run does, but hands
// handle the mail in batches, in UID order: up to InboxConfig.Batch mails
// at once, and at most 8 MiB of fetched mail (but at least one mail). Each
// mail's error counts as handle's error does in Run: nil files the mail
// away, an error leaves it for a later pass and counts a try.
//
// When handle panics on a batch of several mails, the panic is logged and
// each mail of the batch is handed to handle alone, so that a panic counts
// as a failure of the mail that causes it; handle must therefore leave no
// trace of a batch that panicked. A result of the wrong length counts as a
// failure of every mail of the batch.
//
// handle is called from one goroutine, one batch at a time. When ctx is
// done during handle, RunBatch waits for it to return and for the mails
// it handled to be filed (briefly) before it returns.
func (b *Inbox) RunBatch(ctx context.Context, handle BatchHandler) error {
	st := &inboxState{pending: map[imap.UID]bool{}, unfiled: map[imap.UID]bool{}, tries: map[imap.UID]int{}, charged: map[imap.UID]bool{}}
	delay := b.backoff
	for {
		scanned, err := b.session(ctx, st, handle)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if scanned {
			delay = b.backoff // the connection worked for a while
		}
		b.status.errors.Add(1)
		wait := delay/2 + rand.N(delay)
		var ae *loginError
		if errors.As(err, &ae) {
			wait = b.loginBlock/2 + rand.N(b.loginBlock/2+1)
			b.log.Error("imap login refused: check the user and password; trying again later", "addr", b.addr,
				"user", b.user, "err", err, "wait", wait.Round(time.Second), "until", time.Now().Add(wait))
		} else {
			b.log.Warn("imap session ended; reconnecting", "addr", b.addr, "err", err, "wait", wait.Round(time.Millisecond))
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		delay = min(2*delay, maxBackoff)
	}
}

// inboxState is what Run keeps across connections.
type inboxState struct {
	uidValidity uint32
	// pending holds the messages that were handled but not yet filed
	// (flagged \Seen and moved): they are filed, not handled again.
	pending map[imap.UID]bool
	// unfiled holds the handled messages that the server refused to
	// move: they stay \Seen in the mailbox and are not offered again.
	unfiled map[imap.UID]bool
	// tries counts failed tries where the server keeps no keywords.
	tries map[imap.UID]int
	// charged holds the messages whose try for a death was counted in
	// this process, so that a lost connection does not count it again.
	charged map[imap.UID]bool
	// lastUID is the last message whose result was taken in, lastFailed
	// whether handling it failed.
	lastUID    imap.UID
	lastFailed bool
	// retry is the wait before the mailbox is read again after a mail
	// failed; 0 when the last pass had no failure. scanFailed is set
	// when a mail failed in the pass under way.
	retry      time.Duration
	scanFailed bool
}

// loginError is a login the IMAP server refused.
type loginError struct{ err error }

func (e *loginError) Error() string { return "login: " + e.err.Error() }
func (e *loginError) Unwrap() error { return e.err }

// unavailable reports whether err says that the handler, not the mail,
// failed (an error with an Unavailable method that says so, as
// server.DatabaseDown has): such a failure costs the mail no try.
func unavailable(err error) bool {
	var u interface{ Unavailable() bool }
	return errors.As(err, &u) && u.Unavailable()
}
