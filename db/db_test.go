package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/congobymail/congo/internal/pgtest"
)

// openTest opens a fresh database: a SQLite file in a temporary
// directory, or, when the test runs under TestPostgres, a schema of its
// own on the PostgreSQL test server.
func openTest(t *testing.T) *DB {
	t.Helper()
	d, err := Open(context.Background(), pgtest.DSN(t))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if !d.pg {
			checkPlans(t, d)
		}
		d.Close()
	})
	return d
}

// growing are the tables that grow with every mail or game, which no
// query may read whole.
var growing = regexp.MustCompile(`\bSCAN (processed|outbox|sent|moves|games|robot_moves|analysis_requests)\b`)

// aliased finds the growing tables a query names by an alias (FROM games
// AS g), whose plans say SCAN g.
var aliased = regexp.MustCompile(`\b(?:processed|outbox|sent|moves|games|robot_moves) AS (\w+)\b`)

// checkPlans fails the test when a query it ran reads a growing table
// whole (EXPLAIN QUERY PLAN says SCAN, not SEARCH or SCAN ... USING
// INDEX): the queries were prepared, so d holds all their texts. The
// plans of INSERTs list the checks of foreign keys, which run on deletes
// alone.
func checkPlans(t *testing.T, d *DB) {
	t.Helper()
	d.mu.Lock()
	defer d.mu.Unlock()
	for q := range d.stmts {
		if strings.HasPrefix(q, "INSERT") {
			continue
		}
		rows, err := d.sql.Query("EXPLAIN QUERY PLAN "+q, make([]any, strings.Count(q, "?"))...)
		if err != nil {
			t.Errorf("EXPLAIN QUERY PLAN %s: %v", q, err)
			continue
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Error(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		scans := []*regexp.Regexp{growing}
		for _, m := range aliased.FindAllStringSubmatch(q, -1) {
			scans = append(scans, regexp.MustCompile(`\bSCAN `+m[1]+`\b`))
		}
		for _, step := range plan {
			if slices.ContainsFunc(scans, func(re *regexp.Regexp) bool { return re.MatchString(step) }) && !strings.Contains(step, " USING ") {
				t.Errorf("query reads a growing table whole:\n%s\nplan: %s", q, strings.Join(plan, "; "))
				break
			}
		}
	}
}

// inTx runs fn in a transaction and fails the test when it fails.
func inTx(t *testing.T, d *DB, fn func(ctx context.Context, tx *Tx) error) {
	t.Helper()
	ctx := context.Background()
	if err := d.Tx(ctx, func(tx *Tx) error { return fn(ctx, tx) }); err != nil {
		t.Fatalf("Tx: %v", err)
	}
}

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

func TestOpenMigratesAndReopens(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "congo.db")
	d, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open(new file): %v", err)
	}
	ms, err := migrations("migrations")
	if err != nil {
		t.Fatalf("migrations: %v", err)
	}
	if v, err := d.SchemaVersion(ctx); err != nil || v != lastVersion(ms) {
		t.Fatalf("SchemaVersion() = %d, %v, want %d", v, err, lastVersion(ms))
	}
	var mode string
	if err := d.sql.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q, %v, want wal", mode, err)
	}
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		_, err := tx.CreatePlayer(ctx, "alice", "alice@example.org", "s1", t0)
		return err
	})
	if err := d.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	d, err = Open(ctx, path)
	if err != nil {
		t.Fatalf("Open(existing file): %v", err)
	}
	defer d.Close()
	if v, err := d.SchemaVersion(ctx); err != nil || v != lastVersion(ms) {
		t.Fatalf("SchemaVersion() after reopening = %d, %v, want %d", v, err, lastVersion(ms))
	}
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		p, err := tx.PlayerByHandle(ctx, "alice")
		if err != nil {
			return err
		}
		if p.Address != "alice@example.org" || !p.Created.Equal(t0) {
			t.Errorf("PlayerByHandle(alice) after reopening = %+v", p)
		}
		return nil
	})
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "congo.db")
	s, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Exec("PRAGMA user_version = 999"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if d, err := Open(ctx, path); err == nil {
		d.Close()
		t.Fatalf("Open(schema version 999) succeeded, want an error")
	}
}

