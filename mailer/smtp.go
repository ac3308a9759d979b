package mailer

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// DefaultSendTimeout bounds a Send whose context has no deadline.
const DefaultSendTimeout = 2 * time.Minute

// security is how a connection is protected.
type security uint8

const (
	plainText   security = iota // no TLS
	implicitTLS                 // TLS from the first byte
	startTLS                    // STARTTLS after the greeting
)

// SMTP sends mail through one submission server. It dials a new connection
// for each Send, so it holds no connection between mails and is safe for
// concurrent use.
type SMTP struct {
	addr      string
	sec       security
	user      string
	password  string
	tlsConfig *tls.Config

	// LocalName is the host name given in EHLO; "localhost" when empty.
	// Set it before the first Send.
	LocalName string
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
// sender from to the recipients to. It connects, authenticates when the URL
// named a user, sends and quits; ctx bounds the whole exchange (without a
// deadline, DefaultSendTimeout does).
//
// IsPermanent tells whether a failed Send may succeed later.
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

func (s *SMTP) send(ctx context.Context, from string, to []string, msg []byte) error {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", s.addr)
	if err != nil {
		return err
	}
	// go-smtp sets its own (long) deadlines on conn for every command, so
	// ctx is enforced by closing the connection.
	defer context.AfterFunc(ctx, func() { conn.Close() })()
	defer conn.Close()

	var c *smtp.Client
	switch s.sec {
	case plainText:
		c = smtp.NewClient(conn)
	case implicitTLS:
		tc := tls.Client(conn, s.tlsConfig)
		if err := tc.HandshakeContext(ctx); err != nil {
			return fmt.Errorf("tls: %w", err)
		}
		c = smtp.NewClient(tc)
	case startTLS:
		if c, err = smtp.NewClientStartTLS(conn, s.tlsConfig); err != nil {
			return fmt.Errorf("starttls: %w", err)
		}
	}
	defer c.Close()
	if s.LocalName != "" {
		if err := c.Hello(s.LocalName); err != nil {
			return err
		}
	}
	if s.user != "" {
		if err := c.Auth(sasl.NewPlainClient("", s.user, s.password)); err != nil {
			return &authError{user: s.user, err: err}
		}
	}
	if err := c.SendMail(from, to, bytes.NewReader(msg)); err != nil {
		return err
	}
	// The mail is accepted once DATA is answered; a failed QUIT does not
	// change that.
	_ = c.Quit()
	return nil
}

// authError is a failed AUTH. It is never permanent, even with a 5xx code:
// a wrong password is a setting to fix, not a reason to drop the mail.
type authError struct {
	user string
	err  error
}

func (e *authError) Error() string { return fmt.Sprintf("auth as %q: %v", e.user, e.err) }
func (e *authError) Unwrap() error { return e.err }

// IsPermanent reports whether err, from Send, is a permanent failure: the
// server answered with a 5xx reply (RFC 5321 4.2.1), so sending the same
// mail again will fail again. Everything else (4xx replies, network errors,
// timeouts, TLS failures, a rejected login) is temporary.
func IsPermanent(err error) bool {
	var ae *authError
	if errors.As(err, &ae) {
		return false
	}
	var se *smtp.SMTPError
	return errors.As(err, &se) && se.Code >= 500 && se.Code <= 599
}
