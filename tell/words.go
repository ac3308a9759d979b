package tell

import (
	"math"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/templates"
)

// GameWords describes a game for a mail.
func GameWords(st *game.State) templates.Game {
	t := templates.Game{ID: st.Game.ID, White: st.White.Handle, Black: st.Black.Handle, MoveNumber: st.Pos.MoveNumber(),
		WhiteRating: int(math.Round(st.White.Rating)), BlackRating: int(math.Round(st.Black.Rating)),
		TimeControl: st.Game.TimeControl, Unrated: !st.Game.Rated, Event: st.Event, Round: st.Game.Round}
	if st.Game.WhiteRating != 0 { // a rated game over: the ratings it ended with
		t.WhiteRating, t.BlackRating = int(math.Round(st.Game.WhiteRating)), int(math.Round(st.Game.BlackRating))
	}
	if w, b, ok := st.Clocks(); ok {
		t.Clocks = &templates.Clocks{White: templates.Clock(w), Black: templates.Clock(b)}
	}
	t.TimeoutClaim, t.NoVacation = st.Game.TimeoutClaim, st.NoVacation
	if st.Active() && st.Game.IsPaused() {
		t.Paused, t.PauseLeft = st.Game.Paused, st.PauseLeft()
	}
	if st.Rated != nil {
		t.RatingsChanged, t.WhiteChange, t.BlackChange = true, st.Rated.White, st.Rated.Black
	}
	switch st.Game.Status {
	case db.Challenged:
		t.State = templates.Challenged
	case db.Declined:
		t.State = templates.Declined
	case db.Active:
		t.State = templates.Playing
		t.ToMove = st.ToMove().Handle
	case db.Finished:
		t.Reason = st.Game.Reason
		switch st.Game.Result {
		case db.NoResult:
			t.State = templates.Aborted
		case db.WhiteWins:
			t.State, t.Winner = templates.Won, st.White.Handle
		case db.BlackWins:
			t.State, t.Winner = templates.Won, st.Black.Handle
		default:
			t.State = templates.Drawn
		}
	}
	return t
}

// GamesWords describes games for a mail.
func GamesWords(games []game.State) []templates.Game {
	var out []templates.Game
	for i := range games {
		out = append(out, GameWords(&games[i]))
	}
	return out
}
