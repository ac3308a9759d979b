// Package db stores players, games, handled mail and the outbox in SQLite
// (a file, the default) or in PostgreSQL (a postgres:// URL), with one API
// and the same schema, migrations and guarantees on both: sqlite.go and
// postgres.go hold what differs.
package db

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// ErrNotFound is returned by lookups that find no row.
var ErrNotFound = errors.New("not found")

// ErrTxAborted is returned by Savepoint once SQLite has rolled back the
// whole transaction, as it does after some errors (a full disk, out of
// memory, an I/O error): nothing of the transaction is left, and it can
// go no further.
var ErrTxAborted = errors.New("the transaction was rolled back")

// DB is an open database. It is safe for concurrent use.
type DB struct {
	sql *sql.DB
	pg  bool     // PostgreSQL, else SQLite
	q   *queries // the backend's texts of the queries that differ
	// fence, when set, is the lease every transaction checks (Fence).
	fence atomic.Pointer[fence]

	// name says which database it is, for errors: the file, or the
	// PostgreSQL URL without its password; url is PostgreSQL's URL.
	name, url string

	// stmts holds a prepared statement for each query text a Tx has run,
	// so that SQLite parses each text once per connection. The texts are
	// constants of this package (TestSQLOnlyThroughParameters), so there
	// are few.
	mu    sync.Mutex
	stmts map[string]*sql.Stmt

	// writer serializes this process's transactions, which all write
	// (BEGIN IMMEDIATE): waiting here wakes a waiter as soon as the lock
	// is free, where SQLite's busy handler sleeps (up to 100 ms at a
	// time). Other processes still meet busy_timeout. It guards wconn.
	writer sync.Mutex

	// wconn is the one connection every transaction of Tx and TxNoSync
	// runs on, nil until first used: its page cache stays valid from one
	// transaction to the next, as no other connection of the process
	// writes. Reads (Read) take other connections of the pool.
	wconn *sql.Conn
}

// queries are the texts of the queries that differ between SQLite and
// PostgreSQL: each backend's are beside it (sqliteQueries in sqlite.go,
// postgresQueries in postgres.go). Every other query is one text for
// both, its ? placeholders rebound for PostgreSQL.
type queries struct {
	playerByHandle  string // a player by handle, ignoring case
	ratedPlayers    string // players with a rated game, the highest rating first, then by handle
	profileByHandle string // Tx.ProfileByHandle
	ratedProfiles   string // Tx.RatedProfiles
	gameOfMessages  string // the game of the first of a JSON array of Message-IDs that names one
	due             string // Tx.Due
	nextRetry       string // Tx.NextDue: the earliest mail waiting to be tried again
	pending         string // DB.OutboxStats: the mails waiting, and the oldest
}

// Tx is a transaction opened by DB.Tx or DB.ReadTx. Its queries must
// not outlive it.
type Tx struct {
	tx       *sql.Tx
	db       *DB
	aborted  bool // SQLite rolled the transaction back: see ErrTxAborted
	readOnly bool // opened by ReadTx: see ErrReadOnly

	fin finishState // BeforeCommit's
}

// Open opens the database that dsn names, creating it when missing (a
// file), and brings its schema up to date: a URL postgres://... (or
// postgresql://...) opens PostgreSQL (postgres.go), anything else is the
// path of a SQLite file (sqlite.go).
func Open(ctx context.Context, dsn string) (*DB, error) {
	if IsPostgres(dsn) {
		return openPostgres(ctx, dsn)
	}
	return openSQLite(ctx, dsn)
}

// IsPostgres reports whether dsn names a PostgreSQL database.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// Postgres reports whether d is a PostgreSQL database.
func (d *DB) Postgres() bool { return d.pg }

// Close closes the database.
func (d *DB) Close() error {
	d.writer.Lock()
	if d.wconn != nil {
		d.wconn.Close()
		d.wconn = nil
	}
	d.writer.Unlock()
	d.mu.Lock()
	for _, st := range d.stmts {
		st.Close()
	}
	clear(d.stmts)
	d.mu.Unlock()
	return d.sql.Close()
}

// stmt returns the prepared statement for query, preparing it on first use.
func (d *DB) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if st, ok := d.stmts[query]; ok {
		return st, nil
	}
	st, err := d.sql.PrepareContext(ctx, d.rebind(query))
	if err != nil {
		return nil, err
	}
	d.stmts[query] = st
	return st, nil
}

// exec, query and queryRow run a query in the transaction through its
// prepared statement. In a transaction of ReadTx, exec and any query but
// a SELECT fail with ErrReadOnly.
func (t *Tx) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if t.readOnly {
		return nil, fmt.Errorf("%.40s: %w", query, ErrReadOnly)
	}
	st, err := t.db.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return t.tx.StmtContext(ctx, st).ExecContext(ctx, args...)
}

