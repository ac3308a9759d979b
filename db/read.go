package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// ErrReadOnly is returned by a query that would write, run in a
// transaction of ReadTx.
var ErrReadOnly = errors.New("write in a read-only transaction")

// ReadTx runs fn in a read-only transaction: it sees the database as it
// was when its first query ran, whatever commits meanwhile, and neither
// waits for the writers of Tx nor holds them up (in WAL mode readers and
// the writer do not block each other). A query of fn that would write
// fails with ErrReadOnly. The transaction is rolled back when fn returns,
// which for a reader undoes nothing. It returns fn's error.
func (d *DB) ReadTx(ctx context.Context, fn func(tx *Tx) error) error {
	// database/sql's ReadOnly makes the driver begin a deferred
	// transaction, not the immediate one of the DSN, which would take the
	// write lock.
	opts := &sql.TxOptions{ReadOnly: true}
	if d.pg {
		// One snapshot for the whole transaction, as SQLite's reader
		// has: READ COMMITTED would see each commit between queries.
		opts.Isolation = sql.LevelRepeatableRead
	}
	t, err := d.sql.BeginTx(ctx, opts)
	if err != nil {
		return fmt.Errorf("begin read transaction: %w", err)
	}
	defer t.Rollback()
	return fn(&Tx{tx: t, db: d, readOnly: true})
}

// isSelect reports whether a query's text is a SELECT, which a read-only
// transaction may run.
func isSelect(query string) bool {
	return len(query) >= 7 && strings.EqualFold(query[:7], "SELECT ")
}

// errRow is the result of queryRow for a query that was not run: its
// Scan reports why.
type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }
