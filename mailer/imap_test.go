package mailer_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/mailer"
	"github.com/congobymail/congo/mailer/loopback"
	"github.com/congobymail/congo/mailmsg"
	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
)

// handled records the mails given to a handler.
type handled struct {
	mu   sync.Mutex
	mail []*mailmsg.Incoming
}

func (h *handled) add(m *mailmsg.Incoming) {
	h.mu.Lock()
	h.mail = append(h.mail, m)
	h.mu.Unlock()
}

func (h *handled) all() []*mailmsg.Incoming {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.mail)
}

func (h *handled) subjects() []string {
	var s []string
	for _, m := range h.all() {
		s = append(s, m.Subject)
	}
	return s
}

// startSystem starts the loopback mail servers of cfg for the test, of
// the domain pbm.example.net, with the one user congo (password "pw").
func startSystem(t *testing.T, cfg loopback.Config) *loopback.System {
	t.Helper()
	cfg.Domain = "pbm.example.net"
	return congotest.StartMail(t, cfg)
}

// deliver sends a mail with the given subject to congo.
func deliver(t *testing.T, sys *loopback.System, subject string) {
	t.Helper()
	raw := fmt.Sprintf("From: Alice <alice@example.org>\r\nTo: congo@pbm.example.net\r\n"+
		"Subject: %s\r\nMessage-ID: <%s@example.org>\r\n\r\nmove congo 42 b2-b3\r\n",
		subject, strings.ReplaceAll(subject, " ", "."))
	if err := sys.Deliver(context.Background(), "alice@example.org", []string{"congo@pbm.example.net"}, []byte(raw)); err != nil {
		t.Fatalf("Deliver(%s) error = %v", subject, err)
	}
}

// runInbox runs an Inbox on cfg until the test ends; it returns the
// cancel function and the channel Run's result arrives on.
func runInbox(t *testing.T, cfg mailer.InboxConfig, handle func(context.Context, *mailmsg.Incoming) error) (context.CancelFunc, <-chan error) {
	t.Helper()
	_, cancel, done := startInbox(t, cfg, func(ctx context.Context, inbox *mailer.Inbox) error { return inbox.Run(ctx, handle) })
	return cancel, done
}

// startInbox makes an Inbox of cfg and runs it with run until the test
// ends, which waits for run to return.
func startInbox(t *testing.T, cfg mailer.InboxConfig, run func(context.Context, *mailer.Inbox) error) (*mailer.Inbox, context.CancelFunc, <-chan error) {
	t.Helper()
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	inbox, err := mailer.NewInbox(cfg)
	if err != nil {
		t.Fatalf("NewInbox(%+v) error = %v", cfg, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, inbox)
		close(done)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Errorf("the inbox did not stop within 5s of cancel")
		}
	})
	return inbox, cancel, done
}

// testWriter sends log lines to the test log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// count returns a condition for waitFor: that congo's mailbox holds n
// messages.
func count(sys *loopback.System, name string, n int) func() bool {
	return func() bool {
		msgs, err := sys.Fetch(context.Background(), "congo", name)
		return err == nil && len(msgs) == n
	}
}

// mailbox returns the messages of one of congo's mailboxes.
func mailbox(t *testing.T, sys *loopback.System, name string) []loopback.Message {
	t.Helper()
	msgs, err := sys.Fetch(context.Background(), "congo", name)
	if err != nil {
		t.Fatalf("Fetch(congo, %s) error = %v", name, err)
	}
	return msgs
}

