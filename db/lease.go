package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// ErrLeaseLost is the error of a transaction of a fenced DB (Fence) that
// began when this process no longer held the lease, and of Lease.Renew
// once it does not.
var ErrLeaseLost = errors.New("this process no longer holds the lease")

// ErrNoLease is returned by the lease's methods on SQLite, whose file one
// process alone uses.
var ErrNoLease = errors.New("a lease needs PostgreSQL")

// A Lease is a row of the lease table of PostgreSQL (M48): the one
// process that holds it, until it lapses, may read mail, run the clock
// and the robot, and send. Its times are the database server's, so that
// the hosts' clocks do not matter.
type Lease struct {
	d      *DB
	name   string
	holder string
}

// Lease returns the lease called name, as seen by the process called
// holder (unique among the processes that share the database).
func (d *DB) Lease(name, holder string) *Lease {
	return &Lease{d: d, name: name, holder: holder}
}

// Acquire takes the lease for ttl when nobody holds it, when its holder
// let it lapse, or when holder holds it already (then it is renewed). ok
// is false when another holds it. epoch counts the times the lease was
// taken. It waits for no transaction: a holder that stopped in the
// middle of one does not keep the lease.
func (l *Lease) Acquire(ctx context.Context, ttl time.Duration) (epoch int64, ok bool, err error) {
	if !l.d.pg {
		return 0, false, ErrNoLease
	}
	err = l.d.sql.QueryRowContext(ctx, l.d.rebind(
		"INSERT INTO lease (name, holder, expires) VALUES (?, ?, clock_timestamp() + make_interval(secs => ?))"+
			" ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires = excluded.expires, epoch = lease.epoch + 1"+
			" WHERE lease.expires <= clock_timestamp() OR lease.holder = excluded.holder RETURNING epoch"),
		l.name, l.holder, ttl.Seconds()).Scan(&epoch)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("acquire lease %q: %w", l.name, err)
	}
	return epoch, true, nil
}

// Renew extends the lease held by holder to ttl from now. It fails with
// ErrLeaseLost when holder does not hold it, or let it lapse.
func (l *Lease) Renew(ctx context.Context, ttl time.Duration) error {
	if !l.d.pg {
		return ErrNoLease
	}
	res, err := l.d.sql.ExecContext(ctx, l.d.rebind(
		"UPDATE lease SET expires = clock_timestamp() + make_interval(secs => ?)"+
			" WHERE name = ? AND holder = ? AND expires > clock_timestamp()"), ttl.Seconds(), l.name, l.holder)
	if err != nil {
		return fmt.Errorf("renew lease %q: %w", l.name, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errors.Join(ErrLeaseLost, err)
	}
	return nil
}

// Release lets the lease lapse now, if holder holds it, so that another
// process takes it at once.
func (l *Lease) Release(ctx context.Context) error {
	if !l.d.pg {
		return ErrNoLease
	}
	_, err := l.d.sql.ExecContext(ctx, l.d.rebind(
		"UPDATE lease SET expires = clock_timestamp() WHERE name = ? AND holder = ?"), l.name, l.holder)
	if err != nil {
		return fmt.Errorf("release lease %q: %w", l.name, err)
	}
	return nil
}

// Holder returns who holds the lease and until when, by the database's
// clock; ok is false when nobody ever took it.
func (l *Lease) Holder(ctx context.Context) (holder string, until time.Time, ok bool, err error) {
	if !l.d.pg {
		return "", time.Time{}, false, ErrNoLease
	}
	err = l.d.sql.QueryRowContext(ctx, l.d.rebind("SELECT holder, expires FROM lease WHERE name = ?"), l.name).
		Scan(&holder, &until)
	if errors.Is(err, sql.ErrNoRows) {
		return "", time.Time{}, false, nil
	}
	if err != nil {
		return "", time.Time{}, false, fmt.Errorf("lease %q: %w", l.name, err)
	}
	return holder, until, true, nil
}

// fence is the lease every transaction of Tx checks, when set.
type fence struct {
	name, holder string
}

// Fence makes every later transaction of Tx and TxNoSync check, once it
// holds the lock that makes them run one at a time, that l's holder
// still holds l, and fail with ErrLeaseLost when not: a process that lost
// the lease (paused, say, while another took it over) commits nothing
// after the other began. Unfence with Fence(nil).
func (d *DB) Fence(l *Lease) {
	if l == nil {
		d.fence.Store(nil)
		return
	}
	d.fence.Store(&fence{name: l.name, holder: l.holder})
}

// checkFence checks the fence, if any, in t.
func (d *DB) checkFence(ctx context.Context, t *sql.Tx) error {
	f := d.fence.Load()
	if f == nil {
		return nil
	}
	var one int
	err := t.QueryRowContext(ctx, d.rebind(
		"SELECT 1 FROM lease WHERE name = ? AND holder = ? AND expires > clock_timestamp()"), f.name, f.holder).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrLeaseLost
	}
	if err != nil {
		return fmt.Errorf("begin transaction: check the lease: %w", err)
	}
	return nil
}
