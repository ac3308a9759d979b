package server

import (
	"context"
	"errors"
	"fmt"
	"github.com/congobymail/congo/account"
	"strings"
	"time"

	"github.com/congobymail/congo/command"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/mailmsg"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/play"
	"github.com/congobymail/congo/tell"
	"github.com/congobymail/congo/templates"
)

// processing is the work on one incoming mail, inside its transaction:
// who sent it, whether it proves it, and the answer being gathered. Each
// command goes to its room's handler (run); game events queue their
// mails through the work, and everything that answers the sender is
// gathered into one answer, queued last.
type processing struct {
	s    *Server
	w    *tell.Work
	mail *mailmsg.Incoming

	sender *db.Player // nil while the From address is not registered
	proven bool       // the mail proves it comes from sender
	banned bool       // the sender is banned by the operator
	// message is the sender's words for the opponent (M19), in the game
	// messageGame; with a Subject command, that command's game, 0 for a
	// command that starts one (a challenge).
	message     string
	messageGame int64
	// subjectCommand is true when the Subject was a command: the answer
	// must not repeat it, or a reply to the answer would run it again.
	subjectCommand bool
	// hints are what the mail asked for and did not get (M58), which
	// its answer (or the sender's board mail) says first.
	hints []parser.Error

	answer answer
	// done are the commands asked once a mail (board, analyze) and
	// carried out, by their keys.
	done map[string]bool
	// conditionals are the games whose conditional moves the mail showed
	// or changed, in order, with the lines added and cleared: answered
	// after all commands.
	conditionals []command.Conditionals

	kinds   []string // the kinds of the commands run, for the Metrics
	refused bool     // a command was refused or not understood
	ignored bool     // the mail is not to be answered
}

func (s *Server) newProcessing(tx *db.Tx, m *mailmsg.Incoming, now time.Time) *processing {
	return &processing{s: s, w: s.tell.NewWork(tx, now), mail: m, answer: newAnswer(), done: map[string]bool{}}
}

// handle carries out the mail and returns a summary of what was done.
func (h *processing) handle(ctx context.Context) (string, error) {
	m := h.mail
	h.ignored = true
	switch {
	case m.AutoReply:
		return "not answered: " + m.Why, nil
	case m.From == "":
		return "not answered: no sender address", nil
	case h.s.tell.IsOwn(m.From):
		return "not answered: from our own address", nil
	case tell.IsRobotAddress(m.From):
		return "not answered: from the robot's address", nil
	}
	h.ignored = false
	if err := h.identify(ctx); err != nil {
		return "", err
	}
	if h.proven {
		// A mail that proves nothing spends no budget of the address it
		// claims (M52): its answer has a cap of its own.
		h.w.Cause, h.w.AskedBy = outbox.Player(h.sender.ID), h.sender.Address
	}
	ctxGame, err := h.w.Tx.GameOfMessages(ctx, m.Answers()...)
	if err != nil {
		return "", err
	}
	var digest []int64
	if ctxGame == 0 {
		// A reply to a digest (M24): its games, and the one when it
		// listed one.
		if digest, err = h.w.Tx.GamesOfMessages(ctx, m.Answers()...); err != nil {
			return "", err
		}
		if len(digest) == 1 {
			ctxGame = digest[0]
		}
	}
	res := parser.Parse(m.Subject, m.Text, parser.Context{Game: ctxGame, Digest: digest, Operator: h.isOperator()})
	h.message = strings.TrimSpace(res.Message)
	if h.message != "" {
		// No secret of ours is relayed, in any form that reads as one
		// (M30, M57).
		var n int
		if h.message, n, err = account.RemoveSecrets(ctx, h.w.Tx, h.message); err != nil {
			return "", err
		}
		if n > 0 {
			h.w.Note(fmt.Sprintf("%d secrets removed from the message", n))
		}
	}
	switch {
	case res.FromSubject:
		h.messageGame = res.Commands[0].Game // 0: with whatever the command starts (a challenge)
	case ctxGame != 0:
		h.messageGame = ctxGame
	default:
		h.messageGame = parser.GameFromSubject(m.Subject)
	}
	h.subjectCommand = res.CommandSubject
	h.hints = res.Hints
	h.answer.game = ctxGame
	if len(res.Commands) == 0 && h.proven {
		if quiet, err := h.loop(ctx); err != nil || quiet {
			return h.summary(), err
		}
	}
	for _, c := range res.Commands {
		if err := h.run(ctx, c); err != nil {
			return "", err
		}
	}
	for _, c := range h.conditionals {
		sec, err := play.ListConditionals(ctx, h.w.Tx, *h.sender, c)
		if err != nil {
			return "", err
		}
		h.answer.add(sec)
	}
	if err := h.relay(ctx); err != nil {
		return "", err
	}
	for _, e := range res.Errors {
		h.answer.add(templates.Error{Line: e.Line, Problem: templates.NotUnderstood, Reason: templates.Phrase{Format: e.Format, Args: e.Args}})
		h.w.Note("not understood: " + e.Problem.String())
		// A body not read beside a Subject's command is a notice: the
		// command itself may have been carried out.
		h.refused = h.refused || e.Problem != parser.NotRead
	}
	if m.Cut != "" {
		h.answer.add(templates.Cut{Why: templates.Phrase{Format: m.CutFormat, Args: m.CutArgs}})
		h.w.Note("cut: " + m.Cut)
	}
	h.finishAnswer(len(res.Commands), len(res.Errors))
	if err := h.tellHints(); err != nil {
		return "", err
	}
	if err := h.fold(); err != nil {
		return "", err
	}
	if err := h.w.Flush(ctx); err != nil {
		return "", err
	}
	if err := h.answerOnce(ctx); err != nil {
		return "", err
	}
	if len(h.answer.sections) > 0 {
		if err := h.sendAnswer(ctx); err != nil {
			return "", err
		}
	}
	return h.summary(), nil
}

