package server

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/templates"
)

// AdminError is an operator's command that cannot be carried out: an
// unknown player or game, a game not in the state the command needs.
type AdminError struct {
	Line   string
	Reason string // fmt.Sprintf(Format, Args...), in English
	Format string // the key of Reason's translations
	Args   []any
}

func (e *AdminError) Error() string { return fmt.Sprintf("%s: %s", e.Line, e.Reason) }

// Admin carries out an operator's command given on the machine (congod
// admin), in one transaction, and mails the players concerned. by says
// who gave it, for the log. It returns what was done; an *AdminError when
// the command cannot be carried out.
func (s *Server) Admin(ctx context.Context, c parser.Command, by string) (string, error) {
	now := s.now().UTC()
	var (
		summary string
		queued  int
	)
	err := s.db.Tx(ctx, func(tx *db.Tx) error {
		w := s.newWork(tx, now)
		var err error
		summary, err = w.admin(ctx, c, by)
		queued = w.queued
		return err
	})
	if err != nil {
		return "", err
	}
	if queued > 0 {
		s.outbox.Wake()
	}
	return summary, nil
}

// isOperator reports whether the sender of the mail is the operator, and
// proves it.
func (h *handling) isOperator() bool {
	return h.s.operator != "" && h.sender != nil && h.proven && strings.EqualFold(h.sender.Address, h.s.operator)
}

// operatorCommand carries out an operator's command from the operator's
// mail, and answers what was done.
func (h *handling) operatorCommand(ctx context.Context, c parser.Command) error {
	summary, err := h.admin(ctx, c, h.sender.Address)
	var ae *AdminError
	switch {
	case errors.As(err, &ae):
		h.fail(templates.Error{Line: c.Line, Problem: templates.NotUnderstood, Reason: templates.Phrase{Format: ae.Format, Args: ae.Args}})
	case err != nil:
		return err
	default:
		h.answer(templates.AdminDone{Line: c.Line, Done: summary})
		h.note(summary)
	}
	// The operator may have rated a game of their own.
	p, err := h.tx.Player(ctx, h.sender.ID)
	if err != nil {
		return err
	}
	p.Confirmed = h.sender.Confirmed
	*h.sender = p
	return nil
}

// admin carries out one operator's command.
func (w *work) admin(ctx context.Context, c parser.Command, by string) (string, error) {
	refuse := func(format string, args ...any) (string, error) {
		return "", &AdminError{Line: c.Line, Reason: fmt.Sprintf(format, args...), Format: format, Args: args}
	}
	var (
		summary string
		notify  []db.Player
		st      *game.State
	)
	switch c.Kind {
	case parser.Ban, parser.Unban:
		a := c.Args.(parser.BanArgs)
		p, err := w.tx.PlayerByHandle(ctx, a.Handle)
		if errors.Is(err, db.ErrNotFound) {
			return refuse("no player is called %s", a.Handle)
		}
		if err != nil {
			return "", err
		}
		at := w.now
		if c.Kind == parser.Unban {
			at = time.Time{}
		}
		if err := w.tx.SetBanned(ctx, p.ID, at); err != nil {
			return "", err
		}
		summary, notify = c.Kind.String()+" "+p.Handle, []db.Player{p}
	case parser.Adjourn, parser.Resume, parser.Adjudicate:
		g, err := game.Load(ctx, w.tx, c.Game, w.now)
		if errors.Is(err, db.ErrNotFound) {
			return refuse("there is no game %d", c.Game)
		}
		if err != nil {
			return "", err
		}
		switch c.Kind {
		case parser.Adjourn:
			_, err = game.Adjourn(ctx, w.tx, &g)
		case parser.Resume:
			_, err = game.Resume(ctx, w.tx, &g)
		case parser.Adjudicate:
			result := map[string]db.Result{"white": db.WhiteWins, "black": db.BlackWins, "draw": db.Draw}[c.Args.(parser.AdjudicateArgs).Result]
			_, err = game.Adjudicate(ctx, w.tx, &g, result)
		}
		var r *game.Refusal
		switch {
		case errors.As(err, &r) && r.Problem == game.NotActive:
			return refuse("game %d is not being played", c.Game)
		case errors.As(err, &r) && r.Problem == game.AdjournedAlready:
			return refuse("game %d is adjourned already", c.Game)
		case errors.As(err, &r) && r.Problem == game.NotAdjourned:
			return refuse("game %d is not adjourned", c.Game)
		case err != nil:
			return "", err
		}
		summary = fmt.Sprintf("%s game %d", c.Kind, g.ID())
		if c.Kind == parser.Adjudicate {
			summary += " " + c.Args.(parser.AdjudicateArgs).Result
		}
		notify, st = []db.Player{g.White, g.Black}, &g
	default:
		return refuse("not understood: ban <handle>, unban <handle>, adjourn congo <id>, resume congo <id>, adjudicate congo <id> white|black|draw")
	}
	for _, p := range notify {
		n := templates.AdminNotice{Lang: w.lang(p), To: p.Handle, Action: c.Kind.String()}
		if st != nil {
			n.Game = gameWords(st)
			if err := w.subject(ctx, &n.Game, p); err != nil {
				return "", err
			}
		}
		subject, body, err := templates.Admin(n)
		if err != nil {
			return "", err
		}
		if st != nil {
			_, err = w.gameMail(ctx, p, st.Game, subject, body, "")
		} else {
			_, err = w.enqueue(ctx, outbox.Mail{Out: w.mailTo(p, subject, body)})
		}
		if err != nil {
			return "", err
		}
	}
	w.s.log.Info("admin", "by", by, "command", c.Kind.String(), "done", summary)
	return summary, nil
}
