package web

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"net/url"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/pairing"
	"github.com/congobymail/congo/rules"
)

// How much the lists show.
const (
	homeGames   = 20  // games in progress, and results, on the home page
	homeRatings = 10  // top ratings on the home page
	playerGames = 200 // games on a player's page
	allRated    = math.MaxInt32
)

// listRow is a game in a list.
type listRow struct {
	ID                   int64
	Href                 string
	White, WhiteHref     string
	Black, BlackHref     string
	Event, State, When   string
	Opponent, OppHref    string // from the player's side, on a player's page
	Colour, Score, Moves string
}

// row makes the list row of a game.
func (h *Handler) row(g db.ListedGame) listRow {
	r := listRow{ID: g.ID, Href: fmt.Sprintf("%sgames/%d", h.base, g.ID),
		White: g.WhiteHandle, WhiteHref: h.playerHref(g.WhiteHandle),
		Black: g.BlackHandle, BlackHref: h.playerHref(g.BlackHandle),
		When: day(g.Updated)}
	if g.Tournament != 0 {
		r.Event = fmt.Sprintf("%s, round %d", g.Event, g.Round)
	}
	pos, err := rules.ParsePosition(g.Position)
	switch {
	case g.Status == db.Finished:
		r.State = g.Game.Result.Score()
		if g.Result == db.NoResult {
			r.State = "aborted"
		}
	case err != nil:
		r.State = "in progress"
	default:
		mover := g.WhiteHandle
		if pos.Turn() == rules.Black {
			mover = g.BlackHandle
		}
		r.State = mover + " to move"
	}
	if err == nil {
		r.Moves = fmt.Sprint(movesPlayed(plyOf(startOf(g.Game), pos)))
	}
	return r
}

// profile reads the profile of a player with a page: one who confirmed
// their address.
func profile(ctx context.Context, tx *db.Tx, handle string) (db.Profile, error) {
	p, err := tx.ProfileByHandle(ctx, handle)
	if errors.Is(err, db.ErrNotFound) {
		return db.Profile{}, notFoundError(fmt.Sprintf("There is no player %q.", handle))
	}
	return p, err
}

func (h *Handler) playerHref(handle string) string {
	return h.base + "players/" + url.PathEscape(handle)
}

// ratingRow is a line of the ratings.
type ratingRow struct {
	Place             int
	Handle, Href      string
	Rating, Deviation int
	Games             int
}

func (h *Handler) ratingRows(ps []db.Profile) []ratingRow {
	out := make([]ratingRow, len(ps))
	for i, p := range ps {
		out[i] = ratingRow{Place: i + 1, Handle: p.Handle, Href: h.playerHref(p.Handle),
			Rating: round(p.Rating), Deviation: round(p.Deviation), Games: p.RatedGames}
	}
	return out
}

// tournamentRow is a tournament in a list.
type tournamentRow struct {
	ID                         int64
	Href, Name, System, Status string
}

func (h *Handler) tournamentRow(t db.Tournament) tournamentRow {
	return tournamentRow{ID: t.ID, Href: fmt.Sprintf("%stournaments/%d", h.base, t.ID), Name: t.Name,
		System: systemWords(t), Status: tournamentStatus(t)}
}

func systemWords(t db.Tournament) string {
	switch t.System {
	case "swiss":
		return "Swiss"
	case "ladder":
		return "ladder"
	case "knockout":
		return fmt.Sprintf("knockout, matches of %d games", cmp.Or(t.Games, pairing.DefaultMatchGames))
	}
	if t.Double {
		return "double round robin"
	}
	return "round robin"
}

func tournamentStatus(t db.Tournament) string {
	switch t.Status {
	case db.TournamentOpen:
		return "open for joining"
	case db.TournamentRunning:
		switch {
		case t.System == "ladder" && !t.Closed.IsZero():
			return "closed: its last games are being played"
		case t.System == "knockout" && t.Round == t.Rounds && t.Rounds > 0:
			return "the final"
		case (t.System == "swiss" || t.System == "knockout") && t.Rounds > 0:
			return fmt.Sprintf("round %d of %d", t.Round, t.Rounds)
		}
		return "being played"
	case db.TournamentOver:
		return "finished"
	}
	return "cancelled"
}

// homeData is what home.html shows.
type homeData struct {
	Playing     int
	InProgress  []listRow
	Results     []listRow
	Top         []ratingRow
	Tournaments []tournamentRow
}

