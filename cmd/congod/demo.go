package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"strings"

	"github.com/congobymail/congo/mailer/loopback"
)

// demoDomain is the mail domain of the demo's accounts.
const demoDomain = "example.org"

// demoWeb is where the demo serves the web pages unless -web says (M43).
const demoWeb = "127.0.0.1:8080"

// demoUsers are the demo's accounts: the server's mailbox and four
// players, enough for a tournament (M62). The passwords only guard
// servers on loopback.
var demoUsers = []loopback.User{
	{Name: "congo", Password: "congo"},
	{Name: "alice", Password: "alice"},
	{Name: "bob", Password: "bob"},
	{Name: "carol", Password: "carol"},
	{Name: "dave", Password: "dave"},
}

// runDemo starts in-process IMAP and SMTP servers on loopback, prints how to
// reach them, and runs the daemon against them until ctx is done. The
// games are kept in the database (congo-demo.db unless -db says), the
// mailboxes in a directory beside it (congo-demo.mail), so that both
// survive a restart.
func runDemo(ctx context.Context, cfg *settings, stdout io.Writer, logger *slog.Logger) error {
	if err := cfg.validateDemo(); err != nil {
		return err
	}
	if cfg.DB == "congo.db" {
		cfg.DB = "congo-demo.db"
	}
	if cfg.WebOn() {
		// Before the mail servers, so that a port in use stops the demo
		// before it has begun.
		var err error
		if cfg.web, err = cfg.openWeb(logger); err != nil {
			return err
		}
		defer cfg.web.ln.Close()
	}
	mailDir := demoMailDir(cfg.DB)
	// The mail servers outlive ctx: they stop when serve has returned,
	// having filed the mail in hand and sent what it could, and then save
	// the mailboxes.
	sys, err := loopback.Start(context.WithoutCancel(ctx), loopback.Config{
		Domain:   demoDomain,
		Users:    demoUsers,
		IMAPAddr: cfg.DemoIMAP,
		SMTPAddr: cfg.DemoSMTP,
		Dir:      mailDir,
		Logger:   logger,
	})
	if err != nil {
		return fmt.Errorf("demo mail servers: %w", err)
	}
	defer sys.Close()

	cfg.IMAP = sys.IMAPURL("congo")
	cfg.SMTP = sys.SMTPURL()
	cfg.Address = "congo@" + demoDomain
	printDemo(stdout, sys, cfg, mailDir)
	return serve(ctx, cfg, logger)
}

// demoMailDir is the directory of the demo's mailboxes, beside its
// database dbPath: congo-demo.mail for congo-demo.db.
func demoMailDir(dbPath string) string {
	return strings.TrimSuffix(dbPath, filepath.Ext(dbPath)) + ".mail"
}

// errNotLoopback is a listener of the demo that other machines could
// reach.
var errNotLoopback = errors.New("not a loopback address")

// validateDemo checks that the demo's listeners are on loopback: its mail
// servers speak no TLS and its passwords are printed for all to see, and
// -http asks for none.
func (c *settings) validateDemo() error {
	if c.From("web") == "" {
		c.Web = demoWeb
	}
	if err := c.validateWeb(); err != nil {
		return err
	}
	web := c.Web
	if !c.WebOn() {
		web = ""
	}
	for _, l := range []struct{ key, addr string }{
		{"demo-imap", c.DemoIMAP},
		{"demo-smtp", c.DemoSMTP},
		{"http", c.HTTP},
		{"web", web},
	} {
		if (l.key == "http" || l.key == "web") && l.addr == "" {
			continue // off
		}
		host, _, err := net.SplitHostPort(l.addr)
		if err != nil {
			return c.Bad(l.key, fmt.Errorf("want host:port like 127.0.0.1:1143: %w", err))
		}
		if !isLoopback(host) {
			return c.Bad(l.key, fmt.Errorf("%q is %w: the demo has no TLS and known passwords, so it listens on this machine alone (127.0.0.1:PORT, [::1]:PORT or localhost:PORT)", l.addr, errNotLoopback))
		}
	}
	return nil
}

func printDemo(w io.Writer, sys *loopback.System, cfg *settings, mailDir string) {
	var b strings.Builder
	fmt.Fprintf(&b, "Congo by mail: demo\n\n")
	fmt.Fprintf(&b, "Mail servers on this machine (no TLS, loopback only):\n")
	fmt.Fprintf(&b, "  IMAP  %s\n", sys.IMAPAddr)
	fmt.Fprintf(&b, "  SMTP  %s  (any sender; AUTH optional)\n\n", sys.SMTPAddr)
	fmt.Fprintf(&b, "Accounts (user name / password / address):\n")
	for _, u := range demoUsers {
		fmt.Fprintf(&b, "  %-6s %-6s %s@%s\n", u.Name, u.Password, u.Name, demoDomain)
	}
	fmt.Fprintf(&b, "\nThe server reads %s@%s.\n", "congo", demoDomain)
	if cfg.web != nil {
		fmt.Fprintf(&b, "Web pages of the games: %s   (every board mail links its game's page)\n", cfg.web.publicURL)
	}
	fmt.Fprintf(&b, "Games: %s   Mailboxes: %s%c\n", cfg.DB, mailDir, filepath.Separator)
	fmt.Fprintf(&b, "Both survive a restart. To start afresh, stop the demo and delete %s* and %s.\n\n", cfg.DB, mailDir)
	fmt.Fprintf(&b, "Point a mail client at these servers as alice and as bob, then:\n")
	fmt.Fprintf(&b, "  1. alice and bob each mail congo@%s:   register alice   /   register bob\n", demoDomain)
	fmt.Fprintf(&b, "  2. alice replies to her welcome mail:      challenge congo bob\n")
	fmt.Fprintf(&b, "  3. bob replies to the challenge:           accept congo 1   (the number in its Subject)\n")
	fmt.Fprintf(&b, "  4. alice replies to the board:             b2-b3\n")
	if h := cfg.RobotHandle(); h != "" {
		fmt.Fprintf(&b, "No opponent at hand? Reply to the welcome mail: challenge congo %s level=2\n", h)
		if cfg.Tables != "" {
			fmt.Fprintf(&b, "Its levels 4 and 5, and the analyses, play endings of four men by the endgame tables in %s.\n", cfg.Tables)
		}
	}
	fmt.Fprintf(&b, "A tournament? carol and dave are there too: tournament new roundrobin Club, then\n")
	fmt.Fprintf(&b, "join tournament 1 from the others")
	if h := cfg.RobotHandle(); h != "" {
		fmt.Fprintf(&b, ", tournament 1 add %s", h)
	}
	fmt.Fprintf(&b, ", and tournament start 1.\n")
	fmt.Fprintf(&b, "Without a mail client, curl can send and read the mail: see README.md.\n")
	fmt.Fprintf(&b, "Mail \"help\" for the manual. Stop with Ctrl-C.\n\n")
	io.WriteString(w, b.String())
}
