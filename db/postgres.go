package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// PostgreSQL is reached through pgx's database/sql driver (stdlib): the
// package keeps one code path for both backends (database/sql's Tx,
// prepared statements, Rows), and the queries that differ are texts of
// their own (postgresQueries). Transactions of Tx run at READ COMMITTED,
// one at a time across every process on the database, as SQLite's do:
// each takes a transaction-level advisory lock, per schema, before its
// first query.

// idleInTransaction is how long the server lets a session sit idle inside
// a transaction before it ends it (idle_in_transaction_session_timeout):
// a process paused while it held the lock of Tx (stopped, swapped out)
// then loses it, and another can go on.
const idleInTransaction = "10s"

// openPostgres opens the PostgreSQL database of the URL and brings its
// schema up to date.
func openPostgres(ctx context.Context, dsn string) (*DB, error) {
	name := RedactURL(dsn)
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", name, redactErr(err, dsn))
	}
	if _, ok := cfg.RuntimeParams["idle_in_transaction_session_timeout"]; !ok {
		cfg.RuntimeParams["idle_in_transaction_session_timeout"] = idleInTransaction
	}
	s := stdlib.OpenDB(*cfg)
	s.SetMaxIdleConns(4)
	d := &DB{sql: s, pg: true, q: &postgresQueries, name: name, url: dsn, stmts: map[string]*sql.Stmt{}}
	err = d.Tx(ctx, func(tx *Tx) error {
		_, err := tx.tx.ExecContext(ctx, "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);"+
			" INSERT INTO schema_version (version) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM schema_version)")
		return err
	})
	if err == nil {
		err = d.migrate(ctx)
	}
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("open %s: %w", name, err)
	}
	return d, nil
}

// postgresQueries are PostgreSQL's texts of the queries that differ
// between the backends. Handles are unique ignoring case through an index
// on lower(handle); JSON arrays bound as one parameter are read with
// json_array_elements_text.
var postgresQueries = queries{
	playerByHandle:  "SELECT " + playerColumns + " FROM players WHERE lower(handle) = lower(?)",
	ratedPlayers:    "SELECT " + playerColumns + " FROM players WHERE rated_games > 0 ORDER BY rating DESC, lower(handle)",
	profileByHandle: "SELECT " + profileColumns + " FROM players WHERE lower(handle) = lower(?) AND confirmed",
	ratedProfiles:   "SELECT " + profileColumns + " FROM players WHERE rated_games > 0 ORDER BY rating DESC, lower(handle) LIMIT ?",
	gameOfMessages: "SELECT s.game FROM json_array_elements_text(?::json) WITH ORDINALITY AS j (value, key)" +
		" JOIN sent AS s ON s.message_id = j.value WHERE s.game IS NOT NULL ORDER BY j.key LIMIT 1",
	due: "SELECT " + mailColumns + mailFrom + " WHERE m.sent_at IS NULL AND m.failed_at IS NULL AND m.next_attempt <= ?" +
		" AND m.id NOT IN (SELECT value::bigint FROM json_array_elements_text(?::json))" +
		" AND NOT EXISTS (SELECT 1 FROM outbox AS o WHERE o.rcpt_to = m.rcpt_to AND o.next_attempt > ? AND o.id < m.id" +
		" AND o.sent_at IS NULL AND o.failed_at IS NULL" +
		" AND o.id NOT IN (SELECT value::bigint FROM json_array_elements_text(?::json)))" +
		" ORDER BY m.id LIMIT ?",
	nextRetry: "SELECT min(next_attempt) FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt > ?" +
		" AND id NOT IN (SELECT value::bigint FROM json_array_elements_text(?::json))",
	pending: "SELECT count(*), min(created) FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL" +
		" AND id NOT IN (SELECT value::bigint FROM json_array_elements_text(?::json))",
}

// pgBegun runs first in every transaction of Tx on PostgreSQL: it waits
// for the lock that makes them run one at a time (per schema, so that
// databases in other schemas of one server do not wait for each other),
// and, when d is fenced, checks in the transaction's own snapshot, taken
// after the lock, that this process still holds the lease.
func (d *DB) pgBegun(ctx context.Context, t *sql.Tx) error {
	if _, err := t.ExecContext(ctx, "SELECT pg_advisory_xact_lock(1129270883, hashtext(current_schema()))"); err != nil {
		return fmt.Errorf("begin transaction: lock: %w", err)
	}
	return d.checkFence(ctx, t)
}

