// Package dovecottest runs a real Dovecot IMAP server on loopback for
// tests, with an SMTP server in front of it that delivers into its
// mailboxes: a whole mail system, as a player's provider would run it.
package dovecottest

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
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

	// CertNames, when set, are the only names of the server's
	// certificate (DNS names, no IP address), so that a client that
	// connects to 127.0.0.1 must be told which name to expect.
	CertNames []string

	// LMTP makes Dovecot take mail for its users over LMTP on a Unix
	// socket (Server.LMTPSocket) and answer an MTA's SASL queries on
	// another (Server.AuthSocket), as Postfix uses them: an address is
	// looked up without its domain and its +tag. The mail is then kept in
	// sdbox, not maildir: mails delivered by concurrent LMTP sessions
	// into a maildir that no IMAP session watches may get their UIDs out
	// of the order they arrived in (2 of 60 mails delivered 5 ms apart,
	// in a test), and congod reads mail in UID order.
	LMTP bool

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
	// for clients to trust; CertFile and KeyFile are the certificate and
	// its key, for another server of the test to use. All empty without
	// TLS.
	CAFile, CertFile, KeyFile string

	// LMTPSocket and AuthSocket are the Unix sockets of LMTP delivery and
	// of SASL authentication (Dovecot's protocol, as Postfix speaks it);
	// empty without Config.LMTP.
	LMTPSocket, AuthSocket string

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
	switch {
	case err != nil:
		SkipFor(t, "dovecot is not installed (apt-get install dovecot-imapd)")
	case os.Geteuid() != 0:
		SkipFor(t, "running Dovecot needs root")
	}
	return bin
}

// SkipFor skips t for the reason why, or fails it under CI=true, where
// every server the tests need is installed.
func SkipFor(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true but %s", why)
	}
	t.Skip(why)
}

// libexecDir is where Dovecot's own programs are (imap, lmtp, auth), next
// to the dovecot binary bin: /usr/lib/dovecot for /usr/sbin/dovecot.
func libexecDir(bin string) string {
	for _, d := range []string{"lib/dovecot", "libexec/dovecot"} {
		dir := filepath.Join(filepath.Dir(filepath.Dir(bin)), d)
		if _, err := os.Stat(dir); err == nil {
			return dir
		}
	}
	return "/usr/lib/dovecot"
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

	port := FreePort(t)
	ssl := "ssl = no"
	tlsPort := 0
	imapsSSL := ""
	if cfg.TLS {
		tlsPort = FreePort(t)
		s.TLSAddr = fmt.Sprintf("127.0.0.1:%d", tlsPort)
		certPEM, keyPEM, caPEM := s.makeCert(t, cfg.CertNames)
		for name, b := range map[string][]byte{"cert.pem": certPEM, "key.pem": keyPEM, "ca.pem": caPEM} {
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		s.CAFile = filepath.Join(dir, "ca.pem")
		s.CertFile, s.KeyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
		imapsSSL = "\n    ssl = yes"
		ssl = fmt.Sprintf("ssl = yes\nssl_cert = <%[1]s/cert.pem\nssl_key = <%[1]s/key.pem", dir)
	}
	s.Addr = fmt.Sprintf("127.0.0.1:%d", port)
	protocols, lmtp, location := "imap", "", "maildir:~/Maildir"
	if cfg.LMTP {
		if _, err := os.Stat(filepath.Join(libexecDir(bin), "lmtp")); err != nil {
			SkipFor(t, "dovecot's LMTP server is not installed (apt-get install dovecot-lmtpd)")
		}
		protocols, location = "imap lmtp", "sdbox:~/sdbox"
		s.LMTPSocket, s.AuthSocket = filepath.Join(dir, "lmtp"), filepath.Join(dir, "auth-mta")
		lmtp = fmt.Sprintf(`auth_username_format = %%Ln
recipient_delimiter = +
service lmtp {
  unix_listener %s {
    mode = 0666
  }
}
service auth {
  unix_listener %s {
    mode = 0666
  }
}
`, s.LMTPSocket, s.AuthSocket)
	}
	conf := fmt.Sprintf(`protocols = %[9]s
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
mail_location = %[11]s
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
%[10]s%[7]s
`, dir, nobody, home, port, tlsPort, ssl, cfg.Extra, imapsSSL, protocols, lmtp, location)
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
	// Each INBOX is made now, one user at a time: in sdbox, a first
	// delivery over LMTP that races a first IMAP login to create the
	// INBOX fails ("Mailbox already exists") and may kill the IMAP
	// process (seen in a CI run of the Postfix tests).
	for _, u := range cfg.Users {
		if _, err := s.Messages(u.Name, "INBOX"); err != nil {
			t.Fatalf("dovecottest: open %s's INBOX: %v", u.Name, err)
		}
	}
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
	WaitListening(t, "dovecot", exited, func() string { return s.stderr.String() + "\n" + s.Log() }, s.Addr, s.TLSAddr)
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

// SetPassword changes the password of the user name, as an operator
// would: Dovecot reads its password file again at the next login that
// comes a second or more after the last read (IMAP's, and the SASL
// logins of an MTA in front of it). URL and Client use the new one.
func (s *Server) SetPassword(t testing.TB, name, password string) {
	t.Helper()
	u, ok := s.users[strings.ToLower(name)]
	if !ok || strings.ContainsAny(password, ":\r\n") {
		t.Fatalf("dovecottest: no user %q, or a bad password", name)
	}
	u.Password = password
	s.users[strings.ToLower(name)] = u
	names := make([]string, 0, len(s.users))
	for n := range s.users {
		names = append(names, n)
	}
	slices.Sort(names)
	var passwd strings.Builder
	for _, n := range names {
		fmt.Fprintf(&passwd, "%s:{PLAIN}%s\n", s.users[n].Name, s.users[n].Password)
	}
	// Written beside it and renamed over it, so that no login reads half
	// a file.
	tmp := filepath.Join(s.Dir, "passwd.new")
	if err := os.WriteFile(tmp, []byte(passwd.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(s.Dir, "passwd")); err != nil {
		t.Fatal(err)
	}
}

// Home returns the home directory of a user; the INBOX is the maildir
// Maildir in it (with Config.LMTP, the sdbox sdbox).
func (s *Server) Home(name string) string {
	return filepath.Join(s.Dir, "home", s.users[strings.ToLower(name)].Name)
}

// Log returns Dovecot's log so far.
func (s *Server) Log() string {
	b, _ := os.ReadFile(filepath.Join(s.Dir, "dovecot.log"))
	return string(b)
}

// FreePort returns a TCP port of loopback that nothing listens on now.
func FreePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// Users returns the names of the users, sorted.
func (s *Server) Users() []string {
	var names []string
	for _, u := range s.users {
		names = append(names, u.Name)
	}
	slices.Sort(names)
	return names
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

// WaitListening waits up to 10 s until each of addrs (those not "") takes
// TCP connections, and fails t if the server named name exits first
// (exited is closed) or does not listen in time, with what log says.
func WaitListening(t testing.TB, name string, exited <-chan struct{}, log func() string, addrs ...string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for _, addr := range addrs {
		for addr != "" {
			c, err := net.DialTimeout("tcp", addr, time.Second)
			if err == nil {
				c.Close()
				break
			}
			select {
			case <-exited:
				t.Fatalf("%s exited:\n%s", name, log())
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s not listening on %s within 10 s:\n%s", name, addr, log())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}
