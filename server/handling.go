package server

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/mailmsg"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/robot"
	"github.com/congobymail/congo/templates"
)

// work is what one transaction does, for a mail, the clock, the robot or
// the operator: the changes it makes and the mails they cause, queued at
// once.
type work struct {
	s   *Server
	tx  *db.Tx
	now time.Time

	notes  []string // what was done, for the summary
	queued int      // mails queued
	capped int      // mails held back by a cap (M29)
	// cause is who the mails are counted against (outbox.Mail.Cause):
	// the sender of the mail handled; "" for the server itself. askedBy
	// is the address of the sender of a proven mail, whose mails are
	// always sent (outbox.Mail.Asked).
	cause, askedBy string

	// earlier are the moves the next board mails show before theirs: a
	// player's move whose mail waited for the robot's answer.
	earlier []templates.Move
	// opening is the robot's level when its first move, as white, is
	// the first the challenger hears of the game: the next board mail
	// says that the challenge was accepted too.
	opening int
	// roots are the thread roots (M9) set by this work, by game.
	roots map[int64]string
	// stories are what happened in each game, to mail (flush).
	stories []*story
}

func (s *Server) newWork(tx *db.Tx, now time.Time) *work {
	return &work{s: s, tx: tx, now: now}
}

// note records what was done, for the summary.
func (w *work) note(s string) {
	w.notes = append(w.notes, s)
}

// handling is the work on one incoming mail, inside its transaction.
// Game events queue their mails at once; everything that answers the
// sender is gathered into one reply, queued last.
type handling struct {
	*work
	mail *mailmsg.Incoming

	sender *db.Player // nil while the From address is not registered
	proven bool       // the mail proves it comes from sender
	// message is the sender's words for the opponent (M19), in the game
	// messageGame; with a Subject command, that command's game, 0 for a
	// command that starts one (a challenge).
	message     string
	messageGame int64
	// subjectCommand is true when the Subject was a command: the answer
	// must not repeat it, or a reply to the answer would run it again.
	subjectCommand bool
	// boards are the boards this mail asked for and got, by game and
	// position, so that each is sent once; analysed the games whose
	// analysis it asked for, answered once.
	boards   map[string]bool
	analysed map[int64]bool

	reply      []templates.Section
	replyGame  int64 // the game the reply is about, for threading
	unproven   []string
	proveAt    int // index in reply of the Prove section; -1 for none
	unknown    []string
	registerAt int // index in reply of the HowToRegister section; -1 for none

	// The games whose conditional moves the mail showed or changed, in
	// order, with the lines added and cleared: answered after all
	// commands.
	conditionals []int64
	added        map[int64]int
	cleared      map[int64]int

	kinds   []string // the kinds of the commands run, for the Metrics
	banned  bool     // the sender is banned by the operator
	refused bool     // a command was refused or not understood
	ignored bool     // the mail is not to be answered
}

func (s *Server) newHandling(tx *db.Tx, m *mailmsg.Incoming, now time.Time) *handling {
	return &handling{work: s.newWork(tx, now), mail: m, proveAt: -1, registerAt: -1,
		added: map[int64]int{}, cleared: map[int64]int{}}
}

