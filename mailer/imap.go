package mailer

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// Defaults of InboxConfig.
const (
	DefaultProcessed = "Processed"
	DefaultPoll      = time.Minute
	DefaultMaxSize   = 1 << 20
	DefaultTimeout   = time.Minute
	DefaultBackoff   = time.Second
	maxBackoff       = 5 * time.Minute

	// shutdownGrace is how long the bookkeeping of a mail that was just
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

	// Poll is how often the mailbox is searched when the server offers no
	// IDLE, and how long one IDLE lasts before the mailbox is searched
	// again (which also retries mail whose handling failed); default
	// DefaultPoll.
	Poll time.Duration

	// MaxSize is the most bytes fetched of one message, default
	// DefaultMaxSize. Of a larger message only its first MaxSize bytes are
	// fetched (a partial FETCH) and parsed: the header and usually the text,
	// but not the attachments after it. Incoming.Truncated is then set.
	MaxSize int64

	// Timeout is how long the server may take to answer one command
	// before the connection is given up for a new one; default
	// DefaultTimeout.
	Timeout time.Duration

	// Backoff is the wait before the first reconnection after an error;
	// it doubles with every failure up to five minutes, with jitter.
	// Default DefaultBackoff.
	Backoff time.Duration

	// Logger receives connection events and failures (never bodies or
	// passwords); nil discards them.
	Logger *slog.Logger
}

// Inbox reads commands from an IMAP mailbox.
type Inbox struct {
	addr      string
	sec       security
	user      string
	password  string
	mailbox   string
	tlsConfig *tls.Config
	processed string
	poll      time.Duration
	maxSize   int64
	timeout   time.Duration
	backoff   time.Duration
	log       *slog.Logger
}

