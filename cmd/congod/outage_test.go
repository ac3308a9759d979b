package main

import (
	"fmt"
	"github.com/congobymail/congo/config"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/congobymail/congo/internal/dovecottest"
)

// immutable makes the database's files immutable (chattr +i), or mutable
// again, so that every write to them fails as on a broken disk; the test
// is skipped where chattr cannot.
func immutable(t *testing.T, dbPath string, on bool) {
	t.Helper()
	op := "-i"
	if on {
		op = "+i"
	}
	for _, f := range []string{dbPath, dbPath + "-wal", dbPath + "-shm"} {
		if out, err := exec.Command("chattr", op, f).CombinedOutput(); err != nil {
			if on {
				t.Skipf("chattr %s %s: %v %s: the file system cannot make files immutable", op, f, err, out)
			}
			t.Errorf("chattr %s %s: %v %s", op, f, err, out)
		}
	}
}

// TestDatabaseOutage, against Dovecot: while the database takes no write,
// a mail waiting costs no try and is not set aside, however long the
// outage and however few the tries allowed; /healthz says the database is
// down; once it answers, the mail is handled within seconds.
func TestDatabaseOutage(t *testing.T) {
	d := dovecottest.Start(t, dovecottest.Config{TLS: true, Users: []dovecottest.User{
		{Name: "congo", Password: "congo-pw"}, {Name: "alice", Password: "alice-pw"}, {Name: "bob", Password: "bob-pw"},
	}})
	sys := dovecotSystem{d: d, smtp: d.StartSMTP(t)}
	dbPath := filepath.Join(t.TempDir(), "congo.db")
	cfg := &settings{Settings: config.Settings{
		IMAP: d.URL("imaps", "congo", "INBOX"), SMTP: sys.smtp.URL("smtps", "congo"), CAFile: d.CAFile,
		Address: "congo@example.org", DB: dbPath, Poll: time.Minute, Processed: "Processed",
		Quarantine: "Quarantine", MaxTries: 2, LogLevel: "info",
	}}
	var dm interface {
		healthz(*testing.T) (int, health)
	}
	if raceEnabled {
		dm = runOutageChild(t, cfg)
	} else {
		dm = runDaemon(t, cfg)
	}
	w := &world{t: t, sys: sys, seen: map[string]int{}, raw: map[string][]byte{}}
	w.send("alice@example.org", "congo@example.org", "", "help", "")
	w.expect("alice", 1)
	t.Cleanup(func() { immutable(t, dbPath, false) })
	immutable(t, dbPath, true)

	w.send("bob@example.org", "congo@example.org", "", "help", "")
	eventually(t, "healthz says the database is down", func() string {
		if code, h := dm.healthz(t); code != 503 || !slices.Contains(h.Down, "database") {
			return fmt.Sprintf("healthz %d %+v", code, h)
		}
		return ""
	})
	time.Sleep(6 * time.Second) // many tries, at one a second: more than -max-tries
	if q, err := d.Messages("congo", "Quarantine"); err == nil && len(q) > 0 {
		t.Fatalf("a mail waiting out a database outage was set aside")
	}
	w.expectNothing("bob")

	immutable(t, dbPath, false)
	start := time.Now()
	w.expect("bob", 1)
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the mail was handled %v after the database answered again, want within seconds", took)
	}
	eventually(t, "healthz ok again", func() string {
		if code, h := dm.healthz(t); code != 200 {
			return fmt.Sprintf("healthz %d %+v", code, h)
		}
		return ""
	})
}

// runOutageChild runs TestDatabaseOutage's daemon as a child process
// built without the race detector, for a test built with it. The outage
// makes the database's -shm file immutable, so that a write to a page of
// its memory map faults (SIGBUS); SQLite's guard for such faults
// (modernc's emulation of SQLITE_USE_SEH, by debug.SetPanicOnFault) turns
// that into an I/O error, and the daemon waits the outage out. Under
// -race, though, an atomic write to memory outside the Go heap, as the
// wal-index's, is done by the race runtime's C code, and a fault there
// cannot be recovered: the process dies ("unexpected return pc for
// runtime.sigpanic"; about one run in ten here). A daemon is never
// built with -race to run.
func runOutageChild(t *testing.T, cfg *settings) childHealth {
	t.Helper()
	addr := fmt.Sprintf("127.0.0.1:%d", dovecottest.FreePort(t))
	c := newChild(t, buildDaemonWith(t, false),
		"-imap", cfg.IMAP, "-smtp", cfg.SMTP, "-ca-file", cfg.CAFile, "-address", cfg.Address,
		"-db", cfg.DB, "-poll", cfg.Poll.String(), "-processed", cfg.Processed,
		"-quarantine", cfg.Quarantine, "-max-tries", fmt.Sprint(cfg.MaxTries), "-log-level", cfg.LogLevel,
		"-http", addr)
	c.start()
	c.waitStarted()
	t.Cleanup(func() {
		if c.cmd == nil {
			return
		}
		if _, err := c.stop(); err != nil {
			t.Errorf("stopping congod: %v", err)
		}
	})
	return childHealth{addr: addr}
}

// childHealth asks a child daemon's /healthz.
type childHealth struct{ addr string }

func (c childHealth) healthz(t *testing.T) (int, health) {
	t.Helper()
	return (&daemon{http: c.addr}).healthz(t)
}
