package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/congobymail/congo/config"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/internal/pgtest"
	"github.com/congobymail/congo/mailer/loopback"
	"github.com/congobymail/congo/mailmsg"
)

// The password of the server's mailbox in these tests: it must never be
// logged.
const imapSecret = "imap-Secret-7f3a"

// logBuffer collects log lines from the daemon's goroutines.
type logBuffer struct {
	t  *testing.T
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if testing.Verbose() {
		l.t.Log(strings.TrimSpace(string(p)))
	}
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// records are the JSON log lines with the given msg.
func (l *logBuffer) records(msg string) []map[string]any {
	var out []map[string]any
	for _, line := range strings.Split(l.String(), "\n") {
		if line == "" {
			continue
		}
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			l.t.Errorf("log line is not JSON: %q: %v", line, err)
			continue
		}
		if r["msg"] == msg {
			out = append(out, r)
		}
	}
	return out
}

// daemon is a congod run by a test, with JSON logs and -http on.
type daemon struct {
	cfg  *settings
	logs *logBuffer
	http string // the address of /metrics and /healthz
	stop func()
}

// startSystem starts loopback mail servers with the server's mailbox and
// two players.
func startSystem(t *testing.T) *loopback.System {
	t.Helper()
	return congotest.StartMail(t, loopback.Config{
		Users: append([]loopback.User{{Name: "congo", Password: imapSecret}}, congotest.Users("alice", "bob", "carol")...),
	})
}

// startDaemon runs congod against sys on the database dbPath, with the
// IMAP password in a file, until the test ends or stop is called. change,
// if set, changes the settings before the start.
func startDaemon(t *testing.T, sys *loopback.System, dbPath string, change func(*settings)) *daemon {
	t.Helper()
	u, _ := url.Parse(sys.IMAPURL("congo"))
	u.User = url.User("congo")
	pwFile := writeFile(t, "imap-password", imapSecret+"\n")
	cfg := &settings{Settings: config.Settings{
		IMAP:             u.String(),
		IMAPPasswordFile: pwFile,
		SMTP:             sys.SMTPURL(),
		Address:          "congo@example.org",
		DB:               dbPath,
		Poll:             100 * time.Millisecond,
		Processed:        "Processed",
		LogLevel:         "info",
		LogFormat:        "json",
		HTTP:             "127.0.0.1:0",
	}}
	if change != nil {
		change(cfg)
	}
	return runDaemon(t, cfg)
}

// runDaemon runs congod with cfg, JSON logs and -http on, until the test
// ends or stop is called.
func runDaemon(t *testing.T, cfg *settings) *daemon {
	t.Helper()
	cfg.LogFormat, cfg.HTTP = "json", "127.0.0.1:0"
	if err := cfg.validate(); err != nil {
		t.Fatalf("validate: %v", err)
	}
	d := &daemon{cfg: cfg, logs: &logBuffer{t: t}}
	ready := make(chan string, 1)
	cfg.httpReady = func(addr string) { ready <- addr }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, cfg, newLogger(d.logs, cfg.LogLevel, cfg.LogFormat)) }()
	select {
	case d.http = <-ready:
	case err := <-done:
		cancel()
		t.Fatalf("serve: %v", err)
	case <-time.After(30 * time.Second): // a start migrates the database: seconds on a loaded machine
		cancel()
		t.Fatal("no HTTP listener after 30 s")
	}
	var once sync.Once
	d.stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("serve: %v", err)
				}
			case <-time.After(5 * time.Second):
				t.Errorf("serve did not stop within 5 s of cancel (M10)")
			}
		})
	}
	t.Cleanup(d.stop)
	return d
}

// newWorld is a world of players on sys (see e2e_test.go).
func newWorld(t *testing.T, sys *loopback.System) *world {
	return &world{t: t, sys: sys, seen: map[string]int{}, raw: map[string][]byte{}}
}

// scrape fetches /metrics and parses it with the Prometheus text parser.
func (d *daemon) scrape(t *testing.T) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get("http://" + d.http + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics: %s", resp.Status)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	return fams
}

