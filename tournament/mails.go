package tournament

import (
	"context"
	"slices"

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

// events mails what happened to tournaments: to each player,
// their games that begin and the pairings, the standings, the end. These
// mails and the boards of the games that begin are the server's, not
// counted against the player whose move or command caused them (M29):
// one move may end a round of many players. by is who caused them, for
// the words: the director who called a tournament off.
func events(ctx context.Context, w *tell.Work, evs []director.Event, by string) error {
	cause := w.Cause
	w.Cause = ""
	defer func() { w.Cause = cause }()
	for _, e := range evs {
		st := e.T
		t := Words(&st)
		base := templates.TournamentData{T: t, Round: e.Round}
		switch e.Kind {
		case director.RoundBegun:
			base.News = templates.TournamentStarted
			if e.Round > 1 {
				base.News = templates.TournamentRound
				standings, err := st.StandingsAfter(e.Round - 1)
				if err != nil {
					return err
				}
				base.Standings = standingsWords(st.System(), standings)
			}
			if st.System() == pairing.Swiss {
				base.Pairings, base.Bye = roundGames(&st, e.Round)
			}
		case director.RoundEnded, director.Finished:
			base.News = templates.TournamentRoundOver
			if e.Kind == director.Finished {
				base.News = templates.TournamentOver
			}
			if err := standingsOf(&st, &base); err != nil {
				return err
			}
		case director.Cancelled:
			base.News, base.By = templates.TournamentCancelled, by
		default:
			continue
		}
		for _, p := range st.Players {
			switch {
			case e.Kind == director.Cancelled && p.Handle == base.By:
				continue // they know: it is their answer
			case e.Kind == director.RoundBegun && !p.Withdrawn.IsZero():
				continue
			}
			d := base
			d.Yours = yourGames(&st, p.ID, e.Kind, e.Round)
			if p.ID == st.T.Director {
				for _, g := range e.Rematches {
					d.Rematches = append(d.Rematches, templates.TournamentGame{Round: e.Round, White: g.White, Black: g.Black})
				}
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
	t := templates.Tournament{ID: st.T.ID, Name: st.T.Name, Swiss: st.System() == pairing.Swiss, Rounds: st.T.Rounds,
		Double: st.T.Double, TimeControl: st.T.TimeControl, Unrated: !st.T.Rated, Status: st.T.Status.String(),
		Round: st.T.Round, MinPlayers: director.MinPlayers, Pauses: st.T.Pauses, NoVacation: st.T.NoVacation}
	for _, p := range st.Players {
		if p.ID == st.T.Director {
			t.Director = p.Handle
		}
		t.Players = append(t.Players, p.Handle)
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

// yourGames are the games of player that an event begins: all of a
// round robin's at its start, a Swiss's round's.
func yourGames(st *director.State, player int64, k director.Kind, round int) []templates.TournamentGame {
	if k != director.RoundBegun {
		return nil
	}
	var out []templates.TournamentGame
	for _, g := range st.Games {
		if g.Has(player) && (st.System() == pairing.RoundRobin || g.Round == round) {
			out = append(out, gameWords(g, st.Handle(g.White), st.Handle(g.Black)))
		}
	}
	slices.SortStableFunc(out, func(a, b templates.TournamentGame) int { return a.Round - b.Round })
	return out
}

// gameWords is a game of a tournament as its lists show it.
func gameWords(g db.Game, white, black string) templates.TournamentGame {
	tg := templates.TournamentGame{Round: g.Round, GameID: g.ID, White: white, Black: black}
	if g.Status == db.Finished && g.Result != db.NoResult {
		tg.Result = g.Result.Score()
	}
	return tg
}
