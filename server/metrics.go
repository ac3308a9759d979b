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

// Handled tells the Metrics about one mail.
type Handled struct {
	MessageID string
	Handle    string   // the sender's handle; empty when not registered
	Commands  []string // the kinds of the mail's commands, in order
	Outcome   Outcome
	Duration  time.Duration // by Config.Now
	Err       error         // why it Failed
}

// RobotMoved tells the Metrics about one move the robot chose.
type RobotMoved struct {
	Game     int64
	Level    int
	Duration time.Duration // the search's, by Config.Now
	// TimedOut is set when the time cap (engine.SafetyTime) stopped the
	// search before the level's node limit: the move may differ from
	// machine to machine. It should not happen.
	TimedOut bool
}

// Analysed tells the Metrics about one analysis of a game (M49) that the
// robot's worker made, or began.
type Analysed struct {
	Game     int64
	Plies    int
	Duration time.Duration // by Config.Now
	// Interrupted is set when a robot turn stopped it: it is made again
	// from the start after the turn. Failed is set when the game's moves
	// could not be analysed (its players were told).
	Interrupted, Failed bool
}

// Metrics is told about each mail that HandleMail handles, after its
// transaction, each move of the robot's and each analysis; cmd/congod
// counts them. Its methods must not block.
type Metrics interface {
	MailHandled(Handled)
	RobotMoved(RobotMoved)
	Analysed(Analysed)
}
