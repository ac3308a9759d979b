package main

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"net/url"
	"os"
	"strings"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/lang"
	"github.com/congobymail/congo/mailer"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/web"
)

// settingError is a bad setting. Key is its name, which is the name of
// its flag and its key in the configuration file; Where says where the
// bad value came from.
type settingError struct {
	Key   string
	Where string
	Err   error
}

func (e *settingError) Error() string { return e.Where + ": " + e.Err.Error() }
func (e *settingError) Unwrap() error { return e.Err }

// bad returns a settingError for the setting key, saying where its value
// came from.
func (c *config) bad(key string, err error) error {
	where, ok := c.from[key]
	if !ok {
		where = "-" + key
	}
	return &settingError{Key: key, Where: where, Err: err}
}

// required is the error for a setting that is missing.
func (c *config) required(key, example string) error {
	return c.bad(key, fmt.Errorf("required (flag -%s, environment %s or key %s in the -config file), e.g. %s", key, envName(key), key, example))
}

// validate checks the settings a real (non-demo) run needs, and reads the
// password files into the URLs.
func (c *config) validate() error {
	if c.imapURL == "" {
		return c.required("imap", "imaps://congo:secret@mail.example.org/INBOX; try -demo to run without a mail account")
	}
	if c.smtpURL == "" {
		return c.required("smtp", "smtp+starttls://congo:secret@mail.example.org:587")
	}
	if c.address == "" {
		return c.required("address", "congo@example.org (the server's own address)")
	}
	if !strings.Contains(c.address, "@") {
		return c.bad("address", fmt.Errorf("%q is not a mail address like congo@example.org", c.address))
	}
	if c.operator != "" && !strings.Contains(c.operator, "@") {
		return c.bad("operator", fmt.Errorf("%q is not a mail address", c.operator))
	}
	var err error
	if c.imapURL, err = c.withPassword("imap", c.imapURL, "imap-password-file", c.imapPasswordFile); err != nil {
		return err
	}
	if c.smtpURL, err = c.withPassword("smtp", c.smtpURL, "smtp-password-file", c.smtpPasswordFile); err != nil {
		return err
	}
	if _, err := mailer.NewInbox(mailer.InboxConfig{URL: c.imapURL, Processed: c.processed}); err != nil {
		return c.bad("imap", redact(err))
	}
	if _, err := mailer.NewSMTP(c.smtpURL, nil); err != nil {
		return c.bad("smtp", redact(err))
	}
	if err := c.checkCleartext("imap", c.imapURL, "imaps:// or imap+starttls://"); err != nil {
		return err
	}
	if err := c.checkCleartext("smtp", c.smtpURL, "smtp+starttls:// or smtps://"); err != nil {
		return err
	}
	if c.poll <= 0 {
		return c.bad("poll", errors.New("must be positive"))
	}
	// Zero stands for the default in these four.
	if c.smtpConns < 0 {
		return c.bad("smtp-connections", errors.New("must be at least 1"))
	}
	if c.maxTries < 0 {
		return c.bad("max-tries", errors.New("must be positive"))
	}
	if c.maxSize < 0 || c.maxSize > 0 && c.maxSize < 4096 {
		return c.bad("max-size", errors.New("must be at least 4096"))
	}
	for _, cap := range []struct {
		key string
		v   int
	}{
		{"max-per-recipient", c.maxPerRecipient}, {"max-per-sender", c.maxPerSender}, {"max-per-hour", c.maxPerHour},
		{"robot-games", c.robotGames}, {"challenges-per-day", c.challengesPerDay}, {"analyses-per-day", c.analysesPerDay},
	} {
		if cap.v < -1 {
			return c.bad(cap.key, errors.New("must be positive, or -1 for no cap"))
		}
	}
	if c.analysisNodes < 0 {
		return c.bad("analysis-nodes", errors.New("must be positive"))
	}
	if n := c.tlsServerName; n != "" && net.ParseIP(n) == nil && strings.ContainsAny(n, " \t/:@") {
		return c.bad("tls-server-name", fmt.Errorf("%q is not a host name like mail.example.org: tls-server-name is the name in the certificate, without a scheme or a port", n))
	}
	if c.dbPath == "" {
		return c.bad("db", errors.New("must not be empty"))
	}
	if err := c.checkDB(); err != nil {
		return err
	}
	if _, err := c.tlsConfig(); err != nil {
		return err
	}
	if c.httpAddr != "" {
		if _, _, err := net.SplitHostPort(c.httpAddr); err != nil {
			return c.bad("http", fmt.Errorf("want host:port like 127.0.0.1:8025: %w", err))
		}
	}
	if err := c.validateWeb(); err != nil {
		return err
	}
	if h := c.robotHandle(); h != "" && !parser.ValidHandle(h) {
		return c.bad("robot", fmt.Errorf("robot %q is not a handle (2 to 20 letters, digits, - or _), nor off", h))
	}
	if _, ok := lang.Parse(c.language); !ok && c.language != "" {
		return c.bad("language", fmt.Errorf("language %q is none of en (English), ja (Japanese) and cs (Czech)", c.language))
	}
	return c.validateLog()
}

