package db

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

func TestOutbox(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	var ids []int64
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		if _, ok, err := tx.NextDue(ctx, t0); err != nil || ok {
			t.Errorf("NextDue() on an empty outbox = _, %v, %v, want false, nil", ok, err)
		}
		for i, to := range []string{"a@x", "b@x", "c@x"} {
			id, err := tx.AddMail(ctx, Mail{
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
		if err := tx.SetRetry(ctx, ids[0], retry, "421 try later"); err != nil {
			return err
		}
		if err := tx.SetSent(ctx, ids[1], t0.Add(time.Minute)); err != nil {
			return err
		}
		return tx.SetFailed(ctx, ids[2], t0.Add(time.Minute), "550 no such user")
	})
	check(t0.Add(time.Hour), "a@x")
	check(retry.Add(-time.Nanosecond))

	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		if n, err := tx.Pending(ctx); err != nil || n != 1 {
			t.Errorf("Pending() = %d, %v, want 1", n, err)
		}
		if next, ok, err := tx.NextDue(ctx, t0.Add(time.Minute)); err != nil || !ok || !next.Equal(retry) {
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

// TestPruneOutbox deletes old mail that was sent or given up, oldest
// first, and keeps mail still waiting and recent mail.
func TestPruneOutbox(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ids := map[string]int64{}
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		for i, name := range []string{"old-sent", "old-failed", "old-waiting", "old-sent-2", "new-sent"} {
			created := t0.Add(time.Duration(i) * time.Hour)
			if name == "new-sent" {
				created = t0.Add(40 * 24 * time.Hour)
			}
			id, err := tx.AddMail(ctx, Mail{Created: created, From: "congo@x", To: name + "@x", MessageID: name, Raw: []byte(name)})
			if err != nil {
				return err
			}
			ids[name] = id
			switch {
			case strings.Contains(name, "sent"):
				err = tx.SetSent(ctx, id, created)
			case strings.Contains(name, "failed"):
				err = tx.SetFailed(ctx, id, created, "550 no such user")
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	cutoff := t0.Add(30 * 24 * time.Hour)
	prune := func(limit int) int64 {
		var n int64
		inTx(t, d, func(ctx context.Context, tx *Tx) error {
			var err error
			n, err = tx.DeleteOldMail(ctx, cutoff, limit)
			return err
		})
		return n
	}
	if n := prune(2); n != 2 {
		t.Errorf("PruneOutbox(limit 2) = %d, want 2", n)
	}
	if n := prune(100); n != 1 {
		t.Errorf("PruneOutbox() again = %d, want 1 (old-sent-2)", n)
	}
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		for name, id := range ids {
			_, err := tx.Mail(ctx, id)
			kept := name == "old-waiting" || name == "new-sent"
			if (err == nil) != kept {
				t.Errorf("mail %s: err %v, want kept %v", name, err, kept)
			}
		}
		return nil
	})
}

// TestDueKeepsEachRecipientsOrder: Due gives each recipient's due mails
// in the order they were queued, several at once, and none queued after
// one of theirs that waits to be tried again; a mail made due again goes
// before the later ones, and the sent log's mails are skipped.
func TestDueKeepsEachRecipientsOrder(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ids := map[string]int64{}
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		for i, name := range []string{"a1", "a2", "b1", "a3"} {
			id, err := tx.AddMail(ctx, Mail{Created: t0.Add(time.Duration(i) * time.Second), From: "congo@x",
				To: name[:1] + "@x", MessageID: name, Raw: []byte(name)})
			if err != nil {
				return err
			}
			ids[name] = id
		}
		return nil
	})
	check := func(what string, now time.Time, sent []int64, want ...string) {
		t.Helper()
		var got []string
		inTx(t, d, func(ctx context.Context, tx *Tx) error {
			mails, err := tx.Due(ctx, now, 10, sent...)
			for _, m := range mails {
				got = append(got, m.MessageID)
			}
			return err
		})
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: Due = %q, want %q", what, got, want)
		}
	}
	now := t0.Add(time.Minute)
	check("all due", now, nil, "a1", "a2", "b1", "a3")
	later := now.Add(time.Hour)
	inTx(t, d, func(ctx context.Context, tx *Tx) error { return tx.SetRetry(ctx, ids["a2"], later, "421 later") })
	check("a2 waits to be tried again", now, nil, "a1", "b1")
	nextDue := func(now time.Time, sent ...int64) time.Time {
		t.Helper()
		var next time.Time
		inTx(t, d, func(ctx context.Context, tx *Tx) error {
			var ok bool
			var err error
			if next, ok, err = tx.NextDue(ctx, now, sent...); err == nil && !ok {
				t.Errorf("NextDue(%v) found nothing waiting", now)
			}
			return err
		})
		return next
	}
	if got := nextDue(now); !got.Equal(now) {
		t.Errorf("NextDue with a1 and b1 due = %v, want now %v", got, now)
	}
	// a1 and b1 sent: a3, queued long ago, waits behind a2, so nothing is
	// due before a2's retry (a loop that took a3's time would spin).
	if got := nextDue(now, ids["a1"], ids["b1"]); !got.Equal(later) {
		t.Errorf("NextDue with a3 held behind a2 = %v, want a2's retry %v", got, later)
	}
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		if err := tx.SetSent(ctx, ids["a1"], now); err != nil {
			return err
		}
		_, err := tx.SetRetriesDue(ctx, now.Add(time.Second))
		return err
	})
	check("a2 due again, before a3", now.Add(time.Second), nil, "a2", "b1", "a3")
	check("a2 in the sent log", now.Add(time.Second), []int64{ids["a2"]}, "b1", "a3")
}