// handle carries out the mail and returns a summary of what was done.
func (h *handling) handle(ctx context.Context) (string, error) {
	m := h.mail
	h.ignored = true
	switch {
	case m.AutoReply:
		return "not answered: " + m.Why, nil
	case m.From == "":
		return "not answered: no sender address", nil
	case h.s.isOwn(m.From):
		return "not answered: from our own address", nil
	case robot.IsAddress(m.From):
		return "not answered: from the robot's address", nil
	}
	h.ignored = false
	if err := h.identify(ctx); err != nil {
		return "", err
	}
	h.cause = outbox.Recipient(m.From)
	if h.sender != nil {
		h.cause = outbox.Player(h.sender.ID)
		if h.proven {
			h.askedBy = h.sender.Address
		}
	}
	ctxGame, err := h.tx.GameOfMessages(ctx, m.Answers()...)
	if err != nil {
		return "", err
	}
	var digest []int64
	if ctxGame == 0 {
		// A reply to a digest (M24): its games, and the one when it
		// listed one.
		if digest, err = h.tx.GamesOfMessages(ctx, m.Answers()...); err != nil {
			return "", err
		}
		if len(digest) == 1 {
			ctxGame = digest[0]
		}
	}
	res := parser.Parse(m.Subject, m.Text, parser.Context{Game: ctxGame, Digest: digest, Operator: h.isOperator()})
	h.message = strings.TrimSpace(res.Message)
	switch {
	case res.FromSubject:
		h.messageGame = res.Commands[0].Game // 0: with whatever the command starts (a challenge)
	case ctxGame != 0:
		h.messageGame = ctxGame
	default:
		h.messageGame = parser.GameFromSubject(m.Subject)
	}
	h.subjectCommand = res.CommandSubject
	h.replyGame = ctxGame
	if len(res.Commands) == 0 {
		if quiet, err := h.loop(ctx); err != nil || quiet {
			return fmt.Sprintf("%s: %s", m.From, strings.Join(h.notes, "; ")), err
		}
	}
	for _, c := range res.Commands {
		if err := h.run(ctx, c); err != nil {
			return "", err
		}
	}
	if err := h.listConditionals(ctx); err != nil {
		return "", err
	}
	if err := h.relay(ctx); err != nil {
		return "", err
	}
	for _, e := range res.Errors {
		h.answer(templates.Error{Line: e.Line, Problem: templates.NotUnderstood, Detail: e.Reason})
		h.note("not understood: " + e.Problem.String())
		// A body not read beside a Subject's command is a notice: the
		// command itself may have been carried out.
		h.refused = h.refused || e.Problem != parser.NotRead
	}
	if m.Cut != "" {
		h.answer(templates.Cut{Why: m.Cut})
		h.note("cut: " + m.Cut)
	}
	h.finishReply(len(res.Commands), len(res.Errors))
	if err := h.fold(); err != nil {
		return "", err
	}
	if err := h.flush(ctx); err != nil {
		return "", err
	}
	if err := h.answerOnce(ctx); err != nil {
		return "", err
	}
	if len(h.reply) > 0 {
		if err := h.sendReply(ctx); err != nil {
			return "", err
		}
	}
	if err := h.capNotice(ctx); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s: %s", m.From, strings.Join(h.notes, "; ")), nil
}

