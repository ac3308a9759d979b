package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	_ "modernc.org/sqlite" // the "sqlite" driver
)

// openSQLite opens the SQLite database at path, creating it when
// missing, and brings its schema up to date. A database it creates is
// readable and writable by its owner alone (0600), whatever the umask,
// and so are its -wal and -shm files, which SQLite creates with the
// database's mode.
func openSQLite(ctx context.Context, path string) (*DB, error) {
	if err := createPrivate(path); err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	s, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	d := &DB{sql: s, q: &sqliteQueries, name: path, stmts: map[string]*sql.Stmt{}}
	if err := d.migrate(ctx); err != nil {
		d.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return d, nil
}

// sqliteQueries are SQLite's texts of the queries that differ between the
// backends. handle is COLLATE NOCASE in SQLite.
var sqliteQueries = queries{
	playerByHandle:  "SELECT " + playerColumns + " FROM players WHERE handle = ?",
	ratedPlayers:    "SELECT " + playerColumns + " FROM players WHERE rated_games > 0 ORDER BY rating DESC, handle",
	profileByHandle: "SELECT " + profileColumns + " FROM players WHERE handle = ? AND confirmed = 1",
	ratedProfiles:   "SELECT " + profileColumns + " FROM players WHERE rated_games > 0 ORDER BY rating DESC, handle LIMIT ?",
	gameOfMessages: "SELECT s.game FROM json_each(?) AS j JOIN sent AS s ON s.message_id = j.value" +
		" WHERE s.game IS NOT NULL ORDER BY j.key LIMIT 1",
	due: "SELECT " + mailColumns + mailFrom + " WHERE m.sent_at IS NULL AND m.failed_at IS NULL AND m.next_attempt <= ?" +
		" AND m.id NOT IN (SELECT value FROM json_each(?))" +
		// Without INDEXED BY, SQLite picks outbox_pending_rcpt, whose
		// range holds each mail sent that the sent log has not carried in.
		" AND NOT EXISTS (SELECT 1 FROM outbox AS o INDEXED BY outbox_pending_retry" +
		" WHERE o.rcpt_to = m.rcpt_to AND o.next_attempt > ? AND o.id < m.id" +
		" AND o.sent_at IS NULL AND o.failed_at IS NULL AND o.id NOT IN (SELECT value FROM json_each(?)))" +
		" ORDER BY m.id LIMIT ?",
	nextRetry: "SELECT min(next_attempt) FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt > ?" +
		" AND id NOT IN (SELECT value FROM json_each(?))",
	pending: "SELECT count(*), min(created) FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL" +
		" AND id NOT IN (SELECT value FROM json_each(?))",
}

// createPrivate creates an empty file at path with mode 0600, whatever
// the umask, unless a file is there already (which keeps its mode).
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	// The umask may have taken away the owner's bits too.
	err = f.Chmod(0o600)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// dsn is the data source name for the database file at path: WAL mode,
// immediate transactions (so that read-then-write transactions wait for
// each other instead of failing), foreign keys and a busy timeout, and
// temporary tables and statement journals (every savepoint writes one)
// in memory rather than in files.
func dsn(path string) string {
	return "file:" + escapePath(path) +
		"?_pragma=busy_timeout(5000)" +
		"&_pragma=journal_mode(WAL)" +
		"&_pragma=synchronous(FULL)" +
		"&_pragma=foreign_keys(1)" +
		"&_pragma=temp_store(MEMORY)" +
		"&_txlock=immediate"
}

// escapePath escapes path for a "file:" URI.
func escapePath(path string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
}

// schemaVersion reads the schema version: SQLite's user_version, or the
// schema_version table of PostgreSQL.
func (tx *Tx) schemaVersion(ctx context.Context) (int, error) {
	var row *sql.Row
	if tx.db.pg {
		row = tx.tx.QueryRowContext(ctx, "SELECT version FROM schema_version")
	} else {
		row = tx.tx.QueryRowContext(ctx, "PRAGMA user_version")
	}
	var v int
	if err := row.Scan(&v); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return v, nil
}

// setSchemaVersion records the schema version.
func (tx *Tx) setSchemaVersion(ctx context.Context, v int) error {
	var err error
	if tx.db.pg {
		_, err = tx.exec(ctx, "UPDATE schema_version SET version = ?", v)
	} else {
		// PRAGMA takes no parameters; v is a number of this program.
		_, err = tx.tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v))
	}
	return err
}
