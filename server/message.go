package server

import (
	"context"
	"errors"

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
func (h *handling) relay(ctx context.Context) error {
	if h.message == "" || h.messageGame == 0 || h.sender == nil {
		return nil
	}
	for _, s := range h.stories {
		if s.st.ID() == h.messageGame && s.comment != nil {
			return h.relayed(s, s.st.Opponent(h.sender.ID))
		}
	}
	if !h.proven {
		h.notProven(firstLine(h.message), "message")
		return nil
	}
	st, err := game.Load(ctx, h.tx, h.messageGame, h.now)
	if errors.Is(err, db.ErrNotFound) || err == nil && !st.Game.Has(h.sender.ID) {
		h.answer(templates.NotRelayed{GameID: h.messageGame})
		h.note("message not relayed")
		return nil
	}
	if err != nil {
		return err
	}
	opp := st.Opponent(h.sender.ID)
	s := h.story(st, *h.sender)
	s.comment, s.only = h.commentFor(st.ID()), &opp
	return h.relayed(s, opp)
}

// relayed tells the sender that the message went to opp: in their mail
// of the story s, when they get one.
func (h *handling) relayed(s *story, opp db.Player) error {
	h.note("message relayed")
	line, err := templates.RelayedLine(h.replyLang(), opp.Handle)
	if err != nil {
		return err
	}
	if s.only == nil {
		s.note(h.sender.ID, line)
		return nil
	}
	h.answer(templates.Relayed{To: opp.Handle})
	return nil
}

// fold puts the answer to a proven mail about one game into the
// sender's board mail of that game, when they get one, so that the mail
// brings one mail (M23).
func (h *handling) fold() error {
	if !h.proven || h.replyGame == 0 || len(h.reply) == 0 {
		return nil
	}
	for _, s := range h.stories {
		if s.st.ID() != h.replyGame || s.only != nil || !s.st.Game.Has(h.sender.ID) {
			continue
		}
		texts, err := templates.Sections(h.replyLang(), h.reply)
		if err != nil {
			return err
		}
		for _, t := range texts {
			s.note(h.sender.ID, t)
		}
		h.reply = nil
		return nil
	}
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
