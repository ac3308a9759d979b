package mailer_test

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/congobymail/congo/mailer"
)

// numberedMail returns a message that differs from the others by n.
func numberedMail(n int) string {
	return fmt.Sprintf("From: <congo@pbm.example.net>\r\nTo: <alice@example.org>\r\nSubject: mail %d\r\n\r\nmove congo %d b2-b3\r\n", n, n)
}

// newPooledSMTP returns a sender for the test server at addr, closed when
// the test ends.
func newPooledSMTP(t *testing.T, rawURL string, tlsConfig *tls.Config) *mailer.SMTP {
	t.Helper()
	s, err := mailer.NewSMTP(rawURL, tlsConfig)
	if err != nil {
		t.Fatalf("NewSMTP(%q) error = %v", rawURL, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// mustSend sends numberedMail(n) to rcpt and fails the test on an error.
func mustSend(t *testing.T, s *mailer.SMTP, rcpt string, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.Send(ctx, "congo@pbm.example.net", []string{rcpt}, []byte(numberedMail(n))); err != nil {
		t.Fatalf("Send(mail %d to %s) error = %v", n, rcpt, err)
	}
}

// waitQuit waits until the client has said QUIT on c and the connection is
// closed, failing the test after 10 seconds. Only for connections without
// TLS.
func waitQuit(t *testing.T, c *tapConn, name string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		sent, closed := c.state()
		if closed && strings.HasSuffix(sent, "QUIT\r\n") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: closed = %v, client's last words %q; want closed after QUIT", name, closed, sent[max(0, len(sent)-40):])
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// checkDeliveries compares the mails the server got, in order, with
// numberedMail(n) for each n in want, from user, to rcpt.
func checkDeliveries(t *testing.T, rec *recorder, user, rcpt string, want ...int) {
	t.Helper()
	got := rec.deliveries()
	if len(got) != len(want) {
		t.Fatalf("server got %d mails %+v, want %d", len(got), got, len(want))
	}
	for i, n := range want {
		w := delivery{user: user, from: "congo@pbm.example.net", to: []string{rcpt}, data: numberedMail(n)}
		g := got[i]
		if g.user != w.user || g.from != w.from || !slices.Equal(g.to, w.to) || g.data != w.data {
			t.Errorf("mail %d: server got %+v, want %+v", i, g, w)
		}
	}
}

func TestSMTPSendReusesConnection(t *testing.T) {
	t.Parallel()
	cert, pool := selfSigned(t)
	userinfo := url.UserPassword("congo@pbm.example.net", "s3cret:/@%").String() + "@"
	tests := []struct {
		name     string
		mode     tlsMode
		scheme   string
		userinfo string
		wantUser string
	}{
		{name: "plain", mode: noTLS, scheme: "smtp"},
		{name: "auth", mode: noTLS, scheme: "smtp", userinfo: userinfo, wantUser: "congo@pbm.example.net"},
		{name: "implicit tls and auth", mode: withImplicitTLS, scheme: "smtps", userinfo: userinfo, wantUser: "congo@pbm.example.net"},
		{name: "starttls and auth", mode: withStartTLS, scheme: "smtp+starttls", userinfo: userinfo, wantUser: "congo@pbm.example.net"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			addr, rec := startSMTP(t, tt.mode, cert)
			s := newPooledSMTP(t, tt.scheme+"://"+tt.userinfo+addr, &tls.Config{RootCAs: pool})
			for n := 1; n <= 3; n++ {
				mustSend(t, s, "alice@example.org", n)
			}
			checkDeliveries(t, rec, tt.wantUser, "alice@example.org", 1, 2, 3)
			conns := rec.connections()
			if len(conns) != 1 {
				t.Fatalf("three Sends used %d connections, want 1", len(conns))
			}
			if _, closed := conns[0].state(); closed {
				t.Errorf("the connection is closed after Send, want it idle")
			}
		})
	}
}

func TestSMTPSendAfterServerDroppedIdleConnection(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		drop func(t *testing.T, rec *recorder)
	}{
		{"server closed the connection", func(t *testing.T, rec *recorder) {
			rec.connections()[0].Conn.Close()
		}},
		{"421 to MAIL FROM", func(t *testing.T, rec *recorder) {
			rec.mu.Lock()
			rec.failMail = 1
			rec.mu.Unlock()
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			addr, rec := startSMTP(t, noTLS, tls.Certificate{})
			s := newPooledSMTP(t, "smtp://"+addr, nil)
			mustSend(t, s, "alice@example.org", 1)
			tt.drop(t, rec)
			mustSend(t, s, "alice@example.org", 2)
			checkDeliveries(t, rec, "", "alice@example.org", 1, 2)
			if got := len(rec.connections()); got != 2 {
				t.Errorf("Sends used %d connections, want 2", got)
			}
			mustSend(t, s, "alice@example.org", 3) // on the new connection
			checkDeliveries(t, rec, "", "alice@example.org", 1, 2, 3)
			if got := len(rec.connections()); got != 2 {
				t.Errorf("Sends used %d connections, want 2", got)
			}
		})
	}
}

func TestSMTPIdleTimeout(t *testing.T) {
	addr, rec := startSMTP(t, noTLS, tls.Certificate{})
	s := newPooledSMTP(t, "smtp://"+addr, nil)
	s.IdleTimeout = 50 * time.Millisecond

	mustSend(t, s, "alice@example.org", 1)
	time.Sleep(2 * s.IdleTimeout)
	mustSend(t, s, "alice@example.org", 2)
	conns := rec.connections()
	if len(conns) != 2 {
		t.Fatalf("a Send after IdleTimeout used %d connections in all, want 2", len(conns))
	}
	waitQuit(t, conns[0], "the expired connection")
	// No Send comes: the timer closes the idle connection.
	waitQuit(t, conns[1], "the idle connection")
	checkDeliveries(t, rec, "", "alice@example.org", 1, 2)
}

func TestSMTPSendPermanentErrorOnReusedConnection(t *testing.T) {
	t.Parallel()
	addr, rec := startSMTP(t, noTLS, tls.Certificate{})
	s := newPooledSMTP(t, "smtp://"+addr, nil)
	mustSend(t, s, "alice@example.org", 1)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := s.Send(ctx, "congo@pbm.example.net", []string{"perm@example.org"}, []byte(numberedMail(2)))
	if !mailer.IsPermanent(err) {
		t.Errorf("Send to a refused recipient error = %v, want a permanent error", err)
	}
	mustSend(t, s, "alice@example.org", 3)
	checkDeliveries(t, rec, "", "alice@example.org", 1, 3)
	conns := rec.connections()
	if len(conns) != 2 {
		t.Fatalf("Sends used %d connections, want 2 (the failed one closed, not retried)", len(conns))
	}
	waitQuit(t, conns[0], "the connection of the failed Send")
}

func TestSMTPSendCancelledIsNotReused(t *testing.T) {
	t.Parallel()
	addr, rec := startSMTP(t, noTLS, tls.Certificate{})
	defer close(rec.release)
	s := newPooledSMTP(t, "smtp://"+addr, nil)
	mustSend(t, s, "alice@example.org", 1)

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	err := s.Send(ctx, "congo@pbm.example.net", []string{"slow@example.org"}, []byte(numberedMail(2)))
	if !errors.Is(err, context.DeadlineExceeded) || mailer.IsPermanent(err) {
		t.Errorf("Send to a stalled server error = %v, want a temporary context.DeadlineExceeded", err)
	}
	mustSend(t, s, "alice@example.org", 3)
	checkDeliveries(t, rec, "", "alice@example.org", 1, 3)
	if got := len(rec.connections()); got != 2 {
		t.Errorf("Sends used %d connections, want 2 (the cancelled one not reused)", got)
	}
}

func TestSMTPConcurrentSends(t *testing.T) {
	t.Parallel()
	addr, rec := startSMTP(t, noTLS, tls.Certificate{})
	s := newPooledSMTP(t, "smtp://"+addr, nil)
	const workers, each = 8, 5
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				n := w*each + i
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				errs <- s.Send(ctx, "congo@pbm.example.net", []string{"alice@example.org"}, []byte(numberedMail(n)))
				cancel()
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("concurrent Send error = %v", err)
		}
	}
	var got []string
	for _, d := range rec.deliveries() {
		got = append(got, d.data)
	}
	var want []string
	for n := range workers * each {
		want = append(want, numberedMail(n))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("server got %d mails, want %d, each once", len(got), len(want))
	}
}

func TestSMTPClose(t *testing.T) {
	t.Parallel()
	addr, rec := startSMTP(t, noTLS, tls.Certificate{})
	s := newPooledSMTP(t, "smtp://"+addr, nil)
	mustSend(t, s, "alice@example.org", 1)
	if err := s.Close(); err != nil {
		t.Errorf("Close() = %v, want nil", err)
	}
	conns := rec.connections()
	if len(conns) != 1 {
		t.Fatalf("one Send used %d connections, want 1", len(conns))
	}
	waitQuit(t, conns[0], "the idle connection")

	mustSend(t, s, "alice@example.org", 2)
	checkDeliveries(t, rec, "", "alice@example.org", 1, 2)
	if got := len(rec.connections()); got != 2 {
		t.Errorf("a Send after Close used %d connections in all, want 2", got)
	}
}