func (t *Tx) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if t.readOnly && !isSelect(query) {
		return nil, fmt.Errorf("%.40s: %w", query, ErrReadOnly)
	}
	st, err := t.db.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return t.tx.StmtContext(ctx, st).QueryContext(ctx, args...)
}

func (t *Tx) queryRow(ctx context.Context, query string, args ...any) scanner {
	if t.readOnly && !isSelect(query) {
		return errRow{fmt.Errorf("%.40s: %w", query, ErrReadOnly)}
	}
	st, err := t.db.stmt(ctx, query)
	if err != nil {
		// A *sql.Row carrying the error: Scan reports it.
		return t.tx.QueryRowContext(ctx, t.db.rebind(query), args...)
	}
	return t.tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
}

// Savepoint runs fn inside a savepoint of t: when fn returns an error or
// panics, all it did is undone and t goes on as before fn; otherwise its
// work stays part of t. It returns fn's error. When what fn did cannot be
// undone alone, because SQLite rolled back all of t, the error wraps
// ErrTxAborted, and so does every later Savepoint of t.
func (t *Tx) Savepoint(ctx context.Context, fn func() error) (err error) {
	if t.aborted {
		return ErrTxAborted
	}
	// Savepoints nest; ROLLBACK TO and RELEASE name the newest of the
	// name, so one name serves at every depth.
	if _, err := t.tx.ExecContext(ctx, "SAVEPOINT sp"); err != nil {
		return fmt.Errorf("savepoint: %w", err)
	}
	done, mark := false, t.fin.enterSavepoint()
	defer func() {
		t.fin.leaveSavepoint(mark, !done)
		if done {
			return
		}
		// Undo fn's work (on an error or a panic); the savepoint is then
		// released, which keeps nothing of it.
		// When the savepoint is gone, SQLite rolled back the whole
		// transaction: a SAVEPOINT now would begin another one.
		_, rerr := t.tx.ExecContext(context.WithoutCancel(ctx), "ROLLBACK TO sp")
		if rerr == nil {
			_, rerr = t.tx.ExecContext(context.WithoutCancel(ctx), "RELEASE sp")
		}
		if rerr != nil {
			t.aborted = true
			err = fmt.Errorf("%w: %w (undoing it: %v)", ErrTxAborted, err, rerr)
		}
	}()
	if err := fn(); err != nil {
		return err
	}
	if _, err := t.tx.ExecContext(ctx, "RELEASE sp"); err != nil {
		return fmt.Errorf("release savepoint: %w", err)
	}
	done = true
	return nil
}

// Tx runs fn in one transaction that writes: it commits when fn returns
// nil and rolls back when fn returns an error or panics (the panic goes
// on). The commit returns once the transaction is on disk
// (synchronous=FULL; PostgreSQL's synchronous_commit). Transactions of
// Tx and TxNoSync run one at a time, across processes too (SQLite's
// BEGIN IMMEDIATE; PostgreSQL's lock, postgres.go), so that what one
// reads stays true until it commits. When d is fenced (Fence), a Tx that
// begins once the lease is lost fails with ErrLeaseLost.
func (d *DB) Tx(ctx context.Context, fn func(tx *Tx) error) error {
	d.writer.Lock()
	defer d.writer.Unlock()
	t, err := d.begin(ctx)
	if err != nil {
		return err
	}
	return d.run(ctx, t, true, fn)
}

// begin begins a transaction that writes on the writer connection, which
// it opens when there is none, or when the one there broke. Call it with
// d.writer held.
func (d *DB) begin(ctx context.Context) (*sql.Tx, error) {
	for try := 0; ; try++ {
		c, err := d.conn(ctx)
		if err != nil {
			return nil, err
		}
		t, err := c.BeginTx(ctx, nil)
		if err != nil {
			// A connection that broke (the server ended the session, say)
			// is not tried again: the next transaction opens another.
			d.dropConn()
			if (errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone)) && try == 0 && ctx.Err() == nil {
				continue
			}
			return nil, fmt.Errorf("begin transaction: %w", err)
		}
		if d.pg {
			if err := d.pgBegun(ctx, t); err != nil {
				t.Rollback()
				if !errors.Is(err, ErrLeaseLost) {
					d.dropConn()
				}
				return nil, err
			}
		}
		return t, nil
	}
}

// conn returns the writer connection, opening it when there is none.
// Call it with d.writer held.
func (d *DB) conn(ctx context.Context) (*sql.Conn, error) {
	if d.wconn == nil {
		c, err := d.sql.Conn(ctx)
		if err != nil {
			return nil, fmt.Errorf("begin transaction: %w", err)
		}
		d.wconn = c
	}
	return d.wconn, nil
}

// dropConn discards the writer connection, not back to the pool: the
// next transaction opens another. Call it with d.writer held.
func (d *DB) dropConn() {
	if d.wconn != nil {
		d.wconn.Raw(func(any) error { return driver.ErrBadConn })
		d.wconn.Close()
		d.wconn = nil
	}
}

