// Package postfixtest runs a real Postfix on loopback for tests, in front
// of a Dovecot of package dovecottest: mail for the domain comes in on an
// MX port, the server's own mail is submitted with STARTTLS and SASL
// (Dovecot's), and everything is delivered to Dovecot over LMTP, with
// recipient_delimiter = +, as an operator would set it up.
package postfixtest

import (
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/congobymail/congo/internal/dovecottest"
	"github.com/emersion/go-smtp"
)

// Config configures a Server.
type Config struct {
	// Dovecot is where the mail goes and who checks the passwords; it
	// must have been started with TLS and LMTP on. Required.
	Dovecot *dovecottest.Server

	// Domain is the mail domain, whose users (and their +tags) are the
	// Dovecot's; default example.org.
	Domain string

	// Extra is appended to main.cf.
	Extra string
}

// Server is a running Postfix.
type Server struct {
	// Addr is the MX port: plain SMTP, no AUTH, mail for the users of
	// the domain only, as the world delivers it.
	Addr string
	// SubmissionAddr is the submission port (587's role): STARTTLS
	// demanded, then AUTH PLAIN as a Dovecot user; mail to anyone of the
	// domain. SubmissionsAddr is the same with implicit TLS (465's role).
	SubmissionAddr, SubmissionsAddr string

	// Dir holds the configuration (main.cf, master.cf), the queue and
	// the log.
	Dir string

	d      *dovecottest.Server
	domain string
	master string // the master program
	conf   string // the configuration directory

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{}
	stderr bytes.Buffer
}

var (
	findOnce  sync.Once
	masterBin string
	findErr   string
)

// Skip skips t, or fails it when the environment variable CI is "true",
// where Postfix cannot run: it is not installed, or the test does not run
// as root (its master starts its services as root and they switch to the
// postfix user). It returns the path of Postfix's master program.
func Skip(t testing.TB) string {
	t.Helper()
	findOnce.Do(func() {
		postconf, err := exec.LookPath("postconf")
		if err != nil {
			findErr = "postfix is not installed (apt-get install postfix)"
			return
		}
		out, err := exec.Command(postconf, "-dh", "daemon_directory").Output()
		if err != nil {
			findErr = fmt.Sprintf("postconf -dh daemon_directory: %v", err)
			return
		}
		masterBin = filepath.Join(strings.TrimSpace(string(out)), "master")
		if _, err := os.Stat(masterBin); err != nil {
			findErr = fmt.Sprintf("postfix's master program: %v", err)
		}
	})
	why := findErr
	if why == "" && os.Geteuid() != 0 {
		why = "running Postfix needs root"
	}
	if why == "" {
		return masterBin
	}
	dovecottest.SkipFor(t, why)
	return ""
}

// Start runs Postfix on loopback ports until the test ends. Its master
// runs in the foreground (master -d) with a configuration and a queue of
// its own under Dir, and is stopped by its PID. The test is skipped where
// Postfix cannot run (see Skip).
func Start(t testing.TB, cfg Config) *Server {
	t.Helper()
	bin := Skip(t)
	d := cfg.Dovecot
	if d == nil || d.LMTPSocket == "" || d.CertFile == "" {
		t.Fatal("postfixtest: Config.Dovecot must be a dovecottest.Server with TLS and LMTP on")
	}
	s := &Server{d: d, domain: cfg.Domain, master: bin}
	if s.domain == "" {
		s.domain = "example.org"
	}
	// Not t.TempDir: Postfix's own user must be able to enter it.
	dir, err := os.MkdirTemp("", "congo-postfix-")
	if err != nil {
		t.Fatal(err)
	}
	s.Dir = dir
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	s.conf = filepath.Join(dir, "etc")
	if err := makeDirs(dir); err != nil {
		t.Fatal(err)
	}
	var vmailbox strings.Builder
	for _, u := range d.Users() {
		fmt.Fprintf(&vmailbox, "%s@%s %s\n", u, s.domain, u)
	}
	files := map[string]string{
		"vmailbox":  vmailbox.String(),
		"main.cf":   mainCF(dir, s.domain, d) + cfg.Extra + "\n",
		"master.cf": "",
	}
	ports := [3]int{dovecottest.FreePort(t), dovecottest.FreePort(t), dovecottest.FreePort(t)}
	s.Addr = fmt.Sprintf("127.0.0.1:%d", ports[0])
	s.SubmissionAddr = fmt.Sprintf("127.0.0.1:%d", ports[1])
	s.SubmissionsAddr = fmt.Sprintf("127.0.0.1:%d", ports[2])
	files["master.cf"] = masterCF(s.Addr, s.SubmissionAddr, s.SubmissionsAddr)
	// Postfix waits, reading it again and again, until a configuration
	// file is some seconds old: it is dated a minute back.
	old := time.Now().Add(-time.Minute)
	for name, text := range files {
		p := filepath.Join(s.conf, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		s.stop()
		if t.Failed() {
			t.Logf("postfix log:\n%s%s", s.Log(), s.stderr.String())
		}
	})
	s.Start(t)
	return s
}

