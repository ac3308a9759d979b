package server

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/templates"
)

// AdminError is an operator's command that cannot be carried out: an
// unknown player or game, a game not in the state the command needs.
type AdminError struct {
	Line   string
	Reason string
}

func (e *AdminError) Error() string { return fmt.Sprintf("%s: %s", e.Line, e.Reason) }

// adjournedClock is the start of the mover's clock while a game is
// adjourned: a time that never comes, so that the clock stands still.
// Whether a game is adjourned is db.Game.IsAdjourned, not this time:
// whatever starts or stops clocks (moves, vacations, the robot, Tick)
// leaves adjourned games alone.
var adjournedClock = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)

// reasonAdjudicated is the stored reason of a game decided by the
// operator.
const reasonAdjudicated = "adjudicated"

// Admin carries out an operator's command given on the machine (congod
// admin), in one transaction, and mails the players concerned. by says
// who gave it, for the log. It returns what was done; an *AdminError when
// the command cannot be carried out.
func (s *Server) Admin(ctx context.Context, a parser.Admin, by string) (string, error) {
	now := s.now().UTC()
	var (
		summary string
		queued  int
	)
	err := s.db.Tx(ctx, func(tx *db.Tx) error {
		h := newHandling(s, tx, nil, now)
		var err error
		summary, err = h.admin(ctx, a, by)
		queued = h.queued
		return err
	})
	if err != nil {
		return "", err
	}
	if queued > 0 {
		s.wakeOutbox()
	}
	return summary, nil
}

// isOperator reports whether the sender of the mail is the operator, and
// proves it.
func (h *handling) isOperator() bool {
	return h.s.operator != "" && h.sender != nil && h.proven && strings.EqualFold(h.sender.Address, h.s.operator)
}

// operatorLines carries out the operator's commands in text, down to
// where the parser stops reading (a signature, quote or old mail's
// header), and returns text without them, for the parser.
func (h *handling) operatorLines(ctx context.Context, text string) (string, error) {
	var rest []string
	read, below := parser.CutBody(text)
	for _, l := range strings.Split(read, "\n") {
		a, ok := parser.ParseAdmin(l)
		if !ok {
			rest = append(rest, l)
			continue
		}
		h.kinds = append(h.kinds, a.Kind.String())
		summary, err := h.admin(ctx, a, h.sender.Address)
		var ae *AdminError
		switch {
		case errors.As(err, &ae):
			h.fail(templates.Error{Line: a.Line, Problem: templates.NotUnderstood, Detail: ae.Reason})
		case err != nil:
			return "", err
		default:
			h.answer(templates.AdminDone{Line: a.Line, Done: summary})
			h.note(summary)
		}
	}
	return strings.Join(rest, "\n") + below, nil
}

// admin carries out one operator's command.
func (h *handling) admin(ctx context.Context, a parser.Admin, by string) (string, error) {
	refuse := func(format string, args ...any) (string, error) {
		return "", &AdminError{Line: a.Line, Reason: fmt.Sprintf(format, args...)}
	}
	var (
		summary string
		notify  []db.Player
		game    *gameState
	)
	switch a.Kind {
	case parser.NoAdmin:
		return refuse("not understood: ban <handle>, unban <handle>, adjourn congo <id>, resume congo <id>, adjudicate congo <id> white|black|draw")
	case parser.Ban, parser.Unban:
		p, err := h.tx.PlayerByHandle(ctx, a.Handle)
		if errors.Is(err, db.ErrNotFound) {
			return refuse("no player is called %s", a.Handle)
		}
		if err != nil {
			return "", err
		}
		at := h.now
		if a.Kind == parser.Unban {
			at = time.Time{}
		}
		if err := h.tx.SetBanned(ctx, p.ID, at); err != nil {
			return "", err
		}
		summary, notify = a.Kind.String()+" "+p.Handle, []db.Player{p}
	default:
		gs, err := h.loadGame(ctx, a.Game)
		if errors.Is(err, db.ErrNotFound) {
			return refuse("there is no game %d", a.Game)
		}
		if err != nil {
			return "", err
		}
		if gs.g.Status != db.Active {
			return refuse("game %d is not being played", a.Game)
		}
		adjourned := gs.g.IsAdjourned()
		switch a.Kind {
		case parser.Adjourn:
			if adjourned {
				return refuse("game %d is adjourned already", a.Game)
			}
			// The mover keeps the time left now; the clock stands still.
			left := gs.leftOf(gs.pos.Turn())
			*left = max(*left-used(gs.g, h.now), 0)
			gs.g.ClockStart, gs.g.TurnTime, gs.g.Adjourned = adjournedClock, *left, h.now
			if err := h.tx.SetAdjourned(ctx, gs.g.ID, h.now); err != nil {
				return "", err
			}
		case parser.Resume:
			if !adjourned {
				return refuse("game %d is not adjourned", a.Game)
			}
			gs.g.Adjourned = time.Time{}
			gs.startTurn()
			if err := h.tx.SetAdjourned(ctx, gs.g.ID, time.Time{}); err != nil {
				return "", err
			}
		case parser.Adjudicate:
			result := map[string]db.Result{"white": db.WhiteWins, "black": db.BlackWins, "draw": db.Draw}[a.Result]
			if err := h.finish(ctx, &gs, result, reasonAdjudicated); err != nil {
				return "", err
			}
			if adjourned {
				gs.g.Adjourned = time.Time{}
				if err := h.tx.SetAdjourned(ctx, gs.g.ID, time.Time{}); err != nil {
					return "", err
				}
			}
		}
		if err := h.tx.UpdateGame(ctx, gs.g, h.now); err != nil {
			return "", err
		}
		summary = fmt.Sprintf("%s game %d", a.Kind, gs.g.ID)
		if a.Kind == parser.Adjudicate {
			summary += " " + a.Result
		}
		notify, game = []db.Player{gs.white, gs.black}, &gs
	}
	for _, p := range notify {
		n := templates.AdminNotice{To: p.Handle, Action: a.Kind.String()}
		if game != nil {
			n.Game = game.template()
		}
		subject, body, err := templates.Admin(n)
		if err != nil {
			return "", err
		}
		if game != nil {
			_, err = h.gameMail(ctx, p, game.g, subject, body, "")
		} else {
			_, err = h.enqueue(ctx, h.mailTo(p, subject, body), 0)
		}
		if err != nil {
			return "", err
		}
	}
	h.s.log.Info("admin", "by", by, "command", a.Kind.String(), "done", summary)
	return summary, nil
}
