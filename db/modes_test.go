package db

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// withUmask runs the test under umask, the usual 022 that leaves new files
// readable by all, and restores the process's umask after.
func withUmask(t *testing.T, umask int) {
	t.Helper()
	old := syscall.Umask(umask)
	t.Cleanup(func() { syscall.Umask(old) })
}

// wantMode checks that the file at path has the permission bits want.
func wantMode(t *testing.T, path string, want fs.FileMode) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Errorf("stat: %v", err)
		return
	}
	if got := fi.Mode().Perm(); got != want {
		t.Errorf("mode of %s = %#o, want %#o", filepath.Base(path), got, want)
	}
}

// TestFilesAreNotWorldReadable creates a database, its -wal and -shm, its
// sent log and backups under the usual umask 022, and under 0277, which
// would leave even the owner unable to write: each is 0600, readable by its
// owner alone, since they hold players' addresses and secrets.
func TestFilesAreNotWorldReadable(t *testing.T) {
	for _, umask := range []int{0o022, 0o277} {
		t.Run(fmt.Sprintf("umask %#o", umask), func(t *testing.T) {
			dir := t.TempDir()
			withUmask(t, umask)
			testFileModes(t, dir)
		})
	}
}

func testFileModes(t *testing.T, dir string) {
	ctx := context.Background()
	path := filepath.Join(dir, "congo.db")
	d, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	err = d.Tx(ctx, func(tx *Tx) error {
		_, err := tx.AddPlayer(ctx, "alice", "alice@example.org", "s", time.Now())
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	log, err := OpenSentLog(path + "-sent")
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	for _, name := range []string{"congo.db", "congo.db-wal", "congo.db-shm", "congo.db-sent"} {
		wantMode(t, filepath.Join(dir, name), 0o600)
	}

	for _, b := range []struct {
		name   string
		backup func(dest string) error
	}{
		{"backup-open.db", func(dest string) error { return d.Backup(ctx, dest) }},
		{"backup-file.db", func(dest string) error { return Backup(ctx, path, dest) }},
	} {
		dest := filepath.Join(dir, b.name)
		if err := b.backup(dest); err != nil {
			t.Fatalf("backup to %s: %v", b.name, err)
		}
		wantMode(t, dest, 0o600)
	}
}