// identify finds the registered player who sent the mail, if any, and
// whether the mail proves it.
func (h *handling) identify(ctx context.Context) error {
	p, err := h.tx.PlayerByAddress(ctx, h.mail.From)
	if errors.Is(err, db.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	h.sender = &p
	h.proven = h.s.proves(h.mail, p)
	if h.banned, err = h.tx.Banned(ctx, p.ID); err != nil {
		return err
	}
	if h.proven && !p.Confirmed {
		// The mail came to the personal address the welcome gave, from
		// the address registered: the address is the player's (M28).
		h.sender.Confirmed = true
		return h.tx.ConfirmPlayer(ctx, p.ID)
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

// loop counts a mail without a command, and reports whether it is to go
// unanswered, being part of a loop; the first such mail is answered by
// the notice alone.
func (h *handling) loop(ctx context.Context) (bool, error) {
	addr := outbox.Recipient(h.mail.From)
	n, told, err := h.tx.NoCommand(ctx, addr, h.now, loopWindow)
	if err != nil {
		return false, err
	}
	quiet := !told.IsZero() && h.now.Sub(told) < loopQuiet
	if n < loopMails && !quiet {
		return false, nil
	}
	if err := h.tx.ToldNoCommand(ctx, addr, h.now); err != nil {
		return false, err
	}
	if quiet || h.sender == nil { // a stranger is answered once a day anyway
		h.note("not answered: a loop")
		return true, nil
	}
	h.note("not answered: a loop, told")
	h.answer(templates.LoopNotice{Mails: n, Quiet: loopQuiet})
	return true, h.sendReply(ctx)
}

// answerOnce holds back the answer to a mail that proves nothing, so that
// a forged From brings its owner no more than one mail (M28): an address
// not registered is answered once a day at most; a player whose address
// is not confirmed gets nothing but the welcome (and no second welcome
// within a day); a confirmed player is not sent their personal address
// again within a day.
func (h *handling) answerOnce(ctx context.Context) error {
	if len(h.reply) == 0 {
		return nil
	}
	const day = 24 * time.Hour
	welcome := -1
	for i, sec := range h.reply {
		if _, ok := sec.(templates.Registered); ok {
			welcome = i
		}
	}
	if h.sender != nil && welcome >= 0 {
		if !h.proven && !h.sender.Welcomed.IsZero() && h.now.Sub(h.sender.Welcomed) < day {
			h.reply = nil
			h.note("not answered: welcomed a day ago")
			return nil
		}
		if err := h.tx.SetWelcomed(ctx, h.sender.ID, h.now); err != nil {
			return err
		}
	}
	switch {
	case h.proven:
	case h.sender == nil:
		last, err := h.tx.StrangerAnswered(ctx, outbox.Recipient(h.mail.From))
		if err != nil {
			return err
		}
		if !last.IsZero() && h.now.Sub(last) < day {
			h.reply = nil
			h.note("not answered: answered a day ago")
			return nil
		}
		return h.tx.SetStrangerAnswered(ctx, outbox.Recipient(h.mail.From), h.now)
	case welcome >= 0:
		h.reply = h.reply[welcome : welcome+1]
	case !h.sender.Confirmed:
		h.reply = nil
		h.note("not answered: address not confirmed")
	}
	return nil
}

// answer adds a section to the reply.
func (h *handling) answer(s templates.Section) {
	h.reply = append(h.reply, s)
}

// fail answers a command that cannot be carried out.
func (h *handling) fail(e templates.Error) {
	if e.Game != nil && h.replyGame == 0 {
		h.replyGame = e.GameID
	}
	h.answer(e)
	h.note(string(e.Problem))
	h.refused = true
}

// notRegistered answers a command from an address that is not registered.
// All such commands share one section, where the first of them stood.
func (h *handling) notRegistered(c parser.Command) {
	if h.registerAt < 0 {
		h.registerAt = len(h.reply)
		h.answer(nil)
	}
	h.unknown = append(h.unknown, c.Line)
	h.note(c.Kind.String() + ": not registered")
}

// notProven answers a line (a command of the given kind, or a message)
// that the mail does not prove to come from the player. All such lines
// share one section, where the first stood.
func (h *handling) notProven(line, kind string) {
	if h.proveAt < 0 {
		h.proveAt = len(h.reply)
		h.answer(nil)
	}
	h.unproven = append(h.unproven, line)
	h.note(kind + ": not proven")
}

// finishReply fills in the gathered sections, and makes sure that every
// mail gets an answer (M5): a mail without commands gets a reply, one
// whose commands were all game events is answered by their mails.
func (h *handling) finishReply(commands, errs int) {
	if h.sender == nil && h.registerAt < 0 && (commands == 0 || errs > 0) {
		h.registerAt = len(h.reply)
		h.answer(nil)
	}
	if h.registerAt >= 0 {
		h.reply[h.registerAt] = templates.HowToRegister{Lines: h.unknown}
	}
	if h.proveAt >= 0 {
		h.reply[h.proveAt] = templates.Prove{Personal: h.s.personal(*h.sender), Lines: h.unproven}
	}
	if commands == 0 && len(h.reply) == 0 {
		h.answer(templates.NoCommand{})
		h.note("no command")
	}
	if !h.proven {
		h.shorten()
	}
}

// maxQuoted is the most lines of the sender's text that the answer to a
// mail proving nothing quotes (M31).
const maxQuoted = 3

// shorten makes the answer to a mail that proves nothing short (M31): it
// quotes maxQuoted lines of the sender's text at most, and shows no
// board, so that a forged sender cannot make the server mail its text, or
// boards, to someone else.
func (h *handling) shorten() {
	left, omitted := maxQuoted, 0
	quote := func(lines []string) ([]string, int) {
		n := min(len(lines), left)
		left -= n
		return lines[:n], len(lines) - n
	}
	var out []templates.Section
	for _, sec := range h.reply {
		switch s := sec.(type) {
		case templates.Error:
			if left == 0 {
				omitted++
				continue
			}
			left--
			s.Board, s.Game = nil, nil
			sec = s
		case templates.HowToRegister:
			s.Lines, s.More = quote(s.Lines)
			sec = s
		case templates.Prove:
			s.Lines, s.More = quote(s.Lines)
			sec = s
		}
		out = append(out, sec)
	}
	if omitted > 0 {
		out = append(out, templates.Omitted{Lines: omitted})
	}
	h.reply = out
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

// commentFor returns the sender's words for the opponent in the game
// (0 for one the command starts), if any.
func (h *handling) commentFor(game int64) *templates.Comment {
	if h.message == "" || h.messageGame != 0 && h.messageGame != game {
		return nil
	}
	return &templates.Comment{By: h.sender.Handle, Text: h.message}
}
