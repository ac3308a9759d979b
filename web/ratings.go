package web

import (
	"context"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/rating"
)

// A player's rating over time, for the chart of their page. The store
// keeps each rated game's ratings at its end, but not the deviations:
// those come from replaying every rated result in the order the games
// ended, each a rating period of its own as the server rates them (M16).
// Where a game kept its ratings, the replay takes them, so that the line
// of the chart is what the mails said and only the band is worked out.

// ratingPoint is a player's rating after a rated game.
type ratingPoint struct {
	Game      int64
	At        time.Time
	Rating    float64
	Deviation float64
}

// ratingHistory is every player's ratingPoints, as of a version of the
// finished games (db.FinishedVersion).
type ratingHistory struct {
	version string
	points  map[int64][]ratingPoint
}

// ratingsOf returns a player's rating after each of their rated games,
// oldest first. The replay is made once for every change to the finished
// games, and kept.
func (h *Handler) ratingsOf(ctx context.Context, tx *db.Tx, player int64) ([]ratingPoint, error) {
	version, err := tx.FinishedVersion(ctx)
	if err != nil {
		return nil, err
	}
	h.ratingsMu.Lock()
	defer h.ratingsMu.Unlock()
	if h.ratings == nil || h.ratings.version != version {
		results, err := tx.RatedResults(ctx)
		if err != nil {
			return nil, err
		}
		h.ratings = &ratingHistory{version: version, points: replay(results)}
	}
	return h.ratings.points[player], nil
}

// replay rates the results in order, every player from rating.Start.
func replay(results []db.RatedResult) map[int64][]ratingPoint {
	now := map[int64]rating.Rating{}
	of := func(p int64) rating.Rating {
		if r, ok := now[p]; ok {
			return r
		}
		return rating.Start
	}
	points := map[int64][]ratingPoint{}
	for _, r := range results {
		score := map[db.Result]float64{db.WhiteWins: 1, db.Draw: 0.5, db.BlackWins: 0}[r.Result]
		w, b := rating.Game(of(r.White), of(r.Black), score)
		if r.WhiteRating != 0 {
			w.Rating, b.Rating = r.WhiteRating, r.BlackRating
		}
		now[r.White], now[r.Black] = w, b
		points[r.White] = append(points[r.White], ratingPoint{Game: r.Game, At: r.Ended, Rating: w.Rating, Deviation: w.Deviation})
		points[r.Black] = append(points[r.Black], ratingPoint{Game: r.Game, At: r.Ended, Rating: b.Rating, Deviation: b.Deviation})
	}
	return points
}
