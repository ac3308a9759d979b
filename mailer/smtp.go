package mailer

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-smtp"
)

const (
	// DefaultSendTimeout bounds a Send whose context has no deadline.
	DefaultSendTimeout = 2 * time.Minute
	// DefaultMaxIdle is how many idle connections an SMTP keeps when its
	// MaxIdle is zero.
	DefaultMaxIdle = 2
	// DefaultIdleTimeout is how long an idle connection is kept when
	// IdleTimeout is zero. Servers drop idle sessions after a few minutes
	// (RFC 5321 4.5.3.2.7 suggests 5).
	DefaultIdleTimeout = 30 * time.Second
)

// quitTimeout bounds the QUIT that closes a connection no longer needed;
// reuseTimeout the first command on a connection that was idle.
const (
	quitTimeout  = 5 * time.Second
	reuseTimeout = 10 * time.Second
)

// DefaultLoginBlock is how long Send and Check wait, after the server
// refused the login, before they log in again (a half to the whole of
// it) when SMTP.LoginBlock is zero: a provider locks an account after a
// few failed logins, and a wrong password is not put right by trying
// again.
const DefaultLoginBlock = 5 * time.Minute

// security is how a connection is protected.
type security uint8

const (
	plainText   security = iota // no TLS
	implicitTLS                 // TLS from the first byte
	startTLS                    // STARTTLS after the greeting
)

// SMTP sends mail through one submission server. Like net/http's Transport,
// it keeps the connection of a successful Send open, logged in and idle, and
// the next Send starts a new transaction on it instead of dialing: at most
// MaxIdle connections, each for at most IdleTimeout, after which a timer
// closes it. Close closes the idle connections.
//
// SMTP is safe for concurrent use: each Send has a connection to itself.
type SMTP struct {
	addr      string
	sec       security
	user      string
	password  string
	tlsConfig *tls.Config

	// LocalName is the host name given in EHLO; "localhost" when empty.
	// Set it before the first Send.
	LocalName string
	// MaxIdle is how many idle connections are kept for later Sends:
	// DefaultMaxIdle when zero, none when negative. Set it before the
	// first Send.
	MaxIdle int
	// IdleTimeout is how long an idle connection is kept before it is
	// closed; DefaultIdleTimeout when zero. Set it before the first Send.
	IdleTimeout time.Duration
	// Logger is told of a refused login, at ERROR, and of the first
	// login that works after one, at INFO; nil discards them. Set it
	// before the first Send.
	Logger *slog.Logger
	// LoginBlock is how long no login is tried after the server refused
	// one: a random half to the whole of it; DefaultLoginBlock when
	// zero. Tests shorten it. Set it before the first Send.
	LoginBlock time.Duration

	loginMu sync.Mutex // held by a login under way
	mu      sync.Mutex
	idle    []*smtpConn // idle connections, the longest idle first
	timer   *time.Timer // closes expired idle connections; stopped when none is idle
	// authErr is the last refused login, and no login is tried again
	// before authUntil; nil once a login worked.
	authErr   *authError
	authUntil time.Time
}

// smtpConn is an open, logged-in session with the server.
type smtpConn struct {
	raw       *readHook // the TCP connection, closed to cut a Send short
	c         *smtp.Client
	idleSince time.Time
}

// readHook is a connection that holds what is written until the next
// Read, and calls a function, once, before that Read. SMTP (and TLS
// beneath it) reads an answer only once its command is written: so a
// mail's text, which the client writes in pieces of 4 KB and its final
// dot apart, goes to the server in one write, not some eight; and the
// function runs when the command is in the server's hands and before its
// answer is known.
type readHook struct {
	net.Conn
	before atomic.Pointer[func()]
	held   []byte // written, not yet sent
}

// maxHeld bounds what a readHook holds: past it, it sends at once.
const maxHeld = 256 << 10

func (c *readHook) Write(b []byte) (int, error) {
	if len(c.held)+len(b) > maxHeld {
		if err := c.flush(); err != nil {
			return 0, err
		}
		return c.Conn.Write(b)
	}
	c.held = append(c.held, b...)
	return len(b), nil
}

