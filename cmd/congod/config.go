package main

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"runtime/debug"
	"strings"
	"time"
)

// config holds every setting of congod. Each is a flag with an environment
// variable twin: -imap is CONGO_IMAP, -trust-authserv is CONGO_TRUST_AUTHSERV.
// A flag on the command line wins over the environment, which wins over the
// default.
type config struct {
	imapURL       string
	smtpURL       string
	address       string
	dbPath        string
	poll          time.Duration
	processed     string
	caFile        string
	insecureTLS   bool
	trustAuthServ string
	hostname      string
	logLevel      string
	version       bool

	demo     bool
	demoIMAP string
	demoSMTP string
}

func parseConfig(args []string, getenv func(string) string, stderr io.Writer) (*config, error) {
	var c config
	fs := flag.NewFlagSet("congod", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.imapURL, "imap", "", "mailbox to read commands from: imap://user:pass@host:port/MAILBOX, imaps://... (TLS) or imap+starttls://...")
	fs.StringVar(&c.smtpURL, "smtp", "", "server to send mail through: smtp://[user:pass@]host:port, smtps://... (TLS) or smtp+starttls://...")
	fs.StringVar(&c.address, "address", "", "the server's own address, e.g. congo@example.org (From, and the base of personal reply addresses)")
	fs.StringVar(&c.dbPath, "db", "congo.db", "SQLite database file")
	fs.DurationVar(&c.poll, "poll", time.Minute, "how often to look for mail when the IMAP server offers no IDLE")
	fs.StringVar(&c.processed, "processed", "Processed", "mailbox that handled mail is moved to (created when missing)")
	fs.StringVar(&c.caFile, "ca-file", "", "PEM file of extra certificate authorities to trust for IMAP and SMTP TLS (for a private CA)")
	fs.BoolVar(&c.insecureTLS, "insecure-skip-verify", false, "do not verify IMAP and SMTP TLS certificates (testing only)")
	fs.StringVar(&c.trustAuthServ, "trust-authserv", "", "accept commands whose Authentication-Results from this host say dmarc=pass (or dkim=pass for the From domain)")
	fs.StringVar(&c.hostname, "hostname", "", "host name used in Message-IDs (default: the domain of -address)")
	fs.StringVar(&c.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	fs.BoolVar(&c.version, "version", false, "print the version and exit")
	fs.BoolVar(&c.demo, "demo", false, "run a self-contained demo: in-process IMAP and SMTP servers on loopback with player accounts")
	fs.StringVar(&c.demoIMAP, "demo-imap", "127.0.0.1:1143", "with -demo: where the demo IMAP server listens")
	fs.StringVar(&c.demoSMTP, "demo-smtp", "127.0.0.1:2525", "with -demo: where the demo SMTP server listens")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: congod [flags]\n\nEvery flag can also be set by an environment variable: -imap is CONGO_IMAP,\n-trust-authserv is CONGO_TRUST_AUTHSERV. A flag given on the command line wins.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "congod: unexpected argument %q\n", fs.Arg(0))
		return nil, errUsage
	}
	if err := applyEnv(fs, getenv); err != nil {
		fmt.Fprintln(stderr, "congod:", err)
		return nil, errUsage
	}
	return &c, nil
}

// applyEnv sets every flag not given on the command line from its
// environment twin, when that is set.
func applyEnv(fs *flag.FlagSet, getenv func(string) string) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if given[f.Name] || err != nil {
			return
		}
		name := envName(f.Name)
		if v := getenv(name); v != "" {
			if e := f.Value.Set(v); e != nil {
				err = fmt.Errorf("%s=%q: %w", name, v, e)
			}
		}
	})
	return err
}

// envName is the environment twin of a flag: "trust-authserv" gives
// "CONGO_TRUST_AUTHSERV".
func envName(flagName string) string {
	return "CONGO_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// validate checks the settings a real (non-demo) run needs.
func (c *config) validate() error {
	if c.imapURL == "" {
		return errors.New("-imap (or CONGO_IMAP) is required, e.g. -imap imaps://congo:secret@mail.example.org/INBOX; try -demo to run without a mail account")
	}
	if c.smtpURL == "" {
		return errors.New("-smtp (or CONGO_SMTP) is required, e.g. -smtp smtp+starttls://congo:secret@mail.example.org:587")
	}
	if c.address == "" || !strings.Contains(c.address, "@") {
		return errors.New("-address (or CONGO_ADDRESS) is required: the server's own address, e.g. congo@example.org")
	}
	for _, u := range []struct{ name, raw string }{{"-imap", c.imapURL}, {"-smtp", c.smtpURL}} {
		if _, err := url.Parse(u.raw); err != nil {
			return fmt.Errorf("%s: %w", u.name, redact(err))
		}
	}
	if c.poll <= 0 {
		return errors.New("-poll must be positive")
	}
	return nil
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
	t := &tls.Config{InsecureSkipVerify: c.insecureTLS}
	if c.caFile != "" {
		pem, err := os.ReadFile(c.caFile)
		if err != nil {
			return nil, fmt.Errorf("-ca-file: %w", err)
		}
		pool, err := x509.SystemCertPool()
		if err != nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("-ca-file %s: no PEM certificates found", c.caFile)
		}
		t.RootCAs = pool
	}
	return t, nil
}

// version is the module version and VCS revision the binary was built from.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := info.Main.Version
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "+dirty"
			}
		}
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		v += " " + rev + modified
	}
	return v
}