// NewInbox checks cfg and returns an Inbox; it does not connect.
func NewInbox(cfg InboxConfig) (*Inbox, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("imap url: %w", err)
	}
	b := &Inbox{
		processed: cmp.Or(cfg.Processed, DefaultProcessed),
		poll:      positive(cfg.Poll, DefaultPoll),
		maxSize:   positive(cfg.MaxSize, DefaultMaxSize),
		timeout:   positive(cfg.Timeout, DefaultTimeout),
		backoff:   positive(cfg.Backoff, DefaultBackoff),
		log:       cfg.Logger,
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
	if strings.EqualFold(b.mailbox, b.processed) {
		return nil, fmt.Errorf("imap: processed mailbox %q is the mailbox read", b.processed)
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
func positive[T int64 | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// Run reads the mailbox until ctx is done, then returns ctx's error.
//
// It connects, handles the unseen mail oldest first, then waits for new
// mail (IDLE when the server offers it, else polling every Poll), forever.
// After any error it reconnects, waiting longer after each failure
// (exponential backoff with jitter, up to five minutes).
//
// For each unseen message, handle gets an Incoming with UIDValidity and UID
// set; a message that parses badly still comes with what could be read.
// When handle returns nil the message is done: it is flagged \Seen and
// moved to the Processed mailbox (with MOVE when offered, else COPY and,
// where UIDPLUS allows expunging just it, UID EXPUNGE; without UIDPLUS the
// original stays in the mailbox, \Seen). When handle fails, the message is
// left unseen in place, the error is logged, and the message is offered
// again on a later pass; the other messages are handled meanwhile.
//
// handle is called from one goroutine, one message at a time. When ctx is
// done during handle, Run waits for handle to return and for the message to
// be filed (briefly) before it returns.
func (b *Inbox) Run(ctx context.Context, handle func(ctx context.Context, m *Incoming) error) error {
	st := &inboxState{pending: make(map[imap.UID]bool)}
	delay := b.backoff
	for {
		scanned, err := b.session(ctx, st, handle)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if scanned {
			delay = b.backoff // the connection worked for a while
		}
		wait := delay/2 + rand.N(delay)
		b.log.Warn("imap session ended; reconnecting", "addr", b.addr, "err", err, "wait", wait.Round(time.Millisecond))
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
	// pending holds the messages that were handled but could not be
	// flagged \Seen: they are filed, not handled again.
	pending map[imap.UID]bool
}

// conn is one IMAP connection with a watchdog on every command.
type conn struct {
	c         *imapclient.Client
	timeout   time.Duration
	timedOut  atomic.Bool
	caps      imap.CapSet
	processed bool // whether the processed mailbox exists
}

// do runs f, one exchange with the server. When the server takes longer
// than the timeout, or ctx ends first, the connection is closed, which
// makes f return.
func (cn *conn) do(ctx context.Context, what string, f func() error) error {
	t := time.AfterFunc(cn.timeout, func() {
		cn.timedOut.Store(true)
		cn.c.Close()
	})
	stop := context.AfterFunc(ctx, func() { cn.c.Close() })
	err := f()
	t.Stop()
	stop()
	switch {
	case cn.timedOut.Load():
		return fmt.Errorf("imap %s: no answer within %v", what, cn.timeout)
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		return fmt.Errorf("imap %s: %w", what, err)
	}
	return nil
}

// session runs one connection until it fails or ctx is done. scanned
// reports whether it got through the mailbox at least once.
func (b *Inbox) session(ctx context.Context, st *inboxState, handle func(context.Context, *Incoming) error) (scanned bool, err error) {
	wake := make(chan struct{}, 1)
	cn, err := b.dial(ctx, &imapclient.Options{
		TLSConfig: b.tlsConfig,
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			Mailbox: func(d *imapclient.UnilateralDataMailbox) {
				if d.NumMessages != nil {
					select {
					case wake <- struct{}{}:
					default:
					}
				}
			},
		},
	})
	if err != nil {
		return false, err
	}
	defer cn.c.Close()

	if err := cn.do(ctx, "greeting", cn.c.WaitGreeting); err != nil {
		return false, err
	}
	if err := cn.do(ctx, "login", func() error { return cn.c.Login(b.user, b.password).Wait() }); err != nil {
		return false, err
	}
	if err := cn.do(ctx, "capability", func() error {
		cn.caps = cn.c.Caps()
		if cn.caps == nil {
			return errors.New("no capabilities")
		}
		return nil
	}); err != nil {
		return false, err
	}
	if err := b.ensureProcessed(ctx, cn); err != nil {
		return false, err
	}
	var data *imap.SelectData
	if err := cn.do(ctx, "select "+b.mailbox, func() (err error) {
		data, err = cn.c.Select(b.mailbox, nil).Wait()
		return err
	}); err != nil {
		return false, err
	}
	if data.UIDValidity != st.uidValidity {
		st.uidValidity = data.UIDValidity
		clear(st.pending)
	}
	b.log.Info("imap connected", "addr", b.addr, "user", b.user, "mailbox", b.mailbox,
		"messages", data.NumMessages, "idle", cn.caps.Has(imap.CapIdle),
		"move", cn.caps.Has(imap.CapMove), "uidplus", cn.caps.Has(imap.CapUIDPlus))

	for {
		select {
		case <-wake:
		default:
		}
		if err := b.scan(ctx, cn, st, handle); err != nil {
			return scanned, err
		}
		scanned = true
		if err := b.wait(ctx, cn, wake); err != nil {
			return scanned, err
		}
	}
}

// dial connects and sets up TLS; ctx bounds the TCP connection and the TLS
// handshake.
func (b *Inbox) dial(ctx context.Context, opts *imapclient.Options) (*conn, error) {
	dctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	var d net.Dialer
	nc, err := d.DialContext(dctx, "tcp", b.addr)
	if err != nil {
		return nil, fmt.Errorf("imap dial: %w", err)
	}
	cn := &conn{timeout: b.timeout}
	switch b.sec {
	case plainText:
		cn.c = imapclient.New(nc, opts)
	case implicitTLS:
		tc := tls.Client(nc, b.tlsConfig)
		if err := tc.HandshakeContext(dctx); err != nil {
			nc.Close()
			return nil, fmt.Errorf("imap tls: %w", err)
		}
		cn.c = imapclient.New(tc, opts)
	case startTLS:
		// NewStartTLS reads the greeting and runs STARTTLS: bound it as the
		// watchdog of conn.do would.
		stop := context.AfterFunc(dctx, func() { nc.Close() })
		c, err := imapclient.NewStartTLS(nc, opts)
		if !stop() || err != nil {
			nc.Close()
			return nil, fmt.Errorf("imap starttls: %w", cmp.Or(err, dctx.Err()))
		}
		cn.c = c
	}
	return cn, nil
}

// ensureProcessed creates the processed mailbox when it is missing. When it
// cannot be created, handled mail is only flagged \Seen (M7).
func (b *Inbox) ensureProcessed(ctx context.Context, cn *conn) error {
	exists := func() (bool, error) {
		var found bool
		err := cn.do(ctx, "list", func() error {
			list, err := cn.c.List("", b.processed, nil).Collect()
			found = len(list) > 0
			return err
		})
		return found, err
	}
	found, err := exists()
	if err != nil || found {
		cn.processed = found
		return err
	}
	err = cn.do(ctx, "create "+b.processed, func() error { return cn.c.Create(b.processed, nil).Wait() })
	var ie *imap.Error
	switch {
	case err == nil:
		b.log.Info("imap mailbox created", "mailbox", b.processed)
		cn.processed = true
		return nil
	case !errors.As(err, &ie):
		return err
	case ie.Code == imap.ResponseCodeAlreadyExists:
		cn.processed = true
		return nil
	}
	// Refused: perhaps created meanwhile, perhaps not allowed.
	if cn.processed, err = exists(); err != nil || cn.processed {
		return err
	}
	b.log.Warn("imap cannot create the processed mailbox; handled mail stays, flagged \\Seen", "mailbox", b.processed, "err", ie)
	return nil
}

// scan handles the unseen messages of the mailbox, oldest first.
func (b *Inbox) scan(ctx context.Context, cn *conn, st *inboxState, handle func(context.Context, *Incoming) error) error {
	var uids []imap.UID
	if err := cn.do(ctx, "search", func() error {
		data, err := cn.c.UIDSearch(&imap.SearchCriteria{
			NotFlag: []imap.Flag{imap.FlagSeen, imap.FlagDeleted},
		}, nil).Wait()
		if err == nil {
			uids = data.AllUIDs()
		}
		return err
	}); err != nil {
		return err
	}
	slices.Sort(uids)
	for _, uid := range slices.Compact(uids) {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if uid == 0 {
			continue
		}
		if !st.pending[uid] {
			in, err := b.fetch(ctx, cn, st.uidValidity, uid)
			if err != nil {
				return err
			}
			if in == nil {
				continue // expunged meanwhile
			}
			if err := handle(ctx, in); err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				b.log.Error("mail not handled; it stays for the next pass", "uid", uid, "message_id", in.MessageID, "err", err)
				continue
			}
			b.log.Info("mail handled", "uid", uid, "message_id", in.MessageID)
			st.pending[uid] = true
		}
		if err := b.file(ctx, cn, uid); err != nil {
			return err
		}
		delete(st.pending, uid)
	}
	return nil
}

// fetch reads one message (at most MaxSize bytes of it) without setting
// \Seen. It returns nil when the message is gone.
func (b *Inbox) fetch(ctx context.Context, cn *conn, uidValidity uint32, uid imap.UID) (*Incoming, error) {
	var (
		raw  []byte
		size int64
		got  bool
	)
	err := cn.do(ctx, "fetch", func() error {
		cmd := cn.c.Fetch(imap.UIDSetNum(uid), &imap.FetchOptions{
			UID:        true,
			RFC822Size: true,
			BodySection: []*imap.FetchItemBodySection{{
				Peek:    true,
				Partial: &imap.SectionPartial{Offset: 0, Size: b.maxSize},
			}},
		})
		var readErr error
		for msg := cmd.Next(); msg != nil; msg = cmd.Next() {
			for item := msg.Next(); item != nil; item = msg.Next() {
				switch item := item.(type) {
				case imapclient.FetchItemDataBodySection:
					got = true
					if item.Literal != nil {
						raw, readErr = io.ReadAll(io.LimitReader(item.Literal, b.maxSize))
					}
				case imapclient.FetchItemDataRFC822Size:
					size = item.Size
				}
			}
		}
		return errors.Join(readErr, cmd.Close())
	})
	if err != nil {
		return nil, err
	}
	if !got {
		return nil, nil
	}
	in, perr := ParseMessage(raw)
	if perr != nil {
		b.log.Warn("mail partly unreadable", "uid", uid, "err", perr)
	}
	in.UIDValidity = uidValidity
	in.UID = uint32(uid)
	if size > int64(len(raw)) {
		in.Size = int(size)
		in.Truncated = true
	}
	return in, nil
}

// file marks a handled message: \Seen, then moved to the processed
// mailbox. It works on after ctx is done, for a short while, so that a
// handled mail is not handled again after a restart.
func (b *Inbox) file(ctx context.Context, cn *conn, uid imap.UID) error {
	fctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	defer context.AfterFunc(ctx, func() { time.AfterFunc(shutdownGrace, cancel) })()

	set := imap.UIDSetNum(uid)
	if err := cn.do(fctx, "store \\Seen", func() error {
		return cn.c.Store(set, &imap.StoreFlags{
			Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagSeen},
		}, nil).Close()
	}); err != nil {
		return err
	}
	if !cn.processed {
		return nil
	}
	if cn.caps.Has(imap.CapMove) {
		err := cn.do(fctx, "move", func() error {
			_, err := cn.c.Move(set, b.processed).Wait()
			return err
		})
		return b.fileFailed(uid, err)
	}
	// Client.Move would fall back to COPY + STORE + EXPUNGE, which may
	// expunge other messages: do it step by step, and only where UIDPLUS
	// lets the expunge name this message alone.
	var copied *imap.CopyData
	if err := cn.do(fctx, "copy", func() (err error) {
		copied, err = cn.c.Copy(set, b.processed).Wait()
		return err
	}); err != nil {
		return b.fileFailed(uid, err)
	}
	if !cn.caps.Has(imap.CapUIDPlus) {
		return nil
	}
	if !copied.SourceUIDs.Contains(uid) {
		return b.fileFailed(uid, errNothingCopied)
	}
	if err := cn.do(fctx, "store \\Deleted", func() error {
		return cn.c.Store(set, &imap.StoreFlags{
			Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted},
		}, nil).Close()
	}); err != nil {
		return err
	}
	return cn.do(fctx, "uid expunge", func() error { return cn.c.UIDExpunge(set).Close() })
}

