package lobby

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/congobymail/congo/command"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/templates"
)

// Seek starts a game with a player who seeks the same time control, or
// waits for one (M11); with rating=LOW-HIGH only a player rated in the
// range, and only one whose own range, if any, holds the sender's
// rating (M75). "seek off" withdraws the seek.
func Seek(ctx context.Context, r *command.Request, a parser.SeekArgs) (command.Result, error) {
	if a.Off {
		had, err := r.Tx.DeleteSeek(ctx, r.Sender.ID)
		if err != nil {
			return command.Result{}, err
		}
		return command.Answer("seek off", templates.Seeking{Off: true, Had: had}), nil
	}
	tc := a.Control
	if tc.Days == 0 {
		tc = game.DefaultControl
	}
	mine := db.Seek{Player: r.Sender.ID, TimeControl: tc.String(), Rated: !a.Unrated, Created: r.Now,
		RatingLow: a.RatingLow, RatingHigh: a.RatingHigh}
	answer := templates.Seeking{TimeControl: mine.TimeControl, Unrated: a.Unrated, RatingLow: a.RatingLow,
		RatingHigh: a.RatingHigh, Rating: int(math.Round(r.Sender.Rating))}
	match, err := r.Tx.MatchSeek(ctx, mine)
	if errors.Is(err, db.ErrNotFound) {
		return command.Answer("seek "+mine.TimeControl, answer), r.Tx.SetSeek(ctx, mine)
	}
	if err != nil {
		return command.Result{}, err
	}
	st, evs, err := startSeekGame(ctx, r, match, mine, tc)
	if err != nil {
		return command.Result{}, err
	}
	answer.Started = st.ID()
	res := command.Answer(fmt.Sprintf("seek matched: game %d", st.ID()), answer)
	res.Events = evs
	return res, nil
}

// startSeekGame starts a game between the players of two matching seeks,
// colors drawn at random, and removes both seeks.
func startSeekGame(ctx context.Context, r *command.Request, theirs, mine db.Seek, tc parser.TimeControl) (game.State, []game.Event, error) {
	for _, p := range []int64{theirs.Player, mine.Player} {
		if _, err := r.Tx.DeleteSeek(ctx, p); err != nil {
			return game.State{}, nil, err
		}
	}
	var coin [1]byte
	if _, err := r.Rand().Read(coin[:]); err != nil {
		return game.State{}, nil, fmt.Errorf("draw colors: %w", err)
	}
	other, err := r.Tx.Player(ctx, theirs.Player)
	if err != nil {
		return game.State{}, nil, err
	}
	terms := game.Terms{White: other, Black: r.Sender, Challenger: other, Control: tc, Unrated: !mine.Rated}
	if coin[0]&1 == 1 {
		terms.White, terms.Black = terms.Black, terms.White
	}
	return game.Start(ctx, r.Tx, terms, r.Now)
}
