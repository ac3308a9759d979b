package dovecottest

import (
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// SMTP is a submission server in front of a Dovecot: it demands AUTH
// (any user of the Dovecot with its password) and delivers mail for the
// Dovecot's users, plus addresses included, into their INBOXes with
// Return-Path and Delivered-To on top, as a delivery agent would.
type SMTP struct {
	// Addr is the STARTTLS port; TLSAddr the implicit TLS port.
	Addr    string
	TLSAddr string

	d *Server
}

// StartSMTP runs an SMTP server for d, which must have TLS on, until the
// test ends.
func (s *Server) StartSMTP(t testing.TB) *SMTP {
	t.Helper()
	if s.roots == nil {
		t.Fatal("dovecottest: StartSMTP needs a Server with TLS")
	}
	m := &SMTP{d: s}
	tlsConfig := &tls.Config{Certificates: []tls.Certificate{s.cert}}
	for _, implicit := range []bool{false, true} {
		srv := smtp.NewServer(m)
		srv.Domain = "localhost"
		srv.TLSConfig = tlsConfig
		srv.MaxMessageBytes = 64 << 20
		srv.ErrorLog = nopLogger{}
		var ln net.Listener
		var err error
		if implicit {
			ln, err = tls.Listen("tcp", "127.0.0.1:0", tlsConfig)
			m.TLSAddr = ln.Addr().String()
		} else {
			ln, err = net.Listen("tcp", "127.0.0.1:0")
			m.Addr = ln.Addr().String()
		}
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { defer wg.Done(); srv.Serve(ln) }()
		t.Cleanup(func() { srv.Close(); ln.Close(); wg.Wait() })
	}
	return m
}

// URL returns the URL to submit mail as a user: scheme is smtps or
// smtp+starttls.
func (m *SMTP) URL(scheme, name string) string {
	addr := m.Addr
	if scheme == "smtps" {
		addr = m.TLSAddr
	}
	u := m.d.users[strings.ToLower(name)]
	return (&url.URL{Scheme: scheme, User: url.UserPassword(u.Name, u.Password), Host: addr}).String()
}

// Deliver puts raw, from the envelope sender from, into the INBOXes of the
// users that the addresses to name, as the server would after a
// submission.
func (m *SMTP) Deliver(from string, to []string, raw []byte) error {
	for _, rcpt := range to {
		u, err := m.lookup(rcpt)
		if err != nil {
			return err
		}
		msg := fmt.Appendf(nil, "Return-Path: <%s>\r\nDelivered-To: %s\r\n", from, rcpt)
		if err := m.d.Append(u.Name, "INBOX", append(msg, raw...)); err != nil {
			return err
		}
	}
	return nil
}

func (m *SMTP) lookup(addr string) (User, error) {
	i := strings.LastIndexByte(addr, '@')
	if i < 0 || !strings.EqualFold(addr[i+1:], m.d.domain) {
		return User{}, &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1}, Message: "Relaying denied"}
	}
	name, _, _ := strings.Cut(addr[:i], "+")
	u, ok := m.d.users[strings.ToLower(name)]
	if !ok {
		return User{}, &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "No such user here"}
	}
	return u, nil
}

// NewSession implements smtp.Backend.
func (m *SMTP) NewSession(c *smtp.Conn) (smtp.Session, error) {
	return &session{m: m}, nil
}

type session struct {
	m      *SMTP
	authed bool
	from   string
	to     []string
}

func (s *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *session) Auth(mech string) (sasl.Server, error) {
	if mech != sasl.Plain {
		return nil, smtp.ErrAuthUnknownMechanism
	}
	return sasl.NewPlainServer(func(identity, username, password string) error {
		u, ok := s.m.d.users[strings.ToLower(username)]
		if !ok || u.Password != password || identity != "" && identity != username {
			return smtp.ErrAuthFailed
		}
		s.authed = true
		return nil
	}), nil
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	if !s.authed {
		return smtp.ErrAuthRequired
	}
	s.from = from
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if _, err := s.m.lookup(to); err != nil {
		return err
	}
	s.to = append(s.to, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	return s.m.Deliver(s.from, s.to, raw)
}

func (s *session) Reset()        { s.from, s.to = "", nil }
func (s *session) Logout() error { return nil }

type nopLogger struct{}

func (nopLogger) Printf(string, ...any) {}
func (nopLogger) Println(...any)        {}