// errNothingCopied is a COPY answered OK whose COPYUID lacks the message.
var errNothingCopied = errors.New("imap copy: the server copied nothing")

// fileFailed sorts a failure to move a message that is already \Seen: a
// refusal by the server leaves it in place (it will not be handled again),
// anything else ends the connection.
func (b *Inbox) fileFailed(uid imap.UID, err error) error {
	var ie *imap.Error
	if err == nil || !errors.As(err, &ie) && !errors.Is(err, errNothingCopied) {
		return err
	}
	b.log.Warn("mail handled but not moved; it stays, flagged \\Seen", "uid", uid, "mailbox", b.processed, "err", err)
	return nil
}

// wait returns when new mail may have come: on a new message announced
// during IDLE, or after Poll.
func (b *Inbox) wait(ctx context.Context, cn *conn, wake <-chan struct{}) error {
	t := time.NewTimer(b.poll)
	defer t.Stop()
	if !cn.caps.Has(imap.CapIdle) {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-cn.c.Closed():
			return errors.New("imap: connection closed by the server")
		case <-t.C:
			return nil
		}
	}
	var idle *imapclient.IdleCommand
	if err := cn.do(ctx, "idle", func() (err error) {
		idle, err = cn.c.Idle()
		return err
	}); err != nil {
		return err
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-cn.c.Closed():
		return errors.New("imap: connection closed by the server")
	case <-wake:
	case <-t.C:
	}
	return cn.do(ctx, "idle done", func() error {
		if err := idle.Close(); err != nil {
			return err
		}
		return idle.Wait()
	})
}
