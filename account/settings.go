package account

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/congobymail/congo/command"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/play"
	"github.com/congobymail/congo/templates"
)

// Language sets the language of the sender's mails (M40); the answer is
// in it already, as the answer is written after every command has run.
func Language(ctx context.Context, r *command.Request, a parser.LanguageArgs) (command.Result, error) {
	if err := r.Tx.SetLanguage(ctx, r.Sender.ID, string(a.Language)); err != nil {
		return command.Result{}, err
	}
	p := r.Sender
	p.Language = string(a.Language)
	res := command.Answer("language "+string(a.Language), templates.LanguageSet{Lang: a.Language})
	res.Sender = &p
	return res, nil
}

// Guard turns the sender's lion guard on or off (M61).
func Guard(ctx context.Context, r *command.Request, a parser.GuardArgs) (command.Result, error) {
	if err := r.Tx.SetGuard(ctx, r.Sender.ID, a.On); err != nil {
		return command.Result{}, err
	}
	note := "guard off"
	if a.On {
		note = "guard on"
	}
	return command.Answer(note, templates.GuardSet{On: a.On}), nil
}

// Notify sets how the sender hears of moves (M18).
func Notify(ctx context.Context, r *command.Request, a parser.NotifyArgs) (command.Result, error) {
	p := r.Sender
	p.Notify, p.DigestAt = db.Notify(a.Notice.String()), time.Time{}
	if a.Notice == parser.NoticeDigest {
		p.DigestAt = r.Now.Add(play.DigestEvery)
	}
	if err := r.Tx.SetPlayer(ctx, p); err != nil {
		return command.Result{}, err
	}
	res := command.Answer("notify "+a.Notice.String(), templates.NotifySet{Mode: a.Notice.String()})
	res.Sender = &p
	return res, nil
}

// Vacation starts the sender's vacation, at once, or ends it: their
// clocks stop in every game meanwhile, and their opponents are told.
func Vacation(ctx context.Context, r *command.Request, a parser.VacationArgs) (command.Result, error) {
	var gr *game.Refusal
	if a.Off {
		p, err := game.EndVacation(ctx, r.Tx, r.Sender, r.Now)
		if errors.As(err, &gr) {
			return command.Result{}, command.Refuse(templates.Error{Line: r.Line, Problem: templates.NotOnVacation})
		}
		if err != nil {
			return command.Result{}, err
		}
		res := command.Answer("vacation off", templates.VacationSet{Off: true, Left: p.VacationLeft})
		res.Sender = &p
		return res, nil
	}
	p, n, evs, err := game.StartVacation(ctx, r.Tx, r.Sender, a.Days, r.Now)
	switch {
	case errors.As(err, &gr) && gr.Problem == game.OnVacation:
		return command.Result{}, command.Refuse(templates.Error{Line: r.Line, Problem: templates.OnVacation, Until: gr.Until})
	case errors.As(err, &gr):
		return command.Result{}, command.Refuse(templates.Error{Line: r.Line, Problem: templates.NoVacation, Left: gr.Left})
	case err != nil:
		return command.Result{}, err
	}
	res := command.Answer(fmt.Sprintf("vacation %d", a.Days), templates.VacationSet{Until: p.VacationUntil, Left: p.VacationLeft, Games: n})
	res.Sender, res.Events = &p, evs
	return res, nil
}
