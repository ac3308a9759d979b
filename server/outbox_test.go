package server

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/emersion/go-smtp"
)

var (
	errTemporary = &smtp.SMTPError{Code: 451, Message: "try again later"}
	errPermanent = &smtp.SMTPError{Code: 550, Message: "no such user"}
)

// outboxMail returns the outbox row with the given id.
func (h *harness) outboxMail(id int64) db.Mail {
	h.t.Helper()
	var m db.Mail
	h.inTx(func(ctx context.Context, tx *db.Tx) error {
		var err error
		m, err = tx.Mail(ctx, id)
		return err
	})
	return m
}

// sendDue runs SendDue and returns how many mails it sent.
func (h *harness) sendDue() int {
	h.t.Helper()
	n, err := h.s.SendDue(context.Background(), h.sink)
	if err != nil {
		h.t.Fatalf("SendDue: %v", err)
	}
	return n
}

func TestOutboxRetries(t *testing.T) {
	h := newHarness(t)
	h.send("alice", "help") // outbox mail 1
	h.sink.errs = []error{errTemporary, errors.New("connection refused")}

	start := h.clock.Now()
	if n := h.sendDue(); n != 0 {
		t.Fatalf("SendDue() while the server fails = %d, want 0", n)
	}
	m := h.outboxMail(1)
	if m.Attempts != 1 || m.LastError == "" || !m.SentAt.IsZero() || !m.FailedAt.IsZero() {
		t.Fatalf("after one failure: %+v", m)
	}
	if d := m.NextAttempt.Sub(start); d < firstRetry/2 || d > firstRetry {
		t.Errorf("first retry after %v, want between %v and %v", d, firstRetry/2, firstRetry)
	}
	if n := h.sendDue(); n != 0 || len(h.sink.take()) != 0 {
		t.Errorf("SendDue() before the retry time sent %d mails", n)
	}

	h.clock.Advance(firstRetry)
	h.sendDue()
	m = h.outboxMail(1)
	if m.Attempts != 2 {
		t.Fatalf("after two failures: attempts %d, want 2", m.Attempts)
	}
	if d := m.NextAttempt.Sub(h.clock.Now()); d < firstRetry || d > 2*firstRetry {
		t.Errorf("second retry after %v, want between %v and %v", d, firstRetry, 2*firstRetry)
	}

	h.clock.Advance(2 * firstRetry)
	if n := h.sendDue(); n != 1 {
		t.Fatalf("SendDue() once the server works = %d, want 1", n)
	}
	m = h.outboxMail(1)
	if m.SentAt.IsZero() || m.Attempts != 2 {
		t.Errorf("after sending: %+v", m)
	}
	sent := h.sink.take()
	if len(sent) != 1 {
		t.Fatalf("%d mails reached the server, want 1", len(sent))
	}
	if got := h.parse(sent[0]); got.MessageID != m.MessageID {
		t.Errorf("retried mail has Message-ID %q, want the one composed at first, %q", got.MessageID, m.MessageID)
	}
	if n := h.sendDue(); n != 0 {
		t.Errorf("SendDue() after sending everything = %d, want 0", n)
	}
}

func TestOutboxPermanentFailure(t *testing.T) {
	h := newHarness(t)
	h.send("alice", "help") // 1: refused
	h.send("bob", "help")   // 2: sent all the same
	h.sink.errs = []error{errPermanent}
	if n := h.sendDue(); n != 1 {
		t.Fatalf("SendDue() = %d, want 1", n)
	}
	if m := h.outboxMail(1); m.FailedAt.IsZero() || m.Attempts != 1 || m.LastError != errPermanent.Error() {
		t.Errorf("refused mail: %+v, want failed", m)
	}
	if m := h.outboxMail(2); m.SentAt.IsZero() {
		t.Errorf("the other mail was not sent: %+v", m)
	}
	h.clock.Advance(48 * time.Hour)
	if n := h.sendDue(); n != 0 {
		t.Errorf("a refused mail was sent again")
	}
}

