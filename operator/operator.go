// Package operator is the room of the server's operator: ban and unban
// a player, adjourn, resume and adjudicate a game, by the operator's
// proven mail or on the machine (congod admin); the players concerned
// are told.
package operator

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/congobymail/congo/command"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/tell"
	"github.com/congobymail/congo/templates"
)

// Error is an operator's command that cannot be carried out: an unknown
// player or game, a game not in the state the command needs.
type Error struct {
	Line   string
	Reason string // fmt.Sprintf(Format, Args...), in English
	Format string // the key of Reason's translations
	Args   []any
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Line, e.Reason) }

// Command carries out an operator's command from the operator's mail,
// and answers what was done.
func Command(ctx context.Context, r *command.Request, c parser.Command) (command.Result, error) {
	summary, err := Do(ctx, r.Work, c, r.Sender.Address)
	var res command.Result
	var oe *Error
	switch {
	case errors.As(err, &oe):
		res = command.Fail(templates.Error{Line: c.Line, Problem: templates.NotUnderstood, Reason: templates.Phrase{Format: oe.Format, Args: oe.Args}})
	case err != nil:
		return command.Result{}, err
	default:
		res = command.Answer(summary, templates.AdminDone{Line: c.Line, Done: summary})
	}
	// The operator may have rated a game of their own.
	p, err := r.Tx.Player(ctx, r.Sender.ID)
	if err != nil {
		return command.Result{}, err
	}
	p.Confirmed = r.Sender.Confirmed
	res.Sender = &p
	return res, nil
}

// Do carries out one operator's command c in the work w; by says who
// gave it, for the log. It returns what was done; an *Error when the
// command cannot be carried out.
func Do(ctx context.Context, w *tell.Work, c parser.Command, by string) (string, error) {
	refuse := func(format string, args ...any) (string, error) {
		return "", &Error{Line: c.Line, Reason: fmt.Sprintf(format, args...), Format: format, Args: args}
	}
	var (
		summary string
		notify  []db.Player
		st      *game.State
	)
	switch c.Kind {
	case parser.Ban, parser.Unban:
		a := c.Args.(parser.BanArgs)
		p, err := w.Tx.PlayerByHandle(ctx, a.Handle)
		if errors.Is(err, db.ErrNotFound) {
			return refuse("no player is called %s", a.Handle)
		}
		if err != nil {
			return "", err
		}
		at := w.Now
		if c.Kind == parser.Unban {
			at = time.Time{}
		}
		if err := w.Tx.SetBanned(ctx, p.ID, at); err != nil {
			return "", err
		}
		summary, notify = c.Kind.String()+" "+p.Handle, []db.Player{p}
	case parser.Adjourn, parser.Resume, parser.Adjudicate:
		g, err := game.Load(ctx, w.Tx, c.Game, w.Now)
		if errors.Is(err, db.ErrNotFound) {
			return refuse("there is no game %d", c.Game)
		}
		if err != nil {
			return "", err
		}
		switch c.Kind {
		case parser.Adjourn:
			_, err = game.Adjourn(ctx, w.Tx, &g)
		case parser.Resume:
			_, err = game.Resume(ctx, w.Tx, &g)
		case parser.Adjudicate:
			result := map[string]db.Result{"white": db.WhiteWins, "black": db.BlackWins, "draw": db.Draw}[c.Args.(parser.AdjudicateArgs).Result]
			_, err = game.Adjudicate(ctx, w.Tx, &g, result)
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
		n := templates.AdminNotice{Lang: w.Lang(p), To: p.Handle, Action: c.Kind.String()}
		if st != nil {
			n.Game = tell.GameWords(st)
			if err := w.Subject(ctx, &n.Game, p); err != nil {
				return "", err
			}
		}
		subject, body, err := templates.Admin(n)
		if err != nil {
			return "", err
		}
		if st != nil {
			_, err = w.GameMail(ctx, p, st.Game, subject, body, "")
		} else {
			_, err = w.Enqueue(ctx, outbox.Mail{Out: w.MailTo(p, subject, body)})
		}
		if err != nil {
			return "", err
		}
	}
	w.Log().Info("admin", "by", by, "command", c.Kind.String(), "done", summary)
	return summary, nil
}
