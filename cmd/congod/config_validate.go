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

// validate checks the settings a real (non-demo) run needs, and reads the
// password files into the URLs.
func (c *settings) validate() error {
	if c.IMAP == "" {
		return c.Required("imap", "imaps://congo:secret@mail.example.org/INBOX; try -demo to run without a mail account")
	}
	if c.SMTP == "" {
		return c.Required("smtp", "smtp+starttls://congo:secret@mail.example.org:587")
	}
	if c.Address == "" {
		return c.Required("address", "congo@example.org (the server's own address)")
	}
	if !strings.Contains(c.Address, "@") {
		return c.Bad("address", fmt.Errorf("%q is not a mail address like congo@example.org", c.Address))
	}
	if c.Operator != "" && !strings.Contains(c.Operator, "@") {
		return c.Bad("operator", fmt.Errorf("%q is not a mail address", c.Operator))
	}
	var err error
	if c.IMAP, err = c.withPassword("imap", c.IMAP, "imap-password-file", c.IMAPPasswordFile); err != nil {
		return err
	}
	if c.SMTP, err = c.withPassword("smtp", c.SMTP, "smtp-password-file", c.SMTPPasswordFile); err != nil {
		return err
	}
	if _, err := mailer.NewInbox(mailer.InboxConfig{URL: c.IMAP, Processed: c.Processed}); err != nil {
		return c.Bad("imap", redact(err))
	}
	if _, err := mailer.NewSMTP(c.SMTP, nil); err != nil {
		return c.Bad("smtp", redact(err))
	}
	if err := c.checkCleartext("imap", c.IMAP, "imaps:// or imap+starttls://"); err != nil {
		return err
	}
	if err := c.checkCleartext("smtp", c.SMTP, "smtp+starttls:// or smtps://"); err != nil {
		return err
	}
	if c.Poll <= 0 {
		return c.Bad("poll", errors.New("must be positive"))
	}
	// Zero stands for the default in these four.
	if c.SMTPConnections < 0 {
		return c.Bad("smtp-connections", errors.New("must be at least 1"))
	}
	if c.MaxTries < 0 {
		return c.Bad("max-tries", errors.New("must be positive"))
	}
	if c.MaxSize < 0 || c.MaxSize > 0 && c.MaxSize < 4096 {
		return c.Bad("max-size", errors.New("must be at least 4096"))
	}
	for _, cap := range []struct {
		key string
		v   int
	}{
		{"max-per-recipient", c.MaxPerRecipient}, {"max-per-sender", c.MaxPerSender}, {"max-per-hour", c.MaxPerHour},
		{"robot-games", c.RobotGames}, {"challenges-per-day", c.ChallengesPerDay}, {"analyses-per-day", c.AnalysesPerDay},
	} {
		if cap.v < -1 {
			return c.Bad(cap.key, errors.New("must be positive, or -1 for no cap"))
		}
	}
	if c.AnalysisNodes < 0 {
		return c.Bad("analysis-nodes", errors.New("must be positive"))
	}
	if c.Tables != "" {
		if fi, err := os.Stat(c.Tables); err != nil || !fi.IsDir() {
			return c.Bad("tables", fmt.Errorf("%q is no directory of endgame tables: build them with congo tables %s", c.Tables, c.Tables))
		}
	}
	if n := c.TLSServerName; n != "" && net.ParseIP(n) == nil && strings.ContainsAny(n, " \t/:@") {
		return c.Bad("tls-server-name", fmt.Errorf("%q is not a host name like mail.example.org: tls-server-name is the name in the certificate, without a scheme or a port", n))
	}
	if c.DB == "" {
		return c.Bad("db", errors.New("must not be empty"))
	}
	if err := c.checkDB(); err != nil {
		return err
	}
	if _, err := c.tlsConfig(); err != nil {
		return err
	}
	if c.HTTP != "" {
		if _, _, err := net.SplitHostPort(c.HTTP); err != nil {
			return c.Bad("http", fmt.Errorf("want host:port like 127.0.0.1:8025: %w", err))
		}
	}
	if err := c.validateWeb(); err != nil {
		return err
	}
	if h := c.RobotHandle(); h != "" && !parser.ValidHandle(h) {
		return c.Bad("robot", fmt.Errorf("robot %q is not a handle (2 to 20 letters, digits, - or _), nor off", h))
	}
	if _, ok := lang.Parse(c.Language); !ok && c.Language != "" {
		return c.Bad("language", fmt.Errorf("language %q is none of en (English), ja (Japanese) and cs (Czech)", c.Language))
	}
	return c.validateLog()
}