// TestWaitingMail finds a waiting mail by its Message-ID, and not one
// sent or given up.
func TestWaitingMail(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		for i, name := range []string{"sent", "failed", "waiting"} {
			id, err := tx.AddMail(ctx, Mail{Created: t0.Add(time.Duration(i) * time.Second), From: "congo@x",
				To: "a@x", MessageID: name + "@congo", Raw: []byte("mail " + name)})
			if err != nil {
				return err
			}
			switch name {
			case "sent":
				err = tx.SetSent(ctx, id, t0)
			case "failed":
				err = tx.SetFailed(ctx, id, t0, "550")
			}
			if err != nil {
				return err
			}
		}
		for _, tt := range []struct {
			id string
			ok bool
		}{{"waiting@congo", true}, {"sent@congo", false}, {"failed@congo", false}, {"none@congo", false}} {
			m, ok, err := tx.WaitingMail(ctx, tt.id)
			if err != nil || ok != tt.ok || ok && (m.MessageID != tt.id || string(m.Raw) != "mail waiting") {
				t.Errorf("WaitingMail(%q) = %q %q, %v, %v, want ok %v", tt.id, m.MessageID, m.Raw, ok, err, tt.ok)
			}
		}
		return nil
	})
}

// TestOutboxTextCompressed: a mail's text is stored compressed, a
// seventh or so of a board mail's size, and read back whole; a text
// stored plain (before compression) is read as it is.
func TestOutboxTextCompressed(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	cell := `<td style="width:40px;height:40px;padding:0;text-align:center;vertical-align:middle;border:1px solid #8c8c8c;background:#fbf8ef" class="cg-sq"></td>` + "\r\n"
	raw := []byte("Message-ID: <big@example.org>\r\n\r\n" + strings.Repeat(cell, 49*3))
	plain := []byte("Message-ID: <old@example.org>\r\n\r\nstored before\r\n")
	var big, old int64
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		var err error
		if big, err = tx.AddMail(ctx, Mail{Created: t0, From: "congo@example.org", To: "alice@example.org", MessageID: "big@example.org", Raw: raw}); err != nil {
			return err
		}
		if old, err = tx.AddMail(ctx, Mail{Created: t0, From: "congo@example.org", To: "bob@example.org", MessageID: "old@example.org", Raw: plain}); err != nil {
			return err
		}
		_, err = tx.exec(ctx, "UPDATE outbox_text SET raw = ? WHERE id = ?", plain, old)
		return err
	})
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		var stored []byte
		if err := tx.queryRow(ctx, "SELECT raw FROM outbox_text WHERE id = ?", big).Scan(&stored); err != nil {
			return err
		}
		if len(stored)*5 > len(raw) {
			t.Errorf("a text of %d bytes is stored in %d, want a fifth or less", len(raw), len(stored))
		}
		for id, want := range map[int64][]byte{big: raw, old: plain} {
			m, err := tx.Mail(ctx, id)
			if err != nil {
				return err
			}
			if !bytes.Equal(m.Raw, want) {
				t.Errorf("mail %d reads %d bytes %.40q, want %d bytes %.40q", id, len(m.Raw), m.Raw, len(want), want)
			}
		}
		due, err := tx.Due(ctx, t0, 10)
		if err != nil {
			return err
		}
		if len(due) != 2 || !bytes.Equal(due[0].Raw, raw) || !bytes.Equal(due[1].Raw, plain) {
			t.Errorf("Due read %d mails, not the texts queued", len(due))
		}
		return nil
	})
}
