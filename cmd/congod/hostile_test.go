package main

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/config"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/internal/pgtest"
	"github.com/congobymail/congo/mailmsg"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/server"
)

// hostile is a server on a real SQLite file with one registered player,
// alice, who has a game (1) with bob, to hand hostile mail to.
type hostile struct {
	t       *testing.T
	store   *db.DB
	srv     *server.Server
	alice   string // alice's registered address
	alicePA string // alice's personal address
	bob     string // bob's registered address
	uid     uint32
	last    int64 // the last outbox mail looked at
	clock   *congotest.Clock
}

func newHostile(t *testing.T, maxReplies int) *hostile {
	t.Helper()
	store := congotest.OpenDB(t, pgtest.DSN(t))
	logger := slog.New(slog.DiscardHandler)
	clock := congotest.NewClock()
	clock.Set(time.Now().UTC())
	ob, err := outbox.New(outbox.Config{DB: store, From: "congo@example.org", Hostname: "example.org",
		Logger: logger, MaxPerRecipient: maxReplies, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(server.Config{DB: store, Logger: logger, Outbox: ob, Now: clock.Now, Settings: config.Settings{Address: "congo@example.org"}})
	if err != nil {
		t.Fatal(err)
	}
	h := &hostile{t: t, store: store, srv: srv, clock: clock}
	gs := seedGames(t, store, 1)
	h.alice, h.alicePA, h.bob = gs[0].white, gs[0].whitePA, gs[0].black
	h.last = int64(len(outboxIDs(t, store)))
	return h
}

// handle hands raw to the server as the daemon would, and returns the
// mails it queued.
func (h *hostile) handle(raw []byte) []db.Mail {
	h.t.Helper()
	ctx := context.Background()
	m, err := mailmsg.Parse(raw)
	if m == nil {
		h.t.Fatalf("mailmsg.Parse returned no message: %v", err)
	}
	h.uid++
	m.UIDValidity, m.UID = 1, h.uid
	if err := h.srv.ProcessMail(ctx, m); err != nil {
		h.t.Fatalf("ProcessMail: %v", err)
	}
	var out []db.Mail
	err = h.store.Tx(ctx, func(tx *db.Tx) error {
		for ; ; h.last++ {
			m, err := tx.Mail(ctx, h.last+1)
			if err != nil {
				return nil
			}
			out = append(out, m)
		}
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return out
}

// TestHostileMail hands the mails of testdata/hostile to the server: each
// gets a clear answer, at the right address, or is silently filed away.
func TestHostileMail(t *testing.T) {
	tests := []struct {
		file string
		to   string // the one answer's recipient; "" for no answer
		want string // in the answer's text
	}{
		{"bad-base64.eml", stranger, "CONGO BY MAIL"},
		{"base64-body.eml", stranger, "CONGO BY MAIL"},
		{"bounce-dsn.eml", "", ""},
		{"bounce-null-return-path.eml", "", ""},
		{"bounce-postmaster.eml", "", ""},
		{"display-name-comment.eml", stranger, "CONGO BY MAIL"},
		{"eight-bit-no-charset.eml", stranger, "CONGO BY MAIL"},
		{"empty-body.eml", stranger, "This address is not registered"},
		{"forged-from.eml", alice, "did not come to your personal address"},
		{"forwarded-rfc822.eml", stranger, "CONGO BY MAIL"},
		{"header-injection-handle.eml", stranger, "is not a handle"},
		{"header-injection-subject.eml", stranger, "is not a handle"},
		{"html-only.eml", stranger, "CONGO BY MAIL"},
		{"iso-8859-1.eml", stranger, "CONGO BY MAIL"},
		{"list-id.eml", "", ""},
		{"long-line.eml", stranger, "too long to be a command"},
		{"lookalike-handle.eml", stranger, "is not a handle"},
		{"missing-from.eml", "", ""},
		{"nested-alternative.eml", stranger, "CONGO BY MAIL"},
		{"no-such-game.eml", alice, "999"},
		{"nul-bytes.eml", stranger, "CONGO BY MAIL"},
		{"own-address.eml", "", ""},
		{"own-plus-address.eml", "", ""},
		{"precedence-bulk.eml", "", ""},
		{"quoted-printable.eml", stranger, "CONGO BY MAIL"},
		{"reply-to-elsewhere.eml", alice, "white00"},
		{"several-addresses-in-from.eml", stranger, "CONGO BY MAIL"},
		{"several-from.eml", stranger, "CONGO BY MAIL"},
		{"subject-command.eml", stranger, "CONGO BY MAIL"},
		{"unicode-handle.eml", stranger, "is not a handle"},
		{"unknown-charset.eml", stranger, "CONGO BY MAIL"},
		{"utf-16.eml", stranger, "CONGO BY MAIL"},
		{"vacation-auto-generated.eml", "", ""},
		{"vacation-auto-replied.eml", "", ""},
		{"vacation-precedence-junk.eml", "", ""},
		{"windows-1252.eml", stranger, "CONGO BY MAIL"},
	}
	h := newHostile(t, 0)
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			h.t = t
			h.clock.Advance(25 * time.Hour) // a stranger is answered once a day (M28)
			raw, err := os.ReadFile(filepath.Join("testdata", "hostile", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			raw = bytes.ReplaceAll(raw, []byte("PERSONAL"), []byte(h.alicePA))
			raw = bytes.ReplaceAll(raw, []byte(alice), []byte(h.alice))
			h.check(tt.file, h.handle(raw), strings.Replace(tt.to, alice, h.alice, 1), tt.want)
		})
	}
}

// The senders of the corpus: a stranger, and alice (the registered white
// player of game 1, whose address the test puts in).
const (
	stranger = "stranger@example.net"
	alice    = "alice@example.org"
)

// check tests the mails queued for one incoming mail: none when to is
// empty, else one to the address to holding want, with no header
// smuggled in and no other player's address.
func (h *hostile) check(what string, out []db.Mail, to, want string) {
	h.t.Helper()
	if to == "" {
		if len(out) != 0 {
			in, _ := mailmsg.Parse(out[0].Raw)
			h.t.Errorf("%s: answered to %s (%q), want no answer", what, out[0].To, in.Subject)
		}
		return
	}
	if len(out) != 1 {
		h.t.Fatalf("%s: %d mails queued, want 1 answer to %s", what, len(out), to)
	}
	m := out[0]
	in, err := mailmsg.Parse(m.Raw)
	if err != nil {
		h.t.Errorf("%s: the answer does not parse: %v", what, err)
	}
	if m.To != to || in.From != "congo@example.org" {
		h.t.Errorf("%s: answer from %s to %s, want from congo@example.org to %s", what, in.From, m.To, to)
	}
	if !strings.Contains(in.Text, want) {
		h.t.Errorf("%s: answer lacks %q:\n%s", what, want, in.Text)
	}
	header, _, _ := bytes.Cut(m.Raw, []byte("\r\n\r\n"))
	for _, line := range strings.Split(string(header), "\r\n") {
		name, _, _ := strings.Cut(line, ":")
		switch strings.ToLower(name) {
		case "bcc", "cc":
			h.t.Errorf("%s: the answer has a header %q", what, line)
		}
	}
	if strings.Contains(strings.ToLower(string(m.Raw)), "black00") && strings.Contains(string(m.Raw), h.bob) {
		h.t.Errorf("%s: the answer shows bob's address", what)
	}
}

// TestHostileLargeMail: a 20 MB attachment and a 100,000-line body are
// answered (the daemon reads at most -max-size bytes of a mail; the
// server gets the whole of them here); a flood of 1,000 mails from an
// address not registered gets one answer (M28), and one from a player
// that proves nothing no more than -max-per-recipient and the notice of
// the cap (M29).
func TestHostileLargeMail(t *testing.T) {
	if testing.Short() {
		t.Skip("large mails")
	}
	h := newHostile(t, 0)
	head := "From: stranger@example.net\r\nTo: congo@example.org\r\nSubject: big\r\nMIME-Version: 1.0\r\n"
	var att bytes.Buffer
	att.WriteString(head + "Message-ID: <attachment@client.example.net>\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n" +
		"--b\r\nContent-Type: text/plain\r\n\r\nhelp\r\n--b\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\n")
	line := strings.Repeat("QUJD", 19) + "\r\n"
	for att.Len() < 20<<20 {
		att.WriteString(line)
	}
	att.WriteString("--b--\r\n")
	h.check("20 MB attachment", h.handle(att.Bytes()), stranger, "CONGO BY MAIL")
	h.clock.Advance(25 * time.Hour)

	var long bytes.Buffer
	long.WriteString(head + "Message-ID: <long@client.example.net>\r\n\r\nhelp\r\n")
	for i := range 100000 {
		fmt.Fprintf(&long, "line %d of a long letter\r\n", i)
	}
	h.check("100,000 lines", h.handle(long.Bytes()), stranger, "")

	for _, flood := range []struct {
		from string
		want int
	}{
		// Forged mail is answered within its own cap, whoever it names
		// (M52), and spends nothing of the player's.
		{"flood@example.net", outbox.MaxUnprovenPerDay},
		{h.alice, outbox.MaxUnprovenPerDay},
	} {
		answers := 0
		for i := range 1000 {
			raw := fmt.Sprintf("From: %s\r\nTo: congo@example.org\r\nSubject: flood\r\nMessage-ID: <flood%d.%s>\r\n\r\nhelp\r\n", flood.from, i, flood.from)
			answers += len(h.handle([]byte(raw)))
		}
		if answers != flood.want {
			t.Errorf("1,000 mails from %s got %d answers, want %d", flood.from, answers, flood.want)
		}
		h.clock.Advance(25 * time.Hour)
	}
}