func TestInboxHandlesMailOnceAndFilesIt(t *testing.T) {
	sys := startSystem(t, loopback.Config{})
	deliver(t, sys, "first")
	deliver(t, sys, "second")
	var h handled
	cancel, done := runInbox(t, mailer.InboxConfig{
		URL:  sys.IMAPURL("congo"),
		Poll: time.Minute, // new mail must come by IDLE, not by polling
	}, func(_ context.Context, m *mailmsg.Incoming) error {
		h.add(m)
		return nil
	})
	congotest.WaitFor(t, "two mails handled", 5*time.Second, func() bool { return len(h.all()) == 2 })

	// New mail during IDLE is noticed at once.
	deliver(t, sys, "third")
	congotest.WaitFor(t, "mail delivered during IDLE handled", 5*time.Second, func() bool { return len(h.all()) == 3 })
	congotest.WaitFor(t, "INBOX emptied", 5*time.Second, count(sys, "INBOX", 0))

	if got, want := h.subjects(), []string{"first", "second", "third"}; !slices.Equal(got, want) {
		t.Errorf("handled %q, want %q", got, want)
	}
	for i, m := range h.all() {
		if m.UIDValidity == 0 || m.UID != uint32(i+1) {
			t.Errorf("mail %d: UIDValidity %d, UID %d; want a UIDValidity and UID %d", i, m.UIDValidity, m.UID, i+1)
		}
		if m.From != "alice@example.org" || m.Text != "move congo 42 b2-b3\n" || m.Truncated {
			t.Errorf("mail %d = From %q, Text %q, Truncated %v; want alice's move, whole", i, m.From, m.Text, m.Truncated)
		}
		if !slices.Contains(m.HeaderRecipients, "congo@pbm.example.net") {
			t.Errorf("mail %d HeaderRecipients = %q, want congo@pbm.example.net among them", i, m.HeaderRecipients)
		}
	}
	processed := mailbox(t, sys, "Processed")
	if len(processed) != 3 {
		t.Fatalf("Processed has %d messages, want 3", len(processed))
	}
	for _, m := range processed {
		if !slices.Contains(m.Flags, imap.FlagSeen) {
			t.Errorf("Processed message %d flags %v, want \\Seen", m.UID, m.Flags)
		}
	}

	// Run returns promptly when its context ends.
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Run() = %v, want context.Canceled", err)
		}
		if took := time.Since(start); took > time.Second {
			t.Errorf("Run returned %v after cancel, want within a second", took)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("Run did not return after cancel")
	}
	if n := len(h.all()); n != 3 {
		t.Errorf("handle was called %d times, want 3", n)
	}
}

func TestInboxRetriesFailedMail(t *testing.T) {
	t.Parallel()
	sys := startSystem(t, loopback.Config{})
	deliver(t, sys, "fails once")
	deliver(t, sys, "fine")
	var (
		h     handled
		fails atomic.Int32
	)
	runInbox(t, mailer.InboxConfig{
		URL:  sys.IMAPURL("congo"),
		Poll: 200 * time.Millisecond,
	}, func(_ context.Context, m *mailmsg.Incoming) error {
		h.add(m)
		if m.Subject == "fails once" && fails.Add(1) == 1 {
			return errors.New("database is locked")
		}
		return nil
	})
	congotest.WaitFor(t, "the failed mail handled again", 5*time.Second, func() bool { return len(h.all()) == 3 })
	congotest.WaitFor(t, "both mails filed", 5*time.Second, count(sys, "Processed", 2))
	if got, want := h.subjects(), []string{"fails once", "fine", "fails once"}; !slices.Equal(got, want) {
		t.Errorf("handled %q, want %q", got, want)
	}
	if n := len(mailbox(t, sys, "INBOX")); n != 0 {
		t.Errorf("INBOX has %d messages, want 0", n)
	}
}

// flagDeleted marks message uid of congo's INBOX \Seen and \Deleted, as
// another mail client might.
func flagDeleted(t *testing.T, sys *loopback.System, uid imap.UID) {
	t.Helper()
	addFlags(t, sys, uid, imap.FlagSeen, imap.FlagDeleted)
}

// addFlags adds flags to message uid of congo's INBOX.
func addFlags(t *testing.T, sys *loopback.System, uid imap.UID, flags ...imap.Flag) {
	t.Helper()
	c, err := imapclient.DialInsecure(sys.IMAPAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("congo", "pw").Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Store(imap.UIDSetNum(uid), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: flags}, nil).Close(); err != nil {
		t.Fatal(err)
	}
}

