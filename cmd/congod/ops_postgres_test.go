package main

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"github.com/congobymail/congo/config"
	"io"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/congobymail/congo/internal/pgtest"
)

// TestBackupPostgres: "congod backup" of a PostgreSQL database dumps it
// with pg_dump while the daemon runs, and says so; the dump restored with
// pg_restore (its schema dropped first, as after a loss) carries the
// game on.
func TestBackupPostgres(t *testing.T) {
	pgtest.Need(t)
	for _, tool := range []string{"pg_dump", "pg_restore"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("SKIPPED: no %s: %v", tool, err)
		}
	}
	sys := startSystem(t)
	live := pgtest.DSN(t)
	d := startDaemon(t, sys, live, nil)
	w := newWorld(t, sys)
	board, bobPA, alicePA := playOpening(t, w)
	w.send("bob@example.org", bobPA, "Re: "+board.Subject, "d6-c5 anyway", board.MessageID)
	a2 := w.expect("alice", 1)[0]
	w.expect("bob", 1)

	dump := filepath.Join(t.TempDir(), "congo.dump")
	var stdout bytes.Buffer
	if err := run(context.Background(), []string{"-db", live, "backup", dump}, env(nil), &stdout, io.Discard); err != nil {
		t.Fatalf("backup: %v", err)
	}
	if got := stdout.String(); !strings.Contains(got, "with pg_dump") || strings.Contains(got, passwordOf(t, live)) {
		t.Errorf("backup printed %q, want it to name pg_dump and not the password", got)
	}
	d.stop()

	u, _ := url.Parse(live)
	schema := u.Query().Get("search_path")
	admin, err := sql.Open("pgx", pgtest.Server())
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if _, err := admin.Exec("DROP SCHEMA " + schema + " CASCADE"); err != nil { // a name of pgtest's
		t.Fatal(err)
	}
	base, _ := url.Parse(pgtest.Server())
	pw, _ := base.User.Password()
	base.User = url.User(base.User.Username())
	restore := exec.Command("pg_restore", "--no-password", "--dbname="+base.String(), dump)
	restore.Env = append(restore.Environ(), "PGPASSWORD="+pw)
	if out, err := restore.CombinedOutput(); err != nil {
		t.Fatalf("pg_restore: %v\n%s", err, out)
	}
	startDaemon(t, sys, live, nil)
	w.send("alice@example.org", alicePA, "Re: "+a2.Subject, "d1xd7", a2.MessageID)
	for _, who := range []string{"alice", "bob"} {
		end := w.expect(who, 1)[0]
		wantSubject(t, "the end to "+who, end, "Congo game 1: alice vs bob")
	}
}

// passwordOf is the password of a URL.
func passwordOf(t *testing.T, raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		t.Fatalf("URL %q: %v", raw, err)
	}
	pw, _ := u.User.Password()
	return pw
}

// TestCheckConfigPostgres: -check-config takes a PostgreSQL URL and
// refuses one that would carry a password over the network unencrypted
// (without -insecure); it connects to the database and writes to it, and
// a refused login is named without the password.
func TestCheckConfigPostgres(t *testing.T) {
	pgtest.Need(t)
	base := []string{"-imap", "imaps://congo:pw@imap.example.org/INBOX", "-smtp", "smtps://smtp.example.org",
		"-address", "congo@example.org", "-check-config"}
	live := pgtest.DSN(t)
	for _, tt := range []struct {
		db    string
		extra []string
		ok    bool
	}{
		{live, nil, true},
		{"postgres://congo:pw@127.0.0.1:5432/congo?sslmode=disable", nil, true},
		{"postgres://congo:pw@db.example.net/congo?sslmode=verify-full", nil, true},
		{"postgresql://congo@db.example.net/congo", nil, true},
		{"postgres://congo:pw@db.example.net/congo", nil, false},
		{"postgres://congo:pw@db.example.net/congo?sslmode=disable", nil, false},
		{"postgres://congo:pw@db.example.net/congo?sslmode=disable", []string{"-insecure"}, true},
		{"postgres://congo:pw@db.example.net:notaport/congo", nil, false},
	} {
		args := append(append([]string{"-db", tt.db}, tt.extra...), base...)
		c, _, err := parseConfig(args, env(nil), io.Discard)
		if err == nil {
			err = c.validate()
		}
		if (err == nil) != tt.ok {
			t.Errorf("check-config -db %s %v = %v, want ok %v", tt.db, tt.extra, err, tt.ok)
		}
		if err != nil && strings.Contains(err.Error(), ":pw@") {
			t.Errorf("check-config -db %s: the error %q shows the password", tt.db, err)
		}
		if !tt.ok && !errors.Is(err, errCleartextPassword) && !strings.Contains(err.Error(), "db") {
			t.Errorf("check-config -db %s: %v does not name the key", tt.db, err)
		}
	}

	// The connection itself.
	ctx := context.Background()
	if r := checkDatabase(ctx, &settings{Settings: config.Settings{DB: live}}, nil); r.problem != noProblem || strings.Contains(r.String(), passwordOf(t, live)) {
		t.Errorf("checkDatabase(the test database) = %s, want ok without the password", r)
	}
	u, _ := url.Parse(live)
	u.User = url.UserPassword(u.User.Username(), "wrong-password")
	if r := checkDatabase(ctx, &settings{Settings: config.Settings{DB: u.String()}}, nil); r.problem != loginRefused || strings.Contains(r.String(), "wrong-password") {
		t.Errorf("checkDatabase(a wrong password) = %s, want login refused without the password", r)
	} else {
		t.Logf("a wrong password: %s", r)
	}
	u.Host = "127.0.0.1:1" // nothing listens there
	if r := checkDatabase(ctx, &settings{Settings: config.Settings{DB: u.String()}}, nil); r.problem != unreachable {
		t.Errorf("checkDatabase(no server) = %s, want unreachable", r)
	}
}