// rebind writes the query's ? placeholders as PostgreSQL's $1, $2, ...;
// SQLite takes the text as it is. The package's queries hold no ? in a
// string literal.
func (d *DB) rebind(query string) string {
	if !d.pg || !strings.Contains(query, "?") {
		return query
	}
	var b strings.Builder
	n := 0
	quoted := false
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case c == '\'':
			quoted = !quoted
		case c == '?' && !quoted:
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// RedactURL returns a database URL with its password, if any, replaced
// by "xxxxx", for logs and errors; a path is returned as it is.
func RedactURL(dsn string) string {
	if !IsPostgres(dsn) {
		return dsn
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return "postgres://(unreadable URL)"
	}
	// A password may come as a parameter too (?password=...).
	if q := u.Query(); q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

// redactErr removes the URL's password (in its user part or as a
// parameter) from an error's text; when the URL does not parse, the
// error is not shown, as it may hold all of it.
func redactErr(err error, dsn string) error {
	u, perr := url.Parse(dsn)
	if perr != nil {
		return errors.New("the database URL is not a valid URL (its text is not shown: it may hold a password)")
	}
	text := err.Error()
	for _, pw := range urlPasswords(u) {
		text = strings.ReplaceAll(text, pw, "xxxxx")
	}
	if text != err.Error() {
		return errors.New(text)
	}
	return err
}

// urlPasswords are the passwords u holds: in its user part, and as a
// password parameter.
func urlPasswords(u *url.URL) []string {
	var pws []string
	if u.User != nil {
		if pw, ok := u.User.Password(); ok && pw != "" {
			pws = append(pws, pw)
		}
	}
	if pw := u.Query().Get("password"); pw != "" {
		pws = append(pws, pw)
	}
	return pws
}

// CheckURL checks that dsn is a PostgreSQL URL this package can use,
// without connecting to it.
func CheckURL(dsn string) error {
	if _, err := pgx.ParseConfig(dsn); err != nil {
		return redactErr(err, dsn)
	}
	return nil
}

// backupPostgres writes a dump of the PostgreSQL database of the URL to
// dest with pg_dump (its custom format, for pg_restore): one snapshot,
// every transaction committed before it began and none after. It is
// checked with pg_restore --list, synced, and only then given its name.
// The password goes to pg_dump in its environment, not its arguments;
// a search_path parameter (pgx's, not libpq's) becomes --schema.
func backupPostgres(ctx context.Context, dsn, dest string) error {
	u, err := url.Parse(dsn)
	if err != nil {
		return fmt.Errorf("backup: %w", redactErr(err, dsn))
	}
	env := os.Environ()
	if u.User != nil {
		if pw, ok := u.User.Password(); ok {
			env = append(env, "PGPASSWORD="+pw)
			u.User = url.User(u.User.Username())
		}
	}
	q := u.Query()
	if q.Has("password") { // libpq reads it too, but not from ps's view
		env = append(env, "PGPASSWORD="+q.Get("password"))
		q.Del("password")
		u.RawQuery = q.Encode()
	}
	// The lease (M48) is the running daemon's, not data: restored, it
	// would keep the first daemon started on the copy waiting until it
	// lapsed. Its table is dumped, its row not.
	args := []string{"--format=custom", "--no-password", "--exclude-table-data=*.lease"}
	if sp := q.Get("search_path"); sp != "" {
		for _, schema := range strings.Split(sp, ",") {
			args = append(args, "--schema="+strings.TrimSpace(schema))
		}
		q.Del("search_path")
		u.RawQuery = q.Encode()
	}
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
	cmd := exec.CommandContext(ctx, "pg_dump", append(args, "--file="+tmp, "--dbname="+u.String())...)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("backup: pg_dump: %w: %s", err, strings.TrimSpace(string(out)))
	}
	if out, err := exec.CommandContext(ctx, "pg_restore", "--list", tmp).CombinedOutput(); err != nil {
		return fmt.Errorf("backup: the dump does not read back (pg_restore --list): %w: %s", err, strings.TrimSpace(string(out)))
	}
	if err := finishBackup(tmp, dest); err != nil {
		return err
	}
	ok = true
	return nil
}

// backupName is the name of a backup's file while it is written.
func backupName(dest string) string {
	return filepath.Join(filepath.Dir(dest), "."+filepath.Base(dest)+".tmp")
}

// IsLoginRefused reports whether err, from Open, says that PostgreSQL
// refused the user or the password (SQLSTATE class 28, invalid
// authorization), not that it could not be reached.
func IsLoginRefused(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && strings.HasPrefix(pe.Code, "28")
}
