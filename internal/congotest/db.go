package congotest

import (
	"context"
	"path/filepath"
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
// a PostgreSQL URL), closed when the test ends.
func OpenDB(t testing.TB, dsn string) *db.DB {
	t.Helper()
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
			p, err := tx.CreatePlayer(ctx, h, Address(h), Secret(h), T0)
			if err != nil {
				return err
			}
			if err := tx.ConfirmPlayer(ctx, p.ID); err != nil {
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
