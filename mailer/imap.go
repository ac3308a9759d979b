package mailer

import (
	"bytes"
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
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
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
	maxBackoff        = 5 * time.Minute

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
type BatchHandler func(ctx context.Context, ms []*Incoming) []error

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
func (b *Inbox) Run(ctx context.Context, handle func(ctx context.Context, m *Incoming) error) error {
	return b.RunBatch(ctx, func(ctx context.Context, ms []*Incoming) []error {
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
}

// conn is one IMAP connection with a watchdog on every command.
type conn struct {
	c          *imapclient.Client
	timeout    time.Duration
	timedOut   atomic.Bool
	caps       imap.CapSet
	processed  bool // whether the processed mailbox exists
	quarantine bool // whether the quarantine mailbox exists
	bye        *byeWatch
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
func (b *Inbox) session(ctx context.Context, st *inboxState, handle BatchHandler) (scanned bool, err error) {
	wake := make(chan struct{}, 1)
	bye := &byeWatch{bye: make(chan struct{})}
	cn, err := b.dial(ctx, &imapclient.Options{
		TLSConfig:   b.tlsConfig,
		DebugWriter: bye,
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
	cn.bye = bye

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
	if cn.processed, err = b.ensureMailbox(ctx, cn, b.processed); err != nil {
		return false, err
	}
	if cn.quarantine, err = b.ensureMailbox(ctx, cn, b.quarantine); err != nil {
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
		clear(st.unfiled)
		clear(st.tries)
	}
	b.log.Info("imap connected", "addr", b.addr, "user", b.user, "mailbox", b.mailbox,
		"messages", data.NumMessages, "idle", cn.caps.Has(imap.CapIdle),
		"move", cn.caps.Has(imap.CapMove), "uidplus", cn.caps.Has(imap.CapUIDPlus))
	b.status.connected.Store(true)
	defer b.status.connected.Store(false)

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

// ensureMailbox creates a mailbox (the processed or the quarantine one)
// when it is missing, and reports whether it exists. When the processed
// mailbox cannot be created, handled mail is only flagged \Seen (M7).
func (b *Inbox) ensureMailbox(ctx context.Context, cn *conn, name string) (bool, error) {
	exists := func() (bool, error) {
		var found bool
		err := cn.do(ctx, "list", func() error {
			list, err := cn.c.List("", name, nil).Collect()
			found = len(list) > 0
			return err
		})
		return found, err
	}
	found, err := exists()
	if err != nil || found {
		return found, err
	}
	err = cn.do(ctx, "create "+name, func() error { return cn.c.Create(name, nil).Wait() })
	var ie *imap.Error
	switch {
	case err == nil:
		b.log.Info("imap mailbox created", "mailbox", name)
		return true, nil
	case !errors.As(err, &ie):
		return false, err
	case ie.Code == imap.ResponseCodeAlreadyExists:
		return true, nil
	}
	// Refused: perhaps created meanwhile, perhaps not allowed.
	if found, err = exists(); err != nil || found {
		return found, err
	}
	b.log.Warn("imap cannot create the mailbox; mail for it stays, flagged \\Seen", "mailbox", name, "err", ie)
	return false, nil
}

// scan handles the unseen messages of the mailbox, oldest first, in
// batches.
//
// Where handled mail leaves the mailbox (a processed mailbox, and MOVE or
// UIDPLUS), every message still in it is offered, \Seen or not: one that
// is \Seen was handled and then not moved (the daemon died in between),
// or was read by a person. The handler knows the first kind by its
// Message-ID, and it is filed at last; the second kind is handled.
//
// Messages handled in this session but not yet filed (pending) are filed
// first, without being handled again. The others are split into batches
// (plan), each fetched with one command (fetch), handed to the handler,
// and then sorted (settle): the handled ones filed together, the failed
// ones counted one by one.
func (b *Inbox) scan(ctx context.Context, cn *conn, st *inboxState, handle BatchHandler) error {
	notFlags := []imap.Flag{imap.FlagSeen, imap.FlagDeleted, flagQuarantined}
	if cn.processed && (cn.caps.Has(imap.CapMove) || cn.caps.Has(imap.CapUIDPlus)) {
		notFlags = []imap.Flag{imap.FlagDeleted, flagQuarantined}
	}
	var uids []imap.UID
	if err := cn.do(ctx, "search", func() error {
		data, err := cn.c.UIDSearch(&imap.SearchCriteria{
			NotFlag: notFlags,
		}, nil).Wait()
		if err == nil {
			uids = data.AllUIDs()
		}
		return err
	}); err != nil {
		return err
	}
	b.status.lastPoll.Store(time.Now().UnixNano())
	slices.Sort(uids)
	var todo, pending []imap.UID
	for _, uid := range slices.Compact(uids) {
		switch {
		case uid == 0 || st.unfiled[uid]:
		case st.pending[uid]:
			pending = append(pending, uid)
		default:
			todo = append(todo, uid)
		}
	}
	if len(pending) > 0 {
		if err := b.file(ctx, cn, st, pending); err != nil {
			return err
		}
	}
	for window := range slices.Chunk(todo, sizeWindow) {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		batches, err := b.plan(ctx, cn, window)
		if err != nil {
			return err
		}
		for _, batch := range batches {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			mails, err := b.fetch(ctx, cn, st.uidValidity, batch)
			if err != nil {
				return err
			}
			if len(mails) == 0 {
				continue // expunged meanwhile
			}
			// In UID order: runs of mails as one batch, and each mail that
			// was being handled when the process died alone.
			for len(mails) > 0 {
				n := 1
				for !mails[0].suspect() && n < len(mails) && !mails[n].suspect() {
					n++
				}
				if err := b.handleRun(ctx, cn, st, handle, mails[:n]); err != nil {
					return err
				}
				mails = mails[n:]
			}
		}
	}
	return nil
}

// handleRun hands mails to the handler as one batch, flagged
// $CongoHandling meanwhile, and settles the outcome. A mail that was in
// flight when the process died comes alone, flagged $CongoAlone too; if
// it was alone already, that death counts as a failed try (it is set
// aside after MaxTries), so that a mail that kills the process stops
// doing so, and a batch it was in is not charged for it. A mail that
// could not even be parsed fails without being handed over.
func (b *Inbox) handleRun(ctx context.Context, cn *conn, st *inboxState, handle BatchHandler, mails []fetched) error {
	uids := make([]imap.UID, len(mails))
	var ms []*Incoming
	for i, m := range mails {
		uids[i] = m.uid
		if m.parseErr == nil {
			ms = append(ms, m.in)
		}
	}
	flags := []imap.Flag{flagHandling}
	if m := &mails[0]; m.inBatch || m.alone {
		log := b.log.With("uid", m.uid, "message_id", m.in.MessageID)
		if m.alone && !st.charged[m.uid] {
			m.tries = max(m.tries, st.tries[m.uid]) + 1
			st.tries[m.uid] = m.tries
			st.charged[m.uid] = true // once for this death, whatever happens to the session
			if m.tries >= b.maxTries {
				delete(st.charged, m.uid)
				return b.setAside(ctx, cn, st, m.uid, m.tries, log)
			}
			log.Error("the process died while handling this mail; it is tried again", "tries", m.tries, "max_tries", b.maxTries)
			flags = append(flags, tryFlag(m.tries))
		} else if m.inBatch {
			log.Warn("the process died while handling a batch with this mail; it is tried alone")
		}
		flags = append(flags, flagAlone)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	err := cn.do(ctx, "store "+string(flags[len(flags)-1]), func() error {
		return cn.c.Store(imap.UIDSetNum(uids...), &imap.StoreFlags{
			Op: imap.StoreFlagsAdd, Silent: true, Flags: flags,
		}, nil).Close()
	})
	if err != nil && !refused(err) {
		return err // a server that keeps no keywords cannot tell: go on
	}
	errs := make([]error, len(mails))
	if len(ms) > 0 {
		got := b.callBatch(ctx, handle, ms)
		for i, j := 0, 0; i < len(mails); i++ {
			if mails[i].parseErr != nil {
				errs[i] = mails[i].parseErr
				continue
			}
			errs[i] = got[j]
			j++
		}
	} else {
		for i := range mails {
			errs[i] = mails[i].parseErr
		}
	}
	return b.settle(ctx, cn, st, mails, errs)
}

// suspect reports whether the process died while it handled the mail.
func (f *fetched) suspect() bool { return f.inBatch || f.alone }

// tryFlag is the keyword that records n failed tries.
func tryFlag(n int) imap.Flag { return imap.Flag(fmt.Sprintf("%s%d", tryPrefix, n)) }

// unflag takes $CongoHandling and $CongoAlone off messages that failed,
// or were not handled as ctx ended: their failure is known, not a death.
// It works on for a short while after ctx is done.
func (b *Inbox) unflag(ctx context.Context, cn *conn, uids []imap.UID) error {
	fctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	defer context.AfterFunc(ctx, func() { time.AfterFunc(shutdownGrace, cancel) })()
	err := cn.do(fctx, "store -"+string(flagHandling), func() error {
		return cn.c.Store(imap.UIDSetNum(uids...), &imap.StoreFlags{
			Op: imap.StoreFlagsDel, Silent: true, Flags: []imap.Flag{flagHandling, flagAlone},
		}, nil).Close()
	})
	if err != nil && refused(err) {
		return nil
	}
	return err
}

// plan splits uids, ascending, into batches of at most Batch messages
// and maxBatchBytes fetched bytes (at least one message each). Messages
// gone meanwhile are left out.
func (b *Inbox) plan(ctx context.Context, cn *conn, uids []imap.UID) ([][]imap.UID, error) {
	if int64(b.batch)*b.maxSize <= maxBatchBytes {
		return slices.Collect(slices.Chunk(uids, b.batch)), nil // sizes cannot matter
	}
	sizes := make(map[imap.UID]int64, len(uids))
	if err := cn.do(ctx, "fetch sizes", func() error {
		msgs, err := cn.c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{UID: true, RFC822Size: true}).Collect()
		for _, m := range msgs {
			if m.UID != 0 {
				sizes[m.UID] = m.RFC822Size
			}
		}
		return err
	}); err != nil {
		return nil, err
	}
	var (
		batches [][]imap.UID
		cur     []imap.UID
		bytes   int64
	)
	for _, uid := range uids {
		size, ok := sizes[uid]
		if !ok {
			continue
		}
		size = min(max(size, 0), b.maxSize)
		if len(cur) > 0 && (len(cur) == b.batch || bytes+size > maxBatchBytes) {
			batches = append(batches, cur)
			cur, bytes = nil, 0
		}
		cur = append(cur, uid)
		bytes += size
	}
	if len(cur) > 0 {
		batches = append(batches, cur)
	}
	return batches, nil
}

// fetched is a message read by fetch.
type fetched struct {
	uid      imap.UID
	in       *Incoming
	tries    int   // failed tries recorded in its keywords
	inBatch  bool  // the process died while a batch with it was handled
	alone    bool  // the process died while it was handled alone
	parseErr error // reading it panicked: it is not handed over
}

// fetch reads the messages uids (ascending; at most MaxSize bytes of
// each) with one command, without setting \Seen, and the counts of failed
// tries their keywords record. It returns them in UID order, leaving out
// those that are gone.
func (b *Inbox) fetch(ctx context.Context, cn *conn, uidValidity uint32, uids []imap.UID) ([]fetched, error) {
	type message struct {
		raw            []byte
		size           int64
		tries          int
		inBatch, alone bool
	}
	got := make(map[imap.UID]*message, len(uids))
	err := cn.do(ctx, "fetch", func() error {
		cmd := cn.c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{
			UID:        true,
			Flags:      true,
			RFC822Size: true,
			BodySection: []*imap.FetchItemBodySection{{
				Peek:    true,
				Partial: &imap.SectionPartial{Offset: 0, Size: b.maxSize},
			}},
		})
		var readErr error
		for msg := cmd.Next(); msg != nil; msg = cmd.Next() {
			var (
				m    message
				uid  imap.UID
				body bool
			)
			for item := msg.Next(); item != nil; item = msg.Next() {
				switch item := item.(type) {
				case imapclient.FetchItemDataUID:
					uid = item.UID
				case imapclient.FetchItemDataBodySection:
					body = true
					if item.Literal != nil {
						var err error
						m.raw, err = io.ReadAll(io.LimitReader(item.Literal, b.maxSize))
						readErr = cmp.Or(readErr, err)
					}
				case imapclient.FetchItemDataRFC822Size:
					m.size = item.Size
				case imapclient.FetchItemDataFlags:
					// \Seen is set only once the handler committed: such
					// a mail was handled, whatever else it is flagged.
					seen := hasFlag(item.Flags, imap.FlagSeen)
					m.tries = triesOf(item.Flags)
					m.inBatch = hasFlag(item.Flags, flagHandling) && !seen
					m.alone = hasFlag(item.Flags, flagAlone) && !seen
				}
			}
			if _, asked := slices.BinarySearch(uids, uid); asked && body {
				got[uid] = &m
			}
		}
		return errors.Join(readErr, cmd.Close())
	})
	if err != nil {
		return nil, err
	}
	mails := make([]fetched, 0, len(got))
	for _, uid := range uids {
		m := got[uid]
		if m == nil {
			continue
		}
		in, panicked, perr := parseSafely(m.raw)
		if perr != nil {
			b.log.Warn("mail partly unreadable", "uid", uid, "err", perr)
		}
		in.UIDValidity = uidValidity
		in.UID = uint32(uid)
		if m.size > int64(len(m.raw)) {
			in.Size = int(m.size)
			in.Truncated = true
		}
		f := fetched{uid: uid, in: in, tries: m.tries, inBatch: m.inBatch, alone: m.alone}
		if panicked != nil {
			f.parseErr = fmt.Errorf("reading the mail: panic: %v", panicked)
			b.log.Error("mail unreadable", "uid", uid, "err", f.parseErr)
		}
		mails = append(mails, f)
	}
	return mails, nil
}

// parseSafely is ParseMessage, with a panic (a bug, hostile mail) turned
// into a value: the mail then fails like one its handler failed.
func parseSafely(raw []byte) (in *Incoming, panicked any, err error) {
	defer func() {
		if r := recover(); r != nil {
			in, panicked, err = &Incoming{}, r, nil
		}
	}()
	in, err = ParseMessage(raw)
	return in, nil, err
}

// callBatch calls handle with ms and returns its results. When handle
// panics on several mails, it hands each of them to handle alone, so that
// the panic is charged to the mail that causes it: a panic is then that
// mail's error.
func (b *Inbox) callBatch(ctx context.Context, handle BatchHandler, ms []*Incoming) []error {
	errs, p := tryBatch(ctx, handle, ms)
	if p == nil {
		return errs
	}
	if len(ms) == 1 {
		return []error{fmt.Errorf("panic: %v", p)}
	}
	b.log.Error("mail handler panicked on a batch; handling its mails one at a time", "mails", len(ms), "panic", p)
	errs = make([]error, len(ms))
	for i := range ms {
		if ctx.Err() != nil {
			errs[i] = ctx.Err() // not handled: it stays, and is not counted
			continue
		}
		one, p := tryBatch(ctx, handle, ms[i:i+1])
		if p != nil {
			errs[i] = fmt.Errorf("panic: %v", p)
		} else {
			errs[i] = one[0]
		}
	}
	return errs
}

// tryBatch calls handle, returning what it panicked with, if it did. A
// result of the wrong length is an error for every mail.
func tryBatch(ctx context.Context, handle BatchHandler, ms []*Incoming) (errs []error, panicked any) {
	defer func() {
		if r := recover(); r != nil {
			errs, panicked = nil, r
		}
	}()
	errs = handle(ctx, ms)
	if len(errs) != len(ms) {
		err := fmt.Errorf("mail handler returned %d results for %d mails", len(errs), len(ms))
		errs = slices.Repeat([]error{err}, len(ms))
	}
	return errs, nil
}

// settle takes in the results of handling mails, in UID order: the
// handled ones are filed together, then each failure is counted (failed).
// When ctx is done it files what was handled and returns, counting no
// failure.
func (b *Inbox) settle(ctx context.Context, cn *conn, st *inboxState, mails []fetched, errs []error) error {
	var done []imap.UID
	for i, m := range mails {
		if errs[i] == nil {
			b.log.Debug("mail handled", "uid", m.uid, "message_id", m.in.MessageID)
			delete(st.tries, m.uid)
			delete(st.charged, m.uid)
			st.pending[m.uid] = true
			done = append(done, m.uid)
		}
	}
	if len(done) > 0 {
		if err := b.file(ctx, cn, st, done); err != nil {
			return err
		}
	}
	if len(done) < len(mails) {
		var failed []imap.UID
		for i, m := range mails {
			if errs[i] != nil {
				failed = append(failed, m.uid)
			}
		}
		if err := b.unflag(ctx, cn, failed); err != nil {
			return err
		}
	}
	for i, m := range mails {
		if errs[i] == nil {
			st.lastUID, st.lastFailed = m.uid, false
			continue
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err := b.failed(ctx, cn, st, m.uid, m.in, max(m.tries, st.tries[m.uid]), errs[i]); err != nil {
			return err
		}
		delete(st.charged, m.uid)
	}
	return nil
}

// file marks handled messages: \Seen, then moved to the processed
// mailbox, each step one command for all of them. It works on after ctx
// is done, for a short while, so that handled mail is not handled again
// after a restart. Once the messages are filed (or left \Seen where they
// cannot be moved) they are no longer pending.
func (b *Inbox) file(ctx context.Context, cn *conn, st *inboxState, uids []imap.UID) error {
	fctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	defer context.AfterFunc(ctx, func() { time.AfterFunc(shutdownGrace, cancel) })()

	set := imap.UIDSetNum(uids...)
	if err := cn.do(fctx, "store \\Seen", func() error {
		return cn.c.Store(set, &imap.StoreFlags{
			Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagSeen},
		}, nil).Close()
	}); err != nil {
		return err
	}
	if cn.processed {
		left, err := b.move(fctx, cn, uids, b.processed)
		if err := b.fileFailed(st, left, err); err != nil {
			return err
		}
	}
	for _, uid := range uids {
		delete(st.pending, uid)
	}
	return nil
}

// move moves messages (ascending UIDs) to another mailbox: with MOVE when
// offered, else with COPY and, where UIDPLUS allows expunging just them,
// UID EXPUNGE. It returns the messages left in the mailbox: without
// UIDPLUS all of them, copied, with a nil error; otherwise those not moved
// and why. A refusal by the server is an *imap.Error or errNothingCopied.
func (b *Inbox) move(fctx context.Context, cn *conn, uids []imap.UID, mailbox string) (left []imap.UID, err error) {
	set := imap.UIDSetNum(uids...)
	if cn.caps.Has(imap.CapMove) {
		err := cn.do(fctx, "move", func() error {
			_, err := cn.c.Move(set, mailbox).Wait()
			return err
		})
		if err != nil {
			return uids, err
		}
		return nil, nil
	}
	// Client.Move would fall back to COPY + STORE + EXPUNGE, which may
	// expunge other messages: do it step by step, and only where UIDPLUS
	// lets the expunge name these messages alone.
	var copied *imap.CopyData
	if err := cn.do(fctx, "copy", func() (err error) {
		copied, err = cn.c.Copy(set, mailbox).Wait()
		return err
	}); err != nil {
		return uids, err
	}
	if !cn.caps.Has(imap.CapUIDPlus) {
		return uids, nil
	}
	// Expunge only what the server says it copied.
	var done []imap.UID
	for _, uid := range uids {
		if copied.SourceUIDs.Contains(uid) {
			done = append(done, uid)
		} else {
			left = append(left, uid)
		}
	}
	if len(done) == 0 {
		return uids, errNothingCopied
	}
	set = imap.UIDSetNum(done...)
	if err := cn.do(fctx, "store \\Deleted", func() error {
		return cn.c.Store(set, &imap.StoreFlags{
			Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted},
		}, nil).Close()
	}); err != nil {
		return uids, err
	}
	if err := cn.do(fctx, "uid expunge", func() error { return cn.c.UIDExpunge(set).Close() }); err != nil {
		return uids, err
	}
	if len(left) > 0 {
		return left, errNothingCopied
	}
	return nil, nil
}

// errNothingCopied is a COPY answered OK whose COPYUID lacks a message.
var errNothingCopied = errors.New("imap copy: the server did not copy the message")

// fileFailed sorts a failure to move messages that are already \Seen: a
// refusal by the server leaves them in place (they will not be handled
// again), anything else ends the connection.
func (b *Inbox) fileFailed(st *inboxState, uids []imap.UID, err error) error {
	if err == nil {
		return nil // moved, or copied and the originals stay \Seen (no UIDPLUS)
	}
	if !refused(err) {
		return err
	}
	for _, uid := range uids {
		st.unfiled[uid] = true
		b.log.Warn("mail handled but not moved; it stays, flagged \\Seen", "uid", uid, "mailbox", b.processed, "err", err)
	}
	return nil
}

// wait returns when new mail may have come: on a new message announced
// during IDLE, or after Poll.
func (b *Inbox) wait(ctx context.Context, cn *conn, wake <-chan struct{}) error {
	t := time.NewTimer(b.poll)
	defer t.Stop()
	cn.bye.arm(true)
	defer cn.bye.arm(false)
	if !cn.caps.Has(imap.CapIdle) {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-cn.c.Closed():
			return errors.New("imap: connection closed by the server")
		case <-cn.bye.bye:
			return errServerBye
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
	case <-cn.bye.bye:
		return errServerBye
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

// refused reports whether err is the server's refusal of a command, as
// opposed to a broken connection.
func refused(err error) bool {
	var ie *imap.Error
	return errors.As(err, &ie) || errors.Is(err, errNothingCopied)
}

// Keywords on messages whose handling failed: tryPrefix+N after N failed
// tries, flagQuarantined on one set aside that could not be moved.
const (
	tryPrefix       = "$CongoTry"
	flagQuarantined = imap.Flag("$CongoQuarantined")
	// flagHandling is set on a batch before it is handed to the handler,
	// and taken off a mail that fails; one still flagged and not \Seen
	// when read again was being handled when the process died. It is then
	// tried alone, flagged flagAlone too; if it was alone already, that
	// death counts as a failed try, so that a mail that kills the process
	// (out of memory, say) is set aside too, and the mails batched with
	// it are not charged.
	flagHandling = imap.Flag("$CongoHandling")
	flagAlone    = imap.Flag("$CongoAlone")
)

// hasFlag reports whether flags hold f; keywords are case-insensitive.
func hasFlag(flags []imap.Flag, f imap.Flag) bool {
	return slices.ContainsFunc(flags, func(g imap.Flag) bool { return strings.EqualFold(string(g), string(f)) })
}

// triesOf returns the count of failed tries that flags record.
func triesOf(flags []imap.Flag) int {
	n := 0
	for _, f := range flags {
		// Keywords are case-insensitive; some servers lowercase them.
		if len(f) > len(tryPrefix) && strings.EqualFold(string(f[:len(tryPrefix)]), tryPrefix) {
			v := string(f[len(tryPrefix):])
			if i, err := strconv.Atoi(v); err == nil && i > n {
				n = i
			}
		}
	}
	return n
}

// callHandle calls handle, turning a panic into an error.
func callHandle(ctx context.Context, handle func(context.Context, *Incoming) error, in *Incoming) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return handle(ctx, in)
}

// failed records that handling a message failed, tries times before.
// After MaxTries counted failures the message is set aside. It returns an
// error only when the connection fails.
func (b *Inbox) failed(ctx context.Context, cn *conn, st *inboxState, uid imap.UID, in *Incoming, tries int, herr error) error {
	count := !st.lastFailed || st.lastUID == uid
	st.lastUID, st.lastFailed = uid, true
	log := b.log.With("uid", uid, "message_id", in.MessageID, "err", herr)
	if !count {
		log.Error("mail not handled; it stays for the next pass (not counted as a try: the mail before failed too)", "tries", tries)
		return nil
	}
	tries++
	st.tries[uid] = tries
	set := imap.UIDSetNum(uid)
	if tries < b.maxTries {
		log.Error("mail not handled; it stays for the next pass", "tries", tries, "max_tries", b.maxTries)
		err := cn.do(ctx, "store "+tryPrefix, func() error {
			return cn.c.Store(set, &imap.StoreFlags{
				Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.Flag(fmt.Sprintf("%s%d", tryPrefix, tries))},
			}, nil).Close()
		})
		if err != nil && refused(err) {
			return nil // no keywords here: the count in memory must do
		}
		return err
	}
	return b.setAside(ctx, cn, st, uid, tries, log)
}

// setAside moves a message that failed tries times to the quarantine
// mailbox, or flags it $CongoQuarantined and \Seen where it cannot be
// moved. It returns an error only when the connection fails.
func (b *Inbox) setAside(ctx context.Context, cn *conn, st *inboxState, uid imap.UID, tries int, log *slog.Logger) error {
	// Moved back to the INBOX by the operator, it is handled once more.
	if err := b.unflag(ctx, cn, []imap.UID{uid}); err != nil {
		return err
	}
	set := imap.UIDSetNum(uid)
	fctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	defer context.AfterFunc(ctx, func() { time.AfterFunc(shutdownGrace, cancel) })()
	if cn.quarantine {
		left, err := b.move(fctx, cn, []imap.UID{uid}, b.quarantine)
		if len(left) == 0 {
			log.Error("mail set aside in the quarantine mailbox", "tries", tries, "mailbox", b.quarantine)
			delete(st.tries, uid)
			return nil
		}
		if err != nil && !refused(err) {
			return err
		}
	}
	// It stays: flagged so that it is not offered again.
	err := cn.do(fctx, "store "+string(flagQuarantined), func() error {
		return cn.c.Store(set, &imap.StoreFlags{
			Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{flagQuarantined, imap.FlagSeen},
		}, nil).Close()
	})
	if err != nil && !refused(err) {
		return err
	}
	st.unfiled[uid] = true
	log.Error("mail set aside: flagged, left in the mailbox", "tries", tries, "flag", string(flagQuarantined))
	return nil
}

// errServerBye is an untagged BYE while waiting: the server is shutting
// down and will not close the connection at once.
var errServerBye = errors.New("imap: the server said BYE")

// byeWatch sees the bytes of an IMAP connection, both ways (it is the
// client's DebugWriter), and notices an untagged BYE while armed: go-imap
// does not act on one, and a server that shuts down may wait for the
// client to hang up. It is armed only while waiting for new mail, when no
// message text (which could hold such a line) is on the wire.
type byeWatch struct {
	mu    sync.Mutex
	armed bool
	tail  []byte // the last bytes seen, for a line split between writes
	bye   chan struct{}
	once  sync.Once
}

func (w *byeWatch) arm(on bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.armed = on
	w.tail = w.tail[:0]
}

func (w *byeWatch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.armed {
		return len(p), nil
	}
	w.tail = append(w.tail, p...)
	if bytes.HasPrefix(w.tail, []byte("* BYE")) || bytes.Contains(w.tail, []byte("\n* BYE")) {
		w.once.Do(func() { close(w.bye) })
	}
	if len(w.tail) > 8 {
		w.tail = append(w.tail[:0], w.tail[len(w.tail)-8:]...)
	}
	return len(p), nil
}
