package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/mailer"
)

// checkTimeout bounds each connection of -check-config.
const checkTimeout = 20 * time.Second

// problem is what -check-config found wrong with a part; zero is none.
type problem uint8

const (
	noProblem    problem = iota
	unreachable          // no connection, or the server would not talk
	badCert              // the server's certificate is not trusted, or not for the host
	loginRefused         // the user or the password is wrong
	noMailbox            // the IMAP mailbox cannot be opened
	notWritable          // the database, or where it is to be, takes no write
)

func (p problem) String() string {
	return [...]string{"ok", "unreachable", "certificate not trusted", "login refused", "mailbox not found", "not writable"}[p]
}

// checkResult is what -check-config found of one part: "imap", "smtp"
// or "db".
type checkResult struct {
	part    string
	target  string // the URL (without password) or the path
	problem problem
	hint    string // what to do, or what was found when all is well
	err     error
}

func (r checkResult) String() string {
	if r.problem == noProblem {
		return fmt.Sprintf("%s %s: ok: %s", r.part, r.target, r.hint)
	}
	return fmt.Sprintf("%s %s: %s: %s (%v)", r.part, r.target, r.problem, r.hint, r.err)
}

// checkError is a -check-config that found parts at fault.
type checkError struct{ failed []checkResult }

func (e *checkError) Error() string {
	var parts []string
	for _, r := range e.failed {
		parts = append(parts, fmt.Sprintf("%s (%s)", r.part, r.problem))
	}
	return "check failed: " + strings.Join(parts, ", ")
}

// checkConnections does what the daemon would do first, and reports each
// part on w, a line each: it logs in to IMAP and opens the mailbox (read
// only), sets up an SMTP session (EHLO, STARTTLS, AUTH; no mail sent), and
// opens the database and writes to it. cfg must have passed validate. The
// error, a *checkError, names the parts at fault.
func checkConnections(ctx context.Context, cfg *settings, w io.Writer) error {
	tlsConfig, err := cfg.tlsConfig()
	if err != nil {
		return err
	}
	var failed []checkResult
	for _, check := range []func(context.Context, *settings, *tls.Config) checkResult{checkIMAP, checkSMTP, checkDatabase} {
		cctx, cancel := context.WithTimeout(ctx, checkTimeout)
		r := check(cctx, cfg, tlsConfig)
		cancel()
		fmt.Fprintln(w, r)
		if r.problem != noProblem {
			failed = append(failed, r)
		}
	}
	if len(failed) > 0 {
		return &checkError{failed: failed}
	}
	return nil
}

// shown is rawURL without its password.
func shown(rawURL string) (*url.URL, string) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, "(a bad URL)"
	}
	v := *u
	if v.User != nil {
		v.User = url.User(v.User.Username())
	}
	return u, v.String()
}

// connectProblem tells a failure to connect: a certificate not trusted
// (with what to do), or the server not reached.
func connectProblem(r checkResult, err error, host string) checkResult {
	r.err = err
	var ua x509.UnknownAuthorityError
	var he x509.HostnameError
	var ci x509.CertificateInvalidError
	switch {
	case errors.As(err, &he):
		r.problem = badCert
		names := strings.Join(he.Certificate.DNSNames, ", ")
		if names == "" {
			names = he.Certificate.Subject.CommonName
		}
		r.hint = fmt.Sprintf("the server's certificate is for %s, not %s: name the host as the certificate does, or give that name with -tls-server-name", names, he.Host)
	case errors.As(err, &ua):
		r.problem = badCert
		r.hint = "the server's certificate is signed by an authority this machine does not trust: give that authority's certificate with -ca-file"
	case errors.As(err, &ci):
		r.problem = badCert
		r.hint = "the server's certificate is not valid (expired, or not for a server)"
	default:
		r.problem = unreachable
		r.hint = fmt.Sprintf("cannot talk to %s: check the host, the port and the scheme", host)
	}
	return r
}

