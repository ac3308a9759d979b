package mailer

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// authRequired reports whether err is the server's demand for a login
// (RFC 4954's 530 5.7.0), which no mail can pass.
func authRequired(err error) bool {
	var se *smtp.SMTPError
	return errors.As(err, &se) && (se.Code == 530 || se.Code/100 == 5 && se.EnhancedCode == smtp.EnhancedCode{5, 7, 0})
}

// loginWanted records err, the server's demand for a login, as a refused
// login.
func (s *SMTP) loginWanted(err error) error {
	ae := &authError{user: s.user, err: err}
	s.authRefused(ae)
	return ae
}

// authHeld returns the last refused login while no login is to be tried.
func (s *SMTP) authHeld() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.authErr == nil || !time.Now().Before(s.authUntil) {
		return nil
	}
	return &authError{user: s.user, err: s.authErr.err, until: s.authUntil, held: true, recorded: true}
}

// authRefused records a refused login: none is tried again for a while,
// until ae.until.
func (s *SMTP) authRefused(ae *authError) {
	block := s.LoginBlock
	if block <= 0 {
		block = DefaultLoginBlock
	}
	wait := block/2 + rand.N(block/2+1)
	s.mu.Lock()
	s.authErr, s.authUntil = ae, time.Now().Add(wait)
	ae.until = s.authUntil
	s.mu.Unlock()
	if s.Logger != nil {
		s.Logger.Error("smtp login refused: check the user and password; trying again later", "addr", s.addr,
			"user", s.user, "err", ae.err, "wait", wait.Round(time.Second), "until", ae.until)
	}
}

// authWorks records a login that worked: when the last had been
// refused, it says so, once.
func (s *SMTP) authWorks() {
	s.mu.Lock()
	was := s.authErr
	s.authErr = nil
	s.mu.Unlock()
	if was != nil && s.Logger != nil {
		s.Logger.Info("smtp login works again", "addr", s.addr, "user", s.user)
	}
}

func (s *SMTP) login(ctx context.Context, conn net.Conn) (*smtp.Client, error) {
	var c *smtp.Client
	switch s.sec {
	case plainText:
		c = smtp.NewClient(conn)
	case implicitTLS:
		tc := tls.Client(conn, s.tlsConfig)
		if err := tc.HandshakeContext(ctx); err != nil {
			return nil, &connectError{fmt.Errorf("tls: %w", err)}
		}
		c = smtp.NewClient(tc)
	case startTLS:
		var err error
		if c, err = smtp.NewClientStartTLS(conn, s.tlsConfig); err != nil {
			return nil, &connectError{fmt.Errorf("starttls: %w", err)}
		}
	}
	name := s.LocalName
	if name == "" {
		name = "localhost"
	}
	if err := c.Hello(name); err != nil {
		c.Close()
		return nil, &connectError{err}
	}
	if s.user != "" {
		// One login at a time: once one is refused, the sessions opened
		// meanwhile (the outbox sends over several) try none, as a
		// provider may lock an account after a few refusals.
		s.loginMu.Lock()
		defer s.loginMu.Unlock()
		if err := s.authHeld(); err != nil {
			c.Close()
			return nil, err
		}
		if err := c.Auth(sasl.NewPlainClient("", s.user, s.password)); err != nil {
			c.Close()
			// Refused (5xx): the user and password are wrong, or AUTH is
			// not offered. Else the connection broke, or the server cannot
			// check passwords now (454): soon tried again.
			var se *smtp.SMTPError
			if !errors.As(err, &se) || se.Code < 500 {
				return nil, &connectError{fmt.Errorf("auth as %q: %w", s.user, err)}
			}
			ae := &authError{user: s.user, err: err}
			if ctx.Err() == nil {
				s.authRefused(ae) // before the next login may look
				ae.recorded = true
			}
			return nil, ae
		}
		s.authWorks()
	}
	return c, nil
}
