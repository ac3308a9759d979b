// Package dovecottest runs a real Dovecot IMAP server on loopback for
// tests, with an SMTP server in front of it that delivers into its
// mailboxes: a whole mail system, as a player's provider would run it.
package dovecottest

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/congobymail/congo/mailer/loopback"
	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// User is a mailbox owner: the IMAP login and the local part of the
// address.
type User struct {
	Name     string
	Password string
}

// Config configures a Server.
type Config struct {
	// Users are the accounts; default one user congo with password pw.
	Users []User

	// Domain is the mail domain of the users; default example.org.
	Domain string

	// TLS makes Dovecot offer STARTTLS on its IMAP port and implicit TLS on
	// a second port, with a certificate for 127.0.0.1 signed by a CA of the
	// test (Server.CAFile, Server.TLSConfig).
	TLS bool

	// Extra is appended to the configuration file.
	Extra string
}

// Server is a running Dovecot.
type Server struct {
	// Addr is the IMAP port (plain, and STARTTLS when TLS is on);
	// TLSAddr the implicit TLS port, empty without TLS.
	Addr    string
	TLSAddr string

	// Dir holds the configuration, the mail and the log.
	Dir string

	// CAFile is the PEM of the CA that signed the server's certificate,
	// for clients to trust; empty without TLS.
	CAFile string

	domain string
	users  map[string]User
	cert   tls.Certificate
	roots  *x509.CertPool

	bin, conf string
	cmd       *exec.Cmd
	exited    chan struct{}
	stderr    bytes.Buffer
}

// Skip skips t, or fails it when the environment variable CI is "true",
// where Dovecot cannot run: it is not installed, or the test does not run
// as root (Dovecot must then switch to the mail user).
func Skip(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("dovecot")
	why := ""
	switch {
	case err != nil:
		why = "dovecot is not installed (apt-get install dovecot-imapd)"
	case os.Geteuid() != 0:
		why = "running Dovecot needs root"
	default:
		return bin
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true but %s", why)
	}
	t.Skip(why)
	return ""
}