// errCleartextPassword is a URL that would send a password unencrypted
// over the network.
var errCleartextPassword = errors.New("password in clear")

// checkCleartext refuses rawURL, the setting key, when it names a plain
// scheme (imap://, smtp://) and holds a password, unless its host is
// loopback or -insecure allows it. secure is the advice.
func (c *settings) checkCleartext(key, rawURL, secure string) error {
	if c.Insecure {
		return nil
	}
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme != key || u.User == nil {
		return nil // a TLS scheme, no login, or an error reported before
	}
	if _, ok := u.User.Password(); !ok || isLoopback(u.Hostname()) {
		return nil
	}
	return c.Bad(key, fmt.Errorf("%w: %s:// would send it unencrypted to %s; use %s, or -insecure to allow it",
		errCleartextPassword, key, u.Hostname(), secure))
}

// checkDB checks a PostgreSQL URL of -db (M47), without connecting: it
// must read as one, and, with a password, to a host that is not loopback
// it must demand TLS (sslmode=require, verify-ca or verify-full) unless
// -insecure allows it. A path is a SQLite file, opened when congod runs.
func (c *settings) checkDB() error {
	if !db.IsPostgres(c.DB) {
		return nil
	}
	if err := db.CheckURL(c.DB); err != nil {
		return c.Bad("db", err)
	}
	u, err := url.Parse(c.DB)
	if err != nil || u.User == nil || c.Insecure {
		return nil
	}
	if _, ok := u.User.Password(); !ok || isLoopback(u.Hostname()) {
		return nil
	}
	switch u.Query().Get("sslmode") {
	case "require", "verify-ca", "verify-full":
		return nil
	}
	return c.Bad("db", fmt.Errorf("%w: without sslmode=require (or verify-ca, verify-full) the database's traffic crosses the network to %s unencrypted; add it, or -insecure to allow it",
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

// validateWeb checks -web, -web-connections and -public-url.
func (c *settings) validateWeb() error {
	if c.WebConnections < 0 {
		return c.Bad("web-connections", errors.New("must be positive"))
	}
	if !c.WebOn() {
		if c.PublicURL != "" {
			return c.Bad("public-url", errors.New("names the address of the web pages, which need -web ADDR"))
		}
		return nil
	}
	if _, _, err := net.SplitHostPort(c.Web); err != nil {
		return c.Bad("web", fmt.Errorf("want host:port like 127.0.0.1:8080: %w", err))
	}
	if c.PublicURL != "" {
		if _, err := web.ParsePublicURL(c.PublicURL); err != nil {
			return c.Bad("public-url", fmt.Errorf("not a valid public-url: %w", err))
		}
	}
	return nil
}

// validateLog checks the settings of the log, which every run needs.
func (c *settings) validateLog() error {
	var l slog.Level
	if err := l.UnmarshalText([]byte(c.LogLevel)); err != nil {
		return c.Bad("log-level", errors.New("want debug, info, warn or error"))
	}
	if c.LogFormat != "" && c.LogFormat != "text" && c.LogFormat != "json" {
		return c.Bad("log-format", fmt.Errorf("%q: want text or json", c.LogFormat))
	}
	return nil
}

// withPassword returns rawURL with the password read from file, if a file
// is named. A URL that holds a password already is an error then.
func (c *settings) withPassword(urlKey, rawURL, fileKey, file string) (string, error) {
	if file == "" {
		return rawURL, nil
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", c.Bad(urlKey, redact(err))
	}
	if u.User == nil || u.User.Username() == "" {
		return "", c.Bad(fileKey, fmt.Errorf("-%s names no user to give the password for", urlKey))
	}
	if _, ok := u.User.Password(); ok {
		return "", c.Bad(fileKey, fmt.Errorf("-%s holds a password already", urlKey))
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", c.Bad(fileKey, err)
	}
	pw := strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
	if pw == "" {
		return "", c.Bad(fileKey, fmt.Errorf("%s is empty", file))
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
func (c *settings) tlsConfig() (*tls.Config, error) {
	t := &tls.Config{InsecureSkipVerify: c.InsecureSkipVerify, ServerName: c.TLSServerName}
	if c.CAFile != "" {
		pem, err := os.ReadFile(c.CAFile)
		if err != nil {
			return nil, c.Bad("ca-file", err)
		}
		pool, err := x509.SystemCertPool()
		if err != nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, c.Bad("ca-file", fmt.Errorf("no PEM certificates found in %s", c.CAFile))
		}
		t.RootCAs = pool
	}
	return t, nil
}
