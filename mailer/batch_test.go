package mailer_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/mailer"
	"github.com/congobymail/congo/mailer/loopback"
	"github.com/congobymail/congo/mailmsg"
	"github.com/emersion/go-imap/v2"
)

// batches records the batches given to a BatchHandler.
type batches struct {
	mu    sync.Mutex
	calls [][]*mailmsg.Incoming
}

func (b *batches) add(ms []*mailmsg.Incoming) {
	b.mu.Lock()
	b.calls = append(b.calls, slices.Clone(ms))
	b.mu.Unlock()
}

func (b *batches) all() [][]*mailmsg.Incoming {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.calls)
}

// mails returns the mails of every batch, in the order given.
func (b *batches) mails() []*mailmsg.Incoming {
	var all []*mailmsg.Incoming
	for _, ms := range b.all() {
		all = append(all, ms...)
	}
	return all
}

// uids returns the UIDs of each batch.
func (b *batches) uids() [][]uint32 {
	var l [][]uint32
	for _, ms := range b.all() {
		var u []uint32
		for _, m := range ms {
			u = append(u, m.UID)
		}
		l = append(l, u)
	}
	return l
}

// runInboxBatch runs an Inbox's RunBatch on cfg until the test ends.
func runInboxBatch(t *testing.T, cfg mailer.InboxConfig, handle mailer.BatchHandler) (*mailer.Inbox, context.CancelFunc, <-chan error) {
	t.Helper()
	return startInbox(t, cfg, func(ctx context.Context, inbox *mailer.Inbox) error { return inbox.RunBatch(ctx, handle) })
}

// morePolls waits until the inbox has searched the mailbox twice more.
func morePolls(t *testing.T, inbox *mailer.Inbox) {
	t.Helper()
	for range 2 {
		last := inbox.Status().LastPoll
		congotest.WaitFor(t, "another pass", 5*time.Second, func() bool { return inbox.Status().LastPoll.After(last) })
	}
}

// nilErrors is a BatchHandler's result when every mail was handled.
func nilErrors(ms []*mailmsg.Incoming) []error { return make([]error, len(ms)) }

func hasFlag(flags []imap.Flag, f imap.Flag) bool {
	return slices.ContainsFunc(flags, func(g imap.Flag) bool { return strings.EqualFold(string(g), string(f)) })
}

// TestInboxHandlesBacklogInBatches: mail waiting when the Inbox starts is
// handed over in batches, each mail once, in UID order, and filed.
func TestInboxHandlesBacklogInBatches(t *testing.T) {
	t.Parallel()
	const n = 100
	tests := []struct {
		name      string
		cfg       loopback.Config
		wantInbox int // mails left in INBOX, \Seen
	}{
		{"MOVE", loopback.Config{}, 0},
		{"UIDPLUS: copy and UID EXPUNGE", loopback.Config{NoMove: true}, 0},
		{"no UIDPLUS: copy and leave them seen", loopback.Config{NoMove: true, NoUIDPlus: true}, n},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sys := startSystem(t, tt.cfg)
			for i := range n {
				deliver(t, sys, fmt.Sprintf("mail %03d", i+1))
			}
			var b batches
			inbox, _, _ := runInboxBatch(t, mailer.InboxConfig{URL: sys.IMAPURL("congo"), Poll: 50 * time.Millisecond},
				func(_ context.Context, ms []*mailmsg.Incoming) []error {
					b.add(ms)
					return nilErrors(ms)
				})
			congotest.WaitFor(t, "all mails filed", 10*time.Second, count(sys, "Processed", n))
			congotest.WaitFor(t, "INBOX settled", 5*time.Second, count(sys, "INBOX", tt.wantInbox))
			morePolls(t, inbox) // nothing is handled twice

			uids := b.uids()
			var got []uint32
			several := false
			for _, u := range uids {
				if len(u) > mailer.DefaultBatch {
					t.Errorf("a batch of %d mails, want at most %d", len(u), mailer.DefaultBatch)
				}
				several = several || len(u) > 1
				got = append(got, u...)
			}
			if !several {
				t.Errorf("batches %v, want one of several mails", uids)
			}
			var want []uint32
			for i := range n {
				want = append(want, uint32(i+1))
			}
			if !slices.Equal(got, want) {
				t.Errorf("handled UIDs %v, want 1 to %d, each once, in order", got, n)
			}
			for i, m := range b.mails() {
				if want := fmt.Sprintf("mail %03d", i+1); m.Subject != want || m.UIDValidity == 0 {
					t.Errorf("mail %d = Subject %q, UIDValidity %d; want %q and a UIDValidity", i, m.Subject, m.UIDValidity, want)
					break
				}
			}
			for _, box := range []string{"Processed", "INBOX"} {
				for _, m := range mailbox(t, sys, box) {
					if !slices.Contains(m.Flags, imap.FlagSeen) {
						t.Errorf("%s message %d flags %v, want \\Seen", box, m.UID, m.Flags)
					}
				}
			}
		})
	}
}