// flush sends what is held.
func (c *readHook) flush() error {
	if len(c.held) == 0 {
		return nil
	}
	_, err := c.Conn.Write(c.held)
	c.held = c.held[:0]
	if cap(c.held) > 64<<10 {
		c.held = nil // a large mail's buffer is not kept idle
	}
	return err
}

func (c *readHook) Read(b []byte) (int, error) {
	if err := c.flush(); err != nil {
		return 0, err
	}
	if f := c.before.Swap(nil); f != nil {
		(*f)()
	}
	return c.Conn.Read(b)
}

type handOverKey struct{}

// WithHandOver returns a context that makes Send call f once the server
// has been handed the whole mail, its final dot written, and before its
// answer is read. From then on the server may have taken the mail
// whatever becomes of this process: Postfix writes it to its disk before
// it answers, which takes milliseconds, a large part of each Send. f
// must be quick. It is not called when Send fails before that point.
func WithHandOver(ctx context.Context, f func()) context.Context {
	return context.WithValue(ctx, handOverKey{}, f)
}

// NewSMTP returns a sender for rawURL, which is
// smtp://[user:pass@]host:port (no TLS), smtps://... (implicit TLS) or
// smtp+starttls://... (STARTTLS, refused when the server does not offer
// it). User and password are URL-decoded; with a user, Send authenticates
// with AUTH PLAIN. The port defaults to 25, 465 and 587. tlsConfig may be
// nil; its ServerName defaults to the URL's host.
func NewSMTP(rawURL string, tlsConfig *tls.Config) (*SMTP, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("smtp url: %w", err)
	}
	s := &SMTP{}
	var port string
	switch u.Scheme {
	case "smtp":
		s.sec, port = plainText, "25"
	case "smtps":
		s.sec, port = implicitTLS, "465"
	case "smtp+starttls":
		s.sec, port = startTLS, "587"
	default:
		return nil, fmt.Errorf("smtp url: unknown scheme %q (want smtp, smtps or smtp+starttls)", u.Scheme)
	}
	if u.Hostname() == "" {
		return nil, errors.New("smtp url: no host")
	}
	if u.Port() != "" {
		port = u.Port()
	}
	s.addr = net.JoinHostPort(u.Hostname(), port)
	if u.User != nil {
		s.user = u.User.Username()
		s.password, _ = u.User.Password()
	}
	if s.sec != plainText {
		if tlsConfig == nil {
			tlsConfig = &tls.Config{}
		} else {
			tlsConfig = tlsConfig.Clone()
		}
		if tlsConfig.ServerName == "" {
			tlsConfig.ServerName = u.Hostname()
		}
		s.tlsConfig = tlsConfig
	}
	return s, nil
}

// Addr returns the host:port that Send connects to.
func (s *SMTP) Addr() string { return s.addr }

// Send delivers msg, a raw message with CRLF line ends, from the envelope
// sender from to the recipients to. It takes an idle connection, or dials
// one and authenticates when the URL named a user; ctx bounds the whole
// exchange (without a deadline, DefaultSendTimeout does). When the server
// refuses MAIL FROM on an idle connection, or has dropped it, Send tries
// once more on a new connection: nothing was accepted yet. Send returns as
// soon as the server has answered the end of the data, without a QUIT; the
// connection is then kept idle, or closed in the background.
//
// IsPermanent tells whether a failed Send may succeed later. After the
// server refused the login, Send fails at once, without connecting, for
// a few minutes (see IsAuthFailure), and LoginBlockedUntil tells until
// when.
func (s *SMTP) Send(ctx context.Context, from string, to []string, msg []byte) error {
	if len(to) == 0 {
		return errors.New("smtp send: no recipient")
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultSendTimeout)
		defer cancel()
	}
	if err := s.send(ctx, from, to, msg); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("smtp send via %s: %w (%w)", s.addr, ctx.Err(), err)
		}
		return fmt.Errorf("smtp send via %s: %w", s.addr, err)
	}
	return nil
}