func TestInboxWithoutMove(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		cfg       loopback.Config
		wantInbox []string // subjects left in INBOX
	}{
		{"UIDPLUS: copy and UID EXPUNGE", loopback.Config{NoMove: true}, []string{"someone's deleted mail"}},
		{"no UIDPLUS: copy and leave it seen", loopback.Config{NoMove: true, NoUIDPlus: true}, []string{"someone's deleted mail", "command"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sys := startSystem(t, tt.cfg)
			deliver(t, sys, "someone's deleted mail")
			flagDeleted(t, sys, 1)
			deliver(t, sys, "command")
			var h handled
			runInbox(t, mailer.InboxConfig{URL: sys.IMAPURL("congo"), Poll: time.Minute},
				func(_ context.Context, m *mailmsg.Incoming) error {
					h.add(m)
					return nil
				})
			congotest.WaitFor(t, "mail filed", 5*time.Second, count(sys, "Processed", 1))
			congotest.WaitFor(t, "INBOX settled", 5*time.Second, count(sys, "INBOX", len(tt.wantInbox)))

			if got, want := h.subjects(), []string{"command"}; !slices.Equal(got, want) {
				t.Errorf("handled %q, want %q", got, want)
			}
			var inbox []string
			for _, m := range mailbox(t, sys, "INBOX") {
				in, _ := mailmsg.Parse(m.Raw)
				inbox = append(inbox, in.Subject)
				if !slices.Contains(m.Flags, imap.FlagSeen) {
					t.Errorf("INBOX message %q flags %v, want \\Seen", in.Subject, m.Flags)
				}
			}
			if !slices.Equal(inbox, tt.wantInbox) {
				t.Errorf("INBOX holds %q, want %q", inbox, tt.wantInbox)
			}
			p := mailbox(t, sys, "Processed")[0]
			if in, _ := mailmsg.Parse(p.Raw); in.Subject != "command" || !slices.Contains(p.Flags, imap.FlagSeen) {
				t.Errorf("Processed holds %q with flags %v, want \"command\", \\Seen", in.Subject, p.Flags)
			}
		})
	}
}

// mailWithAttachment returns a mail with a text and an attachment of n
// bytes, the text first or last. mailmsg's tests have the same helper.
func mailWithAttachment(n int, textFirst bool) []byte {
	const text = "--B\r\nContent-Type: text/plain\r\n\r\nboard congo 42\r\n"
	var b bytes.Buffer
	b.WriteString("From: rae@example.org\r\nTo: congo@pbm.example.net\r\nSubject: big\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=B\r\n\r\n")
	if textFirst {
		b.WriteString(text)
	}
	b.WriteString("--B\r\nContent-Type: video/mp4\r\nContent-Transfer-Encoding: base64\r\n\r\n")
	line := base64.StdEncoding.EncodeToString(make([]byte, 57))
	for b.Len() < n {
		b.WriteString(line)
		b.WriteString("\r\n")
	}
	if !textFirst {
		b.WriteString(text)
	}
	b.WriteString("--B--\r\n")
	return b.Bytes()
}

func TestInboxTruncatesLargeMail(t *testing.T) {
	t.Parallel()
	sys := startSystem(t, loopback.Config{})
	raw := mailWithAttachment(64<<10, true)
	if err := sys.Deliver(context.Background(), "rae@example.org", []string{"congo@pbm.example.net"}, raw); err != nil {
		t.Fatal(err)
	}
	var h handled
	runInbox(t, mailer.InboxConfig{URL: sys.IMAPURL("congo"), MaxSize: 4096},
		func(_ context.Context, m *mailmsg.Incoming) error {
			h.add(m)
			return nil
		})
	congotest.WaitFor(t, "the large mail handled", 5*time.Second, func() bool { return len(h.all()) == 1 })
	congotest.WaitFor(t, "the large mail filed", 5*time.Second, count(sys, "Processed", 1))
	m := h.all()[0]
	stored := mailbox(t, sys, "Processed")
	if len(stored) != 1 {
		t.Fatalf("Processed has %d messages, want 1", len(stored))
	}
	if m.Text != "board congo 42" || !m.Truncated || m.Size != len(stored[0].Raw) {
		t.Errorf("large mail = Text %q, Truncated %v, Size %d; want %q, true, %d",
			m.Text, m.Truncated, m.Size, "board congo 42", len(stored[0].Raw))
	}
}

