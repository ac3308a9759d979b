package db

import (
	"context"
	"testing"
	"time"
)

func TestOutbox(t *testing.T) {
	d := openTest(t)
	var ids []int64
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		if _, ok, err := tx.NextDue(ctx); err != nil || ok {
			t.Errorf("NextDue() on an empty outbox = _, %v, %v, want false, nil", ok, err)
		}
		for i, to := range []string{"a@x", "b@x", "c@x"} {
			id, err := tx.Enqueue(ctx, Mail{
				Created: t0.Add(time.Duration(i) * time.Second), From: "congo@x", To: to,
				MessageID: to + "-msg", Raw: []byte("mail to " + to),
			})
			if err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return nil
	})

	due := func(now time.Time) []string {
		t.Helper()
		var tos []string
		inTx(t, d, func(ctx context.Context, tx *Tx) error {
			mails, err := tx.Due(ctx, now, 10)
			for _, m := range mails {
				tos = append(tos, m.To)
			}
			return err
		})
		return tos
	}
	check := func(now time.Time, want ...string) {
		t.Helper()
		got := due(now)
		if len(got) != len(want) {
			t.Fatalf("Due(%v) = %q, want %q", now, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("Due(%v) = %q, want %q", now, got, want)
			}
		}
	}

	check(t0.Add(-time.Second))
	check(t0.Add(time.Second), "a@x", "b@x")
	check(t0.Add(time.Hour), "a@x", "b@x", "c@x")

	retry := t0.Add(10 * time.Minute)
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		if err := tx.MarkRetry(ctx, ids[0], retry, "421 try later"); err != nil {
			return err
		}
		if err := tx.MarkSent(ctx, ids[1], t0.Add(time.Minute)); err != nil {
			return err
		}
		return tx.MarkFailed(ctx, ids[2], t0.Add(time.Minute), "550 no such user")
	})
	check(t0.Add(time.Hour), "a@x")
	check(retry.Add(-time.Nanosecond))

	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		if n, err := tx.Pending(ctx); err != nil || n != 1 {
			t.Errorf("Pending() = %d, %v, want 1", n, err)
		}
		if next, ok, err := tx.NextDue(ctx); err != nil || !ok || !next.Equal(retry) {
			t.Errorf("NextDue() = %v, %v, %v, want %v, true", next, ok, err, retry)
		}
		a, err := tx.Mail(ctx, ids[0])
		if err != nil {
			return err
		}
		if a.Attempts != 1 || a.LastError != "421 try later" || string(a.Raw) != "mail to a@x" || a.MessageID != "a@x-msg" {
			t.Errorf("Mail(%d) after MarkRetry = %+v", ids[0], a)
		}
		b, err := tx.Mail(ctx, ids[1])
		if err != nil {
			return err
		}
		if !b.SentAt.Equal(t0.Add(time.Minute)) || !b.FailedAt.IsZero() {
			t.Errorf("Mail(%d) after MarkSent = %+v", ids[1], b)
		}
		c, err := tx.Mail(ctx, ids[2])
		if err != nil {
			return err
		}
		if c.FailedAt.IsZero() || c.Attempts != 1 || c.LastError != "550 no such user" || !c.SentAt.IsZero() {
			t.Errorf("Mail(%d) after MarkFailed = %+v", ids[2], c)
		}
		return nil
	})
}
