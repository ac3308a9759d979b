package outbox

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/mailmsg"
)

var (
	errTemporary = &smtp.SMTPError{Code: 451, Message: "try again later"}
	errPermanent = &smtp.SMTPError{Code: 550, Message: "no such user"}
)

// harness is an outbox on a fresh database, with a clock and a sink.
type harness struct {
	t     *testing.T
	o     *Outbox
	db    *db.DB
	clock *congotest.Clock
	sink  *congotest.Sink
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	return newHarnessWith(t, Config{})
}

func newHarnessWith(t *testing.T, cfg Config) *harness {
	t.Helper()
	d, c := congotest.NewDB(t), congotest.NewClock()
	cfg.DB, cfg.From, cfg.Hostname, cfg.Now = d, "congo@example.org", "example.org", c.Now
	if cfg.Connections == 0 {
		cfg.Connections = 1 // the sink's errors go to the sends in order
	}
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	o, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, o: o, db: d, clock: c, sink: &congotest.Sink{}}
}

// queue queues an answer to the player with the given handle, as the
// server queues the answer to "help", and wakes the send loop.
func (h *harness) queue(handle string) {
	h.t.Helper()
	h.queueSubject(handle, "Re: help")
}

// queueSubject is queue with the given Subject.
func (h *harness) queueSubject(handle, subject string) {
	h.t.Helper()
	now := h.clock.Now()
	err := h.db.Tx(context.Background(), func(tx *db.Tx) error {
		_, err := h.o.Queue(context.Background(), tx, Mail{Out: mailmsg.Outgoing{From: "congo@example.org",
			To: handle + "@players.example", Subject: subject, Text: "The manual.\n", Date: now}}, now)
		return err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	h.o.Wake()
}

// messageID is the Message-ID of a raw mail.
func messageID(t *testing.T, raw []byte) string {
	t.Helper()
	m, err := mailmsg.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return m.MessageID
}

// outboxMail returns the outbox row with the given id.
func (h *harness) outboxMail(id int64) db.Mail {
	h.t.Helper()
	var m db.Mail
	err := h.db.Tx(context.Background(), func(tx *db.Tx) error {
		var err error
		m, err = tx.Mail(context.Background(), id)
		return err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return m
}

// sendDue runs SendDue and returns how many mails it sent.
func (h *harness) sendDue() int {
	h.t.Helper()
	n, err := h.o.SendDue(context.Background(), h.sink)
	if err != nil {
		h.t.Fatalf("SendDue: %v", err)
	}
	return n
}

func TestOutboxRetries(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.queue("alice") // outbox mail 1
	h.sink.FailNext(errTemporary, errors.New("connection refused"))

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
	if n := h.sendDue(); n != 0 || len(h.sink.Take()) != 0 {
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
	sent := h.sink.Take()
	if len(sent) != 1 {
		t.Fatalf("%d mails reached the server, want 1", len(sent))
	}
	if got := messageID(t, sent[0].Raw); got != m.MessageID {
		t.Errorf("retried mail has Message-ID %q, want the one composed at first, %q", got, m.MessageID)
	}
	if n := h.sendDue(); n != 0 {
		t.Errorf("SendDue() after sending everything = %d, want 0", n)
	}
}

func TestOutboxPermanentFailure(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.queue("alice") // 1: refused
	h.queue("bob")   // 2: sent all the same
	h.sink.FailNext(errPermanent)
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
	t.Parallel()
	h := newHarness(t)
	h.queue("alice")
	for range 200 {
		h.sink.FailNext(errTemporary)
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
	t.Parallel()
	for attempts := 1; attempts <= 12; attempts++ {
		full := min(firstRetry<<(attempts-1), lastRetry)
		for range 20 {
			if d := backoff(attempts); d < full/2 || d > full {
				t.Errorf("backoff(%d) = %v, want between %v and %v", attempts, d, full/2, full)
			}
		}
	}
}

// TestRunOutbox runs the send loop: a mail queued is sent at once, and the
// loop stops when its context ends.
func TestRunOutbox(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	arrived := h.sink.Arrived()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.o.Run(ctx, h.sink) }()

	h.queue("alice")
	select {
	case <-arrived:
	case <-time.After(10 * time.Second):
		t.Fatal("the send loop did not send the queued mail")
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Run() = %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not stop")
	}
	if got := h.sink.Take(); len(got) != 1 {
		t.Errorf("%d mails sent, want 1", len(got))
	}
}

// TestOutboxSentLog records sent mails in the sent log, which carries
// them into the outbox: each mail goes out once, failures are recorded
// as without the log, and records left by a crash are applied first.
func TestOutboxSentLog(t *testing.T) {
	t.Parallel()
	log, err := db.OpenSentLog(filepath.Join(t.TempDir(), "congo.db-sent"))
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	h := newHarnessWith(t, Config{SentLog: log})
	h.queue("alice") // outbox mail 1
	h.queue("bob")   // 2
	h.queue("carol") // 3
	h.sink.FailNext(errPermanent)

	if n := h.sendDue(); n != 2 {
		t.Fatalf("SendDue() = %d, want 2 sent", n)
	}
	if got := len(h.sink.Take()); got != 2 {
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
	if n := h.sendDue(); n != 0 || len(h.sink.Take()) != 0 {
		t.Errorf("SendDue() again sent %d mails, want none", n)
	}

	// A record the process made before it died is applied before the
	// outbox is read: the mail is not sent again.
	h.queue("dave") // 4
	if err := log.Record(h.outboxMail(4), h.clock.Now()); err != nil {
		t.Fatal(err)
	}
	if n := h.sendDue(); n != 0 || len(h.sink.Take()) != 0 {
		t.Errorf("SendDue() sent %d mails, want none: the log says mail 4 went out", n)
	}
	if m := h.outboxMail(4); m.SentAt.IsZero() {
		t.Errorf("mail 4 not recorded as sent: %+v", m)
	}
}

// slowSender takes its time over each mail, telling when it has begun.
type slowSender struct {
	begun   chan struct{}
	release chan struct{}
}

func (s slowSender) Send(ctx context.Context, from string, to []string, msg []byte) error {
	close(s.begun)
	select {
	case <-s.release:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// TestRunFinishesTheSendInFlight: asked to stop while a mail is being
// sent, the loop lets the send finish and records it, so that the mail is
// not sent again after a restart.
func TestRunFinishesTheSendInFlight(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.queue("alice")
	send := slowSender{begun: make(chan struct{}), release: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.o.Run(ctx, send) }()
	<-send.begun
	cancel()
	time.Sleep(50 * time.Millisecond) // the stop is asked for; the send goes on
	close(send.release)
	select {
	case <-done:
	case <-time.After(inFlightGrace + 5*time.Second):
		t.Fatal("Run did not stop")
	}
	if m := h.outboxMail(1); m.SentAt.IsZero() {
		t.Errorf("the mail in flight at the stop: %+v, want it sent and recorded", m)
	}
}

// TestOutboxOrderAndRecovery: a recipient's mails go out in the order
// they were queued, never a newer one while an older one waits; and once
// a send works again, the mails waiting out a backoff go at once.
func TestOutboxOrderAndRecovery(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.queue("alice")              // 1
	h.queue("alice")              // 2
	h.queue("bob")                // 3
	h.sink.FailNext(errTemporary) // the first send, alice's first mail, fails
	if n := h.sendDue(); n != 1 {
		t.Fatalf("SendDue() = %d, want bob's mail alone", n)
	}
	if n := h.sendDue(); n != 0 {
		t.Fatalf("SendDue() while alice's first mail waits = %d, want 0: her second must not overtake it", n)
	}
	h.queue("carol") // 4: sent, and every send of the round works
	if n := h.sendDue(); n != 1 {
		t.Fatalf("SendDue() = %d, want carol's mail", n)
	}
	// No time passes: alice's first mail is due all the same, then her second.
	for range 3 {
		h.sendDue()
	}
	var got []string
	for _, m := range h.sink.Take() {
		got = append(got, messageID(t, m.Raw))
	}
	want := []string{h.outboxMail(3).MessageID, h.outboxMail(4).MessageID, h.outboxMail(1).MessageID, h.outboxMail(2).MessageID}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("sent %q, want bob's, carol's, then alice's two in order %q", got, want)
	}
}
