package mailer

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"sync/atomic"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

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
		var ie *imap.Error
		if errors.As(err, &ie) && ie.Type == imap.StatusResponseTypeNo {
			return false, &loginError{err}
		}
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
		clear(st.charged)
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
		st.scanFailed = false
		if err := b.scan(ctx, cn, st, handle); err != nil {
			return scanned, err
		}
		scanned = true
		if !st.scanFailed {
			st.retry = 0
		}
		if err := b.wait(ctx, cn, wake, st.retry); err != nil {
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

// refused reports whether err is the server's refusal of a command, as
// opposed to a broken connection.
func refused(err error) bool {
	var ie *imap.Error
	return errors.As(err, &ie) || errors.Is(err, errNothingCopied)
}
