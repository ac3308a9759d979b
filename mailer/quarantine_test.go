package mailer_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/mailer"
	"github.com/congobymail/congo/mailer/loopback"
	"github.com/congobymail/congo/mailmsg"
	"github.com/emersion/go-imap/v2"
)

// TestInboxQuarantinesFailingMail: a mail whose handling keeps failing (an
// error, or a panic) is set aside after MaxTries, the count surviving a
// restart of Run, and the mail after it is handled meanwhile; one mail at a
// time and in batches.
func TestInboxQuarantinesFailingMail(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		fail func() error
	}{
		{"error", func() error { return errors.New("template: no such field") }},
		{"panic", func() error { panic("index out of range") }},
	}
	for _, tt := range tests {
		for _, batch := range []int{1, mailer.DefaultBatch} {
			t.Run(fmt.Sprintf("%s/batch=%d", tt.name, batch), func(t *testing.T) {
				sys := startSystem(t, loopback.Config{})
				deliver(t, sys, "poison")
				deliver(t, sys, "fine")
				var (
					h     handled
					tries atomic.Int32
					hold  atomic.Bool // no third try before the restart
				)
				hold.Store(true)
				handle := func(ctx context.Context, m *mailmsg.Incoming) error {
					if m.Subject == "poison" {
						if hold.Load() && tries.Load() == 2 {
							<-ctx.Done()
							return ctx.Err() // not counted: Run is ending
						}
						h.add(m)
						tries.Add(1)
						return tt.fail()
					}
					h.add(m)
					return nil
				}
				cfg := mailer.InboxConfig{URL: sys.IMAPURL("congo"), Poll: 50 * time.Millisecond, MaxTries: 3, Batch: batch}

				// Two tries, then a restart: the count is kept on the message.
				cancel, done := runInbox(t, cfg, handle)
				congotest.WaitFor(t, "two tries counted", 5*time.Second, func() bool {
					msgs := mailbox(t, sys, "INBOX")
					return len(msgs) == 1 && slices.ContainsFunc(msgs[0].Flags, func(f imap.Flag) bool {
						return strings.EqualFold(string(f), "$CongoTry2")
					})
				})
				cancel()
				<-done
				if n := tries.Load(); n != 2 {
					t.Fatalf("tried %d times before the restart, want 2", n)
				}

				// After the restart, a batch handler that fails (or panics)
				// as handle does: the count goes on from the keyword.
				hold.Store(false)
				inbox, _, _ := runInboxBatch(t, cfg, func(ctx context.Context, ms []*mailmsg.Incoming) []error {
					errs := make([]error, len(ms))
					for i, m := range ms {
						errs[i] = handle(ctx, m)
					}
					return errs
				})
				congotest.WaitFor(t, "the poison set aside", 5*time.Second, count(sys, "Quarantine", 1))
				morePolls(t, inbox)
				if n := tries.Load(); n != 3 {
					t.Errorf("tried %d times, want 3 (MaxTries)", n)
				}
				if n := len(mailbox(t, sys, "INBOX")); n != 0 {
					t.Errorf("INBOX holds %d mails, want 0", n)
				}
				if got, want := h.subjects()[:2], []string{"poison", "fine"}; !slices.Equal(got, want) {
					t.Errorf("handled %q first, want %q", got, want)
				}
				if n := len(mailbox(t, sys, "Processed")); n != 1 {
					t.Errorf("Processed holds %d mails, want 1", n)
				}
			})
		}
	}
}

// TestInboxDoesNotQuarantineWhenAllFail: when every mail fails, the
// handler is down (say its database), not the mails: they stay.
func TestInboxDoesNotQuarantineWhenAllFail(t *testing.T) {
	t.Parallel()
	sys := startSystem(t, loopback.Config{})
	deliver(t, sys, "one")
	deliver(t, sys, "two")
	var calls atomic.Int32
	var down atomic.Bool
	down.Store(true)
	runInbox(t, mailer.InboxConfig{URL: sys.IMAPURL("congo"), Poll: 20 * time.Millisecond, MaxTries: 2},
		func(context.Context, *mailmsg.Incoming) error {
			calls.Add(1)
			if down.Load() {
				return errors.New("database is locked")
			}
			return nil
		})
	congotest.WaitFor(t, "many tries", 5*time.Second, func() bool { return calls.Load() >= 10 })
	if n := len(mailbox(t, sys, "Quarantine")); n != 0 {
		t.Fatalf("Quarantine holds %d mails while the handler is down, want 0", n)
	}
	down.Store(false)
	congotest.WaitFor(t, "both handled once the handler is back", 5*time.Second, count(sys, "Processed", 2))
}

// downError is a handler's failure that is not the mail's (a database
// that takes no write): its Unavailable method says so.
type downError struct{}

func (downError) Error() string     { return "the database is down" }
func (downError) Unavailable() bool { return true }

// TestInboxDoesNotChargeAHandlerOutage: while the handler is down, the one
// mail waiting is tried again within seconds, though the poll is long,
// and costs no try however long the outage; Status says the handler is
// down; once it is up again the mail is handled at once.
func TestInboxDoesNotChargeAHandlerOutage(t *testing.T) {
	t.Parallel()
	sys := startSystem(t, loopback.Config{})
	deliver(t, sys, "move")
	var tries atomic.Int32
	var down atomic.Bool
	down.Store(true)
	var h handled
	cfg := mailer.InboxConfig{URL: sys.IMAPURL("congo"), Poll: time.Hour, MaxTries: 2}
	inbox, cancel, done := runInboxBatch(t, cfg, func(ctx context.Context, ms []*mailmsg.Incoming) []error {
		errs := make([]error, len(ms))
		for i, m := range ms {
			tries.Add(1)
			if down.Load() {
				errs[i] = fmt.Errorf("handle: %w", downError{})
				continue
			}
			h.add(m)
		}
		return errs
	})
	defer func() { cancel(); <-done }()
	congotest.WaitFor(t, "four tries while down", 20*time.Second, func() bool { return tries.Load() >= 4 })
	if !inbox.Status().HandlerDown {
		t.Errorf("Status().HandlerDown = false while the handler is down")
	}
	if msgs := mailbox(t, sys, "Quarantine"); len(msgs) != 0 {
		t.Fatalf("a mail tried while the handler was down was set aside")
	}
	down.Store(false)
	congotest.WaitFor(t, "the mail handled once the handler is up", 40*time.Second, func() bool { return len(h.subjects()) == 1 })
	// The status changes once the batch the handler took is filed, a
	// moment after the handler returned.
	congotest.WaitFor(t, "Status().HandlerDown false once the handler works", 5*time.Second, func() bool { return !inbox.Status().HandlerDown })
}
