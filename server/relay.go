package server

import (
	"context"
	"errors"
	"github.com/congobymail/congo/command"
	"github.com/congobymail/congo/parser"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/templates"
)

// relay passes the sender's message on to the opponent (M19): with the
// board of the game, when the mail made a move or the like in it, or
// alone; and tells the sender so in one line, in their own board mail
// of the game when they get one, else in the answer. A message from a
// mail that proves nothing, or to a game the sender does not play in,
// is not passed on, and the answer says why.
func (h *processing) relay(ctx context.Context) error {
	if h.message == "" || h.messageGame == 0 || h.sender == nil {
		return nil
	}
	if opp, relayed, withBoard := h.w.Relayed(h.messageGame, *h.sender); relayed {
		return h.relayed(opp, withBoard)
	}
	if !h.proven {
		h.notProven(firstLine(h.message), "message")
		return nil
	}
	st, err := game.Load(ctx, h.w.Tx, h.messageGame, h.w.Now)
	if errors.Is(err, db.ErrNotFound) || err == nil && !st.Game.Has(h.sender.ID) {
		h.answer.add(templates.NotRelayed{GameID: h.messageGame})
		h.w.Note("message not relayed")
		return nil
	}
	if err != nil {
		return err
	}
	opp := st.Opponent(h.sender.ID)
	if h.w.IsRobot(opp) {
		return h.relayed(opp, false)
	}
	err = h.request(parser.Command{Line: firstLine(h.message), Game: st.ID()}).Budget(ctx, opp)
	if refusal := (*command.Refusal)(nil); errors.As(err, &refusal) {
		return h.apply(ctx, refusal.Result)
	}
	if err != nil {
		return err
	}
	h.w.TellMessage(st, *h.sender, &templates.Message{By: h.sender.Handle, Text: h.message})
	return h.relayed(opp, false)
}

// relayed tells the sender that the message went to opp: in their board
// mail of the game, when they get one (withBoard). When opp is the
// robot, which reads no messages, it says so instead (M59).
func (h *processing) relayed(opp db.Player, withBoard bool) error {
	var sec templates.Section = templates.Relayed{To: opp.Handle}
	line := templates.RelayedLine
	if h.w.IsRobot(opp) {
		sec, line = templates.RobotReadsNone{Robot: opp.Handle}, templates.RobotReadsNoneLine
		h.w.Note("message not relayed: the robot reads none")
	} else {
		h.w.Note("message relayed")
	}
	if !withBoard {
		h.answer.add(sec)
		return nil
	}
	text, err := line(h.answerLang(), opp.Handle)
	if err != nil {
		return err
	}
	h.w.AddToMail(h.messageGame, *h.sender, text)
	return nil
}

// tellHints puts what the mail asked for and did not get (M58) first:
// below the first line of the sender's board mail of the game, when
// they get one, else at the head of the answer. A mail that proves
// nothing is told nothing of it: nothing of it would be done anyway.
func (h *processing) tellHints() error {
	if len(h.hints) == 0 || !h.proven {
		return nil
	}
	sec := templates.Hints{}
	for _, e := range h.hints {
		sec.Reasons = append(sec.Reasons, templates.Phrase{Format: e.Format, Args: e.Args})
		h.w.Note("hint: " + e.Problem.String())
	}
	if g := h.messageGame; g != 0 && h.w.Mails(g, *h.sender) {
		texts, err := templates.Sections(h.answerLang(), []templates.Section{sec})
		if err != nil {
			return err
		}
		h.w.AddFirstToMail(g, *h.sender, texts...)
		return nil
	}
	h.answer.sections = append([]templates.Section{sec}, h.answer.sections...)
	return nil
}

// fold puts the answer to a proven mail about one game into the
// sender's board mail of that game, when they get one, so that the mail
// brings one mail (M23).
func (h *processing) fold() error {
	a := &h.answer
	if !h.proven || a.game == 0 || len(a.sections) == 0 || !h.w.Mails(a.game, *h.sender) {
		return nil
	}
	texts, err := templates.Sections(h.answerLang(), a.sections)
	if err != nil {
		return err
	}
	h.w.AddToMail(a.game, *h.sender, texts...)
	a.sections = nil
	return nil
}

// firstLine is the first line of s.
func firstLine(s string) string {
	for i := range len(s) {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}
