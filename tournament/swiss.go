package tournament

import (
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/director"
	"github.com/congobymail/congo/pairing"
	"github.com/congobymail/congo/templates"
)

// swiss is what a Swiss's mails say (M36, M37): each round's pairings
// with the standings before it, and the final standings.
type swiss struct{}

func (swiss) show(st *director.State, d *templates.TournamentData) error {
	d.Pairings, d.Bye = roundGames(st, st.T.Round)
	return standingsOf(st, d)
}

func (swiss) news(e *director.Event, d *templates.TournamentData) ([]db.TournamentPlayer, error) {
	st := &e.T
	switch e.Kind {
	case director.RoundBegun:
		d.News = templates.TournamentStarted
		if e.Round > 1 {
			d.News = templates.TournamentRound
			standings, err := st.StandingsAfter(e.Round - 1)
			if err != nil {
				return nil, err
			}
			d.Standings = standingsWords(pairing.Swiss, standings)
		}
		d.Pairings, d.Bye = roundGames(st, e.Round)
		return playing(st), nil
	case director.Finished:
		d.News = templates.TournamentOver
		return st.Players, standingsOf(st, d)
	}
	return nil, nil
}

// yours: the player's game of the round begun, and for the director the
// pairings that repeat a game.
func (swiss) yours(e *director.Event, p db.TournamentPlayer, d *templates.TournamentData) {
	if e.Kind != director.RoundBegun {
		return
	}
	st := &e.T
	for _, g := range st.Games {
		if g.Has(p.ID) && g.Round == e.Round {
			d.Yours = append(d.Yours, gameWords(g, st.Handle(g.White), st.Handle(g.Black)))
		}
	}
	if p.ID == st.T.Director {
		for _, g := range e.Rematches {
			d.Rematches = append(d.Rematches, templates.TournamentGame{Round: e.Round, White: g.White, Black: g.Black})
		}
	}
}
