package web

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/director"
	"github.com/congobymail/congo/pairing"
)

// A tournament's page (M44): its standings (M37), a round robin's
// crosstable, and its rounds' games.

// standingRow is a line of the standings.
type standingRow struct {
	Place                int
	Handle, Href         string
	Points, Buchholz, SB string
	Withdrawn            bool
}

// crossRow is a line of the crosstable: a player's results against each
// player, in the order of the standings.
type crossRow struct {
	Place        int
	Handle, Href string
	Cells        []string
	Points       string
}

// roundData is a round's games, and its bye.
type roundData struct {
	Number int
	Games  []listRow
	Bye    string
}

// tournamentData is what tournament.html shows.
type tournamentData struct {
	ID                       int64
	Name, System, Status     string
	Director, DirectorHref   string
	TimeControl              string
	Rated, Swiss, Started    bool
	Pauses, NoVacation       bool   // its games may be paused (M63); vacations stop no clock of theirs (M67)
	Join                     string // the line to send to join, while open
	Players                  []ratingRow
	Standings                []standingRow
	Cross                    []crossRow
	CrossHead                []int
	Rounds                   []roundData
	GamesOver, GamesInRounds int
	// A ladder's order, its games in progress and those over (M73).
	Ladder             []ladderRow
	IsLadder           bool
	Playing, Over      []listRow
	Challenge, Closing string
	// A knockout's bracket (M74), a column a round.
	Bracket    []bracketColumn
	Winner     string
	MatchGames int
}

// tournamentPage answers /tournaments/<t>.
func (h *Handler) tournamentPage(ctx context.Context, _ *http.Request, idText string) (*response, error) {
	id, err := parseID(idText, "tournament")
	if err != nil {
		return nil, err
	}
	var d tournamentData
	err = h.db.ReadTx(ctx, func(tx *db.Tx) error {
		st, err := director.Load(ctx, tx, id)
		if errors.Is(err, db.ErrNotFound) {
			return notFoundError(fmt.Sprintf("There is no tournament %d.", id))
		} else if err != nil {
			return err
		}
		d, err = h.tournamentData(&st)
		return err
	})
	if err != nil {
		return nil, err
	}
	b, err := h.render("tournament", pageData{Title: d.Name, Data: d})
	if err != nil {
		return nil, err
	}
	return &response{body: b}, nil
}

// tournamentData makes the page of a tournament.
func (h *Handler) tournamentData(st *director.State) (tournamentData, error) {
	t := st.T
	d := tournamentData{ID: t.ID, Name: t.Name, System: systemWords(t), Status: tournamentStatus(t),
		Director: st.Director.Handle, DirectorHref: h.playerHref(st.Director.Handle),
		TimeControl: timeControl(t.TimeControl), Rated: t.Rated, Swiss: st.System() == pairing.Swiss,
		Started: t.Status == db.TournamentRunning || t.Status == db.TournamentOver,
		Pauses:  t.Pauses, NoVacation: t.NoVacation}
	if t.Status == db.TournamentOpen || st.Continuous() && t.Status == db.TournamentRunning && t.Closed.IsZero() {
		d.Join = fmt.Sprintf("join tournament %d", t.ID)
	}
	switch st.System() {
	case pairing.Ladder:
		h.ladderData(st, &d)
		return d, nil
	case pairing.Knockout:
		if d.Started {
			if err := h.bracketData(st, &d); err != nil {
				return d, err
			}
		}
		h.roundsData(st, &d)
		return d, nil
	}
	for i, p := range st.Players {
		d.Players = append(d.Players, ratingRow{Place: i + 1, Handle: p.Handle, Href: h.playerHref(p.Handle),
			Rating: round(p.Rating), Games: p.RatedGames})
	}
	if !d.Started {
		return d, nil
	}
	standings, err := st.Standings()
	if err != nil {
		return d, fmt.Errorf("tournament %d: %w", t.ID, err)
	}
	for _, s := range standings {
		d.Standings = append(d.Standings, standingRow{Place: s.Place, Handle: s.Handle, Href: h.playerHref(s.Handle),
			Points: pairing.FormatPoints(s.Points), Buchholz: pairing.FormatPoints(s.Buchholz),
			SB: pairing.FormatPoints(s.SB), Withdrawn: s.Withdrawn})
	}
	if !d.Swiss {
		c, err := st.Crosstable()
		if err != nil {
			return d, fmt.Errorf("tournament %d: %w", t.ID, err)
		}
		for i, s := range c.Standings {
			d.CrossHead = append(d.CrossHead, i+1)
			cells := make([]string, len(c.Cells[i]))
			for j, x := range c.Cells[i] {
				switch {
				case i == j:
					cells[j] = "×"
				case x == "":
					cells[j] = "·"
				default:
					cells[j] = x
				}
			}
			d.Cross = append(d.Cross, crossRow{Place: s.Place, Handle: s.Handle, Href: h.playerHref(s.Handle),
				Cells: cells, Points: pairing.FormatPoints(s.Points)})
		}
	}
	h.roundsData(st, &d)
	return d, nil
}

// roundsData lists the tournament's games by round, with its byes.
func (h *Handler) roundsData(st *director.State, d *tournamentData) {
	byRound := map[int]*roundData{}
	for _, g := range st.Games {
		r := byRound[g.Round]
		if r == nil {
			r = &roundData{Number: g.Round}
			byRound[g.Round] = r
		}
		row := h.row(db.ListedGame{Game: g, WhiteHandle: st.Handle(g.White), BlackHandle: st.Handle(g.Black)})
		row.Event = ""
		r.Games = append(r.Games, row)
		d.GamesInRounds++
		if g.Status == db.Finished {
			d.GamesOver++
		}
	}
	for n, p := range st.Byes {
		r := byRound[n]
		if r == nil {
			r = &roundData{Number: n}
			byRound[n] = r
		}
		r.Bye = st.Handle(p)
	}
	for _, n := range slices.Sorted(maps.Keys(byRound)) {
		d.Rounds = append(d.Rounds, *byRound[n])
	}
}
