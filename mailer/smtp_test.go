package mailer_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"io"
	"log/slog"
	"math/big"
	"net"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/congobymail/congo/mailer"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// delivery is a mail received by the recording server.
type delivery struct {
	user string // who logged in, if anyone
	from string
	to   []string
	data string
}

// recorder is a go-smtp backend that keeps what it receives and the
// connections it accepts. Recipients starting with "temp" are refused with
// 451, "perm" with 550, "login-wanted" with 530; those starting with
// "slow" wait until release is closed, and so does the answer to the data
// of a mail to "late".
type recorder struct {
	release chan struct{}

	mu             sync.Mutex
	user, password string // the account AUTH accepts
	got            []delivery
	conns          []*tapConn
	failMail       int // how many of the next MAIL FROM get a 421
}

func (r *recorder) deliveries() []delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

// connections returns the connections accepted so far, in order.
func (r *recorder) connections() []*tapConn {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.conns)
}

// tapConn is the server's side of a connection: it keeps what the client
// sent and whether the connection is closed.
type tapConn struct {
	net.Conn

	mu     sync.Mutex
	sent   []byte
	closed bool
}

func (c *tapConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	c.mu.Lock()
	c.sent = append(c.sent, b[:n]...)
	c.mu.Unlock()
	return n, err
}

func (c *tapConn) Close() error {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	return c.Conn.Close()
}

// state returns what the client sent (encrypted, with TLS) and whether the
// connection is closed.
func (c *tapConn) state() (sent string, closed bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return string(c.sent), c.closed
}

// tapListener records the connections it accepts in a recorder.
type tapListener struct {
	net.Listener
	r *recorder
}

func (l tapListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	tc := &tapConn{Conn: c}
	l.r.mu.Lock()
	l.r.conns = append(l.r.conns, tc)
	l.r.mu.Unlock()
	return tc, nil
}

func (r *recorder) NewSession(*smtp.Conn) (smtp.Session, error) {
	return &recordingSession{r: r}, nil
}

type recordingSession struct {
	r *recorder
	d delivery
}

func (s *recordingSession) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *recordingSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, user, password string) error {
		s.r.mu.Lock()
		ok := user == s.r.user && password == s.r.password
		s.r.mu.Unlock()
		if !ok {
			return smtp.ErrAuthFailed
		}
		s.d.user = user
		return nil
	}), nil
}

func (s *recordingSession) Mail(from string, _ *smtp.MailOptions) error {
	s.r.mu.Lock()
	fail := s.r.failMail > 0
	if fail {
		s.r.failMail--
	}
	s.r.mu.Unlock()
	if fail {
		return &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "shutting down"}
	}
	s.d.from = from
	return nil
}

func (s *recordingSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	switch {
	case strings.HasPrefix(to, "slow"):
		<-s.r.release
	case strings.HasPrefix(to, "temp"):
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try later"}
	case strings.HasPrefix(to, "login-wanted"):
		return &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "Authentication required"}
	case strings.HasPrefix(to, "perm"):
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"}
	}
	s.d.to = append(s.d.to, to)
	return nil
}

func (s *recordingSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if slices.ContainsFunc(s.d.to, func(to string) bool { return strings.HasPrefix(to, "late") }) {
		<-s.r.release // the whole mail is in; the answer waits
	}
	s.d.data = string(b)
	s.r.mu.Lock()
	s.r.got = append(s.r.got, s.d)
	s.r.mu.Unlock()
	return nil
}

func (s *recordingSession) Reset()        { s.d = delivery{user: s.d.user} }
func (s *recordingSession) Logout() error { return nil }

// tlsMode is how the test server offers TLS.
type tlsMode int

const (
	noTLS tlsMode = iota
	withImplicitTLS
	withStartTLS
)

// startSMTP runs a recording SMTP server on loopback.
func startSMTP(t *testing.T, mode tlsMode, cert tls.Certificate) (string, *recorder) {
	t.Helper()
	rec := &recorder{user: "congo@pbm.example.net", password: "s3cret:/@%", release: make(chan struct{})}
	srv := smtp.NewServer(rec)
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.ErrorLog = discardLogger{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln = tapListener{Listener: ln, r: rec}
	switch mode {
	case withImplicitTLS:
		ln = tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}})
	case withStartTLS:
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}}
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String(), rec
}