// value is the value of the metric name with the given labels (name=value
// pairs), and whether it is there.
func value(fams map[string]*dto.MetricFamily, name string, labels ...string) (float64, bool) {
	f := fams[name]
	if f == nil {
		return 0, false
	}
next:
	for _, m := range f.Metric {
		for i := 0; i+1 < len(labels); i += 2 {
			found := false
			for _, lp := range m.Label {
				if lp.GetName() == labels[i] && lp.GetValue() == labels[i+1] {
					found = true
				}
			}
			if !found {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue(), true
		case m.Gauge != nil:
			return m.Gauge.GetValue(), true
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount()), true
		case m.Untyped != nil:
			return m.Untyped.GetValue(), true
		}
	}
	return 0, false
}

// healthz fetches /healthz.
func (d *daemon) healthz(t *testing.T) (int, health) {
	t.Helper()
	resp, err := http.Get("http://" + d.http + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var h health
	if err := json.NewDecoder(resp.Body).Decode(&h); err != nil {
		t.Fatalf("GET /healthz: %v", err)
	}
	return resp.StatusCode, h
}

// eventually retries check until it returns "" or 15 s pass, and fails
// with what it said last.
func eventually(t *testing.T, what string, check func() string) {
	t.Helper()
	eventuallyWithin(t, 15*time.Second, what, check)
}

// eventuallyWithin is eventually with its own deadline, for work that
// waits on real servers under a loaded machine (the race detector and
// every package's tests at once).
func eventuallyWithin(t *testing.T, within time.Duration, what string, check func() string) {
	t.Helper()
	var msg string
	if !congotest.Poll(within, func() bool { msg = check(); return msg == "" }) {
		t.Fatalf("%s: %s", what, msg)
	}
}

// playOpening registers alice and bob, plays the challenge and its
// acceptance, and alice's d2-e3: it returns bob's board and personal
// address.
func playOpening(t *testing.T, w *world) (board *mailmsg.Incoming, bobPA, alicePA string) {
	t.Helper()
	const server = "congo@example.org"
	alice, bob := "alice@example.org", "bob@example.org"
	w.send(alice, server, "hello", "register alice", "")
	welcome := w.expect("alice", 1)[0]
	alicePA = w.replyTo(welcome)
	w.send(bob, server, "", "register bob", "")
	bobWelcome := w.expect("bob", 1)[0]
	bobPA = w.replyTo(bobWelcome)
	w.send(bob, bobPA, "Re: "+bobWelcome.Subject, "games", bobWelcome.MessageID) // confirms the address (M28)
	w.expect("bob", 1)
	w.send(alice, alicePA, "Re: "+welcome.Subject, "challenge congo bob", welcome.MessageID)
	challenge := w.expect("bob", 1)[0]
	w.expect("alice", 1)
	w.send(bob, bobPA, "Re: "+challenge.Subject, "accept congo 1", challenge.MessageID)
	w.expect("bob", 1)
	aliceBoard := w.expect("alice", 1)[0]
	w.send(alice, alicePA, "Re: "+aliceBoard.Subject, "d2-e3\n\n-- \nsignature-marker-41", aliceBoard.MessageID)
	board = w.expect("bob", 1)[0]
	w.expect("alice", 1)
	return board, bobPA, alicePA
}

// TestLogLines checks the log of a game: one line per handled mail with
// its message id, the sender's handle, the commands, the outcome and the
// duration; one per sent mail; and neither the IMAP password nor a mail
// body.
func TestLogLines(t *testing.T) {
	sys := startSystem(t)
	d := startDaemon(t, sys, pgtest.DSN(t), nil)
	w := newWorld(t, sys)
	playOpening(t, w)
	// A mail with an unknown command from a stranger is refused.
	w.send("carol@example.org", "congo@example.org", "", "frobnicate", "")
	w.expect("carol", 1)
	eventually(t, "log", func() string {
		if n := len(d.logs.records("mail handled")); n < 6 {
			return fmt.Sprintf("%d lines \"mail handled\", want 6", n)
		}
		return ""
	})
	d.stop()

	handled := d.logs.records("mail handled")
	want := []struct{ handle, commands, outcome string }{
		{"alice", "register", "done"},
		{"bob", "register", "done"},
		{"bob", "games", "done"},
		{"alice", "challenge", "done"},
		{"bob", "accept", "done"},
		{"alice", "move", "done"},
		{"", "", "refused"},
	}
	if len(handled) != len(want) {
		t.Fatalf("%d lines \"mail handled\", want %d:\n%s", len(handled), len(want), d.logs)
	}
	for i, r := range handled {
		got := fmt.Sprintf("%v %v %v", r["handle"], r["commands"], r["outcome"])
		if w := fmt.Sprintf("%s %s %s", want[i].handle, want[i].commands, want[i].outcome); got != w {
			t.Errorf("mail handled %d: handle, commands, outcome = %s, want %s", i, got, w)
		}
		if id, _ := r["message_id"].(string); !strings.HasSuffix(id, "@client.example.net") {
			t.Errorf("mail handled %d: message_id = %q, want the mail's", i, id)
		}
		if _, ok := r["duration"].(float64); !ok {
			t.Errorf("mail handled %d: duration = %v, want a number", i, r["duration"])
		}
	}
	// Every mail sent was received, and logged once.
	sent := d.logs.records("mail sent")
	received := 0
	for _, u := range []string{"alice", "bob", "carol"} {
		raws, _ := sys.Messages(u, "INBOX")
		received += len(raws)
	}
	if len(sent) != received {
		t.Errorf("%d lines \"mail sent\", want %d (the mails received)", len(sent), received)
	}
	for _, s := range []string{imapSecret, "signature-marker-41"} {
		if strings.Contains(d.logs.String(), s) {
			t.Errorf("the log holds %q", s)
		}
	}
}

// TestMetrics plays an opening and reads /metrics with the Prometheus
// text parser.
func TestMetrics(t *testing.T) {
	sys := startSystem(t)
	d := startDaemon(t, sys, pgtest.DSN(t), nil)
	w := newWorld(t, sys)
	playOpening(t, w)
	w.send("carol@example.org", "congo@example.org", "", "frobnicate", "")
	w.expect("carol", 1)

	// The outbox loop records a mail as sent just after the SMTP server
	// took it: wait for it to settle.
	var fams map[string]*dto.MetricFamily
	eventually(t, "outbox", func() string {
		fams = d.scrape(t)
		if v, ok := value(fams, "congod_outbox_depth"); !ok || v != 0 {
			return fmt.Sprintf("congod_outbox_depth = %v, %v, want 0", v, ok)
		}
		return ""
	})
	tests := []struct {
		name   string
		labels []string
		want   float64
	}{
		{"congod_mails_handled_total", []string{"outcome", "done"}, 6},
		{"congod_mails_handled_total", []string{"outcome", "refused"}, 1},
		{"congod_mails_handled_total", []string{"outcome", "failed"}, 0},
		{"congod_commands_total", []string{"kind", "register"}, 2},
		{"congod_commands_total", []string{"kind", "challenge"}, 1},
		{"congod_commands_total", []string{"kind", "move"}, 1},
		{"congod_mail_handling_seconds", nil, 7},
		{"congod_mails_sent_total", nil, 10},
		{"congod_mails_capped_total", []string{"cap", "unproven"}, 0},
		{"congod_mails_deferred_total", []string{"cap", "recipient"}, 0},
		{"congod_smtp_errors_total", []string{"kind", "temporary"}, 0},
		{"congod_outbox_oldest_age_seconds", nil, 0},
		{"congod_outbox_failed", nil, 0},
		{"congod_imap_errors_total", nil, 0},
	}
	for _, tt := range tests {
		if got, ok := value(fams, tt.name, tt.labels...); !ok || got != tt.want {
			t.Errorf("%s%q = %v (present %v), want %v", tt.name, tt.labels, got, ok, tt.want)
		}
	}
	if f := fams["congod_mail_handling_seconds"]; f == nil || f.GetType() != dto.MetricType_HISTOGRAM {
		t.Errorf("congod_mail_handling_seconds is not a histogram: %v", f)
	}
}

// TestSMTPFailures runs congod against an SMTP server that is not there:
// the retry is logged and counted, and the outbox shows the waiting mail.
func TestSMTPFailures(t *testing.T) {
	sys := startSystem(t)
	d := startDaemon(t, sys, pgtest.DSN(t), func(c *settings) {
		c.SMTP = "smtp://127.0.0.1:1" // nothing listens there
	})
	w := newWorld(t, sys)
	w.send("alice@example.org", "congo@example.org", "", "register alice", "")
	eventually(t, "retry", func() string {
		if n := len(d.logs.records("mail not sent; will try again")); n != 1 {
			return fmt.Sprintf("%d retry lines, want 1", n)
		}
		return ""
	})
	fams := d.scrape(t)
	for _, tt := range []struct {
		name   string
		labels []string
		want   float64
	}{
		{"congod_smtp_errors_total", []string{"kind", "temporary"}, 1},
		{"congod_mails_sent_total", nil, 0},
		{"congod_outbox_depth", nil, 1},
	} {
		if got, ok := value(fams, tt.name, tt.labels...); !ok || got != tt.want {
			t.Errorf("%s%q = %v (present %v), want %v", tt.name, tt.labels, got, ok, tt.want)
		}
	}
	if age, _ := value(fams, "congod_outbox_oldest_age_seconds"); age <= 0 {
		t.Errorf("congod_outbox_oldest_age_seconds = %v, want > 0", age)
	}
	_, h := d.healthz(t)
	if h.OutboxDepth != 1 {
		t.Errorf("/healthz outbox_depth = %d, want 1", h.OutboxDepth)
	}
}

// TestBackupRestore takes backups with "congod backup" while a game is
// played, then restores the last one into a new daemon, which finishes
// the game.
func TestBackupRestore(t *testing.T) {
	sys := startSystem(t)
	dir := t.TempDir()
	live := filepath.Join(dir, "congo.db")
	d := startDaemon(t, sys, live, nil)
	w := newWorld(t, sys)
	board, bobPA, alicePA := playOpening(t, w)

	backup := func(dest string) {
		t.Helper()
		var stdout bytes.Buffer
		args := []string{"-db", live, "backup", dest}
		if err := run(context.Background(), args, env(nil), &stdout, io.Discard); err != nil {
			t.Fatalf("run(%q) = %v", args, err)
		}
	}
	// A backup while bob's move is being handled: whether it holds the
	// move or not, it is whole (db.Backup checks it).
	w.send("bob@example.org", bobPA, "Re: "+board.Subject, "d6-c5 anyway", board.MessageID)
	backup(filepath.Join(dir, "during.db"))
	a2 := w.expect("alice", 1)[0]
	w.expect("bob", 1)

	// The backup to restore, taken while the daemon runs.
	saved := filepath.Join(dir, "saved.db")
	backup(saved)
	if err := run(context.Background(), []string{"-db", live, "backup", saved}, env(nil), io.Discard, io.Discard); err == nil {
		t.Errorf("a backup over an existing file: no error")
	}
	d.stop()

	// Restore: the backup file becomes the database of a new daemon.
	restored := filepath.Join(t.TempDir(), "congo.db")
	b, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(restored, b, 0o600); err != nil {
		t.Fatal(err)
	}
	startDaemon(t, sys, restored, nil)
	w.send("alice@example.org", alicePA, "Re: "+a2.Subject, "d1xd7", a2.MessageID)
	for _, who := range []string{"alice", "bob"} {
		end := w.expect(who, 1)[0]
		wantSubject(t, "the end to "+who, end, "Congo game 1: alice vs bob")
	}
}

// TestHealthz checks /healthz and the IMAP metrics with the IMAP session
// up, then with the IMAP server gone.
func TestHealthz(t *testing.T) {
	sys := startSystem(t)
	d := startDaemon(t, sys, pgtest.DSN(t), nil)
	start := time.Now()
	eventually(t, "healthy", func() string {
		if code, h := d.healthz(t); code != http.StatusOK || !h.OK || !h.IMAPConnected || h.LastPoll == nil {
			return fmt.Sprintf("/healthz = %d %+v, want 200 with the IMAP session up and a poll", code, h)
		}
		return ""
	})
	_, h := d.healthz(t)
	if h.LastPoll.Before(start.Add(-time.Second)) || h.OutboxDepth != 0 {
		t.Errorf("/healthz = %+v, want a recent last_poll and an empty outbox", h)
	}
	fams := d.scrape(t)
	if v, _ := value(fams, "congod_imap_connected"); v != 1 {
		t.Errorf("congod_imap_connected = %v, want 1", v)
	}
	if v, _ := value(fams, "congod_imap_last_poll_timestamp_seconds"); v < float64(start.Unix()-1) {
		t.Errorf("congod_imap_last_poll_timestamp_seconds = %v, want after %d", v, start.Unix())
	}

	sys.Close()
	eventually(t, "unhealthy", func() string {
		if code, h := d.healthz(t); code != http.StatusServiceUnavailable || h.OK || h.IMAPConnected {
			return fmt.Sprintf("/healthz = %d %+v, want 503 with the IMAP session down", code, h)
		}
		if v, _ := value(d.scrape(t), "congod_imap_errors_total"); v < 1 {
			return fmt.Sprintf("congod_imap_errors_total = %v, want at least 1", v)
		}
		return ""
	})
}
