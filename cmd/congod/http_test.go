package main

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/mailer"
)

// TestHealthzHidesErrors breaks the database and the IMAP session under
// /healthz: the answer is 503 and names the parts that are down, without
// the text of any error (which may tell an outsider about the machine);
// the error goes to the log.
func TestHealthzHidesErrors(t *testing.T) {
	dir := t.TempDir()
	store := congotest.OpenDB(t, filepath.Join(dir, "congo.db"))
	store.Close() // every query now fails
	m := newMonitor(store, func() mailer.InboxStatus { return mailer.InboxStatus{} })
	logs := &logBuffer{t: t}
	h := m.handler(newLogger(logs, "info", "json"))

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
	if rec.Code != http.StatusServiceUnavailable {
		t.Errorf("/healthz with the database and IMAP down = %d, want 503", rec.Code)
	}
	body := rec.Body.String()
	var got map[string]any
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatalf("/healthz body %q: %v", body, err)
	}
	var down []string
	if d, ok := got["down"].([]any); ok {
		for _, p := range d {
			down = append(down, p.(string))
		}
	}
	if want := []string{"database", "imap"}; !slices.Equal(down, want) {
		t.Errorf("/healthz down = %q, want %q; body %s", down, want, body)
	}
	if _, ok := got["error"]; ok || strings.Contains(body, "sql") || strings.Contains(body, "closed") {
		t.Errorf("/healthz body shows an error's text: %s", body)
	}
	if !strings.Contains(logs.String(), "database is closed") {
		t.Errorf("the database's error is not in the log: %s", logs.String())
	}

	// Up again: 200 and nothing down.
	store = congotest.OpenDB(t, filepath.Join(dir, "congo.db"))
	m = newMonitor(store, func() mailer.InboxStatus { return mailer.InboxStatus{Connected: true} })
	rec = httptest.NewRecorder()
	m.handler(newLogger(io.Discard, "info", "json")).ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
	if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), "down") {
		t.Errorf("/healthz with all up = %d %s, want 200 and nothing down", rec.Code, rec.Body.String())
	}
}

// TestHTTPWarnsWhenNotLoopback checks that congod warns at start when
// /metrics and /healthz are served on an address other machines reach.
func TestHTTPWarnsWhenNotLoopback(t *testing.T) {
	tests := []struct {
		addr     string
		wantWarn bool
	}{
		{"127.0.0.1:0", false},
		{"localhost:0", false},
		{"[::1]:0", false},
		{"0.0.0.0:0", true},
		{":0", true},
	}
	for _, tt := range tests {
		logs := &logBuffer{t: t}
		ln, err := listenHTTP(tt.addr, newLogger(logs, "info", "json"))
		if err != nil {
			var oe *net.OpError
			if tt.addr == "[::1]:0" && errors.As(err, &oe) {
				t.Logf("no IPv6 loopback here: %v", err)
				continue
			}
			t.Fatalf("listenHTTP(%q) = %v", tt.addr, err)
		}
		ln.Close()
		warned := false
		for _, r := range logs.records(msgHTTPNotLoopback) {
			warned = r["level"] == "WARN" && r["addr"] != nil
		}
		if warned != tt.wantWarn {
			t.Errorf("listenHTTP(%q): warned %v, want %v; log: %s", tt.addr, warned, tt.wantWarn, logs.String())
		}
	}
}