// makeDirs makes the configuration, queue and data directories under dir,
// owned as Postfix wants them (what postfix check would do, without the
// seconds it takes).
func makeDirs(dir string) error {
	pu, err := user.Lookup("postfix")
	if err != nil {
		return fmt.Errorf("postfixtest: %w", err)
	}
	pg, err := user.LookupGroup("postdrop")
	if err != nil {
		return fmt.Errorf("postfixtest: %w", err)
	}
	postfix, _ := strconv.Atoi(pu.Uid)
	postdrop, _ := strconv.Atoi(pg.Gid)
	dirs := []struct {
		name       string
		mode       os.FileMode
		uid, group int
	}{
		{"etc", 0o755, 0, 0},
		{"queue", 0o755, 0, 0},
		{"queue/pid", 0o755, 0, 0},
		{"queue/maildrop", 0o730, postfix, postdrop},
		{"queue/public", 0o710, postfix, postdrop},
		{"data", 0o700, postfix, 0},
	}
	for _, q := range []string{"active", "bounce", "corrupt", "defer", "deferred", "flush", "hold", "incoming", "private", "saved", "trace"} {
		dirs = append(dirs, struct {
			name       string
			mode       os.FileMode
			uid, group int
		}{"queue/" + q, 0o700, postfix, 0})
	}
	for _, d := range dirs {
		p := filepath.Join(dir, d.name)
		if err := os.Mkdir(p, d.mode); err != nil {
			return err
		}
		if err := os.Chmod(p, d.mode); err != nil { // whatever the umask
			return err
		}
		if err := os.Chown(p, d.uid, d.group); err != nil {
			return err
		}
	}
	return nil
}

// mainCF is the main.cf of a Postfix in dir for domain, delivering to d.
func mainCF(dir, domain string, d *dovecottest.Server) string {
	return fmt.Sprintf(`compatibility_level = 3.6
queue_directory = %[1]s/queue
data_directory = %[1]s/data
maillog_file_prefixes = %[1]s
maillog_file = %[1]s/maillog
mail_owner = postfix
setgid_group = postdrop
myhostname = mail.%[2]s
mydomain = %[2]s
myorigin = %[2]s
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
smtp_dns_support_level = disabled
default_transport = error:no mail leaves a test
biff = no
notify_classes =
smtputf8_enable = yes

# Mail for the domain goes to Dovecot over LMTP, plus addresses included.
mydestination =
local_recipient_maps =
alias_maps =
alias_database =
recipient_delimiter = +
virtual_mailbox_domains = %[2]s
virtual_mailbox_maps = texthash:%[1]s/etc/vmailbox
virtual_transport = lmtp:unix:%[3]s

# Submission: TLS with the Dovecot's certificate, SASL by Dovecot.
smtpd_tls_cert_file = %[4]s
smtpd_tls_key_file = %[5]s
smtpd_sasl_type = dovecot
smtpd_sasl_path = %[6]s
smtpd_relay_restrictions = permit_sasl_authenticated, reject_unauth_destination

# A test's mail waits seconds, not minutes, when LMTP fails.
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 2s
`, dir, domain, d.LMTPSocket, d.CertFile, d.KeyFile, d.AuthSocket)
}

