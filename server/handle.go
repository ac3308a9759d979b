package server

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/mailmsg"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/robot"
	"github.com/congobymail/congo/templates"
)

// handling is the work on one incoming mail, inside its transaction.
// Game events queue their mails at once; everything that answers the
// sender is gathered into one reply, queued last.
type handling struct {
	s    *Server
	tx   *db.Tx
	mail *mailmsg.Incoming
	now  time.Time

	sender  *db.Player // nil while the From address is not registered
	proven  bool       // the mail proves it comes from sender
	comment string     // the words for the opponent, from a Subject command
	// subjectCommand is true when the Subject was a command: the answer
	// must not repeat it, or a reply to the answer would run it again.
	subjectCommand bool
	// boards are the boards this mail asked for and got, by game and
	// position, so that each is sent once.
	boards map[string]bool

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

	// earlier are the moves the next board mails show before theirs: a
	// player's move whose mail waited for the robot's answer.
	earlier []templates.Move
	// opening is the robot's level when its first move, as white, is
	// the first the challenger hears of the game: the next board mail
	// says that the challenge was accepted too.
	opening int

	notes  []string // what was done, for the summary
	queued int      // mails queued

	kinds   []string // the kinds of the commands run, for the Observer
	banned  bool     // the sender is banned by the operator
	refused bool     // a command was refused or not understood
	ignored bool     // the mail is not to be answered
}

func newHandling(s *Server, tx *db.Tx, m *mailmsg.Incoming, now time.Time) *handling {
	return &handling{s: s, tx: tx, mail: m, now: now, proveAt: -1, registerAt: -1,
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
	case isRobotAddress(m.From):
		return "not answered: from the robot's address", nil
	}
	h.ignored = false
	if err := h.identify(ctx); err != nil {
		return "", err
	}
	ctxGame, err := h.tx.GameOfMessages(ctx, threadIDs(m)...)
	if err != nil {
		return "", err
	}
	text := m.Text
	if h.isOperator() {
		if text, err = h.operatorLines(ctx, text); err != nil {
			return "", err
		}
	}
	res := parser.Parse(m.Subject, text, parser.Context{Game: ctxGame})
	if res.FromSubject {
		h.comment = strings.TrimSpace(res.Comment)
	}
	h.subjectCommand = res.CommandSubject
	h.replyGame = ctxGame
	for _, c := range res.Commands {
		if err := h.run(ctx, c); err != nil {
			return "", err
		}
	}
	if err := h.listConditionals(ctx); err != nil {
		return "", err
	}
	for _, e := range res.Errors {
		h.answer(templates.Error{Line: e.Line, Problem: templates.NotUnderstood, Detail: e.Reason})
		h.note("not understood: " + e.Problem.String())
		// A body not read beside a Subject's command is a notice: the
		// command itself may have been carried out.
		h.refused = h.refused || e.Problem != parser.NotRead
	}
	h.finishReply(len(res.Commands), len(res.Errors))
	if len(h.reply) > 0 {
		if err := h.sendReply(ctx); err != nil {
			return "", err
		}
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
	return nil
}

// maxThreadIDs bounds how many Message-IDs of each of a mail's
// In-Reply-To and References are looked up: the closest ones, as a
// thread's game is named by the mails nearest the answer, and a long or
// forged header must not cost a lookup per id.
const maxThreadIDs = 20

// threadIDs lists the Message-IDs a mail answers, the closest first: its
// first In-Reply-To ids and its last References, maxThreadIDs of each
// at most.
func threadIDs(m *mailmsg.Incoming) []string {
	ids := append([]string(nil), m.InReplyTo[:min(len(m.InReplyTo), maxThreadIDs)]...)
	for i := len(m.References) - 1; i >= max(len(m.References)-maxThreadIDs, 0); i-- {
		ids = append(ids, m.References[i])
	}
	return ids
}

// run carries out one command, after checking who may give it.
func (h *handling) run(ctx context.Context, c parser.Command) error {
	h.kinds = append(h.kinds, c.Kind.String())
	if h.banned && c.Kind != parser.Help {
		h.fail(templates.Error{Line: c.Line, Problem: templates.Banned})
		return nil
	}
	if c.Game != 0 && c.Kind != parser.Board {
		adjourned, err := h.tx.Adjourned(ctx, c.Game)
		if err != nil && !errors.Is(err, db.ErrNotFound) {
			return err
		}
		if adjourned {
			h.fail(templates.Error{Line: c.Line, Problem: templates.Adjourned, GameID: c.Game})
			return nil
		}
	}
	switch c.Kind {
	case parser.Help:
		h.answer(templates.Help{Robot: h.s.robot, RobotLevel: robot.DefaultLevel})
		h.note("help")
		return nil
	case parser.Register:
		return h.register(ctx, c)
	}
	if h.sender == nil {
		h.notRegistered(c)
		return nil
	}
	switch c.Kind {
	case parser.Games:
		return h.games(ctx, c)
	case parser.Board:
		return h.board(ctx, c)
	case parser.History:
		return h.history(ctx, c)
	case parser.Ratings:
		return h.ratings(ctx)
	case parser.Conditional:
		if !c.Clear {
			return h.conditional(ctx, c)
		}
	}
	if !h.proven {
		h.notProven(c)
		return nil
	}
	switch c.Kind {
	case parser.NewKey:
		return h.newKey(ctx)
	case parser.Challenge:
		return h.challenge(ctx, c)
	case parser.Accept:
		return h.accept(ctx, c)
	case parser.Decline:
		return h.decline(ctx, c)
	case parser.Move:
		return h.move(ctx, c)
	case parser.Resign:
		return h.resign(ctx, c)
	case parser.Draw:
		return h.draw(ctx, c)
	case parser.NoDraw:
		return h.noDraw(ctx, c)
	case parser.Takeback:
		return h.takeback(ctx, c)
	case parser.Abort:
		return h.abort(ctx, c)
	case parser.Conditional:
		return h.conditional(ctx, c)
	case parser.If:
		return h.ifLine(ctx, c)
	case parser.Observe, parser.Unobserve:
		return h.watch(ctx, c)
	case parser.Seek:
		return h.seek(ctx, c)
	case parser.Notify:
		return h.notify(ctx, c)
	case parser.Vacation:
		return h.vacation(ctx, c)
	}
	// A command the parser knows and the server does not: answer it, so
	// that the mail is not tried again and again.
	h.s.log.Error("command has no handler", "command", c.Kind.String(), "line", c.Line)
	h.fail(templates.Error{Line: c.Line, Problem: templates.Unsupported})
	return nil
}

// answer adds a section to the reply.
func (h *handling) answer(s templates.Section) {
	h.reply = append(h.reply, s)
}

// note records what was done, for the summary.
func (h *handling) note(s string) {
	h.notes = append(h.notes, s)
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

// notProven answers a command that the mail does not prove to come from
// the player. All such commands share one section, where the first stood.
func (h *handling) notProven(c parser.Command) {
	if h.proveAt < 0 {
		h.proveAt = len(h.reply)
		h.answer(nil)
	}
	h.unproven = append(h.unproven, c.Line)
	h.note(c.Kind.String() + ": not proven")
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
}
