package congotest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/congobymail/congo/db"
)

// NewDB opens a fresh database, a SQLite file in t.TempDir(), closed when
// the test ends. The players with the handles are registered in it at T0
// and confirmed (M28), each at Address(handle) with Secret(handle).
func NewDB(t testing.TB, handles ...string) *db.DB {
	t.Helper()
	d := OpenDB(t, filepath.Join(t.TempDir(), "congo.db"))
	AddPlayers(t, d, handles...)
	return d
}

// OpenDB opens the database at dsn (a SQLite file, made when missing, or
// a PostgreSQL URL), closed when the test ends. A SQLite file it makes is
// a copy of one migrated once for the whole test binary: the schema of
// db.Open, without each test's paying for the migrations.
func OpenDB(t testing.TB, dsn string) *db.DB {
	t.Helper()
	if !db.IsPostgres(dsn) {
		if err := copyMigrated(dsn); err != nil {
			t.Fatalf("congotest: a fresh database at %s: %v", dsn, err)
		}
	}
	d, err := db.Open(context.Background(), dsn)
	if err != nil {
		t.Fatalf("db.Open: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// AddPlayers registers the players with the handles at T0, each at
// Address(handle) with Secret(handle), and confirms them.
func AddPlayers(t testing.TB, d *db.DB, handles ...string) {
	t.Helper()
	if len(handles) == 0 {
		return
	}
	InTx(t, d, func(ctx context.Context, tx *db.Tx) error {
		for _, h := range handles {
			p, err := tx.AddPlayer(ctx, h, Address(h), Secret(h), T0)
			if err != nil {
				return err
			}
			if err := tx.SetConfirmed(ctx, p.ID); err != nil {
				return err
			}
		}
		return nil
	})
}

// Player returns the player with the handle.
func Player(t testing.TB, d *db.DB, handle string) db.Player {
	t.Helper()
	var p db.Player
	InTx(t, d, func(ctx context.Context, tx *db.Tx) error {
		var err error
		p, err = tx.PlayerByHandle(ctx, handle)
		return err
	})
	return p
}

// InTx runs fn in a transaction of d, and fails the test when it fails.
func InTx(t testing.TB, d *db.DB, fn func(ctx context.Context, tx *db.Tx) error) {
	t.Helper()
	ctx := context.Background()
	if err := d.Tx(ctx, func(tx *db.Tx) error { return fn(ctx, tx) }); err != nil {
		t.Fatalf("Tx: %v", err)
	}
}

// migrated is a SQLite database as db.Open leaves a new one, migrated:
// its file's bytes, made at the first need.
var migrated struct {
	once sync.Once
	raw  []byte
	err  error
}

// copyMigrated writes the migrated database to path, unless a file is
// there already, readable and writable by its owner alone as db.Open
// makes it.
func copyMigrated(path string) error {
	migrated.once.Do(func() {
		migrated.raw, migrated.err = migrate()
	})
	if migrated.err != nil {
		return migrated.err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if _, err := f.Write(migrated.raw); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// migrate makes a new database with db.Open in a directory of its own,
// and returns its file once closed, its log written into it.
func migrate() ([]byte, error) {
	dir, err := os.MkdirTemp("", "congotest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "congo.db")
	d, err := db.Open(context.Background(), path)
	if err != nil {
		return nil, err
	}
	if err := d.Close(); err != nil {
		return nil, err
	}
	if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > 0 {
		return nil, fmt.Errorf("the migrated database's log %s was not written into it", path+"-wal")
	}
	return os.ReadFile(path)
}