type discardLogger struct{}

func (discardLogger) Printf(string, ...any) {}
func (discardLogger) Println(...any)        {}

// selfSigned makes a certificate for 127.0.0.1 and a pool that trusts it.
func selfSigned(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "127.0.0.1"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}

const testMail = "From: <congo@pbm.example.net>\r\nTo: <alice@example.org>\r\nSubject: hi\r\n\r\nmove congo 42 b2-b3\r\n"

func TestSMTPSend(t *testing.T) {
	t.Parallel()
	cert, pool := selfSigned(t)
	userinfo := url.UserPassword("congo@pbm.example.net", "s3cret:/@%").String() + "@"
	tests := []struct {
		name     string
		mode     tlsMode
		scheme   string
		userinfo string
		to       string
		wantUser string
		wantErr  bool
		wantPerm bool
		wantCode int // the SMTP reply code of the error, if any
	}{
		{name: "plain", mode: noTLS, scheme: "smtp", to: "alice@example.org"},
		{name: "auth", mode: noTLS, scheme: "smtp", userinfo: userinfo, to: "alice@example.org", wantUser: "congo@pbm.example.net"},
		{name: "bad password", mode: noTLS, scheme: "smtp", userinfo: "congo%40pbm.example.net:wrong@", to: "alice@example.org",
			wantErr: true, wantCode: 535},
		{name: "login wanted", mode: noTLS, scheme: "smtp", to: "login-wanted@example.org", wantErr: true, wantCode: 530},
		{name: "4xx is temporary", mode: noTLS, scheme: "smtp", to: "temp@example.org", wantErr: true, wantCode: 451},
		{name: "5xx is permanent", mode: noTLS, scheme: "smtp", to: "perm@example.org", wantErr: true, wantPerm: true, wantCode: 550},
		{name: "implicit tls", mode: withImplicitTLS, scheme: "smtps", userinfo: userinfo, to: "alice@example.org", wantUser: "congo@pbm.example.net"},
		{name: "starttls", mode: withStartTLS, scheme: "smtp+starttls", userinfo: userinfo, to: "alice@example.org", wantUser: "congo@pbm.example.net"},
		{name: "starttls not offered", mode: noTLS, scheme: "smtp+starttls", to: "alice@example.org", wantErr: true},
		{name: "tls to a plain server", mode: noTLS, scheme: "smtps", to: "alice@example.org", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			addr, rec := startSMTP(t, tt.mode, cert)
			rawURL := tt.scheme + "://" + tt.userinfo + addr
			s, err := mailer.NewSMTP(rawURL, &tls.Config{RootCAs: pool})
			if err != nil {
				t.Fatalf("NewSMTP(%q) error = %v", rawURL, err)
			}
			t.Cleanup(func() { s.Close() })
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			err = s.Send(ctx, "congo@pbm.example.net", []string{tt.to}, []byte(testMail))
			if (err != nil) != tt.wantErr {
				t.Fatalf("Send(%s) error = %v, want error %v", tt.name, err, tt.wantErr)
			}
			if got := mailer.IsPermanent(err); got != tt.wantPerm {
				t.Errorf("IsPermanent(%v) = %v, want %v", err, got, tt.wantPerm)
			}
			var se *smtp.SMTPError
			if tt.wantCode != 0 && (!errors.As(err, &se) || se.Code != tt.wantCode) {
				t.Errorf("Send(%s) error = %v, want SMTP code %d", tt.name, err, tt.wantCode)
			}
			got := rec.deliveries()
			if tt.wantErr {
				if len(got) != 0 {
					t.Errorf("Send(%s) failed but the server got %+v", tt.name, got)
				}
				return
			}
			want := delivery{user: tt.wantUser, from: "congo@pbm.example.net", to: []string{tt.to}, data: testMail}
			if len(got) != 1 || got[0].user != want.user || got[0].from != want.from ||
				!slices.Equal(got[0].to, want.to) || got[0].data != want.data {
				t.Errorf("Send(%s): server got %+v, want [%+v]", tt.name, got, want)
			}
		})
	}
}

