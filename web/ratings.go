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
//
// The replay is kept, and when games end it goes on from where it was:
// only the games over since are read. When what it finds does not add
// up (a game over changed, or ended at a time before the last it saw),
// it starts again from the first game.

// ratingPoint is a player's rating after a rated game.
type ratingPoint struct {
	Game      int64
	At        time.Time
	Rating    float64
	Deviation float64
}

// ratingHistory is the replay of the games over, as of a version of them
// (db.FinishedVersion): every player's ratingPoints and rating now.
type ratingHistory struct {
	count  int       // the games over seen
	last   time.Time // the last change to one of them
	atLast map[int64]bool
	now    map[int64]rating.Rating
	points map[int64][]ratingPoint
}

// ratingsOf returns a player's rating after each of their rated games,
// oldest first.
func (h *Handler) ratingsOf(ctx context.Context, tx *db.Tx, player int64) ([]ratingPoint, error) {
	h.ratingsMu.Lock()
	defer h.ratingsMu.Unlock()
	if err := h.replay(ctx, tx); err != nil {
		return nil, err
	}
	return h.ratings.points[player], nil
}

// Warm replays the rated results now, so that the first player's page
// does not wait for it.
func (h *Handler) Warm(ctx context.Context) error {
	return h.db.ReadTx(ctx, func(tx *db.Tx) error {
		h.ratingsMu.Lock()
		defer h.ratingsMu.Unlock()
		return h.replay(ctx, tx)
	})
}

// replay brings h.ratings up to the games over that tx sees. The caller
// holds ratingsMu.
func (h *Handler) replay(ctx context.Context, tx *db.Tx) error {
	n, last, err := tx.FinishedVersion(ctx)
	if err != nil {
		return err
	}
	r := h.ratings
	if r != nil && (r.count == n && r.last.Equal(last) || last.Before(r.last)) {
		return nil // as seen, or tx sees less than another request did
	}
	if r != nil && !last.Before(r.last) {
		ended, err := tx.EndedSince(ctx, r.last)
		if err != nil {
			return err
		}
		var fresh []db.Ended
		for _, e := range ended {
			if !(e.At.Equal(r.last) && r.atLast[e.Game]) {
				fresh = append(fresh, e)
			}
		}
		if r.count+len(fresh) == n {
			r.add(fresh)
			return nil
		}
	}
	ended, err := tx.EndedSince(ctx, time.Time{})
	if err != nil {
		return err
	}
	h.ratings = &ratingHistory{now: map[int64]rating.Rating{}, points: map[int64][]ratingPoint{}}
	h.ratings.add(ended)
	return nil
}

// add rates the games over, in order, after those seen.
func (r *ratingHistory) add(ended []db.Ended) {
	of := func(p int64) rating.Rating {
		if x, ok := r.now[p]; ok {
			return x
		}
		return rating.Start
	}
	for _, e := range ended {
		r.count++
		if !e.At.Equal(r.last) {
			r.last, r.atLast = e.At, map[int64]bool{}
		}
		r.atLast[e.Game] = true
		if !e.Rates() {
			continue
		}
		score := map[db.Result]float64{db.WhiteWins: 1, db.Draw: 0.5, db.BlackWins: 0}[e.Result]
		w, b := rating.Game(of(e.White), of(e.Black), score)
		if e.WhiteRating != 0 {
			w.Rating, b.Rating = e.WhiteRating, e.BlackRating
		}
		r.now[e.White], r.now[e.Black] = w, b
		r.points[e.White] = append(r.points[e.White], ratingPoint{Game: e.Game, At: e.At, Rating: w.Rating, Deviation: w.Deviation})
		r.points[e.Black] = append(r.points[e.Black], ratingPoint{Game: e.Game, At: e.At, Rating: b.Rating, Deviation: b.Deviation})
	}
}
