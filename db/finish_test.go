package db

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// TestBeforeCommit: the work given to BeforeCommit runs in order once the
// transaction's function returned, before the commit and in the
// transaction; a failed savepoint forgets what it gave, Finish runs it
// early (again, should a savepoint around it fail), and an error from it
// rolls all back.
func TestBeforeCommit(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	errBoom := errors.New("boom")
	var ran []string
	later := func(tx *Tx, h string) {
		tx.BeforeCommit(func(ctx context.Context) error {
			ran = append(ran, h)
			_, err := tx.AddPlayer(ctx, h, h+"@example.org", "s-"+h, t0)
			return err
		})
	}
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		later(tx, "first")
		if err := tx.Savepoint(ctx, func() error {
			later(tx, "forgotten")
			return errBoom
		}); !errors.Is(err, errBoom) {
			t.Errorf("Savepoint = %v, want %v", err, errBoom)
		}
		if err := tx.Savepoint(ctx, func() error {
			later(tx, "kept")
			if err := tx.Savepoint(ctx, func() error { later(tx, "inner"); return errBoom }); !errors.Is(err, errBoom) {
				t.Errorf("inner Savepoint = %v, want %v", err, errBoom)
			}
			later(tx, "after-inner")
			return nil
		}); err != nil {
			return err
		}
		if n := tx.Finishing(); n != 3 {
			t.Errorf("Finishing() = %d, want 3 (first, kept, after-inner)", n)
		}
		if len(ran) != 0 {
			t.Errorf("ran %v before the function returned", ran)
		}
		// Finished early inside a savepoint that then fails: undone.
		if err := tx.Savepoint(ctx, func() error {
			later(tx, "finished-undone")
			if err := tx.Finish(ctx); err != nil {
				return err
			}
			return errBoom
		}); !errors.Is(err, errBoom) {
			t.Errorf("Savepoint = %v, want %v", err, errBoom)
		}
		later(tx, "last")
		return nil
	})
	// Finish ran first, kept and after-inner inside the savepoint that
	// failed: undone, they ran again before the commit.
	if want := []string{"first", "kept", "after-inner", "finished-undone", "first", "kept", "after-inner", "last"}; !slices.Equal(ran, want) {
		t.Errorf("ran %v, want %v", ran, want)
	}
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		for h, want := range map[string]bool{"first": true, "forgotten": false, "kept": true, "inner": false,
			"after-inner": true, "finished-undone": false, "last": true} {
			_, err := tx.PlayerByHandle(ctx, h)
			if got := err == nil; got != want || (err != nil && !errors.Is(err, ErrNotFound)) {
				t.Errorf("PlayerByHandle(%q) err = %v, want found %v", h, err, want)
			}
		}
		return nil
	})

	// An error from the work rolls the transaction back.
	err := d.Tx(context.Background(), func(tx *Tx) error {
		if _, err := tx.AddPlayer(context.Background(), "rolled", "rolled@example.org", "s-rolled", t0); err != nil {
			return err
		}
		tx.BeforeCommit(func(context.Context) error { return errBoom })
		return nil
	})
	if !errors.Is(err, errBoom) {
		t.Errorf("Tx = %v, want %v", err, errBoom)
	}
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		if _, err := tx.PlayerByHandle(ctx, "rolled"); !errors.Is(err, ErrNotFound) {
			t.Errorf("PlayerByHandle(rolled) err = %v, want ErrNotFound: the transaction was committed", err)
		}
		return nil
	})
}
