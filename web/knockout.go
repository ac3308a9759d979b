package web

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/director"
	"github.com/congobymail/congo/pairing"
)

// The pages of a ladder (M73: its order and its games) and of a
// knockout (M74: its bracket, drawn in HTML and CSS, without script).

// ladderRow is a line of a ladder: a place, its player, and their wins,
// draws and losses in the ladder's games.
type ladderRow struct {
	Place                int
	Handle, Href         string
	Wins, Draws, Losses  int
	Playing, PlayingHref string // the game they play in the ladder, if any
}

// ladderData fills in a ladder's page: its order, the games being
// played, and those over, the latest first.
func (h *Handler) ladderData(st *director.State, d *tournamentData) {
	d.IsLadder = true
	if st.T.Status == db.TournamentRunning && st.T.Closed.IsZero() {
		d.Challenge = fmt.Sprintf("challenge ladder %d <handle>", st.T.ID)
	}
	if !st.T.Closed.IsZero() {
		d.Closing = day(st.T.Closed)
	}
	playing := map[string]db.Game{}
	games := slices.Clone(st.Games)
	slices.Reverse(games)
	for _, g := range games {
		row := h.row(db.ListedGame{Game: g, WhiteHandle: st.Handle(g.White), BlackHandle: st.Handle(g.Black)})
		row.Event = ""
		if g.Status == db.Active {
			d.Playing = append(d.Playing, row)
			playing[row.White], playing[row.Black] = g, g
			continue
		}
		if g.Status == db.Finished {
			d.Over = append(d.Over, row)
		}
	}
	d.GamesOver, d.GamesInRounds = len(d.Over), len(d.Over)+len(d.Playing)
	for _, s := range st.Ladder() {
		r := ladderRow{Place: s.Place, Handle: s.Handle, Href: h.playerHref(s.Handle),
			Wins: s.Wins, Draws: s.Draws, Losses: s.Losses}
		if g, ok := playing[s.Handle]; ok {
			r.Playing, r.PlayingHref = fmt.Sprint(g.ID), fmt.Sprintf("%sgames/%d", h.base, g.ID)
		}
		d.Ladder = append(d.Ladder, r)
	}
}

// bracketColumn is a round of the bracket: its matches, top to bottom.
type bracketColumn struct {
	Title   string
	Matches []bracketMatch
}

// bracketMatch is a match in the bracket: its two sides, its games, and
// how it was decided.
type bracketMatch struct {
	Sides [2]bracketSide
	Games []gameLink
	Note  string // "bye", "tie games 1-0", "higher seed", "forfeit"; "" otherwise
}

// bracketSide is a player's place in a match.
type bracketSide struct {
	Seed         int
	Handle, Href string // "" for a place not known yet, or a bye
	Bye          bool
	Points       string
	Won          bool
}

// gameLink is a game of a match, linked.
type gameLink struct {
	ID     int64
	Href   string
	Active bool
}

// bracketData lays out a knockout's bracket, a column a round and the
// winner last.
func (h *Handler) bracketData(st *director.State, d *tournamentData) error {
	b, err := st.Bracket()
	if err != nil {
		return fmt.Errorf("tournament %d: %w", st.T.ID, err)
	}
	d.Winner, d.MatchGames = b.Winner, cmp.Or(st.T.Games, pairing.DefaultMatchGames)
	byPair := map[[3]any][]db.Game{} // the games of a pair of players in a round
	pair := func(round int, a, b string) [3]any {
		if b < a {
			a, b = b, a
		}
		return [3]any{round, a, b}
	}
	for _, g := range st.Games {
		k := pair(g.Round, st.Handle(g.White), st.Handle(g.Black))
		byPair[k] = append(byPair[k], g)
	}
	for r, matches := range b.Rounds {
		col := bracketColumn{Title: roundTitle(r+1, len(b.Rounds))}
		for _, m := range matches {
			bm := bracketMatch{}
			for i := range 2 {
				s := bracketSide{Seed: m.Seeds[i], Handle: m.Players[i], Won: m.Winner != "" && m.Winner == m.Players[i]}
				if s.Handle != "" {
					s.Href = h.playerHref(s.Handle)
				} else {
					s.Bye = m.Round == 1
				}
				if len(m.Games) > 0 && m.Points[0]+m.Points[1]+m.TiePoints[0]+m.TiePoints[1] > 0 {
					s.Points = pairing.FormatPoints(m.Points[i] + m.TiePoints[i])
				}
				bm.Sides[i] = s
			}
			if m.Players[0] != "" && m.Players[1] != "" {
				for _, g := range byPair[pair(m.Round, m.Players[0], m.Players[1])] {
					bm.Games = append(bm.Games, gameLink{ID: g.ID, Href: fmt.Sprintf("%sgames/%d", h.base, g.ID), Active: g.Status == db.Active})
				}
			}
			switch m.Decided {
			case pairing.TieGame:
				bm.Note = "after tie games " + pairing.FormatPoints(m.TiePoints[0]) + "–" + pairing.FormatPoints(m.TiePoints[1])
			case pairing.HigherSeed:
				bm.Note = "the higher seed, after tie games"
			case pairing.Forfeit:
				bm.Note = "by forfeit"
			}
			col.Matches = append(col.Matches, bm)
		}
		d.Bracket = append(d.Bracket, col)
	}
	return nil
}

// roundTitle names round n of a knockout of rounds rounds.
func roundTitle(n, rounds int) string {
	if n == rounds {
		return "Final"
	}
	return fmt.Sprintf("Round %d", n)
}
