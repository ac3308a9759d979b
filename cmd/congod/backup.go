package main

import (
	"context"
	"fmt"
	"io"

	"github.com/congobymail/congo/db"
)

// runBackup is "congod backup FILE": a consistent copy of the database of
// -db in FILE, taken while the daemon may be running.
func runBackup(ctx context.Context, cfg *config, args []string, stdout, stderr io.Writer) error {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: congod [-config FILE | -db PATH] backup FILE")
		return errUsage
	}
	if cfg.dbPath == "" {
		return cfg.bad("db", fmt.Errorf("must not be empty"))
	}
	if err := db.Backup(ctx, cfg.dbPath, args[0]); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "backed up %s to %s\n", cfg.dbPath, args[0])
	return nil
}