// summary is what was done with the mail, for the log.
func (h *processing) summary() string {
	return fmt.Sprintf("%s: %s", h.mail.From, strings.Join(h.w.Notes(), "; "))
}

// identify finds the registered player who sent the mail, if any, and
// whether the mail proves it.
func (h *processing) identify(ctx context.Context) error {
	p, err := h.w.Tx.PlayerByAddress(ctx, h.mail.From)
	if errors.Is(err, db.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	h.sender = &p
	h.proven = h.s.proves(h.mail, p)
	if h.banned, err = h.w.Tx.Banned(ctx, p.ID); err != nil {
		return err
	}
	if h.proven && !p.Confirmed {
		// The mail came to the personal address the welcome gave, from
		// the address registered: the address is the player's (M28).
		h.sender.Confirmed = true
		return h.w.Tx.SetConfirmed(ctx, p.ID)
	}
	return nil
}

// A loop with a broken automatic responder (one that marks its mail with
// no Auto-Submitted) shows as mail without a command, again and again: at
// loopMails of them within loopWindow the address is answered no more
// (its words are not passed on either) while such mail keeps coming, and
// told so once; after loopQuiet without, it is answered again. Mail with
// commands is answered as always.
const (
	loopMails  = 5
	loopWindow = 5 * time.Minute
	loopQuiet  = time.Hour
)

// loop counts a proven mail without a command (a mail that proves
// nothing counts against no counter of the address it claims, M52), and
// reports whether it is to go unanswered, being part of a loop; the
// first such mail is answered by the notice alone.
func (h *processing) loop(ctx context.Context) (bool, error) {
	addr := outbox.Recipient(h.mail.From)
	n, told, err := h.w.Tx.AddNoCommand(ctx, addr, h.w.Now, loopWindow)
	if err != nil {
		return false, err
	}
	quiet := !told.IsZero() && h.w.Now.Sub(told) < loopQuiet
	if n < loopMails && !quiet {
		return false, nil
	}
	if err := h.w.Tx.SetNoCommandTold(ctx, addr, h.w.Now); err != nil {
		return false, err
	}
	if quiet {
		h.w.Note("not answered: a loop")
		return true, nil
	}
	h.w.Note("not answered: a loop, told")
	h.answer.add(templates.LoopNotice{Mails: n, Quiet: loopQuiet})
	return true, h.sendAnswer(ctx)
}

// isOperator reports whether the sender of the mail is the operator, and
// proves it.
func (h *processing) isOperator() bool {
	return h.s.operator != "" && h.sender != nil && h.proven && strings.EqualFold(h.sender.Address, h.s.operator)
}

// request is the Request of the command c of the mail.
func (h *processing) request(c parser.Command) *command.Request {
	r := command.Request{Work: h.w, Proven: h.proven, Operator: h.isOperator(), Line: c.Line, Game: c.Game, Mail: h.mail,
		Proves: func(p db.Player) bool { return h.s.proves(h.mail, p) }}
	if h.sender != nil {
		r.Sender = *h.sender
	}
	return r.WithMessage(h.message, h.messageGame)
}

// apply takes in the Result of a command: the sender as it left them,
// its events (told, with the message that goes with them), its answer
// and notes, and the conditional moves to list.
func (h *processing) apply(ctx context.Context, res command.Result) error {
	if res.Sender != nil {
		p := *res.Sender
		h.sender = &p
	}
	h.proven = h.proven || res.Proven
	h.rated(res.Events)
	if err := h.w.Tell(ctx, res.Events, res.Message); err != nil {
		return err
	}
	if res.Game != 0 && h.answer.game == 0 {
		h.answer.game = res.Game
	}
	h.answer.add(res.Answers...)
	for _, n := range res.Notes {
		h.w.Note(n)
	}
	h.refused = h.refused || res.Refused
	if c := res.Conditionals; c != nil {
		for i := range h.conditionals {
			if h.conditionals[i].Game == c.Game {
				h.conditionals[i].Added += c.Added
				h.conditionals[i].Cleared += c.Cleared
				return nil
			}
		}
		h.conditionals = append(h.conditionals, *c)
	}
	return nil
}

// rated brings the sender's rating up to date when the events end a
// rated game of theirs.
func (h *processing) rated(evs []game.Event) {
	for _, e := range evs {
		if st := e.Game; e.Kind == game.Ended && st.Rated != nil && h.sender != nil && st.Game.Has(h.sender.ID) {
			*h.sender = st.Player(st.ColorOf(h.sender.ID))
		}
	}
}

// fail answers a command that cannot be carried out.
func (h *processing) fail(e templates.Error) {
	res := command.Fail(e)
	if res.Game != 0 && h.answer.game == 0 {
		h.answer.game = res.Game
	}
	h.answer.add(e)
	h.w.Note(string(e.Problem))
	h.refused = true
}

// outcome is how the handling ended, once handle returned without error.
func (h *processing) outcome() Outcome {
	switch {
	case h.ignored:
		return Ignored
	case h.refused || len(h.answer.unknown) > 0 || len(h.answer.unproven) > 0:
		return Refused
	}
	return Done
}

// senderHandle is the sender's handle, or "".
func (h *processing) senderHandle() string {
	if h.sender == nil {
		return ""
	}
	return h.sender.Handle
}
