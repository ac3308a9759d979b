package main

import (
	"context"
	"fmt"
	"io"

	"github.com/congobymail/congo/db"
)

// runBackup is "congod backup FILE": a consistent copy of the database of
// -db in FILE, taken while the daemon may be running: for a SQLite file a
// copy of it (VACUUM INTO), for PostgreSQL a dump by pg_dump, which must
// be installed (pg_restore reads it back).
func runBackup(ctx context.Context, cfg *settings, args []string, stdout, stderr io.Writer) error {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: congod [-config FILE | -db PATH] backup FILE")
		return errUsage
	}
	if cfg.DB == "" {
		return cfg.Bad("db", fmt.Errorf("must not be empty"))
	}
	if err := cfg.checkDB(); err != nil {
		return err
	}
	if err := db.Backup(ctx, cfg.DB, args[0]); err != nil {
		return err
	}
	if db.IsPostgres(cfg.DB) {
		fmt.Fprintf(stdout, "backed up %s to %s with pg_dump (restore it with pg_restore)\n", db.RedactURL(cfg.DB), args[0])
		return nil
	}
	fmt.Fprintf(stdout, "backed up %s to %s\n", cfg.DB, args[0])
	return nil
}
