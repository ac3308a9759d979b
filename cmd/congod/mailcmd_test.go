package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/internal/pgtest"
)

// TestMailCommand: "congod mail ID" prints a mail of the outbox whole, as
// queued, though the database keeps it compressed; an id not there, or
// none, is told.
func TestMailCommand(t *testing.T) {
	ctx := context.Background()
	path := pgtest.DSN(t) // a SQLite file, or a database of its own on PostgreSQL (TestPostgres)
	store := congotest.OpenDB(t, path)
	raw := []byte("Message-ID: <m1@example.org>\r\nSubject: Congo game 42\r\n\r\n" + strings.Repeat("<td style=\"width:40px\">p</td>\r\n", 200))
	err := store.Tx(ctx, func(tx *db.Tx) error {
		_, err := tx.AddMail(ctx, db.Mail{Created: time.Now(), From: "congo@example.org", To: "alice@example.org", MessageID: "m1@example.org", Raw: raw})
		return err
	})
	store.Close()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(ctx, []string{"-db", path, "mail", "1"}, env(nil), &out, io.Discard); err != nil {
		t.Fatalf("congod mail 1: %v", err)
	}
	if !bytes.Equal(out.Bytes(), raw) {
		t.Errorf("congod mail 1 printed %d bytes %.60q, want the %d queued", out.Len(), out.Bytes(), len(raw))
	}
	err = run(ctx, []string{"-db", path, "mail", "2"}, env(nil), io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "no mail 2 in the outbox") {
		t.Errorf("congod mail 2 = %v, want no such mail", err)
	}
	var usage bytes.Buffer
	if err := run(ctx, []string{"-db", path, "mail"}, env(nil), io.Discard, &usage); !errors.Is(err, errUsage) || !strings.Contains(usage.String(), "usage: congod") {
		t.Errorf("congod mail without an id = %v, %q; want the usage", err, usage.String())
	}
}
