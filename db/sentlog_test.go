package db

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestSentLog records mails as sent in the log, applies the records to
// the outbox once, ignores a record torn by a crash, and keeps nothing
// after applying.
func TestSentLog(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ctx := context.Background()
	var ids []int64
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		for _, to := range []string{"a@x", "b@x", "c@x"} {
			id, err := tx.AddMail(ctx, Mail{Created: t0, From: "congo@x", To: to, MessageID: to + "-msg", Raw: []byte("mail to " + to)})
			if err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return nil
	})
	path := filepath.Join(t.TempDir(), "congo.db-sent")
	l, err := OpenSentLog(path)
	if err != nil {
		t.Fatal(err)
	}
	sentAt := t0.Add(time.Minute)
	for _, id := range ids[:2] {
		if err := l.Record(Mail{ID: id, Created: t0}, sentAt); err != nil {
			t.Fatal(err)
		}
	}
	// A record of an unknown mail, one of another mail with the id of
	// the third (as after a restore), and one torn by a crash.
	if err := l.Record(Mail{ID: 999, Created: t0}, sentAt); err != nil {
		t.Fatal(err)
	}
	if err := l.Record(Mail{ID: ids[2], Created: t0.Add(-time.Hour)}, sentAt); err != nil {
		t.Fatal(err)
	}
	l.Close()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte{1, 2, 3, 4, 5, 6, 7})
	f.Close()

	// Reopened, as after a restart.
	l, err = OpenSentLog(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	n, err := l.Apply(ctx, d)
	if err != nil || n != 4 {
		t.Fatalf("Apply() = %d, %v, want 4 records", n, err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != 0 {
		t.Errorf("the log after Apply: %v, %v; want it empty", fi, err)
	}
	var due []int64
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		for _, id := range ids[:2] {
			m, err := tx.Mail(ctx, id)
			if err != nil {
				return err
			}
			if !m.SentAt.Equal(sentAt) {
				t.Errorf("mail %d sent at %v, want %v", id, m.SentAt, sentAt)
			}
		}
		mails, err := tx.Due(ctx, t0.Add(time.Hour), 10)
		for _, m := range mails {
			due = append(due, m.ID)
		}
		return err
	})
	if !slices.Equal(due, ids[2:]) {
		t.Errorf("due after Apply: %v, want %v", due, ids[2:])
	}
	if n, err := l.Apply(ctx, d); err != nil || n != 0 {
		t.Errorf("Apply() again = %d, %v, want 0, nil", n, err)
	}
	// Recording goes on after Apply emptied the log.
	if err := l.Record(Mail{ID: ids[2], Created: t0}, sentAt); err != nil {
		t.Fatal(err)
	}
	if n, err := l.Apply(ctx, d); err != nil || n != 1 {
		t.Errorf("Apply() after a new record = %d, %v, want 1, nil", n, err)
	}
}