// masterCF is the master.cf of the services: the MX, submission and
// submissions ports, and what Postfix needs to queue and deliver, none
// of them chrooted.
func masterCF(mx, submission, submissions string) string {
	return fmt.Sprintf(`%s inet n - n - - smtpd
%s inet n - n - - smtpd
  -o smtpd_tls_security_level=encrypt
  -o smtpd_sasl_auth_enable=yes
  -o smtpd_tls_auth_only=yes
  -o smtpd_client_restrictions=permit_sasl_authenticated,reject
%s inet n - n - - smtpd
  -o smtpd_tls_wrappermode=yes
  -o smtpd_sasl_auth_enable=yes
  -o smtpd_client_restrictions=permit_sasl_authenticated,reject
pickup    unix  n - n 60    1 pickup
cleanup   unix  n - n -     0 cleanup
qmgr      unix  n - n 300   1 qmgr
tlsmgr    unix  - - n 1000? 1 tlsmgr
rewrite   unix  - - n -     - trivial-rewrite
bounce    unix  - - n -     0 bounce
defer     unix  - - n -     0 bounce
trace     unix  - - n -     0 bounce
verify    unix  - - n -     1 verify
flush     unix  n - n 1000? 0 flush
proxymap  unix  - - n -     - proxymap
error     unix  - - n -     - error
retry     unix  - - n -     - error
discard   unix  - - n -     - discard
lmtp      unix  - - n -     - lmtp
anvil     unix  - - n -     1 anvil
scache    unix  - - n -     1 scache
postlog   unix-dgram n - n - 1 postlogd
`, mx, submission, submissions)
}

// Start starts Postfix's master (again, after Stop) on the same ports and
// queue, and waits until its ports take connections.
func (s *Server) Start(t testing.TB) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		t.Fatal("postfixtest: Start while running")
	}
	cmd := exec.Command(s.master, "-c", s.conf, "-d")
	cmd.Env = append(os.Environ(), "MAIL_CONFIG="+s.conf)
	cmd.Stderr = &s.stderr
	// Its own process group: the master's SIGTERM ends its services too.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start postfix: %v", err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	s.cmd, s.exited = cmd, exited
	dovecottest.WaitListening(t, "postfix", exited, func() string { return s.stderr.String() + "\n" + s.Log() },
		s.Addr, s.SubmissionAddr, s.SubmissionsAddr)
}

// Stop stops Postfix, as an operator's systemctl stop postfix would: its
// ports refuse connections until Start. Mail in its queue stays there.
func (s *Server) Stop(t testing.TB) {
	t.Helper()
	s.stop()
	// The services die with the master, and with them the sockets.
	deadline := time.Now().Add(10 * time.Second)
	for _, addr := range []string{s.Addr, s.SubmissionAddr, s.SubmissionsAddr} {
		for {
			ln, err := net.Listen("tcp", addr)
			if err == nil {
				ln.Close()
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("postfix's port %s still taken 10 s after it stopped", addr)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// stop ends the master and its process group: SIGTERM, and SIGKILL after
// 5 s.
func (s *Server) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	pgid := s.cmd.Process.Pid
	syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(5 * time.Second):
		syscall.Kill(-pgid, syscall.SIGKILL)
		<-s.exited
	}
	// Services that outlived the master would keep the ports.
	syscall.Kill(-pgid, syscall.SIGKILL)
	s.cmd = nil
}

// Log returns Postfix's log so far.
func (s *Server) Log() string {
	b, _ := os.ReadFile(filepath.Join(s.Dir, "maillog"))
	return string(b)
}

// URL returns the URL to submit mail as a Dovecot user with password:
// scheme is smtp+starttls (the submission port) or smtps (the
// submissions port).
func (s *Server) URL(scheme, name, password string) string {
	addr := s.SubmissionAddr
	if scheme == "smtps" {
		addr = s.SubmissionsAddr
	}
	return (&url.URL{Scheme: scheme, User: url.UserPassword(name, password), Host: addr}).String()
}

// TLSConfig returns a client configuration that trusts the certificate
// of the submission ports (the Dovecot's).
func (s *Server) TLSConfig() *tls.Config { return s.d.TLSConfig() }

// Deliver sends raw from the envelope sender from to the recipients to
// through the MX port, as another mail server would, and returns once
// Postfix has queued it; Postfix delivers it to Dovecot a moment later.
func (s *Server) Deliver(ctx context.Context, from string, to []string, raw []byte) error {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", s.Addr)
	if err != nil {
		return fmt.Errorf("postfix: %w", err)
	}
	c := smtp.NewClient(conn)
	defer c.Close()
	if err := c.Hello("client.example.net"); err != nil {
		return fmt.Errorf("postfix: %w", err)
	}
	if err := c.SendMail(from, to, bytes.NewReader(raw)); err != nil {
		return fmt.Errorf("postfix: %w", err)
	}
	return c.Quit()
}
