package main

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/congobymail/congo/internal/pgtest"
)

// TestWebInDaemon runs congod with -web against loopback mail: a game
// played by mail has its page, which the board mails name (M43); the
// requests are counted and timed in /metrics; and the pages stop with
// the daemon.
func TestWebInDaemon(t *testing.T) {
	sys := startSystem(t)
	d := startDaemon(t, sys, pgtest.DSN(t), func(c *settings) { c.Web = "127.0.0.1:0" })
	base := d.cfg.web.publicURL
	if !strings.HasPrefix(base, "http://127.0.0.1:") || !strings.HasSuffix(base, "/") || strings.HasSuffix(base, ":0/") {
		t.Fatalf("the public URL is %q, want http://127.0.0.1:PORT/ of the port listened on", base)
	}
	w := newWorld(t, sys)
	const server = "congo@example.org"
	alice, bob := "alice@example.org", "bob@example.org"
	w.send(alice, server, "hello", "register alice", "")
	welcome := w.expect("alice", 1)[0]
	w.send(bob, server, "hello", "register bob", "")
	bobWelcome := w.expect("bob", 1)[0]
	w.send(bob, w.replyTo(bobWelcome), "Re: "+bobWelcome.Subject, "games", bobWelcome.MessageID)
	w.expect("bob", 1)
	w.send(alice, w.replyTo(welcome), "Re: "+welcome.Subject, "challenge congo bob", welcome.MessageID)
	challenge := w.expect("bob", 1)[0]
	w.expect("alice", 1)
	if code, _ := get(t, base+"games/1"); code != http.StatusNotFound {
		t.Errorf("GET games/1, a challenge waiting, = %d, want 404", code)
	}
	w.send(bob, w.replyTo(bobWelcome), "Re: "+challenge.Subject, "accept congo 1", challenge.MessageID)
	start := w.expect("bob", 1)[0]
	w.expect("alice", 1)
	wantContains(t, "start to bob", start, "See the game on the web: "+base+"games/1")

	code, page := get(t, base+"games/1")
	if code != http.StatusOK || !strings.Contains(page, "<h1>Game 1: alice vs bob</h1>") || !strings.Contains(page, "Move 1: alice (white) to move.") {
		t.Errorf("GET games/1 = %d:\n%s", code, page)
	}
	if code, rec := get(t, base+"games/1.pgn"); code != http.StatusOK || !strings.Contains(rec, `[Site "congo@example.org"]`) {
		t.Errorf("GET games/1.pgn = %d:\n%s", code, rec)
	}
	if code, _ := get(t, base+"players/nobody"); code != http.StatusNotFound {
		t.Errorf("GET players/nobody = %d, want 404", code)
	}
	fams := d.scrape(t)
	if n, ok := value(fams, "congod_web_requests_total", "page", "game", "code", "200"); !ok || n != 1 {
		t.Errorf("congod_web_requests_total{page=game,code=200} = %v (%v), want 1", n, ok)
	}
	if n, ok := value(fams, "congod_web_requests_total", "page", "game", "code", "404"); !ok || n != 1 {
		t.Errorf("congod_web_requests_total{page=game,code=404} = %v (%v), want 1", n, ok)
	}
	if n, ok := value(fams, "congod_web_request_seconds", "page", "record"); !ok || n != 1 {
		t.Errorf("congod_web_request_seconds{page=record} counts %v (%v), want 1", n, ok)
	}

	d.stop()
	if resp, err := http.Get(base); err == nil {
		resp.Body.Close()
		t.Errorf("GET %s after the stop = %s, want no answer", base, resp.Status)
	}
}

// get gets url and returns the status and the body.
func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	if _, err := io.Copy(&b, resp.Body); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b.String()
}
