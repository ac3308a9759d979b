package main

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/congobymail/congo/mailer"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/robot"
)

// config holds every setting of congod. Each is a flag, an environment
// variable (-imap is CONGO_IMAP, -trust-authserv is CONGO_TRUST_AUTHSERV)
// and a key of the configuration file named by -config (imap,
// trust-authserv). A flag on the command line wins over the environment,
// which wins over the file, which wins over the default.
type config struct {
	imapURL          string
	smtpURL          string
	imapPasswordFile string
	smtpPasswordFile string
	address          string
	dbPath           string
	poll             time.Duration
	processed        string
	quarantine       string
	maxTries         int
	maxSize          int64
	maxReplies       int
	caFile           string
	insecureTLS      bool
	trustAuthServ    string
	hostname         string
	logLevel         string
	logFormat        string
	httpAddr         string
	operator         string
	robot            string

	configFile  string
	checkConfig bool
	version     bool

	demo     bool
	demoIMAP string
	demoSMTP string

	// from tells where each setting came from, by flag name; a setting
	// missing from it has its default.
	from map[string]string
	// flags are the flags, bound to the fields above.
	flags *flag.FlagSet

	// httpReady, when set, is told the address the HTTP listener is bound
	// to (tests listen on port 0).
	httpReady func(addr string)
}

// notInFile are the flags that are commands or belong to the demo: they
// have no key in the configuration file.
var notInFile = map[string]bool{
	"config": true, "check-config": true, "version": true,
	"demo": true, "demo-imap": true, "demo-smtp": true,
}

// flagSet declares the flags of c.
func (c *config) flagSet(stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("congod", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.configFile, "config", "", "TOML configuration file; its keys are the flag names (imap = \"imaps://...\")")
	fs.BoolVar(&c.checkConfig, "check-config", false, "check the settings, print what is wrong or \"configuration ok\", and exit")
	fs.StringVar(&c.imapURL, "imap", "", "mailbox to read commands from: imap://user:pass@host:port/MAILBOX, imaps://... (TLS) or imap+starttls://...")
	fs.StringVar(&c.smtpURL, "smtp", "", "server to send mail through: smtp://[user:pass@]host:port, smtps://... (TLS) or smtp+starttls://...")
	fs.StringVar(&c.imapPasswordFile, "imap-password-file", "", "file holding the IMAP password (instead of a password in -imap); one trailing newline is dropped")
	fs.StringVar(&c.smtpPasswordFile, "smtp-password-file", "", "file holding the SMTP password (instead of a password in -smtp); one trailing newline is dropped")
	fs.StringVar(&c.address, "address", "", "the server's own address, e.g. congo@example.org (From, and the base of personal reply addresses)")
	fs.StringVar(&c.dbPath, "db", "congo.db", "SQLite database file")
	fs.DurationVar(&c.poll, "poll", time.Minute, "how often to look for mail when the IMAP server offers no IDLE")
	fs.StringVar(&c.processed, "processed", mailer.DefaultProcessed, "mailbox that handled mail is moved to (created when missing)")
	fs.StringVar(&c.quarantine, "quarantine", mailer.DefaultQuarantine, "mailbox that a mail is set aside in when handling it failed -max-tries times (created when missing)")
	fs.IntVar(&c.maxTries, "max-tries", mailer.DefaultMaxTries, "failed tries of one mail before it is set aside in the -quarantine mailbox")
	fs.Int64Var(&c.maxSize, "max-size", mailer.DefaultMaxSize, "most bytes read of one mail; of a larger one only its start (header and text, not attachments)")
	fs.IntVar(&c.maxReplies, "max-replies-per-hour", outbox.DefaultMaxPerHour, "most answers to one address in an hour (counting every mail queued to it); -1 for no cap")
	fs.StringVar(&c.caFile, "ca-file", "", "PEM file of extra certificate authorities to trust for IMAP and SMTP TLS (for a private CA)")
	fs.BoolVar(&c.insecureTLS, "insecure-skip-verify", false, "do not verify IMAP and SMTP TLS certificates (testing only)")
	fs.StringVar(&c.trustAuthServ, "trust-authserv", "", "accept commands whose Authentication-Results from this host say dmarc=pass (or dkim=pass for the From domain)")
	fs.StringVar(&c.hostname, "hostname", "", "host name used in Message-IDs (default: the domain of -address)")
	fs.StringVar(&c.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	fs.StringVar(&c.logFormat, "log-format", "text", "log format: text or json")
	fs.StringVar(&c.httpAddr, "http", "", "serve /healthz and /metrics on this address, e.g. 127.0.0.1:8025 (off when empty)")
	fs.StringVar(&c.robot, "robot", robot.DefaultHandle, "handle of the computer player anyone may challenge; \"off\" (or empty) for none")
	fs.StringVar(&c.operator, "operator", "", "the operator's address: mail from it (registered and proven like any player's) may ban, unban, adjourn, resume and adjudicate")
	fs.BoolVar(&c.version, "version", false, "print the version and exit")
	fs.BoolVar(&c.demo, "demo", false, "run a self-contained demo: in-process IMAP and SMTP servers on loopback with player accounts")
	fs.StringVar(&c.demoIMAP, "demo-imap", "127.0.0.1:1143", "with -demo: where the demo IMAP server listens")
	fs.StringVar(&c.demoSMTP, "demo-smtp", "127.0.0.1:2525", "with -demo: where the demo SMTP server listens")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `Usage:
  congod [flags]                 run the daemon
  congod [flags] backup FILE     copy the database, while the daemon runs, to FILE
  congod [flags] admin COMMAND   ban HANDLE, unban HANDLE, adjourn ID, resume ID,
                                 adjudicate ID white|black|draw

Every flag is also an environment variable (-imap is CONGO_IMAP,
-trust-authserv is CONGO_TRUST_AUTHSERV) and a key of the -config file
(imap = "...", trust-authserv = "..."). A flag given on the command line
wins over the environment, which wins over the file, which wins over the
default.

Flags:
`)
		fs.PrintDefaults()
	}
	return fs
}

