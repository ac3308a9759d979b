package mailer_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/congobymail/congo/mailer"
	"github.com/congobymail/congo/mailer/loopback"
	"github.com/emersion/go-imap/v2"
)

// TestInboxQuarantinesFailingMail: a mail whose handling keeps failing (an
// error, or a panic) is set aside after MaxTries, the count surviving a
// restart of Run, and the mail after it is handled meanwhile.
func TestInboxQuarantinesFailingMail(t *testing.T) {
	tests := []struct {
		name string
		fail func() error
	}{
		{"error", func() error { return errors.New("template: no such field") }},
		{"panic", func() error { panic("index out of range") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sys := startSystem(t, loopback.Config{})
			deliver(t, sys, "poison")
			deliver(t, sys, "fine")
			var (
				h     handled
				tries atomic.Int32
			)
			handle := func(_ context.Context, m *mailer.Incoming) error {
				h.add(m)
				if m.Subject == "poison" {
					tries.Add(1)
					return tt.fail()
				}
				return nil
			}
			cfg := mailer.InboxConfig{URL: sys.IMAPURL("congo"), Poll: 50 * time.Millisecond, MaxTries: 3}

			// Two tries, then a restart: the count is kept on the message.
			cancel, done := runInbox(t, cfg, handle)
			waitFor(t, "two tries", 5*time.Second, func() bool { return tries.Load() >= 2 })
			cancel()
			<-done
			if n := tries.Load(); n != 2 {
				t.Fatalf("tried %d times before the restart, want 2", n)
			}
			msgs := mailbox(t, sys, "INBOX")
			if len(msgs) != 1 || !slices.ContainsFunc(msgs[0].Flags, func(f imap.Flag) bool {
				return strings.EqualFold(string(f), "$CongoTry2")
			}) {
				var flags [][]imap.Flag
				for _, m := range msgs {
					flags = append(flags, m.Flags)
				}
				t.Fatalf("INBOX after two tries holds mails flagged %v; want the poison alone, flagged $CongoTry2", flags)
			}

			runInbox(t, cfg, handle)
			waitFor(t, "the poison set aside", 5*time.Second, count(sys, "Quarantine", 1))
			time.Sleep(200 * time.Millisecond) // a few more passes
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

// TestInboxDoesNotQuarantineWhenAllFail: when every mail fails, the
// handler is down (say its database), not the mails: they stay.
func TestInboxDoesNotQuarantineWhenAllFail(t *testing.T) {
	sys := startSystem(t, loopback.Config{})
	deliver(t, sys, "one")
	deliver(t, sys, "two")
	var calls atomic.Int32
	var down atomic.Bool
	down.Store(true)
	runInbox(t, mailer.InboxConfig{URL: sys.IMAPURL("congo"), Poll: 20 * time.Millisecond, MaxTries: 2},
		func(context.Context, *mailer.Incoming) error {
			calls.Add(1)
			if down.Load() {
				return errors.New("database is locked")
			}
			return nil
		})
	waitFor(t, "many tries", 5*time.Second, func() bool { return calls.Load() >= 10 })
	if n := len(mailbox(t, sys, "Quarantine")); n != 0 {
		t.Fatalf("Quarantine holds %d mails while the handler is down, want 0", n)
	}
	down.Store(false)
	waitFor(t, "both handled once the handler is back", 5*time.Second, count(sys, "Processed", 2))
}
