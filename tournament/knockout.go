package tournament

import (
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/director"
	"github.com/congobymail/congo/pairing"
	"github.com/congobymail/congo/templates"
)

// knockout is what a knockout's mails say (M74): each round's bracket,
// with each player's match, to every player; a match's tie game to its
// two players; the winner and the bracket at the end.
type knockout struct{}

func (knockout) show(st *director.State, d *templates.TournamentData) error {
	b, err := bracketWords(st)
	d.Bracket = b
	return err
}

func (knockout) news(e *director.Event, d *templates.TournamentData) ([]db.TournamentPlayer, error) {
	st := &e.T
	b, err := bracketWords(st)
	if err != nil {
		return nil, err
	}
	switch e.Kind {
	case director.RoundBegun:
		d.News, d.Bracket = templates.TournamentStarted, b
		if e.Round > 1 {
			d.News = templates.TournamentRound
		}
		return playing(st), nil
	case director.TieBegun:
		d.News = templates.TieGameBegun
		var to []db.TournamentPlayer
		for _, g := range e.Games {
			for _, p := range []db.Player{g.Game.White, g.Game.Black} {
				if tp, ok := st.Player(p.ID); ok {
					to = append(to, tp)
				}
			}
		}
		return to, nil
	case director.Finished:
		d.News, d.Bracket = templates.TournamentOver, b
		return st.Players, nil
	}
	return nil, nil
}

// yours: the player's match in the round begun, or the tie game of
// their match.
func (knockout) yours(e *director.Event, p db.TournamentPlayer, d *templates.TournamentData) {
	if e.Kind != director.RoundBegun && e.Kind != director.TieBegun {
		return
	}
	b, err := bracketWords(&e.T)
	if err != nil || e.Round < 1 || e.Round > len(b.Rounds) {
		return
	}
	for _, m := range b.Rounds[e.Round-1].Matches {
		if m.Players[0] != p.Handle && m.Players[1] != p.Handle {
			continue
		}
		d.Match = &m
		if e.Kind == director.TieBegun && len(m.Games) > 0 {
			g := m.Games[len(m.Games)-1]
			d.Game = &g
		}
		return
	}
}

// bracketWords is a knockout's bracket as mails show it.
func bracketWords(st *director.State) (*templates.Bracket, error) {
	b, err := st.Bracket()
	if err != nil {
		return nil, err
	}
	games := map[[2]string][]db.Game{} // the games of each pair, by round
	for _, g := range st.Games {
		k := [2]string{st.Handle(g.White), st.Handle(g.Black)}
		if k[1] < k[0] {
			k[0], k[1] = k[1], k[0]
		}
		games[k] = append(games[k], g)
	}
	out := &templates.Bracket{Winner: b.Winner}
	for r, matches := range b.Rounds {
		round := templates.BracketRound{Round: r + 1, Final: r == len(b.Rounds)-1}
		for _, m := range matches {
			round.Matches = append(round.Matches, matchWords(st, m, games))
		}
		out.Rounds = append(out.Rounds, round)
	}
	return out, nil
}

// decisions are the words of the ways a match is decided.
var decisions = map[pairing.Decision]string{
	pairing.Bye: "bye", pairing.OnPoints: "points", pairing.TieGame: "tie game",
	pairing.HigherSeed: "higher seed", pairing.Forfeit: "forfeit",
}

// matchWords is a match as mails show it; games are the tournament's
// games by the pair of their players' handles, the lower first.
func matchWords(st *director.State, m pairing.Match, games map[[2]string][]db.Game) templates.Match {
	out := templates.Match{Round: m.Round, Players: m.Players, Seeds: m.Seeds, Winner: m.Winner,
		Decided: decisions[m.Decided], Level: m.Level}
	if len(m.Games) == 0 {
		return out
	}
	k := m.Players
	if k[1] < k[0] {
		k[0], k[1] = k[1], k[0]
	}
	for _, g := range games[k] {
		if g.Round != m.Round {
			continue
		}
		out.Games = append(out.Games, gameWords(g, st.Handle(g.White), st.Handle(g.Black)))
		if g.Status == db.Active {
			out.Playing = append(out.Playing, g.ID)
		}
	}
	ended := m.Points[0]+m.Points[1]+m.TiePoints[0]+m.TiePoints[1] > 0
	if ended {
		for i := range 2 {
			out.Points[i] = pairing.FormatPoints(m.Points[i] + m.TiePoints[i])
		}
		out.Score = pairing.FormatPoints(m.Points[0]) + "-" + pairing.FormatPoints(m.Points[1])
	}
	if n := len(m.Games) - m.Of; n > 0 {
		out.Ties = n
		out.TieScore = pairing.FormatPoints(m.TiePoints[0]) + "-" + pairing.FormatPoints(m.TiePoints[1])
	}
	return out
}