// TestInboxBatchOfOne: Batch 1 hands the mails over one at a time.
func TestInboxBatchOfOne(t *testing.T) {
	t.Parallel()
	sys := startSystem(t, loopback.Config{})
	for i := range 5 {
		deliver(t, sys, fmt.Sprintf("mail %d", i+1))
	}
	var b batches
	runInboxBatch(t, mailer.InboxConfig{URL: sys.IMAPURL("congo"), Batch: 1},
		func(_ context.Context, ms []*mailmsg.Incoming) []error {
			b.add(ms)
			return nilErrors(ms)
		})
	congotest.WaitFor(t, "all mails filed", 5*time.Second, count(sys, "Processed", 5))
	if got, want := b.uids(), [][]uint32{{1}, {2}, {3}, {4}, {5}}; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("batches %v, want %v", got, want)
	}
}

// TestInboxBatchPartialFailure: when the handler fails on one mail of a
// batch, the others are filed, and that one is retried and, after
// MaxTries, set aside.
func TestInboxBatchPartialFailure(t *testing.T) {
	t.Parallel()
	sys := startSystem(t, loopback.Config{})
	for i := range 5 {
		deliver(t, sys, fmt.Sprintf("mail %d", i+1))
	}
	var b batches
	inbox, _, _ := runInboxBatch(t, mailer.InboxConfig{URL: sys.IMAPURL("congo"), Batch: 5, MaxTries: 3, Poll: 50 * time.Millisecond},
		func(_ context.Context, ms []*mailmsg.Incoming) []error {
			b.add(ms)
			errs := make([]error, len(ms))
			for i, m := range ms {
				if m.Subject == "mail 3" {
					errs[i] = errors.New("template: no such field")
				}
			}
			return errs
		})
	congotest.WaitFor(t, "the failing mail set aside", 5*time.Second, count(sys, "Quarantine", 1))
	morePolls(t, inbox)

	if got, want := b.uids(), [][]uint32{{1, 2, 3, 4, 5}, {3}, {3}}; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("batches %v, want %v", got, want)
	}
	var processed []string
	for _, m := range mailbox(t, sys, "Processed") {
		in, _ := mailmsg.Parse(m.Raw)
		processed = append(processed, in.Subject)
	}
	if want := []string{"mail 1", "mail 2", "mail 4", "mail 5"}; !slices.Equal(processed, want) {
		t.Errorf("Processed holds %q, want %q", processed, want)
	}
	q := mailbox(t, sys, "Quarantine")
	if in, _ := mailmsg.Parse(q[0].Raw); in.Subject != "mail 3" || !hasFlag(q[0].Flags, "$CongoTry2") {
		t.Errorf("Quarantine holds %q flagged %v, want \"mail 3\" flagged $CongoTry2", in.Subject, q[0].Flags)
	}
	if n := len(mailbox(t, sys, "INBOX")); n != 0 {
		t.Errorf("INBOX holds %d mails, want 0", n)
	}
}

// TestInboxBatchPanic: when the handler panics on a batch, its mails are
// handed over one at a time, so that the panic is charged to the mail that
// causes it: the others are handled once and filed, and that one is set
// aside after MaxTries.
func TestInboxBatchPanic(t *testing.T) {
	t.Parallel()
	sys := startSystem(t, loopback.Config{})
	for _, s := range []string{"one", "two", "poison", "four", "five"} {
		deliver(t, sys, s)
	}
	var (
		b      batches // the batches handled
		poison batches // the batches that panicked
	)
	inbox, _, _ := runInboxBatch(t, mailer.InboxConfig{URL: sys.IMAPURL("congo"), MaxTries: 3, Poll: 50 * time.Millisecond},
		func(_ context.Context, ms []*mailmsg.Incoming) []error {
			if slices.ContainsFunc(ms, func(m *mailmsg.Incoming) bool { return m.Subject == "poison" }) {
				poison.add(ms)
				panic("index out of range")
			}
			b.add(ms)
			return nilErrors(ms)
		})
	congotest.WaitFor(t, "the poison set aside", 5*time.Second, count(sys, "Quarantine", 1))
	congotest.WaitFor(t, "the other mails filed", 5*time.Second, count(sys, "Processed", 4))
	morePolls(t, inbox)

	if got, want := b.uids(), [][]uint32{{1}, {2}, {4}, {5}}; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("batches handled %v, want %v", got, want)
	}
	if got, want := poison.uids(), [][]uint32{{1, 2, 3, 4, 5}, {3}, {3}, {3}}; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("batches that panicked %v, want %v (the batch, then the poison alone MaxTries times)", got, want)
	}
	if n := len(mailbox(t, sys, "INBOX")); n != 0 {
		t.Errorf("INBOX holds %d mails, want 0", n)
	}
}