func TestSMTPSendUntrustedCertificate(t *testing.T) {
	t.Parallel()
	cert, _ := selfSigned(t)
	addr, rec := startSMTP(t, withImplicitTLS, cert)
	s, err := mailer.NewSMTP("smtps://"+addr, nil) // system roots: not trusted
	if err != nil {
		t.Fatal(err)
	}
	err = s.Send(context.Background(), "congo@pbm.example.net", []string{"alice@example.org"}, []byte(testMail))
	if err == nil || mailer.IsPermanent(err) {
		t.Errorf("Send to an untrusted server error = %v, want a temporary error", err)
	}
	if got := rec.deliveries(); len(got) != 0 {
		t.Errorf("Send to an untrusted server delivered %+v", got)
	}
}

func TestSMTPSendRespectsContext(t *testing.T) {
	// A server that accepts the connection and never says a word.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	s, err := mailer.NewSMTP("smtp://"+ln.Addr().String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = s.Send(ctx, "congo@pbm.example.net", []string{"alice@example.org"}, []byte(testMail))
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("Send to a silent server took %v, want about 200ms", took)
	}
	if !errors.Is(err, context.DeadlineExceeded) || mailer.IsPermanent(err) {
		t.Errorf("Send to a silent server error = %v, want a temporary context.DeadlineExceeded", err)
	}
}

func TestNewSMTP(t *testing.T) {
	t.Parallel()
	tests := []struct {
		url      string
		wantAddr string
		wantErr  bool
	}{
		{"smtp://mail.example.org:2525", "mail.example.org:2525", false},
		{"smtp://mail.example.org", "mail.example.org:25", false},
		{"smtps://u:p@mail.example.org", "mail.example.org:465", false},
		{"smtp+starttls://mail.example.org", "mail.example.org:587", false},
		{"smtp://[::1]:25", "[::1]:25", false},
		{"imap://mail.example.org", "", true},
		{"smtp://", "", true},
		{"mail.example.org:25", "", true},
		{"smtp://%zz", "", true},
	}
	for _, tt := range tests {
		s, err := mailer.NewSMTP(tt.url, nil)
		if (err != nil) != tt.wantErr {
			t.Errorf("NewSMTP(%q) error = %v, want error %v", tt.url, err, tt.wantErr)
			continue
		}
		if err == nil && s.Addr() != tt.wantAddr {
			t.Errorf("NewSMTP(%q).Addr() = %q, want %q", tt.url, s.Addr(), tt.wantAddr)
		}
	}
}

