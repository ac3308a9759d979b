// Package command is what a room's handler of a command is given, a
// Request (who sends it, whether their mail proves it, the transaction,
// the time and the work that queues mails), and what it gives back, a
// Result (the sections of the answer to the sender, the events it caused,
// what was done). The server looks a command up in its table, checks who
// may give it, and calls the room's handler with both.
package command

import (
	"strings"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/mailmsg"
	"github.com/congobymail/congo/tell"
	"github.com/congobymail/congo/templates"
)

// Request is one command as its handler is given it. The handler reads
// it, queues what it mails through its Work, and returns a Result; it
// changes nothing in the Request.
type Request struct {
	// Work is the transaction of the mail, its time, and the mails it
	// queues.
	*tell.Work
	// Sender is the registered player who sent the command; its ID is 0
	// when the sender is not registered (for the commands anyone may
	// give: help, register, rules).
	Sender db.Player
	// Proven is set when the mail proves that it comes from Sender (M5).
	Proven bool
	// Operator is set when Sender is the server's operator, proven.
	Operator bool
	// Line is the command as the sender wrote it, for the answer.
	Line string
	// Game is the game the command names (or the mail is about); 0 for
	// none.
	Game int64
	// Mail is the mail the command came in; Proves reports whether it
	// proves that it comes from a player (for one just registered).
	Mail   *mailmsg.Incoming
	Proves func(db.Player) bool
	// message is the sender's words for the opponent (M19), for the game
	// messageGame; 0 for whatever game the command starts.
	message     string
	messageGame int64
}

// WithMessage returns r with the sender's message for the opponent in
// game (0 for a game the command starts), "" for none.
func (r Request) WithMessage(text string, game int64) *Request {
	r.message, r.messageGame = text, game
	return &r
}

// Message returns the sender's message for the opponent in game (0 for
// one the command starts), if any.
func (r *Request) Message(game int64) *templates.Message {
	if r.message == "" || r.messageGame != 0 && r.messageGame != game {
		return nil
	}
	return &templates.Message{By: r.Sender.Handle, Text: r.message}
}

// MessageText is the text of Message(game), "" for none.
func (r *Request) MessageText(game int64) string {
	if m := r.Message(game); m != nil {
		return m.Text
	}
	return ""
}

// Result is what a handler did: what the answer to the sender says, in
// order, and what happened.
type Result struct {
	// Answers are the sections of the answer to the sender.
	Answers []templates.Section
	// Events are what the command did in games: the server tells them
	// (tell.Work.Tell) with Message, the sender's message that goes with
	// them, and brings the sender's rating up to date when they end a
	// rated game of theirs.
	Events  []game.Event
	Message *templates.Message
	// Game is the game the answer is about, for its thread and Subject
	// (M9, M22), when no earlier command of the mail named one.
	Game int64
	// Refused is set when the command was refused: the answer says why.
	Refused bool
	// Notes are what was done, for the log's summary of the mail.
	Notes []string
	// Sender, when set, is the sender as the command left them (a new
	// player, a changed setting, a new key, a new rating); Proven is set
	// when the command found that the mail proves it (a registration
	// whose From a trusted server vouches for).
	Sender *db.Player
	Proven bool
	// Conditionals, when set, asks that the sender's conditional moves
	// in a game be listed once, after all the mail's commands.
	Conditionals *Conditionals
}

// Conditionals is what a command did to the sender's conditional moves
// in a game (M14), to be listed after all the mail's commands.
type Conditionals struct {
	Game           int64
	Added, Cleared int
}

// Answer is the Result of a command answered with secs, note saying what
// was done.
func Answer(note string, secs ...templates.Section) Result {
	return Result{Answers: secs, Notes: []string{note}}
}

// Fail is the Result of a command that cannot be carried out: e says
// why, and names the game it is about, if any.
func Fail(e templates.Error) Result {
	r := Result{Answers: []templates.Section{e}, Notes: []string{string(e.Problem)}, Refused: true}
	if e.Game != nil {
		r.Game = e.GameID
	}
	return r
}

// Then is r followed by next: their answers, events and notes in order.
func (r Result) Then(next Result) Result {
	r.Answers = append(r.Answers, next.Answers...)
	r.Events = append(r.Events, next.Events...)
	if next.Message != nil {
		r.Message = next.Message
	}
	r.Notes = append(r.Notes, next.Notes...)
	r.Refused = r.Refused || next.Refused
	if r.Game == 0 {
		r.Game = next.Game
	}
	if next.Sender != nil {
		r.Sender = next.Sender
	}
	r.Proven = r.Proven || next.Proven
	if next.Conditionals != nil {
		r.Conditionals = next.Conditionals
	}
	return r
}

// Refusal is the error of a command that is refused: its Result answers
// why (and tells what happened meanwhile, such as a game lost on time).
// The server answers it as the command's Result; handlers return it
// through Refuse and the loaders below.
type Refusal struct {
	Result Result
}

func (e *Refusal) Error() string { return "command refused: " + strings.Join(e.Result.Notes, "; ") }

// Refuse is the error of a command that cannot be carried out, e saying
// why.
func Refuse(e templates.Error) error { return &Refusal{Fail(e)} }