// Check sets up a session as Send does (connection, TLS, EHLO, AUTH when
// the URL names a user) and sends no mail: it tells whether the server
// would take mail now. The session is kept idle for the next Send (Close
// ends it). Its errors are those of Send: IsUnreachable when no session
// could be had, IsAuthFailure when the login was refused.
func (s *SMTP) Check(ctx context.Context) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultSendTimeout)
		defer cancel()
	}
	pc, err := s.dial(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("smtp check of %s: %w (%w)", s.addr, ctx.Err(), err)
		}
		return fmt.Errorf("smtp check of %s: %w", s.addr, err)
	}
	s.putIdle(pc)
	return nil
}

func (s *SMTP) send(ctx context.Context, from string, to []string, msg []byte) error {
	if pc := s.takeIdle(); pc != nil {
		retry, err := s.transact(ctx, pc, from, to, msg)
		if !retry || ctx.Err() != nil {
			return err
		}
		// MAIL FROM failed on the reused connection, most likely dropped
		// by the server while idle; nothing was accepted.
	}
	pc, err := s.dial(ctx)
	if err != nil {
		return err
	}
	_, err = s.transact(ctx, pc, from, to, msg)
	return err
}

// dial connects, says EHLO and logs in. Its errors are a connectError or
// an authError.
func (s *SMTP) dial(ctx context.Context) (*smtpConn, error) {
	if err := s.authHeld(); err != nil {
		return nil, err
	}
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", s.addr)
	if err != nil {
		return nil, &connectError{err}
	}
	conn := &readHook{Conn: nc}
	// go-smtp sets its own (long) deadlines on conn for every command, so
	// ctx is enforced by closing the connection.
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	c, err := s.login(ctx, conn)
	if !stop() && err == nil {
		c.Close()
		err = &connectError{ctx.Err()} // conn is closed
	}
	if err != nil {
		conn.Close()
		var ae *authError
		if errors.As(err, &ae) && !ae.recorded && ctx.Err() == nil {
			s.authRefused(ae)
		}
		return nil, err
	}
	return &smtpConn{raw: conn, c: c}, nil
}

// transact sends one mail on pc, which it then keeps idle or closes.
// retry reports that the failure came from MAIL FROM, before the server
// could accept anything.
func (s *SMTP) transact(ctx context.Context, pc *smtpConn, from string, to []string, msg []byte) (retry bool, err error) {
	stop := context.AfterFunc(ctx, func() { pc.raw.Close() })
	fail := func(err error) error {
		var se *smtp.SMTPError
		if stop() && errors.As(err, &se) {
			// The server answered: the session is sound enough for a QUIT.
			s.quitLater(pc)
		} else {
			pc.c.Close()
		}
		return err
	}

	var opts *smtp.MailOptions
	if !isASCII(from) || slices.ContainsFunc(to, func(a string) bool { return !isASCII(a) }) {
		opts = &smtp.MailOptions{UTF8: true}
	}
	// A connection kept idle may have died without a word (a NAT
	// forgot it): its MAIL FROM gets a short time to be answered, so that
	// Send still has the time to dial again.
	timeout := pc.c.CommandTimeout
	if !pc.idleSince.IsZero() {
		pc.c.CommandTimeout = reuseTimeout
	}
	err = pc.c.Mail(from, opts)
	pc.c.CommandTimeout = timeout
	if err != nil {
		if authRequired(err) {
			return false, fail(s.loginWanted(err))
		}
		return true, fail(err)
	}
	for _, rcpt := range to {
		if err := pc.c.Rcpt(rcpt, nil); err != nil {
			if authRequired(err) {
				return false, fail(s.loginWanted(err))
			}
			return false, fail(err)
		}
	}
	w, err := pc.c.Data()
	if err != nil {
		return false, fail(err)
	}
	if _, err := w.Write(msg); err != nil {
		return false, fail(err)
	}
	if f, ok := ctx.Value(handOverKey{}).(func()); ok && f != nil {
		// Armed now, it runs once the final dot is written, when w.Close
		// begins to read the answer.
		pc.raw.before.Store(&f)
	}
	err = w.Close()
	pc.raw.before.Store(nil)
	if err != nil {
		return false, fail(err)
	}
	// The mail is accepted: nothing more before returning.
	if stop() {
		s.putIdle(pc)
	} else {
		pc.c.Close() // ctx has closed it meanwhile: not kept
	}
	return false, nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
