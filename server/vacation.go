package server

import (
	"context"
	"fmt"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/templates"
)

// Vacation allowance (M17): it grows by vacationPerYear a year, up to
// maxVacation.
const (
	vacationPerYear = 30 * day
	maxVacation     = 30 * day
	year            = 365 * day
)

// accrue brings a player's vacation allowance up to t.
func accrue(p *db.Player, t time.Time) {
	if p.VacationAccrued.IsZero() || t.Before(p.VacationAccrued) {
		p.VacationAccrued = t
		return
	}
	gained := time.Duration(float64(t.Sub(p.VacationAccrued)) * float64(vacationPerYear) / float64(year))
	p.VacationLeft = min(p.VacationLeft+gained, maxVacation)
	p.VacationAccrued = t
}

// vacation starts the sender's vacation, at once, or ends it: their
// clocks stop in every game meanwhile, and their opponents are told.
func (h *handling) vacation(ctx context.Context, c parser.Command) error {
	p := *h.sender
	accrue(&p, h.now)
	onLeave := p.VacationUntil.After(h.now)
	switch {
	case c.Off && !onLeave:
		h.fail(templates.Error{Line: c.Line, Problem: templates.NotOnVacation})
		return nil
	case c.Off:
		return h.endVacation(ctx, p)
	case onLeave:
		h.fail(templates.Error{Line: c.Line, Problem: templates.OnVacation, Detail: p.VacationUntil.UTC().Format("2006-01-02 15:04 UTC")})
		return nil
	}
	length := time.Duration(c.Days) * day
	if length > p.VacationLeft {
		h.fail(templates.Error{Line: c.Line, Problem: templates.NoVacation, Detail: templates.Duration(p.VacationLeft)})
		return nil
	}
	p.VacationLeft -= length
	p.VacationUntil = h.now.Add(length)
	if err := h.tx.UpdatePlayer(ctx, p); err != nil {
		return err
	}
	*h.sender = p
	n, err := h.stopClocks(ctx, p)
	if err != nil {
		return err
	}
	h.answer(templates.VacationSet{Until: p.VacationUntil, Left: p.VacationLeft, Games: n})
	h.note(fmt.Sprintf("vacation %d", c.Days))
	return nil
}

// stopClocks stops p's clocks in the games where p is to move (but for
// adjourned games, whose clocks stand still already) until the vacation
// ends, and tells the opponents in all p's games. It returns the
// number of games.
func (h *handling) stopClocks(ctx context.Context, p db.Player) (int, error) {
	games, err := h.tx.GamesOf(ctx, p.ID)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, g := range games {
		if g.Status != db.Active {
			continue
		}
		gs, err := h.gameState(ctx, g)
		if err != nil {
			return 0, err
		}
		// An adjourned game's clock stands still already, until the
		// operator resumes the game.
		if gs.player(gs.pos.Turn()).ID == p.ID && !gs.g.IsAdjourned() {
			if !h.now.Before(gs.deadline()) {
				// The clock loop has not come to it yet: the time is up
				// all the same, and no vacation brings it back.
				if err := h.timeOut(ctx, &gs); err != nil {
					return 0, err
				}
				continue
			}
			left := gs.leftOf(gs.pos.Turn())
			*left = max(*left-used(gs.g, h.now), 0)
			gs.g.ClockStart = p.VacationUntil
			if err := h.tx.UpdateGame(ctx, gs.g, h.now); err != nil {
				return 0, err
			}
		}
		n++
		data := templates.BoardData{Game: gs.template(), Event: templates.VacationStarted, By: p.Handle, Until: p.VacationUntil}
		opp := gs.opponent(p.ID)
		data.To, data.Board = opp.Handle, gs.view(gs.colorOf(opp.ID))
		if err := h.boardMail(ctx, &gs, opp, data); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// endVacation ends p's vacation early: what is left of it is given back,
// and p's clocks start now, but for those of adjourned games.
func (h *handling) endVacation(ctx context.Context, p db.Player) error {
	p.VacationLeft = min(p.VacationLeft+p.VacationUntil.Sub(h.now), maxVacation)
	p.VacationUntil = time.Time{}
	if err := h.tx.UpdatePlayer(ctx, p); err != nil {
		return err
	}
	*h.sender = p
	games, err := h.tx.GamesOf(ctx, p.ID)
	if err != nil {
		return err
	}
	for _, g := range games {
		// An adjourned game's clock starts only when the operator resumes
		// it: its clock start in the future is not a vacation's.
		if g.Status != db.Active || g.IsAdjourned() || !g.ClockStart.After(h.now) {
			continue
		}
		gs, err := h.gameState(ctx, g)
		if err != nil {
			return err
		}
		if gs.player(gs.pos.Turn()).ID == p.ID {
			gs.g.ClockStart = h.now
			if err := h.tx.UpdateGame(ctx, gs.g, h.now); err != nil {
				return err
			}
		}
	}
	h.answer(templates.VacationSet{Off: true, Left: p.VacationLeft})
	h.note("vacation off")
	return nil
}