// parseConfig reads the settings from args, the environment and the
// configuration file, and returns them with the arguments left after the
// flags (a subcommand and its arguments). Flags may come before and after
// the subcommand's name.
func parseConfig(args []string, getenv func(string) string, stderr io.Writer) (*config, []string, error) {
	c := &config{from: map[string]string{}}
	fs := c.flagSet(stderr)
	c.flags = fs
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, nil, err
		}
		return nil, nil, errUsage
	}
	rest := fs.Args()
	if len(rest) > 0 {
		// The subcommand's own arguments may hold flags too.
		if err := fs.Parse(rest[1:]); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, nil, err
			}
			return nil, nil, errUsage
		}
		rest = append([]string{rest[0]}, fs.Args()...)
	}
	fs.Visit(func(f *flag.Flag) { c.from[f.Name] = "-" + f.Name })
	if err := c.applyEnv(fs, getenv); err != nil {
		return nil, nil, err
	}
	if c.configFile != "" {
		if err := c.applyFile(fs, c.configFile); err != nil {
			return nil, nil, err
		}
	}
	return c, rest, nil
}

// applyEnv sets every flag not given on the command line from its
// environment twin, when that is set.
func (c *config) applyEnv(fs *flag.FlagSet, getenv func(string) string) error {
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if _, given := c.from[f.Name]; given || err != nil {
			return
		}
		name := envName(f.Name)
		v := getenv(name)
		if v == "" {
			return
		}
		if e := f.Value.Set(v); e != nil {
			err = &settingError{Key: f.Name, Where: name, Err: badValue(f.Name, v, e)}
			return
		}
		c.from[f.Name] = name
	})
	return err
}

// applyFile sets every flag not set by the command line or the
// environment from the TOML file at path, whose keys are the flag names.
// A key that is no setting, or a value of the wrong type, is an error
// that names the key.
func (c *config) applyFile(fs *flag.FlagSet, path string) error {
	var keys map[string]any
	md, err := toml.DecodeFile(path, &keys)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return &settingError{Key: pe.LastKey, Where: path, Err: errors.New(pe.Error())}
		}
		return &settingError{Key: "config", Where: "-config", Err: err}
	}
	// In the order of the file, so that the first bad key is reported.
	for _, k := range md.Keys() {
		key := k.String()
		if len(k) != 1 {
			continue // inside a table: reported with the table
		}
		where := fmt.Sprintf("%s: key %q", path, key)
		f := fs.Lookup(key)
		if f == nil || notInFile[key] {
			return &settingError{Key: key, Where: where, Err: errUnknownKey}
		}
		v, err := fileValue(f, keys[key])
		if err != nil {
			return &settingError{Key: key, Where: where, Err: err}
		}
		if _, set := c.from[key]; set {
			continue
		}
		if err := f.Value.Set(v); err != nil {
			return &settingError{Key: key, Where: where, Err: badValue(key, v, err)}
		}
		c.from[key] = where
	}
	return nil
}