func TestInboxPassesOnBrokenMail(t *testing.T) {
	t.Parallel()
	sys := startSystem(t, loopback.Config{})
	raw, err := os.ReadFile(filepath.Join("..", "mailmsg", "testdata", "unknown-charset.eml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, raw := range [][]byte{
		bytes.ReplaceAll(raw, []byte("\n"), []byte("\r\n")),
		// imapmemserver serves a header it cannot parse as an empty
		// message: Run must pass that on too.
		[]byte("no colon here\r\n\r\nhelp\r\n"),
	} {
		if err := sys.Deliver(context.Background(), "ned@example.org", []string{"congo@pbm.example.net"}, raw); err != nil {
			t.Fatal(err)
		}
	}
	var h handled
	runInbox(t, mailer.InboxConfig{URL: sys.IMAPURL("congo")},
		func(_ context.Context, m *mailmsg.Incoming) error {
			h.add(m)
			return nil
		})
	congotest.WaitFor(t, "the broken mails handled", 5*time.Second, func() bool { return len(h.all()) == 2 })
	congotest.WaitFor(t, "the broken mails filed", 5*time.Second, count(sys, "Processed", 2))
	got := h.all()
	if m := got[0]; m.UID != 1 || m.From != "ned@example.org" || !strings.HasPrefix(m.Text, "move congo 42 a2-a3\n") {
		t.Errorf("mail in an unknown charset = UID %d, From %q, Text %q; want 1, ned@example.org, the move", m.UID, m.From, m.Text)
	}
	if m := got[1]; m.UID != 2 || m.UIDValidity == 0 {
		t.Errorf("unreadable mail = UID %d, UIDValidity %d; want 2 and a UIDValidity", m.UID, m.UIDValidity)
	}
}

func TestInboxFinishesHandleOnCancel(t *testing.T) {
	sys := startSystem(t, loopback.Config{})
	deliver(t, sys, "slow")
	started := make(chan struct{})
	var finished atomic.Bool
	cancel, done := runInbox(t, mailer.InboxConfig{URL: sys.IMAPURL("congo")},
		func(ctx context.Context, m *mailmsg.Incoming) error {
			close(started)
			<-ctx.Done()
			time.Sleep(100 * time.Millisecond) // finishing the transaction
			finished.Store(true)
			return nil
		})
	<-started
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
	if !finished.Load() {
		t.Errorf("Run returned before handle finished")
	}
	// The mail handle accepted is filed, not left to be handled again.
	if n := len(mailbox(t, sys, "Processed")); n != 1 {
		t.Errorf("Processed has %d messages after cancel, want 1", n)
	}
}

// proxy forwards TCP connections to target and can cut or stall them.
type proxy struct {
	ln     net.Listener
	target string

	mu    sync.Mutex
	pairs []*pair
	cuts  atomic.Int32 // connections to cut inside a mail's text
}

type pair struct {
	a, b    net.Conn
	stalled atomic.Bool
}

func startProxy(t *testing.T, target string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, target: target}
	var wg sync.WaitGroup
	t.Cleanup(func() {
		ln.Close()
		p.drop()
		wg.Wait()
	})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			a, err := ln.Accept()
			if err != nil {
				return
			}
			b, err := net.Dial("tcp", target)
			if err != nil {
				a.Close()
				continue
			}
			pr := &pair{a: a, b: b}
			p.mu.Lock()
			p.pairs = append(p.pairs, pr)
			p.mu.Unlock()
			wg.Add(2)
			go func() { defer wg.Done(); pr.pipe(a, b, &p.cuts) }()
			go func() { defer wg.Done(); pr.pipe(b, a, nil) }()
		}
	}()
	return p
}

