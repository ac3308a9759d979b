package mailer

import (
	"sync/atomic"
	"time"
)

// InboxStatus is the state of an Inbox's Run, for monitoring.
type InboxStatus struct {
	// Connected is true while a session is logged in with the mailbox
	// selected.
	Connected bool
	// LastPoll is when the mailbox was last searched for new mail
	// successfully; zero before the first time.
	LastPoll time.Time
	// Errors counts the sessions that ended in an error (each followed by
	// a reconnection).
	Errors uint64
	// HandlerDown is true while the last mail tried failed for the
	// handler's sake, not its own (its error said Unavailable).
	HandlerDown bool
}

// inboxStatus is what Status reports, updated by Run.
type inboxStatus struct {
	connected   atomic.Bool
	lastPoll    atomic.Int64 // Unix nanoseconds; 0 for never
	errors      atomic.Uint64
	handlerDown atomic.Bool
}

// Status reports the state of Run. It is safe to call from any
// goroutine.
func (b *Inbox) Status() InboxStatus {
	s := InboxStatus{Connected: b.status.connected.Load(), Errors: b.status.errors.Load(), HandlerDown: b.status.handlerDown.Load()}
	if ns := b.status.lastPoll.Load(); ns != 0 {
		s.LastPoll = time.Unix(0, ns)
	}
	return s
}