// TxNoSync is Tx, except that its commit does not wait for the disk
// (SQLite's synchronous=NORMAL, which in WAL mode syncs at checkpoints
// only; PostgreSQL's synchronous_commit off): a crash of the process
// loses nothing, but a crash of the machine may undo it, unless a
// transaction of Tx committed after it. It is for writes whose loss only
// repeats work, like recording that a mail was sent, so that the record
// is made as soon as possible after the fact.
func (d *DB) TxNoSync(ctx context.Context, fn func(tx *Tx) error) error {
	d.writer.Lock()
	defer d.writer.Unlock()
	return d.txNoSync(ctx, fn)
}

// tryTxNoSync is TxNoSync when no transaction of this process runs;
// ran is false when one did, and then nothing was done.
func (d *DB) tryTxNoSync(ctx context.Context, fn func(tx *Tx) error) (ran bool, err error) {
	if !d.writer.TryLock() {
		return false, nil
	}
	defer d.writer.Unlock()
	return true, d.txNoSync(ctx, fn)
}

// Read runs fn in a transaction that only reads: it waits for no other
// transaction, and sees the database as a commit left it. fn must not
// write. A fenced DB's Read checks the lease as Tx does (the outbox reads
// the mail to send in one).
func (d *DB) Read(ctx context.Context, fn func(tx *Tx) error) error {
	t, err := d.sql.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("begin read: %w", err)
	}
	if d.pg {
		if err := d.checkFence(ctx, t); err != nil {
			t.Rollback()
			return err
		}
	}
	return d.run(ctx, t, false, fn)
}

func (d *DB) txNoSync(ctx context.Context, fn func(tx *Tx) error) error {
	if d.pg {
		t, err := d.begin(ctx)
		if err != nil {
			return err
		}
		if _, err := t.ExecContext(ctx, "SET LOCAL synchronous_commit = off"); err != nil {
			t.Rollback()
			return fmt.Errorf("begin transaction: %w", err)
		}
		return d.run(ctx, t, true, fn)
	}
	// SQLite's setting is the connection's, and cannot change inside a
	// transaction: set before, and back to FULL after, or the connection
	// is dropped, so that Tx always waits for the disk.
	c, err := d.conn(ctx)
	if err != nil {
		return err
	}
	if _, err := c.ExecContext(ctx, "PRAGMA synchronous = NORMAL"); err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	defer func() {
		if d.wconn == nil {
			return
		}
		if _, err := d.wconn.ExecContext(context.WithoutCancel(ctx), "PRAGMA synchronous = FULL"); err != nil {
			d.dropConn()
		}
	}()
	t, err := d.begin(ctx)
	if err != nil {
		return err
	}
	return d.run(ctx, t, true, fn)
}

// run runs fn in the transaction t, and commits or rolls back. writer
// says that t is on the writer connection (d.writer held).
func (d *DB) run(ctx context.Context, t *sql.Tx, writer bool, fn func(tx *Tx) error) error {
	committed := false
	defer func() {
		if committed {
			return
		}
		err := t.Rollback()
		if writer && (ctx.Err() != nil || err != nil && !errors.Is(err, sql.ErrTxDone)) {
			// database/sql rolls back a transaction whose context ends
			// on its own, and an interrupted rollback can leave the
			// connection in a transaction: the next begins on another.
			d.dropConn()
		}
	}()
	tx := &Tx{tx: t, db: d}
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Finish(ctx); err != nil {
		return err
	}
	if err := t.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	committed = true
	return nil
}

// timeLayout is how times are stored: UTC with a fixed width, so that the
// text sorts in time order.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

func formatTime(t time.Time) string {
	return t.UTC().Format(timeLayout)
}

func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(timeLayout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("stored time %q: %w", s, err)
	}
	return t, nil
}

func parseNullTime(s sql.NullString) (time.Time, error) {
	if !s.Valid {
		return time.Time{}, nil
	}
	return parseTime(s.String)
}

// notFound turns sql.ErrNoRows into ErrNotFound, saying what was looked for.
func notFound(err error, what string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%s: %w", what, ErrNotFound)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// mustAffect reports ErrNotFound when an update changed no row.
func mustAffect(res sql.Result, what string) error {
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if n == 0 {
		return fmt.Errorf("%s: %w", what, ErrNotFound)
	}
	return nil
}

// formatOptTime stores a time that may be zero, as "".
func formatOptTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return formatTime(t)
}

func parseOptTime(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	return parseTime(s)
}

// seconds stores a duration as whole seconds, rounded down.
func seconds(d time.Duration) int64 { return int64(d / time.Second) }

func fromSeconds(s int64) time.Duration { return time.Duration(s) * time.Second }

// Check reports whether the database takes a write, as every mail
// handled needs: it writes one row in a transaction of its own.
func (d *DB) Check(ctx context.Context, now time.Time) error {
	return d.Tx(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, "INSERT INTO health (id, at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at",
			formatTime(now))
		return err
	})
}
