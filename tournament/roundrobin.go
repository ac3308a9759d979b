package tournament

import (
	"slices"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/director"
	"github.com/congobymail/congo/templates"
)

// roundRobin is what a round robin's mails say (M35, M37): each
// player's games at the start, the standings and the crosstable as the
// rounds end.
type roundRobin struct{}

func (roundRobin) show(st *director.State, d *templates.TournamentData) error {
	for _, g := range st.Games {
		if g.Status == db.Active {
			d.Playing++
		}
	}
	return standingsOf(st, d)
}

func (roundRobin) news(e *director.Event, d *templates.TournamentData) ([]db.TournamentPlayer, error) {
	switch e.Kind {
	case director.RoundBegun:
		d.News = templates.TournamentStarted
		return playing(&e.T), nil
	case director.RoundEnded, director.Finished:
		d.News = templates.TournamentRoundOver
		if e.Kind == director.Finished {
			d.News = templates.TournamentOver
		}
		return e.T.Players, standingsOf(&e.T, d)
	}
	return nil, nil
}

// yours: at the start, every game of the player's, in the order of the
// rounds.
func (roundRobin) yours(e *director.Event, p db.TournamentPlayer, d *templates.TournamentData) {
	if e.Kind != director.RoundBegun {
		return
	}
	st := &e.T
	for _, g := range st.Games {
		if g.Has(p.ID) {
			d.Yours = append(d.Yours, gameWords(g, st.Handle(g.White), st.Handle(g.Black)))
		}
	}
	slices.SortStableFunc(d.Yours, func(a, b templates.TournamentGame) int { return a.Round - b.Round })
}
