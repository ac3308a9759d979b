package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Backup writes a consistent copy of the database that name names (as
// Open takes it) to dest: for PostgreSQL, a dump by pg_dump
// (backupPostgres); for a SQLite file, a copy of the file.
//
// A SQLite file is copied to dest
// while other processes (a running congod) go on using it: SQLite's VACUUM
// INTO copies the database as one read transaction sees it, so the copy
// holds every transaction committed before it started and none after. It
// neither creates nor migrates the database at path. dest must not exist;
// the copy is written beside it under another name, checked, synced, and
// only then renamed to dest, so that dest is never a partial copy.
func Backup(ctx context.Context, name, dest string) error {
	if IsPostgres(name) {
		if err := checkDest(dest); err != nil {
			return err
		}
		return backupPostgres(ctx, name, dest)
	}
	path := name
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
	if d.pg {
		if err := checkDest(dest); err != nil {
			return err
		}
		return backupPostgres(ctx, d.url, dest)
	}
	return backup(ctx, d.sql, dest)
}

// ErrBackupExists is returned by Backup when its destination exists.
var ErrBackupExists = errors.New("backup file exists")

// checkDest fails with ErrBackupExists when dest exists.
func checkDest(dest string) error {
	if _, err := os.Lstat(dest); err == nil {
		return fmt.Errorf("backup to %s: %w", dest, ErrBackupExists)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("backup: %w", err)
	}
	return nil
}

// backupTemp makes the empty file a backup to dest is written in, beside
// it, readable by its owner alone (0600) whatever the umask.
func backupTemp(dest string) (string, error) {
	tmp := backupName(dest)
	os.Remove(tmp) // a leftover of a failed backup
	if err := createPrivate(tmp); err != nil {
		return "", fmt.Errorf("backup: %w", err)
	}
	return tmp, nil
}

// finishBackup syncs the backup written in tmp and gives it the name
// dest, unless dest came into being meanwhile.
func finishBackup(tmp, dest string) error {
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
	os.Remove(tmp)
	return syncFile(filepath.Dir(dest))
}

func backup(ctx context.Context, s *sql.DB, dest string) error {
	if err := checkDest(dest); err != nil {
		return err
	}
	// VACUUM INTO writes into an empty file: made first, it gives the
	// copy the database's own privacy.
	tmp, err := backupTemp(dest)
	if err != nil {
		return err
	}
	ok := false
	defer func() {
		if !ok {
			os.Remove(tmp)
		}
	}()
	if _, err := s.ExecContext(ctx, "VACUUM INTO ?", tmp); err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	if err := check(ctx, tmp); err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	if err := finishBackup(tmp, dest); err != nil {
		return err
	}
	ok = true
	return nil
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