func TestOutboxGivesUp(t *testing.T) {
	h := newHarness(t)
	h.send("alice", "help")
	for range 200 {
		h.sink.errs = []error{errTemporary}
		h.sendDue()
		if !h.outboxMail(1).FailedAt.IsZero() {
			break
		}
		h.clock.Advance(lastRetry)
	}
	m := h.outboxMail(1)
	if m.FailedAt.IsZero() {
		t.Fatalf("a mail failing for days was never given up: %+v", m)
	}
	if age := m.FailedAt.Sub(m.Created); age < giveUpAfter || age > giveUpAfter+lastRetry {
		t.Errorf("given up after %v, want about %v", age, giveUpAfter)
	}
}

func TestBackoff(t *testing.T) {
	for attempts := 1; attempts <= 12; attempts++ {
		full := min(firstRetry<<(attempts-1), lastRetry)
		for range 20 {
			if d := backoff(attempts); d < full/2 || d > full {
				t.Errorf("backoff(%d) = %v, want between %v and %v", attempts, d, full/2, full)
			}
		}
	}
}

// TestRunOutbox runs the send loop: a mail queued by HandleMail is sent at
// once, and the loop stops when its context ends.
func TestRunOutbox(t *testing.T) {
	h := newHarness(t)
	h.sink.got = make(chan struct{}, 1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.s.RunOutbox(ctx, h.sink) }()

	h.send("alice", "help")
	select {
	case <-h.sink.got:
	case <-time.After(10 * time.Second):
		t.Fatal("the send loop did not send the queued mail")
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("RunOutbox() = %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("RunOutbox did not stop")
	}
	if got := h.sink.take(); len(got) != 1 {
		t.Errorf("%d mails sent, want 1", len(got))
	}
}

// TestOutboxSentLog records sent mails in the sent log, which carries
// them into the outbox: each mail goes out once, failures are recorded
// as without the log, and records left by a crash are applied first.
func TestOutboxSentLog(t *testing.T) {
	log, err := db.OpenSentLog(filepath.Join(t.TempDir(), "congo.db-sent"))
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	h := newHarnessWith(t, Config{SentLog: log})
	h.send("alice", "help") // outbox mail 1
	h.send("bob", "help")   // 2
	h.send("carol", "help") // 3
	h.sink.errs = []error{errPermanent}

	if n := h.sendDue(); n != 2 {
		t.Fatalf("SendDue() = %d, want 2 sent", n)
	}
	if got := len(h.sink.take()); got != 2 {
		t.Errorf("%d mails reached the server, want 2", got)
	}
	if m := h.outboxMail(1); m.FailedAt.IsZero() || !m.SentAt.IsZero() {
		t.Errorf("mail 1, refused for good: %+v", m)
	}
	if m := h.outboxMail(2); m.SentAt.IsZero() {
		t.Errorf("mail 2 not recorded as sent: %+v", m)
	}
	if m := h.outboxMail(3); m.SentAt.IsZero() {
		t.Errorf("mail 3 not recorded as sent: %+v", m)
	}
	if n := h.sendDue(); n != 0 || len(h.sink.take()) != 0 {
		t.Errorf("SendDue() again sent %d mails, want none", n)
	}

	// A record the process made before it died is applied before the
	// outbox is read: the mail is not sent again.
	h.send("dave", "help") // 4
	if err := log.Record(h.outboxMail(4), h.clock.Now()); err != nil {
		t.Fatal(err)
	}
	if n := h.sendDue(); n != 0 || len(h.sink.take()) != 0 {
		t.Errorf("SendDue() sent %d mails, want none: the log says mail 4 went out", n)
	}
	if m := h.outboxMail(4); m.SentAt.IsZero() {
		t.Errorf("mail 4 not recorded as sent: %+v", m)
	}
}
