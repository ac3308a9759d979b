// Command congod is the Congo play-by-email daemon: it reads commands from an
// IMAP mailbox, judges them with the rules, records every game in SQLite and
// answers by SMTP.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
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
	case err != nil:
		fmt.Fprintln(os.Stderr, "congod:", err)
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

// run parses the settings and runs the daemon until ctx is done.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := parseConfig(args, getenv, stderr)
	if err != nil {
		return err
	}
	if cfg.version {
		fmt.Fprintln(stdout, "congod", version())
		return nil
	}
	logger, err := newLogger(stderr, cfg.logLevel)
	if err != nil {
		return err
	}
	if cfg.demo {
		return runDemo(ctx, cfg, stdout, logger)
	}
	if err := cfg.validate(); err != nil {
		return err
	}
	return serve(ctx, cfg, logger)
}

func newLogger(w io.Writer, level string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("-log-level: %w", err)
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l})), nil
}
