package db

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

//go:embed migrations/*.sql migrations/postgres/*.sql
var migrationFiles embed.FS

// migration is one schema step: the file that brings the schema to version.
type migration struct {
	version int
	name    string
}

// migrations lists the embedded migration files of a backend (in dir:
// "migrations" for SQLite, "migrations/postgres"), which are named
// NNN_what.sql and numbered from 1 up, each number once. A number may be
// missing: work on several branches reserves each its number, and one
// may come before another's; the schema version is the number of the
// last migration applied, so merge a missing one before a database
// has gone past it.
func migrations(dir string) ([]migration, error) {
	names, err := fs.Glob(migrationFiles, dir+"/*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var ms []migration
	for _, name := range names {
		prefix, _, _ := strings.Cut(path.Base(name), "_")
		v, err := strconv.Atoi(prefix)
		last := 0
		if len(ms) > 0 {
			last = ms[len(ms)-1].version
		}
		if err != nil || len(prefix) != 3 || v <= last {
			return nil, fmt.Errorf("migration %s is out of sequence, want a number NNN after %03d", name, last)
		}
		ms = append(ms, migration{version: v, name: name})
	}
	return ms, nil
}

// lastVersion is the schema version the migrations ms bring a database to.
func lastVersion(ms []migration) int {
	if len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].version
}

// migrate applies the migrations newer than the database's schema
// version, each in its own transaction together with the new version.
func (d *DB) migrate(ctx context.Context) error {
	dir := "migrations"
	if d.pg {
		dir = "migrations/postgres"
	}
	ms, err := migrations(dir)
	if err != nil {
		return err
	}
	for {
		current, err := d.SchemaVersion(ctx)
		if err != nil {
			return err
		}
		if current > lastVersion(ms) {
			return fmt.Errorf("schema version %d is newer than this program knows (%d)", current, lastVersion(ms))
		}
		if current == lastVersion(ms) {
			return nil
		}
		i := 0
		for ms[i].version <= current {
			i++
		}
		m := ms[i]
		script, err := migrationFiles.ReadFile(m.name)
		if err != nil {
			return err
		}
		err = d.Tx(ctx, func(tx *Tx) error {
			// Another process may have migrated meanwhile: the version is
			// read again under the lock.
			if v, err := tx.schemaVersion(ctx); err != nil || v != current {
				return err
			}
			if _, err := tx.tx.ExecContext(ctx, string(script)); err != nil {
				return err
			}
			return tx.setSchemaVersion(ctx, m.version)
		})
		if err != nil {
			return fmt.Errorf("migrate to schema version %d: %w", m.version, err)
		}
	}
}

// SchemaVersion is the schema version of the database: the number of
// the last migration applied.
func (d *DB) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	err := d.Read(ctx, func(tx *Tx) (err error) {
		v, err = tx.schemaVersion(ctx)
		return err
	})
	return v, err
}
