package congotest_test

import (
	"context"
	"database/sql"
	"errors"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/mailer/loopback"
	"github.com/congobymail/congo/outbox"
)

// The Sink is what the outbox sends through.
var _ outbox.Sender = (*congotest.Sink)(nil)

func TestClock(t *testing.T) {
	t.Parallel()
	c := congotest.NewClock()
	if got := c.Now(); !got.Equal(congotest.T0) {
		t.Errorf("NewClock().Now() = %v, want T0 %v", got, congotest.T0)
	}
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			for range 100 {
				c.Advance(time.Second)
				c.Now()
			}
		})
	}
	wg.Wait()
	if got, want := c.Now(), congotest.T0.Add(1000*time.Second); !got.Equal(want) {
		t.Errorf("after 1000 Advance(1s) at once: %v, want %v", got, want)
	}
	later := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	c.Set(later)
	if got := c.Now(); !got.Equal(later) {
		t.Errorf("after Set(%v): %v", later, got)
	}
}

func TestSink(t *testing.T) {
	t.Parallel()
	var k congotest.Sink
	ctx := context.Background()
	refused := errors.New("refused")
	k.FailNext(errors.New("never returned"), errors.New("never returned"), errors.New("never returned"))
	k.FailNext(refused, refused) // in place of those
	if n := k.Failing(); n != 2 {
		t.Errorf("Failing() = %d, want 2", n)
	}
	for i := range 2 {
		if err := k.Send(ctx, "congo@example.org", []string{"alice@players.example"}, []byte("x")); !errors.Is(err, refused) {
			t.Errorf("send %d = %v, want the error it was told", i, err)
		}
	}
	arrived := k.Arrived()
	to := []string{"alice@players.example"}
	msg := []byte("Subject: hello\r\n\r\nhi\r\n")
	if err := k.Send(ctx, "congo@example.org", to, msg); err != nil {
		t.Fatalf("Send: %v", err)
	}
	select {
	case <-arrived:
	default:
		t.Errorf("no signal on Arrived for a mail recorded")
	}
	to[0], msg[0] = "mallory@players.example", 'X' // the Sink keeps copies
	if err := k.Send(ctx, "congo@example.org", []string{"bob@players.example"}, []byte("y")); err != nil {
		t.Fatalf("Send: %v", err)
	}
	got := k.Take()
	if len(got) != 2 || got[0].From != "congo@example.org" || got[0].To[0] != "alice@players.example" ||
		string(got[0].Raw) != "Subject: hello\r\n\r\nhi\r\n" || got[1].To[0] != "bob@players.example" {
		t.Errorf("Take() = %+v, want the two mails recorded, as given", got)
	}
	if got := k.Take(); len(got) != 0 {
		t.Errorf("Take() again = %+v, want nothing", got)
	}
}

func TestNewDB(t *testing.T) {
	t.Parallel()
	d := congotest.NewDB(t, "alice", "bob")
	personal := regexp.MustCompile(`^[a-z2-7]{26}$`)
	seen := map[string]bool{}
	for _, h := range []string{"alice", "bob"} {
		p := congotest.Player(t, d, h)
		if p.Handle != h || p.Address != congotest.Address(h) || !p.Confirmed || !p.Created.Equal(congotest.T0) {
			t.Errorf("player %s = %+v, want registered at %s and confirmed at T0", h, p, congotest.Address(h))
		}
		if !personal.MatchString(p.Secret) || seen[p.Secret] || p.Secret != congotest.Secret(h) {
			t.Errorf("%s's secret %q: want Secret(%q), 26 base32 characters of its own", h, p.Secret, h)
		}
		seen[p.Secret] = true
	}
	congotest.InTx(t, d, func(ctx context.Context, tx *db.Tx) error {
		if _, err := tx.PlayerByHandle(ctx, "carol"); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("carol, not asked for: %v, want not found", err)
		}
		return nil
	})
}

