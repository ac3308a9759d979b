package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/congobymail/congo/analysis"
	"github.com/congobymail/congo/lang"
	"github.com/congobymail/congo/mailer"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/robot"
	"github.com/congobymail/congo/server"
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
	smtpConns        int
	maxSize          int64
	maxPerRecipient  int
	maxPerSender     int
	maxPerHour       int
	robotGames       int
	challengesPerDay int
	analysesPerDay   int
	analysisNodes    int64
	name             string
	caFile           string
	tlsServerName    string
	insecureTLS      bool
	insecure         bool
	trustAuthServ    string
	hostname         string
	logLevel         string
	logFormat        string
	httpAddr         string
	webAddr          string
	publicURL        string
	operator         string
	robot            string
	language         string

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
	// web is the listener of the web pages and their public URL, once
	// opened (openWeb): the demo opens it before it prints the banner.
	web *webListener
}

// flagSet declares the flags of c.
func (c *config) flagSet(stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("congod", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.configFile, "config", "", "TOML configuration file; its keys are the flag names (imap = \"imaps://...\")")
	fs.BoolVar(&c.checkConfig, "check-config", false, "check the settings, log in to IMAP and SMTP and write to the database (no mail sent), print what is wrong or \"configuration ok\", and exit")
	fs.StringVar(&c.imapURL, "imap", "", "mailbox to read commands from: imap://user:pass@host:port/MAILBOX, imaps://... (TLS) or imap+starttls://...")
	fs.StringVar(&c.smtpURL, "smtp", "", "server to send mail through: smtp://[user:pass@]host:port, smtps://... (TLS) or smtp+starttls://...")
	fs.StringVar(&c.imapPasswordFile, "imap-password-file", "", "file holding the IMAP password (instead of a password in -imap); one trailing newline is dropped")
	fs.IntVar(&c.smtpConns, "smtp-connections", outbox.DefaultConnections, "how many mails are sent at once, each over an SMTP session of its own; each recipient's mails go one after another, in order")
	fs.StringVar(&c.smtpPasswordFile, "smtp-password-file", "", "file holding the SMTP password (instead of a password in -smtp); one trailing newline is dropped")
	fs.StringVar(&c.address, "address", "", "the server's own address, e.g. congo@example.org (From, and the base of personal reply addresses)")
	fs.StringVar(&c.dbPath, "db", "congo.db", "the database: a SQLite file, or a URL postgres://user:password@host:port/dbname?sslmode=... (M47)")
	fs.DurationVar(&c.poll, "poll", time.Minute, "how often to look for mail when the IMAP server offers no IDLE")
	fs.StringVar(&c.processed, "processed", mailer.DefaultProcessed, "mailbox that handled mail is moved to (created when missing)")
	fs.StringVar(&c.quarantine, "quarantine", mailer.DefaultQuarantine, "mailbox that a mail is set aside in when handling it failed -max-tries times (created when missing)")
	fs.IntVar(&c.maxTries, "max-tries", mailer.DefaultMaxTries, "failed tries of one mail before it is set aside in the -quarantine mailbox")
	fs.Int64Var(&c.maxSize, "max-size", mailer.DefaultMaxSize, "most bytes read of one mail; of a larger one only its start (header and text, not attachments)")
	fs.IntVar(&c.maxPerRecipient, "max-per-recipient", outbox.DefaultMaxPerRecipient, "most mails to one address in an hour (lowercased, +tag stripped); -1 for no cap")
	fs.IntVar(&c.maxPerSender, "max-per-sender", outbox.DefaultMaxPerSender, "most mails in an hour caused by one player's (or address's) mails; -1 for no cap")
	fs.IntVar(&c.maxPerHour, "max-per-hour", outbox.DefaultMaxPerHour, "most mails the server sends in an hour; -1 for no cap")
	fs.IntVar(&c.robotGames, "robot-games", server.DefaultRobotGames, "most games a player may play against the robot at once; -1 for no cap")
	fs.IntVar(&c.challengesPerDay, "challenges-per-day", server.DefaultChallengesPerDay, "most challenges a player may make in a day; -1 for no cap")
	fs.IntVar(&c.analysesPerDay, "analyses-per-day", server.DefaultAnalysesPerDay, "most analyses (analyze congo <id>) one player may ask for in a day; -1 for no cap")
	fs.Int64Var(&c.analysisNodes, "analysis-nodes", analysis.DefaultNodes, "nodes the engine searches in each position of a game it analyses: the same count gives the same analysis on every machine")
	fs.StringVar(&c.name, "name", "Congo", "display name of the server's mails (From: Congo <congo@example.org>)")
	fs.StringVar(&c.caFile, "ca-file", "", "PEM file of extra certificate authorities to trust for IMAP and SMTP TLS (for a private CA)")
	fs.StringVar(&c.tlsServerName, "tls-server-name", "", "the name the IMAP and SMTP servers' certificates must hold, when -imap or -smtp gives the host as an address (default: the host of each URL)")
	fs.BoolVar(&c.insecureTLS, "insecure-skip-verify", false, "do not verify IMAP and SMTP TLS certificates (testing only)")
	fs.BoolVar(&c.insecure, "insecure", false, "allow imap:// and smtp:// URLs that send a password unencrypted to a host that is not loopback")
	fs.StringVar(&c.trustAuthServ, "trust-authserv", "", "accept commands whose Authentication-Results from this host say dmarc=pass with header.from the From's domain")
	fs.StringVar(&c.hostname, "hostname", "", "host name used in Message-IDs and in the SMTP EHLO (default: the domain of -address)")
	fs.StringVar(&c.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	fs.StringVar(&c.logFormat, "log-format", "text", "log format: text or json")
	fs.StringVar(&c.httpAddr, "http", "", "serve /healthz and /metrics on this address, e.g. 127.0.0.1:8025 (off when empty)")
	fs.StringVar(&c.webAddr, "web", "", "serve the read-only web pages of the games, players and tournaments on this address, e.g. 127.0.0.1:8080 (off when empty or \"off\"; 127.0.0.1:8080 with -demo)")
	fs.StringVar(&c.publicURL, "public-url", "", "the address of the -web pages as players reach them, the base of the links in mails, e.g. https://congo.example.org/ (default http://ADDR/ of -web)")
	fs.StringVar(&c.robot, "robot", robot.DefaultHandle, "handle of the computer player anyone may challenge; \"off\" (or empty) for none")
	fs.StringVar(&c.language, "language", "en", "language of the mails to a new player whose register mail names none of en, ja, cs in its Content-Language, and of answers to unknown senders: en (English), ja (Japanese) or cs (Czech)")
	fs.StringVar(&c.operator, "operator", "", "the operator's address: mail from it (registered and proven like any player's) may ban, unban, adjourn, resume and adjudicate")
	fs.BoolVar(&c.version, "version", false, "print the version and exit")
	fs.BoolVar(&c.demo, "demo", false, "run a self-contained demo: in-process IMAP and SMTP servers on loopback with player accounts")
	fs.StringVar(&c.demoIMAP, "demo-imap", "127.0.0.1:1143", "with -demo: where the demo IMAP server listens (a loopback address)")
	fs.StringVar(&c.demoSMTP, "demo-smtp", "127.0.0.1:2525", "with -demo: where the demo SMTP server listens (a loopback address)")
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

// lang is the default language of the mails (-language), as the server
// takes it, English when none is set (a config made in Go, not from
// flags); validate checks that it is one.
func (c *config) lang() lang.Code {
	l, _ := lang.Parse(c.language)
	return l.Or(lang.English)
}

// webOn reports whether the web pages are served.
func (c *config) webOn() bool {
	return c.webAddr != "" && !strings.EqualFold(c.webAddr, "off")
}

// robotHandle is the handle of the robot player, "" for none.
func (c *config) robotHandle() string {
	if strings.EqualFold(c.robot, "off") {
		return ""
	}
	return c.robot
}

// hostName is the host name of the Message-IDs and of the SMTP EHLO:
// connections is how many mails are sent at once (-smtp-connections; 0,
// as a config made in a test leaves it, for the default).
func (c *config) connections() int {
	if c.smtpConns == 0 {
		return outbox.DefaultConnections
	}
	return c.smtpConns
}

// -hostname, or the domain of -address.
func (c *config) hostName() string {
	if c.hostname != "" {
		return c.hostname
	}
	return c.address[strings.LastIndex(c.address, "@")+1:]
}
