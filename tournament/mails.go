package tournament

import (
	"context"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/director"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/pairing"
	"github.com/congobymail/congo/tell"
	"github.com/congobymail/congo/templates"
)

// GamesEnded moves on the tournaments of the games that ended
// (director.GameEnded), and mails what that does: the Teller's
// GamesEnded.
func GamesEnded(ctx context.Context, w *tell.Work, ended []db.Game) error {
	for _, g := range ended {
		evs, err := director.GameEnded(ctx, w.Tx, g, w.Now)
		if err != nil {
			return err
		}
		if err := events(ctx, w, evs, ""); err != nil {
			return err
		}
	}
	return nil
}

// A wording is what a system's mails and answers say of its
// tournaments: each system's file (roundrobin.go, swiss.go, ladder.go,
// knockout.go) fills one, and wordings holds them. The words themselves
// are the templates'.
type wording interface {
	// show fills in the answer to tournament <t> of a tournament that
	// has begun: its standings, ladder or bracket so far.
	show(st *director.State, d *templates.TournamentData) error
	// news fills in the mail of an event (other than Cancelled, the
	// same for all) that every recipient gets, and says who they are.
	news(e *director.Event, d *templates.TournamentData) (to []db.TournamentPlayer, err error)
	// yours fills in what one recipient's mail of the event says of
	// their own part: their games that begin, their match.
	yours(e *director.Event, p db.TournamentPlayer, d *templates.TournamentData)
}

// wordings are the wordings of the systems.
var wordings = map[pairing.System]wording{
	pairing.RoundRobin: roundRobin{},
	pairing.Swiss:      swiss{},
	pairing.Ladder:     ladder{},
	pairing.Knockout:   knockout{},
}

// wordingOf is the wording of st's system.
func wordingOf(st *director.State) wording {
	if w, ok := wordings[st.System()]; ok {
		return w
	}
	return roundRobin{}
}

// events mails what happened to tournaments, each to those it concerns
// (its wording says who): their games that begin and the pairings, the
// standings, the places, the bracket, the end. These mails and the
// boards of the games that begin are the server's, not counted against
// the player whose move or command caused them (M29): one move may end
// a round of many players. by is who caused them, for the words: the
// director who called a tournament off.
func events(ctx context.Context, w *tell.Work, evs []director.Event, by string) error {
	cause := w.Cause
	w.Cause = ""
	defer func() { w.Cause = cause }()
	for i := range evs {
		e := &evs[i]
		st := e.T
		base := templates.TournamentData{T: Words(&st), Round: e.Round}
		var to []db.TournamentPlayer
		wd := wordingOf(&st)
		if e.Kind == director.Cancelled {
			base.News, base.By = templates.TournamentCancelled, by
			for _, p := range st.Players {
				if p.Handle != by { // they know: it is their answer
					to = append(to, p)
				}
			}
		} else {
			var err error
			if to, err = wd.news(e, &base); err != nil {
				return err
			}
		}
		for _, p := range to {
			d := base
			if e.Kind != director.Cancelled {
				wd.yours(e, p, &d)
			}
			if err := mail(ctx, w, p.Player, d); err != nil {
				return err
			}
		}
		if len(e.Games) > 0 {
			if err := w.Tell(ctx, e.Games, nil); err != nil {
				return err
			}
			// The boards of the games that begin go now, as the server's
			// mails, after the mail that lists them.
			var ids []int64
			for _, g := range e.Games {
				ids = append(ids, g.Game.ID())
			}
			if err := w.FlushGames(ctx, ids); err != nil {
				return err
			}
		}
	}
	return nil
}

// playing are the players of st who have not withdrawn.
func playing(st *director.State) []db.TournamentPlayer {
	var out []db.TournamentPlayer
	for _, p := range st.Players {
		if p.Withdrawn.IsZero() {
			out = append(out, p)
		}
	}
	return out
}

// mail queues one mail about a tournament to p.
func mail(ctx context.Context, w *tell.Work, p db.Player, d templates.TournamentData) error {
	d.To, d.Lang = p.Handle, w.Lang(p)
	subject, text, html, err := templates.TournamentMail(d)
	if err != nil {
		return err
	}
	o := w.MailTo(p, subject, text)
	o.HTML = html
	_, err = w.Enqueue(ctx, outbox.Mail{Out: o})
	return err
}

// Words is a tournament as mails name it.
func Words(st *director.State) templates.Tournament {
	sys := st.System()
	t := templates.Tournament{ID: st.T.ID, Name: st.T.Name, Swiss: sys == pairing.Swiss, Ladder: sys == pairing.Ladder,
		Knockout: sys == pairing.Knockout, Rounds: st.T.Rounds, Double: st.T.Double, Games: st.T.Games,
		TimeControl: st.T.TimeControl, Unrated: !st.T.Rated, Status: st.T.Status.String(), Closed: !st.T.Closed.IsZero(),
		Round: st.T.Round, MinPlayers: director.MinPlayers, Reach: pairing.LadderReach,
		Pauses: st.T.Pauses, NoVacation: st.T.NoVacation}
	for _, p := range st.Players {
		if p.ID == st.T.Director {
			t.Director = p.Handle
		}
		if !t.Ladder {
			t.Players = append(t.Players, p.Handle)
		}
	}
	if t.Ladder {
		for _, l := range st.Ladder() {
			t.Players = append(t.Players, l.Handle)
		}
	}
	if t.Director == "" {
		t.Director = st.Director.Handle // who left before the start
	}
	return t
}

// standingsOf fills in the standings of st, and a round robin's
// crosstable.
func standingsOf(st *director.State, d *templates.TournamentData) error {
	standings, err := st.Standings()
	if err != nil {
		return err
	}
	sys := st.System()
	d.Standings = standingsWords(sys, standings)
	if sys != pairing.RoundRobin {
		return nil
	}
	ct, err := st.Crosstable()
	if err != nil {
		return err
	}
	c := &templates.Crosstable{Cells: ct.Cells} // its text is the mail's, in the reader's words
	for _, s := range ct.Standings {
		c.Handles = append(c.Handles, s.Handle)
		c.Points = append(c.Points, pairing.FormatPoints(s.Points))
	}
	d.Crosstable = c
	return nil
}

// standingsWords are standings as mails show them.
func standingsWords(sys pairing.System, standings []pairing.Standing) []templates.Standing {
	out := make([]templates.Standing, len(standings))
	for i, s := range standings {
		out[i] = templates.Standing{Line: s.Format(sys), Place: s.Place, Handle: s.Handle,
			Points: pairing.FormatPoints(s.Points), Buchholz: pairing.FormatPoints(s.Buchholz),
			SB: pairing.FormatPoints(s.SB), Withdrawn: s.Withdrawn}
	}
	return out
}

// roundGames are the games of a round, board by board, and its bye.
func roundGames(st *director.State, round int) ([]templates.TournamentGame, string) {
	var out []templates.TournamentGame
	for _, g := range st.Games {
		if g.Round == round {
			out = append(out, gameWords(g, st.Handle(g.White), st.Handle(g.Black)))
		}
	}
	bye := ""
	if id, ok := st.Byes[round]; ok {
		bye = st.Handle(id)
	}
	return out, bye
}

// gameWords is a game of a tournament as its lists show it.
func gameWords(g db.Game, white, black string) templates.TournamentGame {
	tg := templates.TournamentGame{Round: g.Round, GameID: g.ID, White: white, Black: black}
	if g.Status == db.Finished && g.Result != db.NoResult {
		tg.Result = g.Result.Score()
	}
	return tg
}
