package server

import (
	"context"
	"errors"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/lang"
	"github.com/congobymail/congo/mailmsg"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/tell"
	"github.com/congobymail/congo/templates"
)

// answer is the one answer to a mail, as it is gathered: its sections in
// the order of the commands they answer, with the lines of commands that
// need a registration or a proof the mail lacks gathered in one section
// each, where the first stood.
type answer struct {
	sections []templates.Section
	game     int64 // the game the answer is about, for threading

	unproven   []string
	proveAt    int // index in sections of the Prove section; -1 for none
	unknown    []string
	registerAt int // index in sections of the HowToRegister section; -1 for none
}

func newAnswer() answer { return answer{proveAt: -1, registerAt: -1} }

// add adds sections to the answer.
func (a *answer) add(secs ...templates.Section) {
	a.sections = append(a.sections, secs...)
}

// notRegistered answers a line (a command) from an address that is not
// registered.
func (a *answer) notRegistered(line string) {
	if a.registerAt < 0 {
		a.registerAt = len(a.sections)
		a.add(nil)
	}
	a.unknown = append(a.unknown, line)
}

// notProven answers a line (a command, or a message) that the mail does
// not prove to come from the player.
func (a *answer) notProven(line string) {
	if a.proveAt < 0 {
		a.proveAt = len(a.sections)
		a.add(nil)
	}
	a.unproven = append(a.unproven, line)
}

// notRegistered answers a command from an address that is not registered.
func (h *processing) notRegistered(c parser.Command) {
	h.answer.notRegistered(c.Line)
	h.w.Note(c.Kind.String() + ": not registered")
}

// notProven answers a line (a command of the given kind, or a message)
// that the mail does not prove to come from the player.
func (h *processing) notProven(line, kind string) {
	h.answer.notProven(line)
	h.w.Note(kind + ": not proven")
}

// finishAnswer fills in the gathered sections, and makes sure that every
// mail gets an answer (M5): a mail without commands gets one, one whose
// commands were all game events is answered by their mails.
func (h *processing) finishAnswer(commands, errs int) {
	a := &h.answer
	if h.sender == nil && a.registerAt < 0 && (commands == 0 || errs > 0) {
		a.registerAt = len(a.sections)
		a.add(nil)
	}
	if a.registerAt >= 0 {
		a.sections[a.registerAt] = templates.HowToRegister{Lines: a.unknown}
	}
	if a.proveAt >= 0 {
		a.sections[a.proveAt] = templates.Prove{Personal: h.s.tell.Personal(*h.sender), Lines: a.unproven}
	}
	if commands == 0 && len(a.sections) == 0 {
		a.add(templates.NoCommand{})
		h.w.Note("no command")
	}
	if !h.proven {
		a.shorten()
		h.s.quoteSections(a.sections)
	}
}

// maxQuoted is the most lines of the sender's text that the answer to a
// mail proving nothing quotes (M31).
const maxQuoted = 3

// shorten makes the answer to a mail that proves nothing short (M31): it
// quotes maxQuoted lines of the sender's text at most, and shows no
// board, so that a forged sender cannot make the server mail its text, or
// boards, to someone else.
func (a *answer) shorten() {
	left, omitted := maxQuoted, 0
	quote := func(lines []string) ([]string, int) {
		n := min(len(lines), left)
		left -= n
		return lines[:n], len(lines) - n
	}
	var out []templates.Section
	for _, sec := range a.sections {
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
	a.sections = out
}

// answerOnce holds back the answer to a mail that proves nothing, so that
// a forged From brings its owner no more than it must (M28, M52, M56): a
// player whose address is not confirmed gets nothing but the welcome,
// again at most once a day; a confirmed player asking to register again
// gets the welcome, restating the personal address. Every answer to
// such a mail is counted under the recipient's own cap, MaxUnprovenPerDay
// a day (sendAnswer), and spends none of their other budgets.
func (h *processing) answerOnce(ctx context.Context) error {
	a := &h.answer
	if len(a.sections) == 0 {
		return nil
	}
	const day = 24 * time.Hour
	welcome := -1
	for i, sec := range a.sections {
		if _, ok := sec.(templates.Registered); ok {
			welcome = i
		}
	}
	now, tx := h.w.Now, h.w.Tx
	if h.sender != nil && welcome >= 0 {
		if !h.proven && !h.sender.Confirmed && !h.sender.Welcomed.IsZero() && now.Sub(h.sender.Welcomed) < day {
			a.sections = nil
			h.w.Note("not answered: welcomed a day ago")
			return nil
		}
		if err := tx.SetWelcomed(ctx, h.sender.ID, now); err != nil {
			return err
		}
	}
	switch {
	case h.proven, h.sender == nil:
	case welcome >= 0:
		a.sections = a.sections[welcome : welcome+1]
	case !h.sender.Confirmed:
		a.sections = nil
		h.w.Note("not answered: address not confirmed")
	}
	return nil
}

// answerLang is the language of the answer to the mail: the sender's;
// for a sender who is not registered, the language their mail names in
// its Content-Language, when the server has it, else the server's
// default.
func (h *processing) answerLang() lang.Code {
	if h.sender != nil {
		return h.w.Lang(*h.sender)
	}
	if l, ok := lang.FromContentLanguage(h.mail.ContentLanguage); ok {
		return l
	}
	return h.s.tell.Language()
}

// sendAnswer queues the one answer to the mail, in reply to it.
func (h *processing) sendAnswer(ctx context.Context) error {
	answered := h.mail.Subject
	if h.subjectCommand {
		answered = ""
	}
	data := templates.ReplyData{Lang: h.answerLang(), Subject: answered, Sections: h.answer.sections, OwnSubject: !h.proven}
	if id := h.answer.game; id != 0 {
		st, err := game.Load(ctx, h.w.Tx, id, h.w.Now)
		if err != nil && !errors.Is(err, db.ErrNotFound) {
			return err
		}
		if err == nil {
			g := tell.GameWords(&st)
			if h.sender != nil {
				if err := h.w.Subject(ctx, &g, *h.sender); err != nil {
					return err
				}
			}
			data.Game = &g
		}
	}
	subject, body, err := templates.Reply(data)
	if err != nil {
		return err
	}
	o := h.answerTo(subject, body)
	root, err := h.w.ThreadRoot(ctx, h.answer.game)
	if err != nil {
		return err
	}
	if mailmsg.ValidID(h.mail.MessageID) {
		o.InReplyTo = []string{h.mail.MessageID}
	}
	o.References = h.mail.ReplyReferences(root)
	capped := h.w.Capped()
	if _, err = h.w.Enqueue(ctx, outbox.Mail{Out: o, Game: h.answer.game, Unproven: !h.proven}); err != nil || h.w.Capped() == capped {
		return err
	}
	h.w.Note("not answered: a cap is reached")
	return nil
}

// answerTo is a mail to the sender of the mail handled: a registered
// player at the registered address only (M5), anyone else at the From
// address.
func (h *processing) answerTo(subject, body string) mailmsg.Outgoing {
	if h.sender != nil {
		return h.w.MailTo(*h.sender, subject, body)
	}
	return h.w.MailToAddress(h.mail.From, h.answerLang(), subject, body)
}
