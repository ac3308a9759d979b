package server

import (
	"context"
	"fmt"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/lang"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/templates"
)

// language sets the language of the sender's mails (M40); the answer is
// in it already, as the reply is written after every command has run.
func (h *handling) language(ctx context.Context, c parser.Command) error {
	a := c.Args.(parser.LanguageArgs)
	if err := h.tx.SetLanguage(ctx, h.sender.ID, string(a.Language)); err != nil {
		return err
	}
	h.sender.Language = string(a.Language)
	h.answer(templates.LanguageSet{Lang: a.Language})
	h.note("language " + string(a.Language))
	return nil
}

// lang is the language of the mails to p (M40): their own, or the
// server's default for a player who has none.
func (w *work) lang(p db.Player) lang.Code {
	return lang.Code(p.Language).Or(w.s.language)
}

// replyLang is the language of the answer to the mail: the sender's; for
// a sender who is not registered, the language their mail names in its
// Content-Language, when the server has it, else the server's default.
func (h *handling) replyLang() lang.Code {
	if h.sender != nil {
		return h.lang(*h.sender)
	}
	if l, ok := lang.FromContentLanguage(h.mail.ContentLanguage); ok {
		return l
	}
	return h.s.language
}

// newPlayerLang is the language of a player who registers with the mail
// (M40): that of its Content-Language when the server has it, else the
// server's default.
func (h *handling) newPlayerLang() lang.Code {
	if l, ok := lang.FromContentLanguage(h.mail.ContentLanguage); ok {
		return l
	}
	return h.s.language
}

// subject sets g's SubjectLang to the language of its Subject for p: the
// one of p's first mail about the game (M22), which this records when
// there is none yet.
func (w *work) subject(ctx context.Context, g *templates.Game, p db.Player) error {
	l, err := w.tx.SubjectLanguage(ctx, g.ID, p.ID, string(w.lang(p)))
	if err != nil {
		return fmt.Errorf("subject of game %d for %s: %w", g.ID, p.Handle, err)
	}
	g.SubjectLang = lang.Code(l)
	return nil
}