// errCleartextPassword is a URL that would send a password unencrypted
// over the network.
var errCleartextPassword = errors.New("password in clear")

// checkCleartext refuses rawURL, the setting key, when it names a plain
// scheme (imap://, smtp://) and holds a password, unless its host is
// loopback or -insecure allows it. secure is the advice.
func (c *config) checkCleartext(key, rawURL, secure string) error {
	if c.insecure {
		return nil
	}
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme != key || u.User == nil {
		return nil // a TLS scheme, no login, or an error reported before
	}
	if _, ok := u.User.Password(); !ok || isLoopback(u.Hostname()) {
		return nil
	}
	return c.bad(key, fmt.Errorf("%w: %s:// would send it unencrypted to %s; use %s, or -insecure to allow it",
		errCleartextPassword, key, u.Hostname(), secure))
}

// checkDB checks a PostgreSQL URL of -db (M47), without connecting: it
// must read as one, and, with a password, to a host that is not loopback
// it must demand TLS (sslmode=require, verify-ca or verify-full) unless
// -insecure allows it. A path is a SQLite file, opened when congod runs.
func (c *config) checkDB() error {
	if !db.IsPostgres(c.dbPath) {
		return nil
	}
	if err := db.CheckURL(c.dbPath); err != nil {
		return c.bad("db", err)
	}
	u, err := url.Parse(c.dbPath)
	if err != nil || u.User == nil || c.insecure {
		return nil
	}
	if _, ok := u.User.Password(); !ok || isLoopback(u.Hostname()) {
		return nil
	}
	switch u.Query().Get("sslmode") {
	case "require", "verify-ca", "verify-full":
		return nil
	}
	return c.bad("db", fmt.Errorf("%w: without sslmode=require (or verify-ca, verify-full) the database's traffic crosses the network to %s unencrypted; add it, or -insecure to allow it",
		errCleartextPassword, u.Hostname()))
}

// isLoopback reports whether host, a host name or an IP address, is this
// machine: localhost, 127.0.0.0/8 or ::1.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// validateWeb checks -web and -public-url.
func (c *config) validateWeb() error {
	if !c.webOn() {
		if c.publicURL != "" {
			return c.bad("public-url", errors.New("names the address of the web pages, which need -web ADDR"))
		}
		return nil
	}
	if _, _, err := net.SplitHostPort(c.webAddr); err != nil {
		return c.bad("web", fmt.Errorf("want host:port like 127.0.0.1:8080: %w", err))
	}
	if c.publicURL != "" {
		if _, err := web.ParsePublicURL(c.publicURL); err != nil {
			return c.bad("public-url", fmt.Errorf("not a valid public-url: %w", err))
		}
	}
	return nil
}

// validateLog checks the settings of the log, which every run needs.
func (c *config) validateLog() error {
	var l slog.Level
	if err := l.UnmarshalText([]byte(c.logLevel)); err != nil {
		return c.bad("log-level", errors.New("want debug, info, warn or error"))
	}
	if c.logFormat != "" && c.logFormat != "text" && c.logFormat != "json" {
		return c.bad("log-format", fmt.Errorf("%q: want text or json", c.logFormat))
	}
	return nil
}

// withPassword returns rawURL with the password read from file, if a file
// is named. A URL that holds a password already is an error then.
func (c *config) withPassword(urlKey, rawURL, fileKey, file string) (string, error) {
	if file == "" {
		return rawURL, nil
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", c.bad(urlKey, redact(err))
	}
	if u.User == nil || u.User.Username() == "" {
		return "", c.bad(fileKey, fmt.Errorf("-%s names no user to give the password for", urlKey))
	}
	if _, ok := u.User.Password(); ok {
		return "", c.bad(fileKey, fmt.Errorf("-%s holds a password already", urlKey))
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", c.bad(fileKey, err)
	}
	pw := strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
	if pw == "" {
		return "", c.bad(fileKey, fmt.Errorf("%s is empty", file))
	}
	u.User = url.UserPassword(u.User.Username(), pw)
	return u.String(), nil
}

// redact drops a URL (which may hold a password) from a url.Parse error.
func redact(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s: %w", ue.Op, ue.Err)
	}
	return err
}

// tlsConfig is the TLS configuration for IMAP and SMTP clients.
func (c *config) tlsConfig() (*tls.Config, error) {
	t := &tls.Config{InsecureSkipVerify: c.insecureTLS, ServerName: c.tlsServerName}
	if c.caFile != "" {
		pem, err := os.ReadFile(c.caFile)
		if err != nil {
			return nil, c.bad("ca-file", err)
		}
		pool, err := x509.SystemCertPool()
		if err != nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, c.bad("ca-file", fmt.Errorf("no PEM certificates found in %s", c.caFile))
		}
		t.RootCAs = pool
	}
	return t, nil
}