// pipe copies src to dst, dropping the data once the pair is stalled.
// With cuts above zero, the first FETCH answer that carries a mail's text
// is cut a few bytes into the text, both ways, and cuts goes down by one.
func (pr *pair) pipe(dst, src net.Conn, cuts *atomic.Int32) {
	defer dst.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if cuts != nil && cuts.Load() > 0 {
			if i := bytes.Index(buf[:n], []byte("BODY[]")); i >= 0 {
				if j := bytes.Index(buf[i:n], []byte("}\r\n")); j >= 0 && i+j+12 <= n {
					cuts.Add(-1)
					dst.Write(buf[:i+j+12])
					pr.a.Close()
					pr.b.Close()
					return
				}
			}
		}
		if n > 0 && !pr.stalled.Load() {
			if _, err := dst.Write(buf[:n]); err != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (p *proxy) url(sys *loopback.System) string {
	return strings.Replace(sys.IMAPURL("congo"), sys.IMAPAddr, p.ln.Addr().String(), 1)
}

// drop cuts every connection.
func (p *proxy) drop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, pr := range p.pairs {
		pr.a.Close()
		pr.b.Close()
	}
	p.pairs = nil
}

// stall makes the current connections swallow everything, like a server
// that stopped answering; new connections work.
func (p *proxy) stall() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, pr := range p.pairs {
		pr.stalled.Store(true)
	}
	p.pairs = nil
}

func (p *proxy) connections() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.pairs)
}

func TestInboxReconnects(t *testing.T) {
	t.Parallel()
	sys := startSystem(t, loopback.Config{})
	p := startProxy(t, sys.IMAPAddr)
	var h handled
	runInbox(t, mailer.InboxConfig{
		URL:     p.url(sys),
		Poll:    300 * time.Millisecond,
		Timeout: 300 * time.Millisecond,
		Backoff: 20 * time.Millisecond,
	}, func(_ context.Context, m *mailmsg.Incoming) error {
		h.add(m)
		return nil
	})
	deliver(t, sys, "before")
	congotest.WaitFor(t, "the first mail handled", 5*time.Second, func() bool { return len(h.all()) == 1 })

	// The server drops the connection.
	p.drop()
	deliver(t, sys, "after a drop")
	congotest.WaitFor(t, "mail handled after the connection dropped", 5*time.Second, func() bool { return len(h.all()) == 2 })

	// The server stops answering: the watchdog gives the connection up.
	congotest.WaitFor(t, "a connection", 5*time.Second, func() bool { return p.connections() == 1 })
	p.stall()
	deliver(t, sys, "after a stall")
	congotest.WaitFor(t, "mail handled after the server stalled", 5*time.Second, func() bool { return len(h.all()) == 3 })

	if got, want := h.subjects(), []string{"before", "after a drop", "after a stall"}; !slices.Equal(got, want) {
		t.Errorf("handled %q, want %q", got, want)
	}
}

// A connection cut while a mail's text comes in is given up: the mail is
// handled whole over the next one. (go-imap's decoder goes on once the
// text's read fails; reading the rest, as moving to the next item does,
// would race with it.)
func TestInboxFetchCut(t *testing.T) {
	t.Parallel()
	sys := startSystem(t, loopback.Config{})
	p := startProxy(t, sys.IMAPAddr)
	p.cuts.Store(1)
	deliver(t, sys, "cut")
	var h handled
	runInbox(t, mailer.InboxConfig{
		URL:     p.url(sys),
		Timeout: time.Second,
		Backoff: 20 * time.Millisecond,
	}, func(_ context.Context, m *mailmsg.Incoming) error {
		h.add(m)
		return nil
	})
	congotest.WaitFor(t, "the mail handled after the cut", 5*time.Second, func() bool { return len(h.all()) == 1 })
	if n := p.cuts.Load(); n != 0 {
		t.Fatalf("the connection was not cut (%d cuts left)", n)
	}
	if got := h.all()[0]; got.Truncated || !strings.Contains(got.Text, "move congo") {
		t.Errorf("mail handled after the cut: Truncated %v, Text %q; want the whole mail", got.Truncated, got.Text)
	}
}