// checkIMAP logs in to the IMAP server and opens the mailbox read-only.
func checkIMAP(ctx context.Context, cfg *settings, tlsConfig *tls.Config) checkResult {
	u, target := shown(cfg.IMAP)
	r := checkResult{part: "imap", target: target}
	port := map[string]string{"imap": "143", "imaps": "993", "imap+starttls": "143"}[u.Scheme]
	if u.Port() != "" {
		port = u.Port()
	}
	addr := net.JoinHostPort(u.Hostname(), port)
	tc := tlsConfig.Clone()
	if tc.ServerName == "" {
		tc.ServerName = u.Hostname()
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return connectProblem(r, err, addr)
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	opts := &imapclient.Options{TLSConfig: tc}
	var c *imapclient.Client
	switch u.Scheme {
	case "imaps":
		tconn := tls.Client(conn, tc)
		if err := tconn.HandshakeContext(ctx); err != nil {
			return connectProblem(r, err, addr)
		}
		c = imapclient.New(tconn, opts)
	case "imap+starttls":
		if c, err = imapclient.NewStartTLS(conn, opts); err != nil {
			return connectProblem(r, err, addr)
		}
	default:
		c = imapclient.New(conn, opts)
	}
	defer c.Close()
	if err := c.WaitGreeting(); err != nil {
		return connectProblem(r, err, addr)
	}
	user := u.User.Username()
	password, _ := u.User.Password()
	if err := c.Login(user, password).Wait(); err != nil {
		var ie *imap.Error
		if !errors.As(err, &ie) {
			return connectProblem(r, err, addr)
		}
		r.problem, r.err = loginRefused, err
		r.hint = fmt.Sprintf("the server refused the login as %q: check the user and the password (-imap, -imap-password-file)", user)
		return r
	}
	mailbox := strings.Trim(u.Path, "/")
	if mailbox == "" {
		mailbox = "INBOX"
	}
	data, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		var ie *imap.Error
		if !errors.As(err, &ie) {
			return connectProblem(r, err, addr)
		}
		r.problem, r.err = noMailbox, err
		r.hint = fmt.Sprintf("the mailbox %q cannot be opened: check the path of -imap", mailbox)
		return r
	}
	c.Logout().Wait()
	r.hint = fmt.Sprintf("logged in as %s; %s holds %d mails", user, mailbox, data.NumMessages)
	return r
}

// checkSMTP sets up a session with the SMTP server as the daemon would,
// and sends no mail.
func checkSMTP(ctx context.Context, cfg *settings, tlsConfig *tls.Config) checkResult {
	u, target := shown(cfg.SMTP)
	r := checkResult{part: "smtp", target: target}
	s, err := mailer.NewSMTP(cfg.SMTP, tlsConfig)
	if err != nil {
		r.problem, r.err, r.hint = unreachable, err, "a bad URL"
		return r
	}
	s.LocalName = cfg.HostName()
	err = s.Check(ctx)
	s.Close()
	user := ""
	if u.User != nil {
		user = u.User.Username()
	}
	switch {
	case mailer.IsAuthFailure(err):
		r.problem, r.err = loginRefused, err
		r.hint = fmt.Sprintf("the server refused the login as %q: check the user and the password (-smtp, -smtp-password-file)", user)
		return r
	case err != nil:
		return connectProblem(r, err, s.Addr())
	}
	r.hint = "the server greeted EHLO " + s.LocalName
	if u.Scheme != "smtp" {
		r.hint += ", over TLS"
	}
	if user != "" {
		r.hint += ", and took the login as " + user
	}
	return r
}

// checkDatabase opens the database and writes to it. A SQLite database
// not there yet is not made (made by root, the daemon could not write
// it): its directory is checked to take files. A PostgreSQL database is
// connected to, its schema brought up to date, and written to.
func checkDatabase(ctx context.Context, cfg *settings, _ *tls.Config) checkResult {
	r := checkResult{part: "db", target: db.RedactURL(cfg.DB)}
	fail := func(err error, hint string) checkResult {
		r.problem, r.err, r.hint = notWritable, err, hint
		return r
	}
	if db.IsPostgres(cfg.DB) {
		store, err := db.Open(ctx, cfg.DB)
		if err != nil {
			r.problem, r.err = unreachable, err
			r.hint = "no session with PostgreSQL: check the host, the port and sslmode in the URL, and that the database exists"
			if db.IsLoginRefused(err) {
				r.problem, r.hint = loginRefused, "PostgreSQL refused the user or the password in the URL"
			}
			return r
		}
		defer store.Close()
		if err := store.Check(ctx, time.Now().UTC()); err != nil {
			return fail(err, "the database takes no write: check the user's privileges on it and its schema")
		}
		r.hint = "connected, and took a write"
		return r
	}
	if _, err := os.Stat(cfg.DB); errors.Is(err, fs.ErrNotExist) {
		dir := filepath.Dir(cfg.DB)
		f, err := os.CreateTemp(dir, ".congod-check-*")
		if err != nil {
			return fail(err, fmt.Sprintf("there is no database yet, and %s takes no file: check that the directory exists and the daemon may write there", dir))
		}
		f.Close()
		os.Remove(f.Name())
		r.hint = fmt.Sprintf("no database yet; %s takes files, so the first start makes it", dir)
		return r
	}
	store, err := db.Open(ctx, cfg.DB)
	if err != nil {
		return fail(err, "the database cannot be opened for writing: check the file, its owner and its mode")
	}
	defer store.Close()
	if err := store.Check(ctx, time.Now().UTC()); err != nil {
		return fail(err, "the database takes no write: check the disk, the file's owner and mode, or an immutable flag (lsattr)")
	}
	for _, side := range []string{"-sent", "-sending"} {
		f, err := os.OpenFile(cfg.DB+side, os.O_WRONLY|os.O_APPEND, 0)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fail(err, fmt.Sprintf("%s%s, beside the database, takes no write", cfg.DB, side))
		}
		f.Close()
	}
	r.hint = "opened, and took a write"
	return r
}
