package db

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/congobymail/congo/internal/pgtest"
)

// TestLease: one holder at a time; the holder renews; another takes the
// lease once it lapsed or was released, and the old holder's renewal
// then fails.
func TestLease(t *testing.T) {
	t.Parallel()
	pgtest.Need(t)
	dsn := pgtest.DSN(t)
	ctx := context.Background()
	a, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	la, lb := a.Lease("congod", "a"), b.Lease("congod", "b")
	if e, ok, err := la.Acquire(ctx, time.Minute); err != nil || !ok || e != 1 {
		t.Fatalf("a Acquire = %d, %v, %v; want epoch 1", e, ok, err)
	}
	if _, ok, err := lb.Acquire(ctx, time.Minute); err != nil || ok {
		t.Fatalf("b Acquire while a holds it = %v, %v; want not taken", ok, err)
	}
	if err := la.Renew(ctx, time.Minute); err != nil {
		t.Errorf("a Renew = %v", err)
	}
	if err := lb.Renew(ctx, time.Minute); !errors.Is(err, ErrLeaseLost) {
		t.Errorf("b Renew = %v, want ErrLeaseLost", err)
	}
	// Lapsed: a's lease made to end at once (as 15 s without renewal).
	if err := la.Renew(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if e, ok, err := lb.Acquire(ctx, time.Minute); err != nil || !ok || e != 2 {
		t.Fatalf("b Acquire once a's lease lapsed = %d, %v, %v; want epoch 2", e, ok, err)
	}
	if err := la.Renew(ctx, time.Minute); !errors.Is(err, ErrLeaseLost) {
		t.Errorf("a Renew after b took over = %v, want ErrLeaseLost", err)
	}
	if h, _, ok, err := la.Holder(ctx); err != nil || !ok || h != "b" {
		t.Errorf("Holder = %q, %v, %v; want b", h, ok, err)
	}
	if err := lb.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := la.Acquire(ctx, time.Minute); err != nil || !ok {
		t.Errorf("a Acquire after b released = %v, %v; want taken", ok, err)
	}
}

// TestFence: a fenced DB's transactions fail with ErrLeaseLost once
// another holds the lease, and commit nothing; the holder's go on.
func TestFence(t *testing.T) {
	t.Parallel()
	pgtest.Need(t)
	dsn := pgtest.DSN(t)
	ctx := context.Background()
	a, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	la, lb := a.Lease("congod", "a"), b.Lease("congod", "b")
	if _, ok, err := la.Acquire(ctx, time.Minute); err != nil || !ok {
		t.Fatal(ok, err)
	}
	a.Fence(la)
	b.Fence(lb)
	create := func(d *DB, h string) error {
		return d.Tx(ctx, func(tx *Tx) error {
			_, err := tx.AddPlayer(ctx, h, h+"@example.org", "s", t0)
			return err
		})
	}
	if err := create(a, "first"); err != nil {
		t.Errorf("the holder's Tx = %v", err)
	}
	if err := create(b, "never"); !errors.Is(err, ErrLeaseLost) {
		t.Errorf("Tx of one who does not hold the lease = %v, want ErrLeaseLost", err)
	}
	// a pauses past its lease; b takes over.
	if err := la.Renew(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := lb.Acquire(ctx, time.Minute); err != nil || !ok {
		t.Fatal(ok, err)
	}
	if err := create(a, "late"); !errors.Is(err, ErrLeaseLost) {
		t.Errorf("Tx of the old holder = %v, want ErrLeaseLost", err)
	}
	if err := a.TxNoSync(ctx, func(tx *Tx) error { return nil }); !errors.Is(err, ErrLeaseLost) {
		t.Errorf("TxNoSync of the old holder = %v, want ErrLeaseLost", err)
	}
	if err := create(b, "second"); err != nil {
		t.Errorf("the new holder's Tx = %v", err)
	}
	b.Fence(nil)
	inTx(t, b, func(ctx context.Context, tx *Tx) error {
		for h, want := range map[string]bool{"first": true, "never": false, "late": false, "second": true} {
			_, err := tx.PlayerByHandle(ctx, h)
			if got := err == nil; got != want {
				t.Errorf("player %s stored: %v, want %v (%v)", h, got, want, err)
			}
		}
		return nil
	})
}

// TestSentLogDirect: on PostgreSQL the sent log records in the database
// at once, and has nothing to apply.
func TestSentLogDirect(t *testing.T) {
	t.Parallel()
	pgtest.Need(t)
	d := openTest(t)
	ctx := context.Background()
	var id int64
	inTx(t, d, func(ctx context.Context, tx *Tx) (err error) {
		id, err = tx.AddMail(ctx, Mail{Created: t0, From: "congo@x", To: "a@x", MessageID: "m1", Raw: []byte("x")})
		return err
	})
	l, err := d.OpenSentLog("unused")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := l.Record(Mail{ID: id, Created: t0}, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if n, err := l.Apply(ctx, d); n != 0 || err != nil || l.Len() != 0 {
		t.Errorf("Apply = %d, %v, Len %d; want nothing", n, err, l.Len())
	}
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		m, err := tx.Mail(ctx, id)
		if err == nil && !m.SentAt.Equal(t0.Add(time.Minute)) {
			t.Errorf("SentAt = %v, want %v", m.SentAt, t0.Add(time.Minute))
		}
		return err
	})
}
