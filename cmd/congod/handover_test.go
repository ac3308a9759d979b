package main

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/congobymail/congo/db"
)

// TestHandOverSettles plays the death of the daemon between the moment
// the SMTP server had a whole mail and its answer: at the next start the
// mail is recorded as sent, not sent again; a mail not handed over, or
// already recorded, is left alone.
func TestHandOverSettles(t *testing.T) {
	ctx := context.Background()
	dbPath := filepath.Join(t.TempDir(), "congo.db")
	store, err := db.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	sentLog, err := db.OpenSentLog(dbPath + "-sent")
	if err != nil {
		t.Fatal(err)
	}
	defer sentLog.Close()
	now := time.Now()
	err = store.Tx(ctx, func(tx *db.Tx) error {
		for i, to := range []string{"alice@example.org", "alice@example.org", "bob@example.org"} {
			id := fmt.Sprintf("m%d@example.org", i+1)
			_, err := tx.Enqueue(ctx, db.Mail{Created: now, From: "congo@example.org", To: to, MessageID: id,
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

	// The daemon marks m1 handed over, and dies.
	h, err := openHandOver(dbPath+"-sending", slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	h.mark("m1@example.org")
	h.Close()

	h, err = openHandOver(dbPath+"-sending", slog.New(slog.DiscardHandler))
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
		t.Errorf("due after the restart: %q, want %q (m1 recorded as sent)", due, want)
	}
	if id, err := h.left(); err != nil || id != "" {
		t.Errorf("hand-over file after settle holds %q (%v), want nothing", id, err)
	}
	// A second start changes nothing; nor does a mail already sent.
	h.mark("m1@example.org")
	if err := h.settle(ctx, store, sentLog, now); err != nil {
		t.Fatal(err)
	}
	if n, err := sentLog.Apply(ctx, store); err != nil || n != 0 {
		t.Errorf("settle of a mail already sent: %d records (%v), want none", n, err)
	}
}
