package account

import (
	"context"

	"github.com/congobymail/congo/command"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/templates"
)

// Timezone sets the sender's time zone (M64), or, without one, answers
// what it is. A name the time zone database does not have is refused,
// with examples.
func Timezone(ctx context.Context, r *command.Request, a parser.TimezoneArgs) (command.Result, error) {
	if a.Zone == "" {
		return command.Answer("timezone", timeSet(r, r.Sender, false)), nil
	}
	zone, ok := game.LookupZone(a.Zone)
	if !ok {
		return command.Result{}, command.Refuse(templates.Error{Line: r.Line, Problem: templates.BadTimeZone, Detail: a.Zone})
	}
	return setTime(ctx, r, zone, r.Sender.PausesWeekends(), "timezone "+game.ZoneName(zone))
}

// Weekends sets whether the sender's clock stands still on their
// weekends, from Saturday 00:00 to Monday 00:00 in their time zone (M64).
func Weekends(ctx context.Context, r *command.Request, a parser.WeekendsArgs) (command.Result, error) {
	note := "weekends play"
	if a.Pause {
		note = "weekends pause"
	}
	return setTime(ctx, r, r.Sender.TimeZone, a.Pause, note)
}

// setTime sets the sender's time zone and weekends, and answers them.
func setTime(ctx context.Context, r *command.Request, zone string, pause bool, note string) (command.Result, error) {
	p, evs, err := game.SetTime(ctx, r.Tx, r.Sender, zone, pause, r.Now)
	if err != nil {
		return command.Result{}, err
	}
	res := command.Answer(note, timeSet(r, p, true))
	res.Sender, res.Events = &p, evs
	return res, nil
}

// timeSet is the answer that says player p's time zone and weekends;
// changed is set when the command changed them.
func timeSet(r *command.Request, p db.Player, changed bool) templates.TimeSet {
	loc, _ := game.Zone(p.TimeZone)
	t := templates.TimeSet{Zone: game.ZoneName(p.TimeZone), Now: r.Now.In(loc), Weekends: p.PausesWeekends(), Changed: changed}
	if start, _, ok := game.NextWeekend(p, r.Now); ok {
		t.Next = start.In(loc)
	}
	return t
}