// badValue is the error of a value that the flag name does not take. Only
// boolean and duration flags refuse values, so v holds no secret.
func badValue(name, v string, err error) error {
	return fmt.Errorf("%q is not a valid value for %s: %w", v, name, err)
}

// errUnknownKey is a key of the configuration file that is no setting.
var errUnknownKey = errors.New("no such setting")

// fileValue turns the value of a key of the configuration file into the
// text its flag takes: a boolean for a boolean flag, an integer (or a
// string of one) for a number, a string otherwise (durations are strings
// like "1m").
func fileValue(f *flag.Flag, v any) (string, error) {
	var want any
	if g, ok := f.Value.(flag.Getter); ok {
		want = g.Get()
	}
	switch want.(type) {
	case bool:
		bv, ok := v.(bool)
		if !ok {
			return "", fmt.Errorf("want true or false, not %s", tomlType(v))
		}
		return strconv.FormatBool(bv), nil
	case int, int64, uint, uint64:
		switch v := v.(type) {
		case int64:
			return strconv.FormatInt(v, 10), nil
		case string:
			return v, nil
		}
		return "", fmt.Errorf("want a whole number, not %s", tomlType(v))
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("want a quoted string, not %s", tomlType(v))
	}
	return s, nil
}

func tomlType(v any) string {
	switch v.(type) {
	case bool:
		return "a boolean"
	case int64:
		return "an integer"
	case float64:
		return "a number"
	case string:
		return "a string"
	case map[string]any:
		return "a table"
	case []any, []map[string]any:
		return "an array"
	}
	return fmt.Sprintf("a %T", v)
}

// envName is the environment twin of a flag: "trust-authserv" gives
// "CONGO_TRUST_AUTHSERV".
func envName(flagName string) string {
	return "CONGO_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

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
	if c.poll <= 0 {
		return c.bad("poll", errors.New("must be positive"))
	}
	// Zero stands for the default in these three.
	if c.maxTries < 0 {
		return c.bad("max-tries", errors.New("must be positive"))
	}
	if c.maxSize < 0 || c.maxSize > 0 && c.maxSize < 4096 {
		return c.bad("max-size", errors.New("must be at least 4096"))
	}
	if c.maxReplies < -1 {
		return c.bad("max-replies-per-hour", errors.New("must be positive, or -1 for no cap"))
	}
	if c.dbPath == "" {
		return c.bad("db", errors.New("must not be empty"))
	}
	if _, err := c.tlsConfig(); err != nil {
		return err
	}
	if c.httpAddr != "" {
		if _, _, err := net.SplitHostPort(c.httpAddr); err != nil {
			return c.bad("http", fmt.Errorf("want host:port like 127.0.0.1:8025: %w", err))
		}
	}
	if h := c.robotHandle(); h != "" && !parser.ValidHandle(h) {
		return c.bad("robot", fmt.Errorf("robot %q is not a handle (2 to 20 letters, digits, - or _), nor off", h))
	}
	return c.validateLog()
}

// robotHandle is the handle of the robot player, "" for none.
func (c *config) robotHandle() string {
	if strings.EqualFold(c.robot, "off") {
		return ""
	}
	return c.robot
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
	t := &tls.Config{InsecureSkipVerify: c.insecureTLS}
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

// version is the module version and VCS revision the binary was built
// from: "v1.2.0", "v0.0.0-20261129150000-abcdef123456" (go install of a
// commit, which names it) or "(devel) commit abcdef123456+dirty" (a build
// in a work tree).
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
	if rev == "" {
		rev = pseudoRevision(v)
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		v += " commit " + rev + modified
	}
	return v + " " + info.GoVersion
}

// pseudoRevision is the commit named by a pseudo-version
// (v0.0.0-20261129150000-abcdef123456), or "".
func pseudoRevision(v string) string {
	v, _, _ = strings.Cut(v, "+")
	i := strings.LastIndexByte(v, '-')
	if i < 0 || len(v)-i-1 != 12 {
		return ""
	}
	rev := v[i+1:]
	if strings.Trim(rev, "0123456789abcdef") != "" {
		return ""
	}
	return rev
}