// Start runs Dovecot on loopback ports until the test ends; it is stopped
// by its PID. The test is skipped where Dovecot cannot run (see Skip).
func Start(t testing.TB, cfg Config) *Server {
	t.Helper()
	bin := Skip(t)
	if len(cfg.Users) == 0 {
		cfg.Users = []User{{Name: "congo", Password: "pw"}}
	}
	s := &Server{domain: cfg.Domain, users: map[string]User{}}
	if s.domain == "" {
		s.domain = "example.org"
	}
	// Not t.TempDir: Dovecot's own users must be able to enter it.
	dir, err := os.MkdirTemp("", "congo-dovecot-")
	if err != nil {
		t.Fatal(err)
	}
	s.Dir = dir
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	const nobody = 65534
	if err := os.Chown(home, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	var passwd strings.Builder
	for _, u := range cfg.Users {
		if u.Name == "" || strings.ContainsAny(u.Name, ":+@ \t\r\n") || strings.ContainsAny(u.Password, ":\r\n") {
			t.Fatalf("dovecottest: bad user %q", u.Name)
		}
		s.users[strings.ToLower(u.Name)] = u
		fmt.Fprintf(&passwd, "%s:{PLAIN}%s\n", u.Name, u.Password)
	}
	if err := os.WriteFile(filepath.Join(dir, "passwd"), []byte(passwd.String()), 0o644); err != nil {
		t.Fatal(err)
	}

	port := freePort(t)
	ssl := "ssl = no"
	tlsPort := 0
	imapsSSL := ""
	if cfg.TLS {
		tlsPort = freePort(t)
		s.TLSAddr = fmt.Sprintf("127.0.0.1:%d", tlsPort)
		certPEM, keyPEM, caPEM := s.makeCert(t)
		for name, b := range map[string][]byte{"cert.pem": certPEM, "key.pem": keyPEM, "ca.pem": caPEM} {
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		s.CAFile = filepath.Join(dir, "ca.pem")
		imapsSSL = "\n    ssl = yes"
		ssl = fmt.Sprintf("ssl = yes\nssl_cert = <%[1]s/cert.pem\nssl_key = <%[1]s/key.pem", dir)
	}
	s.Addr = fmt.Sprintf("127.0.0.1:%d", port)
	conf := fmt.Sprintf(`protocols = imap
listen = 127.0.0.1
base_dir = %[1]s/run
state_dir = %[1]s/state
log_path = %[1]s/dovecot.log
%[6]s
disable_plaintext_auth = no
auth_mechanisms = plain
passdb {
  driver = passwd-file
  args = scheme=PLAIN %[1]s/passwd
}
userdb {
  driver = static
  args = uid=%[2]d gid=%[2]d home=%[3]s/%%u
}
mail_location = maildir:~/Maildir
namespace inbox {
  inbox = yes
  separator = /
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = %[4]d
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = %[5]d%[8]s
  }
}
%[7]s
`, dir, nobody, home, port, tlsPort, ssl, cfg.Extra, imapsSSL)
	confPath := filepath.Join(dir, "dovecot.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	s.bin, s.conf = bin, confPath
	t.Cleanup(func() {
		s.stop()
		if t.Failed() {
			t.Logf("dovecot.log:\n%s%s", s.Log(), s.stderr.String())
		}
	})
	s.run(t)
	return s
}

// run starts the daemon and waits for its ports.
func (s *Server) run(t testing.TB) {
	t.Helper()
	s.cmd = exec.Command(s.bin, "-F", "-c", s.conf)
	s.cmd.Stderr = &s.stderr
	// Its own process group, so that Restart can kill all its processes.
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("start dovecot: %v", err)
	}
	exited := make(chan struct{})
	s.exited = exited
	go func(cmd *exec.Cmd) { cmd.Wait(); close(exited) }(s.cmd)
	deadline := time.Now().Add(10 * time.Second)
	for _, addr := range []string{s.Addr, s.TLSAddr} {
		for addr != "" {
			c, err := net.DialTimeout("tcp", addr, time.Second)
			if err == nil {
				c.Close()
				break
			}
			select {
			case <-exited:
				t.Fatalf("dovecot exited: %s\n%s", s.stderr.String(), s.Log())
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("dovecot not listening on %s within 10 s:\n%s", addr, s.Log())
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// stop stops the daemon by its PID: SIGTERM, and SIGKILL after 5 s.
func (s *Server) stop() {
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
		<-s.exited
	}
	s.cmd = nil
}

// Restart kills Dovecot and all its processes, as a crash would (a stop
// with SIGTERM makes it wait 10 s for its clients), calls between (if not nil) while it is down, and
// starts it again on the same ports with the same mail.
func (s *Server) Restart(t testing.TB, between func()) {
	t.Helper()
	syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	<-s.exited
	s.cmd = nil
	// Its processes die with it, and with them the listening sockets.
	deadline := time.Now().Add(10 * time.Second)
	for _, addr := range []string{s.Addr, s.TLSAddr} {
		for addr != "" {
			ln, err := net.Listen("tcp", addr)
			if err == nil {
				ln.Close()
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("dovecot's port %s still taken 10 s after it was killed", addr)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if between != nil {
		between()
	}
	s.run(t)
}

// Home returns the home directory of a user; the INBOX is the maildir
// Maildir in it.
func (s *Server) Home(name string) string {
	return filepath.Join(s.Dir, "home", s.users[strings.ToLower(name)].Name)
}

// Log returns Dovecot's log so far.
func (s *Server) Log() string {
	b, _ := os.ReadFile(filepath.Join(s.Dir, "dovecot.log"))
	return string(b)
}

func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// Address returns a user's mail address.
func (s *Server) Address(name string) string { return name + "@" + s.domain }

// URL returns the IMAP URL that reads a user's mailbox: scheme is imap,
// imaps or imap+starttls.
func (s *Server) URL(scheme, name, mailbox string) string {
	addr := s.Addr
	if scheme == "imaps" {
		addr = s.TLSAddr
	}
	u := s.users[strings.ToLower(name)]
	return (&url.URL{Scheme: scheme, User: url.UserPassword(u.Name, u.Password), Host: addr, Path: "/" + mailbox}).String()
}

// TLSConfig returns a client configuration that trusts the server's CA.
func (s *Server) TLSConfig() *tls.Config {
	return &tls.Config{RootCAs: s.roots}
}

// Client logs in as a user over plain IMAP.
func (s *Server) Client(name string) (*imapclient.Client, error) {
	u, ok := s.users[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("dovecottest: no user %q", name)
	}
	c, err := imapclient.DialInsecure(s.Addr, nil)
	if err != nil {
		return nil, err
	}
	if err := c.Login(u.Name, u.Password).Wait(); err != nil {
		c.Close()
		return nil, fmt.Errorf("dovecot login as %s: %w", name, err)
	}
	return c, nil
}

// Append puts raw into a user's mailbox.
func (s *Server) Append(name, mailbox string, raw []byte, flags ...imap.Flag) error {
	c, err := s.Client(name)
	if err != nil {
		return err
	}
	defer c.Close()
	cmd := c.Append(mailbox, int64(len(raw)), &imap.AppendOptions{Flags: flags})
	if _, err := cmd.Write(raw); err != nil {
		return err
	}
	if err := cmd.Close(); err != nil {
		return err
	}
	if _, err := cmd.Wait(); err != nil {
		return fmt.Errorf("dovecot append to %s of %s: %w", mailbox, name, err)
	}
	return nil
}

// Message is a stored message.
type Message = loopback.Message

// Fetch returns the messages of a user's mailbox, oldest first, without
// changing their flags; none when the mailbox does not exist.
func (s *Server) Fetch(name, mailbox string) ([]Message, error) {
	c, err := s.Client(name)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	msgs, err := loopback.ReadMailbox(c, mailbox)
	var ie *imap.Error
	if errors.As(err, &ie) && ie.Code == imap.ResponseCodeNonExistent {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("dovecot: mailbox of %s: %w", name, err)
	}
	return msgs, nil
}

// Messages returns the raw messages of a user's mailbox, oldest first.
func (s *Server) Messages(name, mailbox string) ([][]byte, error) {
	msgs, err := s.Fetch(name, mailbox)
	raws := make([][]byte, len(msgs))
	for i, m := range msgs {
		raws[i] = m.Raw
	}
	return raws, err
}

// makeCert makes a CA and a certificate for 127.0.0.1 and localhost signed
// by it, and returns the certificate, its key and the CA, as PEM.
func (s *Server) makeCert(t testing.TB) (certPEM, keyPEM, caPEM []byte) {
	t.Helper()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	caTmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "congo test CA"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		t.Fatal(err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "127.0.0.1"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:     []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	keyPEM = pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})
	caPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})
	if s.cert, err = tls.X509KeyPair(certPEM, keyPEM); err != nil {
		t.Fatal(err)
	}
	s.roots = x509.NewCertPool()
	s.roots.AddCert(ca)
	return certPEM, keyPEM, caPEM
}

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