func TestInboxRetriesConnecting(t *testing.T) {
	// Nothing listens at first; Run keeps trying and gets in once the
	// server is up.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var h handled
	runInbox(t, mailer.InboxConfig{
		URL:     "imap://congo:pw@" + addr + "/INBOX",
		Backoff: 20 * time.Millisecond,
	}, func(_ context.Context, m *mailmsg.Incoming) error {
		h.add(m)
		return nil
	})
	time.Sleep(100 * time.Millisecond)
	sys := startSystem(t, loopback.Config{IMAPAddr: addr})
	deliver(t, sys, "late")
	congotest.WaitFor(t, "mail handled once the server came up", 5*time.Second, func() bool { return len(h.all()) == 1 })
}

func TestNewInbox(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cfg     mailer.InboxConfig
		wantErr bool
	}{
		{mailer.InboxConfig{URL: "imap://u:p@localhost:143/INBOX"}, false},
		{mailer.InboxConfig{URL: "imaps://u:p@mail.example.org"}, false},
		{mailer.InboxConfig{URL: "imap+starttls://u@mail.example.org/Congo%20Mail"}, false},
		{mailer.InboxConfig{URL: "imap://u:p@localhost/Processed"}, true},
		{mailer.InboxConfig{URL: "imap://u:p@localhost/Done", Processed: "Done"}, true},
		{mailer.InboxConfig{URL: "imap://localhost"}, true},
		{mailer.InboxConfig{URL: "pop3://u:p@localhost"}, true},
		{mailer.InboxConfig{URL: "imap://u:p@/INBOX"}, true},
		{mailer.InboxConfig{URL: ""}, true},
	}
	for _, tt := range tests {
		_, err := mailer.NewInbox(tt.cfg)
		if (err != nil) != tt.wantErr {
			t.Errorf("NewInbox(%+v) error = %v, want error %v", tt.cfg, err, tt.wantErr)
		}
	}
}

// startTLSIMAP runs an IMAP server with one message for congo, speaking
// TLS from the first byte (implicit) or after STARTTLS.
func startTLSIMAP(t *testing.T, implicit bool, cert tls.Certificate) string {
	t.Helper()
	mem := imapmemserver.New()
	u := imapmemserver.NewUser("congo", "pw")
	if err := u.Create("INBOX", nil); err != nil {
		t.Fatal(err)
	}
	raw := "From: alice@example.org\r\nSubject: over tls\r\n\r\ngames\r\n"
	if _, err := u.Append("INBOX", bytes.NewReader([]byte(raw)), &imap.AppendOptions{}); err != nil {
		t.Fatal(err)
	}
	mem.AddUser(u)
	tlsConfig := &tls.Config{Certificates: []tls.Certificate{cert}}
	opts := &imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return mem.NewSession(), nil, nil
		},
		Caps:   imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {}},
		Logger: discardLogger{},
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if implicit {
		opts.InsecureAuth = true // the listener is TLS already
		ln = tls.NewListener(ln, tlsConfig)
	} else {
		opts.TLSConfig = tlsConfig
	}
	srv := imapserver.New(opts)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

func TestInboxTLS(t *testing.T) {
	t.Parallel()
	cert, pool := selfSigned(t)
	for _, tt := range []struct {
		name     string
		implicit bool
		scheme   string
	}{
		{"implicit tls", true, "imaps"},
		{"starttls", false, "imap+starttls"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			addr := startTLSIMAP(t, tt.implicit, cert)
			var h handled
			runInbox(t, mailer.InboxConfig{
				URL: tt.scheme + "://congo:pw@" + addr + "/INBOX",
				TLS: &tls.Config{RootCAs: pool},
			}, func(_ context.Context, m *mailmsg.Incoming) error {
				h.add(m)
				return nil
			})
			congotest.WaitFor(t, "the mail read over TLS", 5*time.Second, func() bool { return len(h.all()) == 1 })
			if got := h.subjects(); got[0] != "over tls" {
				t.Errorf("handled %q, want [\"over tls\"]", got)
			}
		})
	}
}
