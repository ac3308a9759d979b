// Command congod is the Congo play-by-email daemon: it reads commands from an
// IMAP mailbox, judges them with the rules, records every game in SQLite and
// answers by SMTP.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/congobymail/congo/config"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case errors.Is(err, errUsage):
		os.Exit(2)
	case err != nil && ctx.Err() != nil:
		// Asked to stop while starting up: whatever was cut short, a stop
		// was wanted, and nothing is lost by stopping here.
		fmt.Fprintln(os.Stderr, "congod: stopped while starting:", err)
	case err != nil:
		fmt.Fprintln(os.Stderr, "congod:", err)
		os.Exit(1)
	}
}

var errUsage = config.ErrUsage

// run parses the settings and runs the daemon, or the subcommand named,
// until ctx is done.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, rest, err := parseConfig(args, getenv, stderr)
	if err != nil {
		return err
	}
	if cfg.Version {
		fmt.Fprintln(stdout, "congod", version())
		return nil
	}
	if err := cfg.validateLog(); err != nil {
		return err
	}
	logger := newLogger(stderr, cfg.LogLevel, cfg.LogFormat)
	if len(rest) > 0 {
		switch rest[0] {
		case "backup":
			return runBackup(ctx, cfg, rest[1:], stdout, stderr)
		case "admin":
			return runAdmin(ctx, cfg, rest[1:], stdout, stderr, logger)
		case "mail":
			return runMail(ctx, cfg, rest[1:], stdout, stderr)
		}
		fmt.Fprintf(stderr, "congod: unknown command %q (want backup, admin or mail)\n", rest[0])
		return errUsage
	}
	if cfg.Demo && !cfg.CheckConfig {
		return runDemo(ctx, cfg, stdout, logger)
	}
	if err := cfg.validate(); err != nil {
		return err
	}
	if cfg.CheckConfig {
		if err := checkConnections(ctx, cfg, stdout); err != nil {
			return err
		}
		fmt.Fprintln(stdout, "configuration ok")
		return nil
	}
	return serve(ctx, cfg, logger)
}

// newLogger returns a logger that writes to w at the given level, as text
// or, with format "json", as one JSON object a line. level and format must
// have passed validateLog.
func newLogger(w io.Writer, level, format string) *slog.Logger {
	var l slog.Level
	_ = l.UnmarshalText([]byte(level))
	opts := &slog.HandlerOptions{Level: l}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
