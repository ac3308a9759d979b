package mailer_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/mailer"
	"github.com/congobymail/congo/mailer/loopback"
	"github.com/congobymail/congo/mailmsg"
)

// TestInboxStatus follows Status through a session and its loss.
func TestInboxStatus(t *testing.T) {
	sys := startSystem(t, loopback.Config{})
	inbox, err := mailer.NewInbox(mailer.InboxConfig{URL: sys.IMAPURL("congo"), Poll: 50 * time.Millisecond, Backoff: 10 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(testWriter{t}, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if got := inbox.Status(); got != (mailer.InboxStatus{}) {
		t.Errorf("Status() before Run = %+v, want zero", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	start := time.Now() // before Run, whose first poll may come at once
	go func() { done <- inbox.Run(ctx, func(context.Context, *mailmsg.Incoming) error { return nil }) }()
	defer func() {
		cancel()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Errorf("Run did not return within 5s of cancel")
		}
	}()

	congotest.WaitFor(t, "connection", 5*time.Second, func() bool {
		s := inbox.Status()
		return s.Connected && !s.LastPoll.IsZero()
	})
	if s := inbox.Status(); s.LastPoll.Before(start) || s.Errors != 0 {
		t.Errorf("Status() = %+v, want a LastPoll after %v and no errors", s, start)
	}
	// Polls go on.
	first := inbox.Status().LastPoll
	congotest.WaitFor(t, "another poll", 5*time.Second, func() bool { return inbox.Status().LastPoll.After(first) })

	sys.Close()
	congotest.WaitFor(t, "the loss of the connection", 5*time.Second, func() bool {
		s := inbox.Status()
		return !s.Connected && s.Errors > 0
	})
}
