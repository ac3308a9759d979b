package main

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/mailer"
	"github.com/congobymail/congo/mailmsg"
	"github.com/congobymail/congo/outbox"
)

// openSending opens a database and its sent log in a directory of the
// test's, and returns the database's path.
func openSending(t *testing.T) (string, *db.DB, *db.SentLog) {
	t.Helper()
	dbPath := filepath.Join(t.TempDir(), "congo.db")
	store := congotest.OpenDB(t, dbPath)
	sentLog, err := db.OpenSentLog(dbPath + "-sent")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sentLog.Close() })
	return dbPath, store, sentLog
}

// TestHandOverSettles plays the death of the daemon between the moment
// the SMTP servers had whole mails, two sent at once, and their answers:
// at the next start both mails are recorded as sent, not sent again; a
// mail not handed over (or handed over and then cleared), or already
// recorded, is left alone.
func TestHandOverSettles(t *testing.T) {
	ctx := context.Background()
	dbPath, store, sentLog := openSending(t)
	now := time.Now()
	err := store.Tx(ctx, func(tx *db.Tx) error {
		for i, to := range []string{"alice@example.org", "alice@example.org", "bob@example.org", "carol@example.org"} {
			id := fmt.Sprintf("m%d@example.org", i+1)
			_, err := tx.AddMail(ctx, db.Mail{Created: now, From: "congo@example.org", To: to, MessageID: id,
				Raw: []byte("Message-ID: <" + id + ">\r\n\r\nboard\r\n")})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	// The daemon, sending over three connections, marks m1 and m4
	// handed over, and m2 handed over and answered, and dies.
	h, err := openHandOver(dbPath+"-sending", 3, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	h.mark(0, "m2@example.org")
	h.mark(1, "m1@example.org")
	h.clear(0)
	h.mark(2, "m4@example.org")
	h.Close()

	// Restarted with fewer connections: every record is read.
	h, err = openHandOver(dbPath+"-sending", 1, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := h.settle(ctx, store, sentLog, now); err != nil {
		t.Fatalf("settle: %v", err)
	}
	if _, err := sentLog.Apply(ctx, store); err != nil {
		t.Fatal(err)
	}
	var due []string
	err = store.Tx(ctx, func(tx *db.Tx) error {
		ms, err := tx.Due(ctx, now.Add(time.Hour), 10)
		for _, m := range ms {
			due = append(due, m.MessageID)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"m2@example.org", "m3@example.org"}; fmt.Sprint(due) != fmt.Sprint(want) {
		t.Errorf("due after the restart: %q, want %q (m1 and m4 recorded as sent)", due, want)
	}
	if ids, err := h.left(); err != nil || len(ids) != 0 {
		t.Errorf("hand-over file after settle holds %q (%v), want nothing", ids, err)
	}
	// A second start changes nothing; nor does a mail already sent.
	h.mark(0, "m1@example.org")
	if err := h.settle(ctx, store, sentLog, now); err != nil {
		t.Fatal(err)
	}
	if n, err := sentLog.Apply(ctx, store); err != nil || n != 0 {
		t.Errorf("settle of a mail already sent: %d records (%v), want none", n, err)
	}
}

// TestHandOverLanes: sent by the outbox's lanes, a mail the server took
// stays marked in its lane's record until the lane's next mail is handed
// over (so that no moment leaves it neither marked nor recorded), and a
// refused mail leaves its lane's record empty; at the next start a mail
// marked but recorded in the sent log is not recorded again.
func TestHandOverLanes(t *testing.T) {
	ctx := context.Background()
	dbPath, store, sentLog := openSending(t)
	log := slog.New(slog.DiscardHandler)
	h, err := openHandOver(dbPath+"-sending", 2, log)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	sink := startSinkFunc(t, nil)
	smtp, err := mailer.NewSMTP("smtp://"+sink.addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer smtp.Close()
	ob, err := outbox.New(outbox.Config{DB: store, From: "congo@example.org", Hostname: "example.org", SentLog: sentLog,
		Connections: 2, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	queue := func(to string) string {
		var id string
		err := store.Tx(ctx, func(tx *db.Tx) error {
			var err error
			id, err = ob.Queue(ctx, tx, outbox.Mail{Out: mailmsg.Outgoing{From: "congo@example.org", To: to,
				Subject: "Re: help", Text: "The manual.\n"}}, time.Now())
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	queue("alice@example.org")
	last := queue("alice@example.org")
	if n, err := ob.SendDue(ctx, h.sender(smtp)); err != nil || n != 2 {
		t.Fatalf("SendDue = %d, %v; want 2 sent", n, err)
	}
	if ids, err := h.left(); err != nil || !slices.Equal(ids, []string{last}) {
		t.Errorf("records after two mails sent in one lane: %q (%v), want the last, %q", ids, err, last)
	}
	// The next mail of that lane is refused: its record is emptied.
	queue("refused@example.org")
	if _, err := ob.SendDue(ctx, h.sender(smtp)); err != nil {
		t.Fatal(err)
	}
	if ids, err := h.left(); err != nil || len(ids) != 0 {
		t.Errorf("records after a refused mail: %q (%v), want none", ids, err)
	}
	// Marked and in the sent log (not yet carried into the outbox): a
	// start does not record it again.
	marked := queue("bob@example.org")
	if _, err := ob.SendDue(ctx, h.sender(smtp)); err != nil {
		t.Fatal(err)
	}
	if ids, _ := h.left(); !slices.Contains(ids, marked) {
		t.Fatalf("records %q, want %q among them", ids, marked)
	}
	unapplied := len(sentLog.Unapplied())
	if err := h.settle(ctx, store, sentLog, time.Now()); err != nil {
		t.Fatal(err)
	}
	if n := len(sentLog.Unapplied()); n != unapplied {
		t.Errorf("settle recorded %d mails again that the sent log had", n-unapplied)
	}
	if ids, _ := h.left(); len(ids) != 0 {
		t.Errorf("records after settle: %q, want none", ids)
	}
}
