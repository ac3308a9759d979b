package db

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestBackupWhileWriting takes backups while another connection keeps
// committing: each copy opens, passes SQLite's integrity check, has the
// schema version, and holds a prefix of the writes, never half of one.
func TestBackupWhileWriting(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "congo.db")
	d, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()

	// Each transaction creates a player and queues a mail: a copy that
	// holds one without the other is not consistent.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			err := d.Tx(ctx, func(tx *Tx) error {
				h := fmt.Sprintf("p%d", i)
				if _, err := tx.AddPlayer(ctx, h, h+"@example.org", "s", t0); err != nil {
					return err
				}
				_, err := tx.AddMail(ctx, Mail{Created: t0, From: "congo@x", To: h + "@example.org", MessageID: h, Raw: []byte("x")})
				return err
			})
			if err != nil {
				t.Errorf("write %d: %v", i, err)
				return
			}
		}
	}()

	for i := range 5 {
		time.Sleep(20 * time.Millisecond)
		dest := filepath.Join(dir, fmt.Sprintf("backup%d.db", i))
		if i%2 == 0 {
			err = Backup(ctx, path, dest) // as congod backup does, from another connection
		} else {
			err = d.Backup(ctx, dest)
		}
		if err != nil {
			t.Fatalf("Backup(%q): %v", dest, err)
		}
		b, err := Open(ctx, dest)
		if err != nil {
			t.Fatalf("Open(backup %d): %v", i, err)
		}
		var players, mails int
		if err := b.sql.QueryRowContext(ctx, "SELECT count(*) FROM players").Scan(&players); err != nil {
			t.Fatal(err)
		}
		st, err := b.OutboxStats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		mails = st.Pending
		if players != mails {
			t.Errorf("backup %d holds %d players and %d mails, want as many of each", i, players, mails)
		}
		if want, _ := d.SchemaVersion(ctx); want > 0 {
			if v, err := b.SchemaVersion(ctx); err != nil || v != want {
				t.Errorf("backup %d: SchemaVersion() = %d, %v, want %d", i, v, err, want)
			}
		}
		b.Close()
	}
	close(stop)
	wg.Wait()
}

func TestBackupRefuses(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "congo.db")
	d, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	exists := filepath.Join(dir, "exists.db")
	if err := os.WriteFile(exists, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.db")

	tests := []struct {
		name, path, dest string
		want             error
	}{
		{"dest exists", path, exists, ErrBackupExists},
		{"no database", missing, filepath.Join(dir, "b.db"), os.ErrNotExist},
	}
	for _, tt := range tests {
		err := Backup(ctx, tt.path, tt.dest)
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: Backup(%q, %q) = %v, want %v", tt.name, tt.path, tt.dest, err, tt.want)
		}
	}
	if b, _ := os.ReadFile(exists); string(b) != "keep me" {
		t.Errorf("Backup overwrote an existing file: %q", b)
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Backup of a missing database created it: %v", err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*"))
	if len(left) > 0 {
		t.Errorf("Backup left temporary files: %q", left)
	}
}

func TestOutboxStats(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ctx := context.Background()
	st, err := d.OutboxStats(ctx)
	if err != nil || st != (OutboxStats{}) {
		t.Fatalf("OutboxStats() of an empty outbox = %+v, %v, want zero", st, err)
	}
	var ids []int64
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		for i := range 3 {
			id, err := tx.AddMail(ctx, Mail{Created: t0.Add(time.Duration(i) * time.Minute), From: "f", To: "t", MessageID: fmt.Sprint(i), Raw: []byte("x")})
			if err != nil {
				return err
			}
			ids = append(ids, id)
		}
		if err := tx.SetSent(ctx, ids[0], t0); err != nil {
			return err
		}
		return tx.SetFailed(ctx, ids[2], t0, "550")
	})
	st, err = d.OutboxStats(ctx)
	want := OutboxStats{Pending: 1, Oldest: t0.Add(time.Minute), Failed: 1}
	if err != nil || st != want {
		t.Errorf("OutboxStats() = %+v, %v, want %+v", st, err, want)
	}
}
