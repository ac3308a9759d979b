package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/congobymail/congo/config"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"

	"github.com/congobymail/congo/mailer/loopback"
	"github.com/congobymail/congo/mailmsg"
)

// TestDemoListensOnLoopbackOnly checks that the demo, whose mail servers
// have no TLS and well-known passwords, refuses to listen where other
// machines reach it, naming the setting at fault.
func TestDemoListensOnLoopbackOnly(t *testing.T) {
	tests := []struct {
		args []string
		key  string
	}{
		{[]string{"-demo-imap", "0.0.0.0:0"}, "demo-imap"},
		{[]string{"-demo-imap", ":0"}, "demo-imap"},
		{[]string{"-demo-smtp", "[::]:0"}, "demo-smtp"},
		{[]string{"-demo-smtp", "192.0.2.1:2525"}, "demo-smtp"},
		{[]string{"-demo-smtp", "mail.example.org:2525"}, "demo-smtp"},
		{[]string{"-http", "0.0.0.0:0"}, "http"},
		{[]string{"-web", "0.0.0.0:0"}, "web"},
		{[]string{"-web", ":0"}, "web"},
	}
	for _, tt := range tests {
		args := append([]string{"-demo", "-db", filepath.Join(t.TempDir(), "congo-demo.db"),
			"-demo-imap", "127.0.0.1:0", "-demo-smtp", "127.0.0.1:0"}, tt.args...)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err := run(ctx, args, env(nil), io.Discard, io.Discard)
		cancel()
		var se *config.SettingError
		if !errors.As(err, &se) || se.Key != tt.key || !errors.Is(err, errNotLoopback) {
			t.Errorf("run(%q) = %v, want a not-loopback error about %s", args, err, tt.key)
		}
	}
	args := []string{"-demo", "-db", filepath.Join(t.TempDir(), "congo-demo.db"), "-demo-imap", "1143"}
	var se *config.SettingError
	if err := run(context.Background(), args, env(nil), io.Discard, io.Discard); !errors.As(err, &se) || se.Key != "demo-imap" {
		t.Errorf("run(%q) = %v, want an error about demo-imap", args, err)
	}
}

// demoRun is a demo run by a test: its mail servers, reached as a mail
// client would, and its banner.
type demoRun struct {
	t      *testing.T
	imap   string
	smtp   string
	banner string
	web    string // the public URL of its web pages
	logs   *logBuffer
	stop   func()
}

// startDemo runs "congod -demo -db dbPath" on free ports until stop is
// called or the test ends.
func startDemo(t *testing.T, dbPath string) *demoRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out, logs := &logBuffer{t: t}, &logBuffer{t: t}
	args := []string{"-demo", "-db", dbPath, "-demo-imap", "127.0.0.1:0", "-demo-smtp", "127.0.0.1:0", "-web", "127.0.0.1:0"}
	done := make(chan error, 1)
	go func() { done <- run(ctx, args, env(nil), out, logs) }()
	d := &demoRun{t: t, logs: logs}
	line := regexp.MustCompile(`(?m)^  (IMAP|SMTP)  (\S+)`)
	deadline := time.Now().Add(10 * time.Second)
	for d.imap == "" || d.smtp == "" {
		for _, m := range line.FindAllStringSubmatch(out.String(), -1) {
			if m[1] == "IMAP" {
				d.imap = m[2]
			} else {
				d.smtp = m[2]
			}
		}
		select {
		case err := <-done:
			cancel()
			t.Fatalf("run(%q) = %v before its banner", args, err)
		default:
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("run(%q): no banner in 10 s: %q", args, out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	d.banner = out.String()
	if m := regexp.MustCompile(`(?m)^Web pages of the games: (\S+)`).FindStringSubmatch(d.banner); m != nil {
		d.web = m[1]
	} else {
		t.Errorf("the banner names no web pages:\n%s", d.banner)
	}
	var once sync.Once
	d.stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("run(%q) = %v", args, err)
				}
			case <-time.After(5 * time.Second):
				t.Errorf("the demo did not stop within 5 s")
			}
			// The mail servers stop after the daemon, which has nothing
			// to complain of.
			for _, line := range strings.Split(logs.String(), "\n") {
				if strings.Contains(line, "level=WARN") || strings.Contains(line, "level=ERROR") {
					t.Errorf("the demo logged: %s", line)
				}
			}
		})
	}
	t.Cleanup(d.stop)
	return d
}

