package db

import (
	"context"
	"testing"
)

// TestGuard: a player's lion guard is on until turned off, and on again
// (M61).
func TestGuard(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	alice, bob := twoPlayers(t, d)
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		for _, step := range []struct {
			set  string // "on", "off", or "" for none
			want bool
		}{{"", true}, {"off", false}, {"off", false}, {"on", true}, {"on", true}, {"off", false}} {
			if step.set != "" {
				if err := tx.SetGuard(ctx, alice.ID, step.set == "on"); err != nil {
					return err
				}
			}
			if got, err := tx.Guarded(ctx, alice.ID); err != nil || got != step.want {
				t.Errorf("Guarded(alice) = %v, %v, want %v", got, err, step.want)
			}
		}
		if got, err := tx.Guarded(ctx, bob.ID); err != nil || !got {
			t.Errorf("Guarded(bob) = %v, %v, want on, as by default", got, err)
		}
		return nil
	})
}
