package server

import (
	"context"
	"errors"
	"strings"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/robot"
	"github.com/congobymail/congo/templates"
)

// help answers with the manual.
func (h *handling) help(ctx context.Context, c parser.Command) error {
	h.answer(templates.Help{Robot: h.s.robot, RobotLevel: robot.DefaultLevel, AnalysesPerDay: max(h.s.analysesPerDay, 0)})
	h.note("help")
	return nil
}

// rules answers with the rules of the game in plain words (M25).
func (h *handling) rules(ctx context.Context, c parser.Command) error {
	h.answer(templates.RulesSummary{})
	h.note("rules")
	return nil
}

// register registers the sender, or reminds a registered sender of their
// handle and personal address.
func (h *handling) register(ctx context.Context, c parser.Command) error {
	a := c.Args.(parser.RegisterArgs)
	if h.sender != nil {
		r := templates.Registered{Handle: h.sender.Handle, Personal: h.s.personal(*h.sender), Already: true,
			Confirm: !h.sender.Confirmed, Robot: h.s.robot}
		if !strings.EqualFold(a.Handle, h.sender.Handle) {
			r.Asked = a.Handle
		}
		h.answer(r)
		h.note("register: already " + h.sender.Handle)
		return nil
	}
	if !parser.ValidHandle(a.Handle) {
		h.fail(templates.Error{Line: c.Line, Problem: templates.BadHandle, Handle: a.Handle})
		return nil
	}
	secret, err := h.s.newSecret()
	if err != nil {
		return err
	}
	p, err := h.tx.CreatePlayer(ctx, a.Handle, h.mail.From, secret, h.now)
	if errors.Is(err, db.ErrHandleTaken) {
		h.fail(templates.Error{Line: c.Line, Problem: templates.HandleTaken, Handle: a.Handle})
		return nil
	}
	if err != nil {
		return err
	}
	p.Language = string(h.newPlayerLang())
	if err := h.tx.SetLanguage(ctx, p.ID, p.Language); err != nil {
		return err
	}
	h.sender = &p
	if h.proven = h.s.proves(h.mail, p); h.proven {
		// A receiving server the operator trusts vouches for the From
		// address (-trust-authserv): it is the player's.
		p.Confirmed, h.sender.Confirmed = true, true
		if err := h.tx.ConfirmPlayer(ctx, p.ID); err != nil {
			return err
		}
	}
	h.answer(templates.Registered{Handle: p.Handle, Personal: h.s.personal(p), Confirm: !h.proven, Robot: h.s.robot})
	h.note("register " + p.Handle)
	return nil
}

// newKey gives the sender a new secret; the old one stops working.
func (h *handling) newKey(ctx context.Context, c parser.Command) error {
	secret, err := h.s.newSecret()
	if err != nil {
		return err
	}
	if err := h.tx.SetSecret(ctx, h.sender.ID, secret); err != nil {
		return err
	}
	h.sender.Secret = secret
	h.answer(templates.NewKey{Personal: h.s.personal(*h.sender)})
	h.note("newkey")
	return nil
}
