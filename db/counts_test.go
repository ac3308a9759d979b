package db

import (
	"context"
	"testing"
	"time"
)

// TestCountMail: a mail counted under one to four keys (one given twice)
// counts once under each, in the sliding hour of MailCount.
func TestCountMail(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		for _, keys := range [][]string{{"a"}, {"a", "b"}, {"a", "b", "c"}, {"a", "b", "c", "d"}, {"d", "d"}} {
			if err := tx.AddMailCount(ctx, t0, keys...); err != nil {
				return err
			}
		}
		if err := tx.AddMailCount(ctx, t0.Add(-2*time.Hour), "a"); err != nil { // out of the hour
			return err
		}
		for k, want := range map[string]int{"a": 4, "b": 3, "c": 2, "d": 2, "e": 0} {
			n, err := tx.CountMail(ctx, k, t0.Add(time.Minute))
			if err != nil {
				return err
			}
			if n != want {
				t.Errorf("MailCount(%q) = %d, want %d", k, n, want)
			}
		}
		return nil
	})
}
