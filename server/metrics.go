package server

import (
	"time"

	"github.com/congobymail/congo/analyst"
	"github.com/congobymail/congo/robot"
)

// Outcome is how the handling of one mail ended.
type Outcome string

// Outcomes of ProcessMail.
const (
	Done      Outcome = "done"      // every command was carried out
	Refused   Outcome = "refused"   // a command was refused or not understood (and answered)
	Ignored   Outcome = "ignored"   // a mail never to be answered (M8)
	Duplicate Outcome = "duplicate" // a mail handled before
	Failed    Outcome = "failed"    // nothing was done; the mail is to be tried again
)

// Processed tells the Metrics about one mail.
type Processed struct {
	MessageID string
	Handle    string   // the sender's handle; empty when not registered
	Commands  []string // the kinds of the mail's commands, in order
	Outcome   Outcome
	Duration  time.Duration // by Config.Now
	Err       error         // why it Failed
}

// Metrics is told about each mail that ProcessMail takes, after its
// transaction, each move of the robot's and each analysis; cmd/congod
// counts them. Its methods must not block.
type Metrics interface {
	MailProcessed(Processed)
	robot.Metrics
	analyst.Metrics
}
