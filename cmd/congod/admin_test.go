package main

import (
	"bytes"
	"context"
	"github.com/congobymail/congo/mailmsg"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/congobymail/congo/internal/pgtest"
)

// TestAdmin has the operator adjourn, resume, ban by mail, and adjudicate
// on the command line, while the daemon runs; the players concerned are
// told each time, and a forged operator's mail does nothing.
func TestAdmin(t *testing.T) {
	sys := startSystem(t)
	dbPath := pgtest.DSN(t)
	const server = "congo@example.org"
	carol := "carol@example.org"
	d := startDaemon(t, sys, dbPath, func(c *settings) { c.Operator = carol })
	w := newWorld(t, sys)
	board, bobPA, _ := playOpening(t, w)
	w.send(carol, server, "", "register carol", "")
	carolPA := w.replyTo(w.expect("carol", 1)[0])

	op := func(line string) {
		t.Helper()
		w.send(carol, carolPA, "", line, "")
		wantContains(t, line, w.expect("carol", 1)[0], "Done")
	}

	op("adjourn congo 1")
	for _, who := range []string{"alice", "bob"} {
		wantContains(t, "adjourn notice to "+who, w.expect(who, 1)[0], "adjourned game 1")
	}
	w.send("bob@example.org", bobPA, "Re: "+board.Subject, "d6-c5 anyway", board.MessageID)
	wantContains(t, "move in an adjourned game", w.expect("bob", 1)[0], "adjourned")
	w.expectNothing("alice")

	op("resume congo 1")
	for _, who := range []string{"alice", "bob"} {
		wantContains(t, "resume notice to "+who, w.expect(who, 1)[0], "resumed game 1")
	}
	w.send("bob@example.org", bobPA, "Re: "+board.Subject, "d6-c5 anyway", board.MessageID)
	wantContains(t, "move after resume", w.expect("alice", 1)[0], "Position: gmelecz/ppp1ppp/2p4/7/4P2/PPP1PPP/GMELECZ w 2")
	w.expect("bob", 1)

	op("ban bob")
	wantContains(t, "ban notice", w.expect("bob", 1)[0], "banned you")
	w.send("bob@example.org", bobPA, "", "games", "")
	wantContains(t, "command of a banned player", w.expect("bob", 1)[0], "banned")

	// A forged mail from the operator's address, not to the personal
	// address: no operator's command.
	w.send(carol, server, "", "unban bob", "")
	w.expect("carol", 1)
	w.expectNothing("bob")

	// On the command line, while the daemon runs.
	var stdout bytes.Buffer
	args := []string{"-db", dbPath, "-address", server, "admin", "adjudicate", "congo", "1", "white"}
	if err := run(context.Background(), args, env(nil), &stdout, io.Discard); err != nil {
		t.Fatalf("run(%q) = %v", args, err)
	}
	if !strings.Contains(stdout.String(), "adjudicate game 1 white") {
		t.Errorf("run(%q) printed %q", args, stdout.String())
	}
	if err := run(context.Background(), []string{"-db", dbPath, "-address", server, "admin", "resume", "1"}, env(nil), io.Discard, io.Discard); err == nil {
		t.Errorf("admin resume of a finished game: no error")
	}
	// The daemon's outbox sends the notices at its next round: a mail
	// to it starts one now.
	w.send(carol, server, "", "help", "")
	w.expect("carol", 1)
	for _, who := range []string{"alice", "bob"} {
		n := w.expect(who, 1)[0]
		wantSubject(t, "adjudication to "+who, n, "Congo game 1: alice vs bob")
		wantContains(t, "adjudication to "+who, n, "decided game 1")
	}
	d.stop()
	// The daemon logs the three commands by mail; the command line logs
	// its own.
	lines := d.logs.records("admin")
	if len(lines) != 3 {
		t.Fatalf("%d log lines \"admin\", want 3", len(lines))
	}
	for _, l := range lines {
		if l["by"] != carol {
			t.Errorf("admin log line by %v, want %s", l["by"], carol)
		}
	}
}

// TestAdminLikeServe checks that congod admin makes its server as the
// daemon does, from the same settings (newServer): with -name, -robot
// and the web pages' -public-url, the operator's notice about a robot
// game from the command line is the notice the daemon sends for the same
// command by mail, From "Congo Club" alike.
func TestAdminLikeServe(t *testing.T) {
	sys := startSystem(t)
	dbPath := pgtest.DSN(t)
	const server = "congo@example.org"
	carol := "carol@example.org"
	tune := func(c *settings) {
		c.Operator, c.Name, c.Robot = carol, "Congo Club", "robot"
		c.Web, c.PublicURL = "127.0.0.1:0", "https://congo.example.org/"
	}
	startDaemon(t, sys, dbPath, tune)
	w := newWorld(t, sys)
	w.send("alice@example.org", server, "", "register alice", "")
	alicePA := w.replyTo(w.expect("alice", 1)[0])
	w.send(carol, server, "", "register carol", "")
	carolPA := w.replyTo(w.expect("carol", 1)[0])
	for range 2 {
		w.send("alice@example.org", alicePA, "", "challenge congo robot", "")
		wantContains(t, "robot game", w.expect("alice", 1)[0], "robot")
	}

	// Game 1 by the operator's mail, game 2 on the command line.
	w.send(carol, carolPA, "", "adjourn congo 1", "")
	wantContains(t, "operator's answer", w.expect("carol", 1)[0], "Done")
	byMail := w.expect("alice", 1)[0]
	cfg, _, err := parseConfig([]string{"-db", dbPath, "-address", server}, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	tune(cfg)
	if err := runAdmin(context.Background(), cfg, []string{"adjourn", "2"}, io.Discard, io.Discard, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatalf("admin adjourn 2: %v", err)
	}
	w.send(carol, server, "", "help", "") // the daemon's outbox sends at its next round
	w.expect("carol", 1)
	onLine := w.expect("alice", 1)[0]

	for _, m := range []*mailmsg.Incoming{byMail, onLine} {
		from := string(w.raw[m.MessageID])
		if !strings.Contains(from, "From: Congo Club <congo@example.org>") {
			t.Errorf("notice %q is not From: Congo Club <congo@example.org>:\n%s", m.Subject, from)
		}
	}
	if got, want := strings.ReplaceAll(onLine.Text, "game 2", "game 1"), byMail.Text; got != want {
		t.Errorf("admin's notice about game 2 is not the daemon's about game 1:\n%s\nwant\n%s", onLine.Text, byMail.Text)
	}
	if got, want := strings.ReplaceAll(onLine.Subject, "game 2", "game 1"), byMail.Subject; got != want {
		t.Errorf("admin's notice's Subject %q, the daemon's %q", onLine.Subject, byMail.Subject)
	}
}