// TestInboxBatchByteBound: a batch holds at most MaxBatchBytes of fetched
// mail, each message counting at most MaxSize; mail larger than MaxSize is
// still truncated within a batch.
func TestInboxBatchByteBound(t *testing.T) {
	t.Parallel()
	sys := startSystem(t, loopback.Config{})
	maxSize := int64(mailer.MaxBatchBytes/3 + 1) // two fit in a batch, three do not
	big := mailWithAttachment(int(maxSize)+64<<10, true)
	small := []byte("From: alice@example.org\r\nTo: congo@pbm.example.net\r\nSubject: small\r\n\r\nhelp\r\n")
	for _, raw := range [][]byte{big, big, small, big, big} {
		if err := sys.Deliver(context.Background(), "rae@example.org", []string{"congo@pbm.example.net"}, raw); err != nil {
			t.Fatal(err)
		}
	}
	var b batches
	runInboxBatch(t, mailer.InboxConfig{URL: sys.IMAPURL("congo"), MaxSize: maxSize},
		func(_ context.Context, ms []*mailmsg.Incoming) []error {
			b.add(ms)
			return nilErrors(ms)
		})
	congotest.WaitFor(t, "all mails filed", 10*time.Second, count(sys, "Processed", 5))

	if got, want := b.uids(), [][]uint32{{1, 2, 3}, {4, 5}}; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("batches %v, want %v", got, want)
	}
	// The server adds a header line or two: the size is that of the stored mail.
	bigSize := 0
	for _, m := range mailbox(t, sys, "Processed") {
		bigSize = max(bigSize, len(m.Raw))
	}
	for _, m := range b.mails() {
		if m.Subject == "small" {
			if m.Truncated || m.Text != "help\n" {
				t.Errorf("small mail = Text %q, Truncated %v; want \"help\\n\", whole", m.Text, m.Truncated)
			}
			continue
		}
		if m.Text != "board congo 42" || !m.Truncated || m.Size != bigSize {
			t.Errorf("mail %d = Text %q, Truncated %v, Size %d; want %q, true, %d",
				m.UID, m.Text, m.Truncated, m.Size, "board congo 42", bigSize)
		}
	}
}

// TestInboxBatchCancel: when ctx ends during a batch, what the handler
// handled is filed; under Run, handle gets no further mail, and the mail
// it did not get stays, its tries not counted.
func TestInboxBatchCancel(t *testing.T) {
	t.Parallel()
	t.Run("RunBatch", func(t *testing.T) {
		sys := startSystem(t, loopback.Config{})
		for i := range 3 {
			deliver(t, sys, fmt.Sprintf("mail %d", i+1))
		}
		started := make(chan struct{})
		var b batches
		_, cancel, done := runInboxBatch(t, mailer.InboxConfig{URL: sys.IMAPURL("congo")},
			func(ctx context.Context, ms []*mailmsg.Incoming) []error {
				b.add(ms)
				close(started)
				<-ctx.Done()
				return nilErrors(ms) // the transaction commits all the same
			})
		<-started
		cancel()
		<-done
		if got, want := b.uids(), [][]uint32{{1, 2, 3}}; !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("batches %v, want %v", got, want)
		}
		if n := len(mailbox(t, sys, "Processed")); n != 3 {
			t.Errorf("Processed holds %d mails after cancel, want 3", n)
		}
	})
	t.Run("Run", func(t *testing.T) {
		sys := startSystem(t, loopback.Config{})
		for i := range 3 {
			deliver(t, sys, fmt.Sprintf("mail %d", i+1))
		}
		started := make(chan struct{})
		var h handled
		cancel, done := runInbox(t, mailer.InboxConfig{URL: sys.IMAPURL("congo")},
			func(ctx context.Context, m *mailmsg.Incoming) error {
				h.add(m)
				if m.UID == 1 {
					close(started)
					<-ctx.Done()
					return nil
				}
				return errors.New("handed over after cancel")
			})
		<-started
		cancel()
		<-done
		if got, want := h.subjects(), []string{"mail 1"}; !slices.Equal(got, want) {
			t.Errorf("handled %q, want %q", got, want)
		}
		if n := len(mailbox(t, sys, "Processed")); n != 1 {
			t.Errorf("Processed holds %d mails after cancel, want 1", n)
		}
		inbox := mailbox(t, sys, "INBOX")
		if len(inbox) != 2 {
			t.Fatalf("INBOX holds %d mails after cancel, want 2", len(inbox))
		}
		for _, m := range inbox {
			if len(m.Flags) != 0 {
				t.Errorf("INBOX message %d flags %v, want none", m.UID, m.Flags)
			}
		}
	})
}