func TestOpenPathWithURICharacters(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "odd?name#100%.db")
	d, err := Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open(%q): %v", path, err)
	}
	d.Close()
	if _, err := os.Stat(path); err != nil {
		t.Errorf("database file not at %q: %v", path, err)
	}
}

func TestTxRollsBack(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ctx := context.Background()
	errBoom := errors.New("boom")

	err := d.Tx(ctx, func(tx *Tx) error {
		if _, err := tx.CreatePlayer(ctx, "alice", "alice@example.org", "s", t0); err != nil {
			return err
		}
		return errBoom
	})
	if !errors.Is(err, errBoom) {
		t.Fatalf("Tx returned %v, want %v", err, errBoom)
	}

	func() {
		defer func() {
			if r := recover(); r != "panic in tx" {
				t.Errorf("recover() = %v, want the panic to go on", r)
			}
		}()
		d.Tx(ctx, func(tx *Tx) error {
			if _, err := tx.CreatePlayer(ctx, "bob", "bob@example.org", "s", t0); err != nil {
				return err
			}
			panic("panic in tx")
		})
	}()

	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		for _, h := range []string{"alice", "bob"} {
			if _, err := tx.PlayerByHandle(ctx, h); !errors.Is(err, ErrNotFound) {
				t.Errorf("PlayerByHandle(%q) after rollback: err = %v, want ErrNotFound", h, err)
			}
		}
		return nil
	})
}

// TestSavepoint undoes the work of a failed savepoint, and of one that
// panics, and keeps the rest of the transaction, at any depth.
func TestSavepoint(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	errBoom := errors.New("boom")
	create := func(ctx context.Context, tx *Tx, h string) error {
		_, err := tx.CreatePlayer(ctx, h, h+"@example.org", "s-"+h, t0)
		return err
	}
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		if err := tx.Savepoint(ctx, func() error { return create(ctx, tx, "kept") }); err != nil {
			return err
		}
		if err := tx.Savepoint(ctx, func() error {
			if err := create(ctx, tx, "undone"); err != nil {
				return err
			}
			return errBoom
		}); !errors.Is(err, errBoom) {
			t.Errorf("Savepoint = %v, want %v", err, errBoom)
		}
		err := tx.Savepoint(ctx, func() error {
			if err := create(ctx, tx, "outer"); err != nil {
				return err
			}
			if err := tx.Savepoint(ctx, func() error {
				if err := create(ctx, tx, "inner"); err != nil {
					return err
				}
				return errBoom
			}); !errors.Is(err, errBoom) {
				t.Errorf("inner Savepoint = %v, want %v", err, errBoom)
			}
			return create(ctx, tx, "after-inner")
		})
		if err != nil {
			return err
		}
		func() {
			defer func() {
				if r := recover(); r != "panic in savepoint" {
					t.Errorf("recover() = %v, want the panic to go on", r)
				}
			}()
			tx.Savepoint(ctx, func() error {
				if err := create(ctx, tx, "panicked"); err != nil {
					return err
				}
				panic("panic in savepoint")
			})
		}()
		// The same handle again: the failed savepoint left nothing behind.
		return tx.Savepoint(ctx, func() error { return create(ctx, tx, "undone") })
	})
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		for h, want := range map[string]bool{"kept": true, "undone": true, "outer": true, "inner": false, "after-inner": true, "panicked": false} {
			_, err := tx.PlayerByHandle(ctx, h)
			if got := err == nil; got != want || (err != nil && !errors.Is(err, ErrNotFound)) {
				t.Errorf("PlayerByHandle(%q) err = %v, want found %v", h, err, want)
			}
		}
		return nil
	})
}