// home answers /: games in progress, recent results, top ratings,
// tournaments (M44).
func (h *Handler) home(ctx context.Context, _ *http.Request, _ string) (*response, error) {
	var d homeData
	err := h.db.ReadTx(ctx, func(tx *db.Tx) error {
		var err error
		if d.Playing, err = tx.CountActive(ctx); err != nil {
			return err
		}
		for _, list := range []struct {
			status db.Status
			rows   *[]listRow
		}{{db.Active, &d.InProgress}, {db.Finished, &d.Results}} {
			gs, err := tx.RecentGames(ctx, list.status, homeGames)
			if err != nil {
				return err
			}
			for _, g := range gs {
				*list.rows = append(*list.rows, h.row(g))
			}
		}
		top, err := tx.RatedProfiles(ctx, homeRatings)
		if err != nil {
			return err
		}
		d.Top = h.ratingRows(top)
		// The open and running tournaments, then the latest finished.
		for _, s := range []db.TournamentStatus{db.TournamentOpen, db.TournamentRunning, db.TournamentOver} {
			ts, err := tx.TournamentsIn(ctx, s)
			if err != nil {
				return err
			}
			for i := len(ts) - 1; i >= 0 && (s != db.TournamentOver || i >= len(ts)-5); i-- {
				d.Tournaments = append(d.Tournaments, h.tournamentRow(ts[i]))
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	b, err := h.render("home", pageData{Title: "Games", Data: d})
	if err != nil {
		return nil, err
	}
	return &response{body: b}, nil
}

// ratingsPage answers /ratings: every player with a rated game, the
// highest rating first.
func (h *Handler) ratingsPage(ctx context.Context, _ *http.Request, _ string) (*response, error) {
	var rows []ratingRow
	err := h.db.ReadTx(ctx, func(tx *db.Tx) error {
		ps, err := tx.RatedProfiles(ctx, allRated)
		rows = h.ratingRows(ps)
		return err
	})
	if err != nil {
		return nil, err
	}
	b, err := h.render("ratings", pageData{Title: "Ratings", Data: rows})
	if err != nil {
		return nil, err
	}
	return &response{body: b}, nil
}

// playerData is what player.html shows.
type playerData struct {
	Handle            string
	Rating, Deviation int
	RatedGames        int
	Score             db.Score
	Chart             template.HTML
	Games             []listRow
	More              bool // the player has more games than shown
	Feed              string
	Tournaments       []tournamentRow
}

// playerPage answers /players/<handle>: the player's rating with its
// chart, results and games.
func (h *Handler) playerPage(ctx context.Context, _ *http.Request, handle string) (*response, error) {
	var d playerData
	err := h.db.ReadTx(ctx, func(tx *db.Tx) error {
		p, err := profile(ctx, tx, handle)
		if err != nil {
			return err
		}
		d = playerData{Handle: p.Handle, Rating: round(p.Rating), Deviation: round(p.Deviation), RatedGames: p.RatedGames,
			Feed: h.playerHref(p.Handle) + ".atom"}
		if d.Score, err = tx.ScoreOf(ctx, p.ID); err != nil {
			return err
		}
		gs, err := tx.PlayerGames(ctx, p.ID, playerGames+1)
		if err != nil {
			return err
		}
		if len(gs) > playerGames {
			gs, d.More = gs[:playerGames], true
		}
		for _, g := range gs {
			r := h.row(g)
			r.Colour, r.Opponent, r.OppHref = "white", r.Black, r.BlackHref
			if g.Black == p.ID {
				r.Colour, r.Opponent, r.OppHref = "black", r.White, r.WhiteHref
			}
			if s := scoreFor(g.Game, p.ID); s != "" {
				r.Score = s
			}
			d.Games = append(d.Games, r)
		}
		points, err := h.ratingsOf(ctx, tx, p.ID)
		if err != nil {
			return err
		}
		d.Chart = h.chart(p.Handle, points)
		ids, err := tx.TournamentsOf(ctx, p.ID)
		if err != nil {
			return err
		}
		for _, id := range ids {
			t, err := tx.Tournament(ctx, id)
			if err != nil {
				return err
			}
			d.Tournaments = append(d.Tournaments, h.tournamentRow(t))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	b, err := h.render("player", pageData{Title: d.Handle, Feed: d.Feed, Data: d})
	if err != nil {
		return nil, err
	}
	return &response{body: b}, nil
}
