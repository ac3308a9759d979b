package congotest

import (
	"bytes"
	"context"
	"slices"
	"sync"
)

// Sink is an outbox.Sender that sends nothing: it records the mails it is
// given, fails the sends it is told to (FailNext), and signals each mail
// it records (Arrived). The zero Sink is ready; it is safe for concurrent
// use.
type Sink struct {
	mu      sync.Mutex
	sent    []Sent
	errs    []error // returned by the next sends, in order
	arrived chan struct{}
}

// Sent is a mail as a Sink was given it.
type Sent struct {
	From string   // the envelope sender
	To   []string // the envelope recipients
	Raw  []byte   // the mail, as composed
}

// Send records the mail, or returns the next error FailNext gave.
func (k *Sink) Send(ctx context.Context, from string, to []string, msg []byte) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.errs) > 0 {
		err := k.errs[0]
		k.errs = k.errs[1:]
		return err
	}
	k.sent = append(k.sent, Sent{From: from, To: slices.Clone(to), Raw: bytes.Clone(msg)})
	if k.arrived != nil {
		select {
		case k.arrived <- struct{}{}:
		default:
		}
	}
	return nil
}

// FailNext has the next sends fail with errs, one each, in order, in
// place of those it was told to fail before; with no errs, they work.
func (k *Sink) FailNext(errs ...error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.errs = append([]error(nil), errs...)
}

// Failing is how many sends are still to fail.
func (k *Sink) Failing() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.errs)
}

// Take returns the mails recorded since the last Take, in the order
// sent.
func (k *Sink) Take() []Sent {
	k.mu.Lock()
	defer k.mu.Unlock()
	s := k.sent
	k.sent = nil
	return s
}

// Arrived is a channel that receives when a mail is recorded: one signal
// waits for the receiver, those past it are dropped.
func (k *Sink) Arrived() <-chan struct{} {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.arrived == nil {
		k.arrived = make(chan struct{}, 1)
	}
	return k.arrived
}
