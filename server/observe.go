package server

import "time"

// Outcome is how the handling of one mail ended.
type Outcome string

// Outcomes of HandleMail.
const (
	Done      Outcome = "done"      // every command was carried out
	Refused   Outcome = "refused"   // a command was refused or not understood (and answered)
	Ignored   Outcome = "ignored"   // a mail never to be answered (M8)
	Duplicate Outcome = "duplicate" // a mail handled before
	Failed    Outcome = "failed"    // nothing was done; the mail is to be tried again
)

// Handled tells an Observer about one mail.
type Handled struct {
	MessageID string
	Handle    string   // the sender's handle; empty when not registered
	Commands  []string // the kinds of the mail's commands, in order
	Outcome   Outcome
	Duration  time.Duration // by Config.Now
	Err       error         // why it Failed
}

// Observer is told about each mail that HandleMail handles, after its
// transaction; cmd/congod counts them in its metrics. MailHandled must
// not block.
type Observer interface {
	MailHandled(Handled)
}

// outcome is how the handling ended, once handle returned without error.
func (h *handling) outcome() Outcome {
	switch {
	case h.ignored:
		return Ignored
	case h.refused || len(h.unknown) > 0 || len(h.unproven) > 0:
		return Refused
	}
	return Done
}

// senderHandle is the sender's handle, or "".
func (h *handling) senderHandle() string {
	if h.sender == nil {
		return ""
	}
	return h.sender.Handle
}