// TestFreshDBIsMigrated: a fresh database, copied from the one migrated
// for the test binary, is as db.Open makes one: the same schema, the
// same version, readable by its owner alone.
func TestFreshDBIsMigrated(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	copied := filepath.Join(t.TempDir(), "copied.db")
	made := filepath.Join(t.TempDir(), "made.db")
	c := congotest.OpenDB(t, copied)
	m, err := db.Open(ctx, made)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	cv, err1 := c.SchemaVersion(ctx)
	mv, err2 := m.SchemaVersion(ctx)
	if err1 != nil || err2 != nil || cv != mv || cv == 0 {
		t.Errorf("schema version %d (%v), want db.Open's %d (%v)", cv, err1, mv, err2)
	}
	schema := func(path string) string {
		t.Helper()
		raw, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		defer raw.Close()
		rows, err := raw.Query("SELECT type, name, coalesce(sql, '') FROM sqlite_master ORDER BY type, name")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var b strings.Builder
		for rows.Next() {
			var typ, name, text string
			if err := rows.Scan(&typ, &name, &text); err != nil {
				t.Fatal(err)
			}
			b.WriteString(typ + " " + name + ": " + text + "\n")
		}
		return b.String()
	}
	if got, want := schema(copied), schema(made); got != want || want == "" {
		t.Errorf("the copied database's schema:\n%s\nwant db.Open's:\n%s", got, want)
	}
	if fi, err := os.Stat(copied); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the copied database's file: %v, %v; want mode 0600", fi.Mode(), err)
	}
}

// TestDBClosedAtCleanup: the database of a test is closed when it ends,
// and its file stays where the test put it until then.
func TestDBClosedAtCleanup(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "congo.db")
	var d *db.DB
	t.Run("inner", func(t *testing.T) {
		d = congotest.OpenDB(t, path)
		congotest.AddPlayers(t, d, "alice")
	})
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the database file: %v", err)
	}
	if err := d.Tx(context.Background(), func(tx *db.Tx) error { return nil }); err == nil {
		t.Errorf("a transaction after the test's end worked: the database was not closed")
	}
	again := congotest.OpenDB(t, path)
	if p := congotest.Player(t, again, "alice"); !p.Confirmed {
		t.Errorf("alice, opened again: %+v", p)
	}
}

func TestWaitFor(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	done := false
	go func() {
		time.Sleep(30 * time.Millisecond)
		mu.Lock()
		done = true
		mu.Unlock()
	}()
	congotest.WaitFor(t, "the goroutine's work", 10*time.Second, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return done
	})
	start := time.Now()
	if congotest.Poll(50*time.Millisecond, func() bool { return false }) {
		t.Errorf("Poll of a condition that never holds = true")
	}
	if waited := time.Since(start); waited < 50*time.Millisecond {
		t.Errorf("Poll gave up after %v, want 50ms", waited)
	}
}

func TestStartMail(t *testing.T) {
	t.Parallel()
	var sys *loopback.System
	t.Run("inner", func(t *testing.T) {
		sys = congotest.StartMail(t, loopback.Config{})
		if got := sys.Address("congo"); got != "congo@example.org" {
			t.Errorf("Address(congo) = %q, want congo@example.org", got)
		}
		raw := []byte("From: alice@players.example\r\nSubject: hello\r\n\r\nhi\r\n")
		if err := sys.Deliver(context.Background(), "alice@players.example", []string{"congo@example.org"}, raw); err != nil {
			t.Fatalf("Deliver: %v", err)
		}
		msgs, err := sys.Fetch(context.Background(), "congo", "INBOX")
		if err != nil || len(msgs) != 1 {
			t.Errorf("congo's INBOX: %d mails, %v; want the one delivered", len(msgs), err)
		}
	})
	if err := sys.Deliver(context.Background(), "alice@players.example", []string{"congo@example.org"}, []byte("x")); err == nil {
		t.Errorf("Deliver after the test's end worked: the servers were not stopped")
	}
}

// TestImports: the test world knows the database and the loopback mail
// servers, and no room nor the server, so that the tests of every
// package but those two may use it.
func TestImports(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range af.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if rest, ok := strings.CutPrefix(p, "github.com/congobymail/congo/"); ok && !slices.Contains(got, rest) {
				got = append(got, rest)
			}
		}
	}
	slices.Sort(got)
	if want := []string{"db", "mailer/loopback"}; !slices.Equal(got, want) {
		t.Errorf("congotest imports %q of the project, want %q alone", got, want)
	}
}
