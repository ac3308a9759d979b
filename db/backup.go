package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Backup writes a consistent copy of the database file at path to dest,
// while other processes (a running congod) go on using it: SQLite's VACUUM
// INTO copies the database as one read transaction sees it, so the copy
// holds every transaction committed before it started and none after. It
// neither creates nor migrates the database at path. dest must not exist;
// the copy is written beside it under another name, checked, synced, and
// only then renamed to dest, so that dest is never a partial copy.
func Backup(ctx context.Context, path, dest string) error {
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	s, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		return fmt.Errorf("backup: open %s: %w", path, err)
	}
	defer s.Close()
	return backup(ctx, s, dest)
}

// Backup writes a consistent copy of the open database to dest, as the
// package function Backup does.
func (d *DB) Backup(ctx context.Context, dest string) error {
	return backup(ctx, d.sql, dest)
}

// ErrBackupExists is returned by Backup when its destination exists.
var ErrBackupExists = errors.New("backup file exists")

func backup(ctx context.Context, s *sql.DB, dest string) error {
	if _, err := os.Lstat(dest); err == nil {
		return fmt.Errorf("backup to %s: %w", dest, ErrBackupExists)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("backup: %w", err)
	}
	tmp := filepath.Join(filepath.Dir(dest), "."+filepath.Base(dest)+".tmp")
	os.Remove(tmp) // a leftover of a failed backup
	ok := false
	defer func() {
		if !ok {
			os.Remove(tmp)
		}
	}()
	// VACUUM INTO writes into an empty file: made first, it gives the
	// copy the database's own privacy (0600) whatever the umask.
	if err := createPrivate(tmp); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	if _, err := s.ExecContext(ctx, "VACUUM INTO ?", tmp); err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	if err := check(ctx, tmp); err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	if err := syncFile(tmp); err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	// Link, unlike rename, fails when dest came into being meanwhile.
	if err := os.Link(tmp, dest); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("backup to %s: %w", dest, ErrBackupExists)
		}
		return fmt.Errorf("backup: %w", err)
	}
	ok = true
	os.Remove(tmp)
	return syncFile(filepath.Dir(dest))
}

// check runs SQLite's integrity check on the database file at path.
func check(ctx context.Context, path string) error {
	s, err := sql.Open("sqlite", "file:"+escapePath(path)+"?mode=ro")
	if err != nil {
		return err
	}
	defer s.Close()
	var result string
	if err := s.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&result); err != nil {
		return fmt.Errorf("integrity check: %w", err)
	}
	if result != "ok" {
		return fmt.Errorf("integrity check: %s", result)
	}
	return nil
}

// syncFile flushes the file or directory at path to disk.
func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// escapePath escapes path for a "file:" URI, as dsn does.
func escapePath(path string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
}