func TestIsPermanent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  error
		want bool
	}{
		{nil, false},
		{errors.New("connection reset"), false},
		{&smtp.SMTPError{Code: 421}, false},
		{&smtp.SMTPError{Code: 452}, false},
		{&smtp.SMTPError{Code: 550}, true},
		{&smtp.SMTPError{Code: 554}, true},
		{errors.Join(errors.New("wrapped"), &smtp.SMTPError{Code: 552}), true},
		{context.DeadlineExceeded, false},
	}
	for _, tt := range tests {
		if got := mailer.IsPermanent(tt.err); got != tt.want {
			t.Errorf("IsPermanent(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}

// TestSMTPCheck checks a server without sending mail: a session that
// works is kept for the next Send; a server not there, or one that
// refuses to talk, is unreachable (and its 5xx says nothing of a mail);
// a refused login is not.
func TestSMTPCheck(t *testing.T) {
	t.Parallel()
	cert, pool := selfSigned(t)
	addr, rec := startSMTP(t, withStartTLS, cert)
	userinfo := url.UserPassword("congo@pbm.example.net", "s3cret:/@%").String() + "@"
	s, err := mailer.NewSMTP("smtp+starttls://"+userinfo+addr, &tls.Config{RootCAs: pool})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if err := s.Check(ctx); err != nil {
		t.Fatalf("Check = %v", err)
	}
	if err := s.Send(ctx, "congo@pbm.example.net", []string{"alice@example.org"}, []byte(testMail)); err != nil {
		t.Fatal(err)
	}
	if n := len(rec.connections()); n != 1 {
		t.Errorf("Check then Send made %d connections, want 1 (the checked session reused)", n)
	}
	if n := len(rec.deliveries()); n != 1 {
		t.Errorf("Check then Send delivered %d mails, want 1", n)
	}

	bad, err := mailer.NewSMTP("smtp+starttls://congo%40pbm.example.net:wrong@"+addr, &tls.Config{RootCAs: pool})
	if err != nil {
		t.Fatal(err)
	}
	defer bad.Close()
	if err := bad.Check(ctx); err == nil || mailer.IsUnreachable(err) || mailer.IsPermanent(err) {
		t.Errorf("Check with a wrong password = %v, want a refused login, neither unreachable nor permanent", err)
	}

	// Nothing listens; a server that greets with 554.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	ln, err = net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			io.WriteString(c, "554 5.3.2 no service here\r\n")
			c.Close()
		}
	}()
	for _, a := range []string{closed, ln.Addr().String()} {
		u, err := mailer.NewSMTP("smtp://"+a, nil)
		if err != nil {
			t.Fatal(err)
		}
		err = u.Check(ctx)
		if !mailer.IsUnreachable(err) || mailer.IsPermanent(err) {
			t.Errorf("Check of %s = %v, want unreachable and not permanent", a, err)
		}
		err = u.Send(ctx, "congo@pbm.example.net", []string{"alice@example.org"}, []byte(testMail))
		if !mailer.IsUnreachable(err) || mailer.IsPermanent(err) {
			t.Errorf("Send to %s = %v, want unreachable and not permanent", a, err)
		}
	}
}

// TestSMTPLoginRefusedHoldsOff checks that after a refused login no
// other login is tried for a while, whatever the number of mails: Send
// and Check fail at once, without connecting, with an error that is a
// refused login and not permanent; the refusal is logged once, at ERROR.
func TestSMTPLoginRefusedHoldsOff(t *testing.T) {
	t.Parallel()
	addr, rec := startSMTP(t, noTLS, tls.Certificate{})
	s, err := mailer.NewSMTP("smtp://congo%40pbm.example.net:wrong@"+addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var logs bytes.Buffer
	s.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	ctx := context.Background()
	for i := range 5 {
		err := s.Send(ctx, "congo@pbm.example.net", []string{"alice@example.org"}, []byte(testMail))
		if !mailer.IsAuthFailure(err) || mailer.IsPermanent(err) || mailer.IsUnreachable(err) {
			t.Errorf("Send %d with a wrong password = %v, want a refused login, temporary", i, err)
		}
	}
	if err := s.Check(ctx); !mailer.IsAuthFailure(err) {
		t.Errorf("Check after a refused login = %v, want a refused login", err)
	}
	if n := len(rec.connections()); n != 1 {
		t.Errorf("5 Sends and a Check after a refused login made %d connections, want 1", n)
	}
	if n := strings.Count(logs.String(), "level=ERROR"); n != 1 {
		t.Errorf("%d errors logged, want 1:\n%s", n, logs.String())
	}
}

// TestSMTPLoginBlockEnds: a refused login, and the Sends that meet the
// block after it, tell when a login is tried again (LoginBlockedUntil):
// a half to the whole of LoginBlock after the refusal, the same for
// all. Once it has passed and the password is right, the next Send logs
// in and sends, and the first login that works says so, once, at INFO.
func TestSMTPLoginBlockEnds(t *testing.T) {
	addr, rec := startSMTP(t, noTLS, tls.Certificate{})
	rec.mu.Lock()
	rec.password = "old"
	rec.mu.Unlock()
	s, err := mailer.NewSMTP("smtp://congo%40pbm.example.net:new@"+addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var logs syncBuffer
	s.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	const block = time.Second
	s.LoginBlock = block
	ctx := context.Background()
	send := func() error {
		return s.Send(ctx, "congo@pbm.example.net", []string{"alice@example.org"}, []byte(testMail))
	}

	if _, ok := mailer.LoginBlockedUntil(errors.New("dial tcp: connection refused")); ok {
		t.Errorf("LoginBlockedUntil of another error says a login block")
	}
	before := time.Now()
	err = send()
	after := time.Now()
	until, ok := mailer.LoginBlockedUntil(err)
	if !ok || mailer.IsPermanent(err) {
		t.Fatalf("Send with a wrong password = %v: LoginBlockedUntil %v, %v; want a login block, temporary", err, until, ok)
	}
	if until.Before(before.Add(block/2)) || until.After(after.Add(block)) {
		t.Errorf("login blocked until %v, %v after the refusal; want a half to the whole of %v", until, until.Sub(before), block)
	}
	err = send()
	if held, ok := mailer.LoginBlockedUntil(err); !ok || !held.Equal(until) {
		t.Errorf("Send during the block = %v: LoginBlockedUntil %v, %v; want %v", err, held, ok, until)
	}
	if n := len(rec.connections()); n != 1 {
		t.Errorf("a Send during the block connected: %d connections, want 1", n)
	}

	rec.mu.Lock()
	rec.password = "new"
	rec.mu.Unlock()
	time.Sleep(time.Until(until))
	for i := range 2 {
		if err := send(); err != nil {
			t.Fatalf("Send %d after the block with the password put right = %v", i, err)
		}
	}
	if n := strings.Count(logs.String(), "smtp login works again"); n != 1 || !strings.Contains(logs.String(), "level=INFO msg=\"smtp login works again\"") {
		t.Errorf("%d lines say the login works again, want 1 at INFO:\n%s", n, logs.String())
	}
}

// TestSMTPLoginRefusedOnceForSendsAtOnce: Sends at once (the outbox's
// connections) with a wrong password try one login between them, not one
// each: a provider may lock an account after a few refusals.
func TestSMTPLoginRefusedOnceForSendsAtOnce(t *testing.T) {
	t.Parallel()
	addr, rec := startSMTP(t, noTLS, tls.Certificate{})
	s, err := mailer.NewSMTP("smtp://congo%40pbm.example.net:wrong@"+addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var logs syncBuffer
	s.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			err := s.Send(context.Background(), "congo@pbm.example.net", []string{"alice@example.org"}, []byte(testMail))
			if !mailer.IsAuthFailure(err) || mailer.IsPermanent(err) {
				t.Errorf("Send %d with a wrong password = %v, want a refused login, temporary", i, err)
			}
		})
	}
	wg.Wait()
	logins := 0
	for _, c := range rec.connections() {
		sent, _ := c.state()
		logins += strings.Count(sent, "AUTH ")
	}
	if logins != 1 {
		t.Errorf("4 Sends at once tried %d logins, want 1", logins)
	}
	if n := strings.Count(logs.String(), "level=ERROR"); n != 1 {
		t.Errorf("%d errors logged, want 1:\n%s", n, logs.String())
	}
}

// syncBuffer is a bytes.Buffer that may be written from goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestSMTPHandOver checks that WithHandOver's function runs once the
// server has the whole mail and before its answer, and not at all when
// the mail is refused before its data.
func TestSMTPHandOver(t *testing.T) {
	t.Parallel()
	addr, rec := startSMTP(t, noTLS, tls.Certificate{})
	s, err := mailer.NewSMTP("smtp://"+addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	handed := make(chan struct{}, 2)
	ctx := mailer.WithHandOver(context.Background(), func() { handed <- struct{}{} })
	sent := make(chan error, 1)
	go func() { sent <- s.Send(ctx, "congo@pbm.example.net", []string{"late@example.org"}, []byte(testMail)) }()
	select {
	case <-handed:
	case err := <-sent:
		t.Fatalf("Send returned (%v) before the mail was handed over", err)
	case <-time.After(5 * time.Second):
		t.Fatal("not handed over within 5 s while the server held its answer")
	}
	select {
	case err := <-sent:
		t.Fatalf("Send returned (%v) before the server answered", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(rec.release)
	if err := <-sent; err != nil {
		t.Fatalf("Send = %v", err)
	}
	if len(handed) != 0 {
		t.Errorf("handed over more than once")
	}

	err = s.Send(ctx, "congo@pbm.example.net", []string{"perm@example.org"}, []byte(testMail))
	if err == nil {
		t.Fatal("Send to a refused recipient worked")
	}
	if len(handed) != 0 {
		t.Errorf("a mail refused before its data was handed over")
	}
}