// Deliver and Messages make a demoRun the world's mailSystem.
func (d *demoRun) Deliver(ctx context.Context, from string, to []string, raw []byte) error {
	c, err := smtp.Dial(d.smtp)
	if err != nil {
		return err
	}
	defer c.Close()
	return c.SendMail(from, to, bytes.NewReader(raw))
}

func (d *demoRun) Messages(name, mailbox string) ([][]byte, error) {
	msgs, err := d.mailbox(name, mailbox)
	if err != nil {
		return nil, err
	}
	var raws [][]byte
	for _, m := range msgs {
		raws = append(raws, m.Raw)
	}
	return raws, nil
}

// mailbox reads a demo user's mailbox (the password is the name).
func (d *demoRun) mailbox(name, mailbox string) ([]loopback.Message, error) {
	c, err := imapclient.DialInsecure(d.imap, nil)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if err := c.Login(name, name).Wait(); err != nil {
		return nil, err
	}
	return loopback.ReadMailbox(c, mailbox)
}

// uids are the UIDVALIDITY and UIDs of the demo's mailboxes, as a mail
// client keeps them.
func (d *demoRun) uids() string {
	d.t.Helper()
	var b strings.Builder
	for _, u := range demoUsers {
		c, err := imapclient.DialInsecure(d.imap, nil)
		if err != nil {
			d.t.Fatal(err)
		}
		if err := c.Login(u.Name, u.Password).Wait(); err != nil {
			d.t.Fatal(err)
		}
		list, err := c.List("", "*", nil).Collect()
		if err != nil {
			d.t.Fatal(err)
		}
		slices.SortFunc(list, func(a, b *imap.ListData) int { return strings.Compare(a.Mailbox, b.Mailbox) })
		for _, l := range list {
			sel, err := c.Select(l.Mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
			if err != nil {
				d.t.Fatal(err)
			}
			msgs, err := loopback.ReadMailbox(c, l.Mailbox)
			if err != nil {
				d.t.Fatal(err)
			}
			fmt.Fprintf(&b, "%s/%s UIDVALIDITY %d UIDNEXT %d:", u.Name, l.Mailbox, sel.UIDValidity, sel.UIDNext)
			for _, m := range msgs {
				fmt.Fprintf(&b, " %d", m.UID)
			}
			b.WriteString("\n")
		}
		c.Close()
	}
	return b.String()
}

// TestDemoRestart runs the demo, registers two players and has one
// challenge the other, stops it and starts it again on the same files:
// the mailboxes are as they were, UIDs and all, and bob accepts game 1
// by replying to the challenge he received before the restart. Each stop
// is quiet: the mail servers outlive the daemon's staged stop.
func TestDemoRestart(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "congo-demo.db")
	mailDir := filepath.Join(dir, "congo-demo.mail")
	d := startDemo(t, dbPath)
	for _, want := range []string{mailDir, "survive a restart", "delete " + dbPath + "* and " + mailDir,
		// Four players, enough for a tournament (M62).
		"alice  alice  alice@example.org", "bob    bob    bob@example.org", "carol  carol  carol@example.org",
		"dave   dave   dave@example.org", "tournament 1 add robot"} {
		if !strings.Contains(d.banner, want) {
			t.Errorf("the banner does not say %q:\n%s", want, d.banner)
		}
	}

	const server = "congo@example.org"
	alice, bob := "alice@example.org", "bob@example.org"
	w := &world{t: t, sys: d, seen: map[string]int{}, raw: map[string][]byte{}}
	w.send(alice, server, "hello", "register alice", "")
	welcome := w.expect("alice", 1)[0]
	w.send(bob, server, "hello", "register bob", "")
	bobWelcome := w.expect("bob", 1)[0]
	bobPA := w.replyTo(bobWelcome)
	// A first mail to his personal address (which confirms it, where
	// addresses must be confirmed before a challenge).
	w.send(bob, bobPA, "Re: "+bobWelcome.Subject, "games", bobWelcome.MessageID)
	w.expect("bob", 1)
	w.send(alice, w.replyTo(welcome), "Re: "+welcome.Subject, "challenge congo bob", welcome.MessageID)
	challenge := w.expect("bob", 1)[0]
	wantGame1(t, "challenge to bob", challenge, "accept congo 1")
	w.expect("alice", 1)
	// carol and dave have mailboxes too, enough for a tournament (M62).
	for _, p := range []string{"carol", "dave"} {
		w.send(p+"@example.org", server, "hello", "register "+p, "")
		wantContains(t, p+"'s welcome", w.expect(p, 1)[0], "Welcome to Congo, "+p+"!")
	}
	waitEmpty(t, d, "congo", "INBOX") // the daemon has filed every mail
	before := d.uids()
	d.stop()

	wantPerm := func(path string, want os.FileMode) {
		t.Helper()
		fi, err := os.Stat(path)
		if err != nil {
			t.Error(err)
		} else if got := fi.Mode().Perm(); got != want {
			t.Errorf("mode of %s = %#o, want %#o", path, got, want)
		}
	}
	wantPerm(dbPath, 0o600)
	wantPerm(mailDir, 0o700)
	files, err := os.ReadDir(mailDir)
	if err != nil || len(files) != len(demoUsers) {
		t.Errorf("%s holds %d files (%v), want one per user", mailDir, len(files), err)
	}
	for _, f := range files {
		wantPerm(filepath.Join(mailDir, f.Name()), 0o600)
	}

	d = startDemo(t, dbPath)
	w.sys = d
	if after := d.uids(); after != before {
		t.Errorf("after a restart, the demo's mailboxes are\n%s\nwant\n%s", after, before)
	}
	if code, _ := get(t, d.web+"games/1"); code != http.StatusNotFound {
		t.Errorf("GET %sgames/1, a challenge waiting, = %d, want 404", d.web, code)
	}
	w.send(bob, bobPA, "Re: "+challenge.Subject, "accept congo 1", challenge.MessageID)
	for _, who := range []string{"alice", "bob"} {
		m := w.expect(who, 1)[0]
		wantGame1(t, "start to "+who, m, "Position: gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1")
		// Every board mail names its game's page (M43), which shows it.
		wantContains(t, "start to "+who, m, "See the game on the web: "+d.web+"games/1")
	}
	code, page := get(t, d.web+"games/1")
	if code != http.StatusOK || !strings.Contains(page, "<h1>Game 1: alice vs bob</h1>") ||
		!strings.Contains(page, `<span id="position">gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1</span>`) {
		t.Errorf("GET %sgames/1 = %d:\n%s", d.web, code, page)
	}
}

// TestDemoWeb checks the demo's web setting: on at 127.0.0.1:8080 unless
// -web says otherwise, off with -web off.
func TestDemoWeb(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
		on   bool
	}{
		{nil, "127.0.0.1:8080", true},
		{[]string{"-web", "127.0.0.1:9090"}, "127.0.0.1:9090", true},
		{[]string{"-web", "off"}, "off", false},
	} {
		c, _, err := parseConfig(append([]string{"-demo"}, tt.args...), env(nil), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.validateDemo(); err != nil || c.Web != tt.want || c.WebOn() != tt.on {
			t.Errorf("-demo %q: web %q (on %v), %v; want %q (on %v)", tt.args, c.Web, c.WebOn(), err, tt.want, tt.on)
		}
	}
}

// wantGame1 checks that m is about game 1 between alice and bob, and says
// text.
func wantGame1(t *testing.T, what string, m *mailmsg.Incoming, text string) {
	t.Helper()
	if !strings.HasPrefix(m.Subject, "Congo game 1: alice vs bob") {
		t.Errorf("%s: Subject = %q, want it about Congo game 1: alice vs bob", what, m.Subject)
	}
	wantContains(t, what, m, text)
}