// TestSavepointAfterSQLiteRollback: when SQLite rolls back the whole
// transaction from inside a savepoint (here a trigger's RAISE(ROLLBACK),
// as a full disk would), Savepoint says so, runs nothing more, and
// nothing of the transaction is committed.
func TestSavepointAfterSQLiteRollback(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ctx := context.Background()
	if _, err := d.sql.Exec(`CREATE TRIGGER poison BEFORE INSERT ON players WHEN NEW.handle = 'poison'
		BEGIN SELECT RAISE(ROLLBACK, 'poisoned'); END`); err != nil {
		t.Fatal(err)
	}
	create := func(tx *Tx, h string) func() error {
		return func() error {
			_, err := tx.CreatePlayer(ctx, h, h+"@example.org", "s-"+h, t0)
			return err
		}
	}
	ran := false
	err := d.Tx(ctx, func(tx *Tx) error {
		if err := tx.Savepoint(ctx, create(tx, "before")); err != nil {
			return err
		}
		if err := tx.Savepoint(ctx, create(tx, "poison")); !errors.Is(err, ErrTxAborted) {
			t.Errorf("Savepoint(poison) = %v, want ErrTxAborted", err)
		}
		err := tx.Savepoint(ctx, func() error { ran = true; return create(tx, "after")() })
		if !errors.Is(err, ErrTxAborted) {
			t.Errorf("Savepoint after the rollback = %v, want ErrTxAborted", err)
		}
		return err
	})
	if err == nil {
		t.Error("Tx = nil, want an error")
	}
	if ran {
		t.Error("a Savepoint ran after SQLite rolled back the transaction")
	}
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		for _, h := range []string{"before", "after"} {
			if _, err := tx.PlayerByHandle(ctx, h); !errors.Is(err, ErrNotFound) {
				t.Errorf("PlayerByHandle(%q) = %v, want ErrNotFound: nothing committed", h, err)
			}
		}
		return nil
	})
}

// TestTxNoSync commits without waiting for the disk, on a connection of
// its own, and leaves Tx waiting for it.
func TestTxNoSync(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ctx := context.Background()
	sync := func(tx *Tx) int {
		var v int
		if err := tx.tx.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	for i := range 2 {
		err := d.TxNoSync(ctx, func(tx *Tx) error {
			if got := sync(tx); got != 1 {
				t.Errorf("synchronous in TxNoSync = %d, want 1 (NORMAL)", got)
			}
			_, err := tx.CreatePlayer(ctx, fmt.Sprintf("p%d", i), fmt.Sprintf("p%d@example.org", i), fmt.Sprintf("s%d", i), t0)
			return err
		})
		if err != nil {
			t.Fatalf("TxNoSync: %v", err)
		}
		inTx(t, d, func(ctx context.Context, tx *Tx) error {
			if got := sync(tx); got != 2 {
				t.Errorf("synchronous in Tx = %d, want 2 (FULL)", got)
			}
			return nil
		})
	}
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		_, err := tx.PlayerByHandle(ctx, "p1")
		return err
	})
	// A TxNoSync that cannot begin leaves no connection of its own in
	// the pool: Tx still waits for the disk.
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := d.TxNoSync(cancelled, func(tx *Tx) error { return nil }); err == nil {
		t.Error("TxNoSync(cancelled) = nil, want an error")
	}
	for range 3 {
		inTx(t, d, func(ctx context.Context, tx *Tx) error {
			if got := sync(tx); got != 2 {
				t.Errorf("synchronous in Tx after a failed TxNoSync = %d, want 2 (FULL)", got)
			}
			return nil
		})
	}
}

// TestConcurrentTx runs read-then-write transactions from many goroutines:
// each reads the number of queued mails and queues one named after it, so
// any overlap would give two mails the same name.
func TestConcurrentTx(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ctx := context.Background()
	const workers, each = 6, 10
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for range workers {
		wg.Go(func() {
			for range each {
				errs <- d.Tx(ctx, func(tx *Tx) error {
					n, err := tx.Pending(ctx)
					if err != nil {
						return err
					}
					_, err = tx.Enqueue(ctx, Mail{Created: t0, From: "a", To: "b", MessageID: fmt.Sprint(n), Raw: []byte("x")})
					return err
				})
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("concurrent Tx: %v", err)
		}
	}
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		var mails []Mail
		for id := int64(1); ; id++ { // all to one recipient: Due gives the first alone
			m, err := tx.Mail(ctx, id)
			if errors.Is(err, ErrNotFound) {
				break
			}
			if err != nil {
				return err
			}
			mails = append(mails, m)
		}
		seen := map[string]bool{}
		for _, m := range mails {
			if seen[m.MessageID] {
				t.Errorf("two transactions read the same count %s", m.MessageID)
			}
			seen[m.MessageID] = true
		}
		if len(mails) != workers*each {
			t.Errorf("Due() returned %d mails, want %d", len(mails), workers*each)
		}
		return nil
	})
}
