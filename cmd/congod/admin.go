package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/congobymail/congo/operator"
	"io"
	"log/slog"
	"strings"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/server"
)

// runAdmin is "congod admin COMMAND": an operator's command carried out
// on the database of -db, while the daemon may be running. The players
// concerned are mailed by the daemon's outbox within a minute.
func runAdmin(ctx context.Context, cfg *settings, args []string, stdout, stderr io.Writer, logger *slog.Logger) error {
	a, e, ok := parser.ParseAdmin(strings.Join(args, " "))
	if !ok || e.Problem != parser.NoProblem {
		fmt.Fprintln(stderr, "usage: congod [-config FILE] admin ban HANDLE | unban HANDLE | adjourn ID | resume ID | adjudicate ID white|black|draw")
		return errUsage
	}
	if cfg.Address == "" {
		return cfg.Required("address", "congo@example.org (the server's own address, the From of the players' notices)")
	}
	store, err := db.Open(ctx, cfg.DB)
	if err != nil {
		return err
	}
	defer store.Close()
	srv, err := newServer(cfg, server.Config{DB: store, Logger: logger})
	if err != nil {
		return err
	}
	summary, err := srv.Admin(ctx, a, "command line")
	var ae *operator.Error
	if errors.As(err, &ae) {
		return fmt.Errorf("admin %s", ae)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s; the players concerned are mailed\n", summary)
	return nil
}
