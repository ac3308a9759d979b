package game

import (
	"context"
	"errors"
	"math"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/rating"
	"github.com/congobymail/congo/rules"
)

// Move plays the move written text for mover, who must be the player to
// move, after checking the move number guard (M1; 0 for none). It
// returns the events: the move, the end of the game when it ends it, and
// the moves played from the opponent's conditional moves in answer (M14).
// A move that cannot be played is a *Refusal, and nothing is changed.
func Move(ctx context.Context, tx *db.Tx, st *State, mover db.Player, text string, number int, comment string) ([]Event, error) {
	if st.Pos.Turn() != st.ColorOf(mover.ID) {
		return nil, refuse(NotYourTurn)
	}
	if err := st.paused(); err != nil {
		return nil, err
	}
	if number != 0 && number != st.Pos.MoveNumber() {
		return nil, refuse(StaleMoveNumber)
	}
	m, err := st.Pos.ParseMove(text)
	if err != nil {
		// A *rules.MoveError says what that piece can do instead.
		return nil, moveRefusal(IllegalMove, text, err)
	}
	return Play(ctx, tx, st, mover, m, comment)
}

// Play makes move m, legal in st, for mover, and records it with the
// mover's comment. Then, while the player to move has a conditional move
// that answers it (M14), that is played too. It returns what happened,
// in order.
func Play(ctx context.Context, tx *db.Tx, st *State, mover db.Player, m rules.Move, comment string) ([]Event, error) {
	return play(ctx, tx, st, mover, m, comment, false)
}

func play(ctx context.Context, tx *db.Tx, st *State, mover db.Player, m rules.Move, comment string, conditional bool) ([]Event, error) {
	eff, err := applyMove(ctx, tx, st, mover, m, comment)
	if err != nil {
		return nil, err
	}
	e := event(Moved, st, mover)
	e.Move, e.Conditional = &eff, conditional
	evs := []Event{e}
	if !st.Active() {
		return append(evs, event(Ended, st, mover)), nil
	}
	more, err := answerConditional(ctx, tx, st, m)
	var f *Fault
	if errors.As(err, &f) {
		evs[0].Fault, err = f, nil // logged by the caller; the game goes on
	}
	return append(evs, more...), err
}

// applyMove makes the move on the board and the clocks, lets the
// opponent's draw offer and any takeback request lapse, ends the game
// when the move ends it, and stores it all.
func applyMove(ctx context.Context, tx *db.Tx, st *State, mover db.Player, m rules.Move, comment string) (rules.Effects, error) {
	n := st.Ply()
	left := st.chargeMove()
	next, eff := st.Pos.Apply(m)
	st.Pos, st.Game.Position = next, next.String()
	if st.Game.DrawOffer != mover.ID {
		st.Game.DrawOffer = 0 // an offer lapses when the offerer's opponent moves
	}
	if st.Game.PauseAsked != mover.ID {
		st.Game.PauseAsked = 0 // so does a request for a pause (M63)
	}
	st.Game.Takeback = 0
	stored := db.Move{Game: st.ID(), Ply: n, Move: m.String(), Position: st.Game.Position, At: st.Now, TimeLeft: left, Message: comment}
	if err := tx.AddMove(ctx, stored); err != nil {
		return eff, err
	}
	if out := eff.Outcome; out.Over() {
		result := db.Draw
		if out.State == rules.Won {
			result = resultOf(out.Winner)
		}
		if err := finish(ctx, tx, st, result, out.Reason); err != nil {
			return eff, err
		}
	} else {
		st.startTurn()
	}
	return eff, st.save(ctx, tx)
}

// finish ends a game with a result (db.NoResult for an abort) and rates
// it when it is rated (M16). The caller stores the game.
func finish(ctx context.Context, tx *db.Tx, st *State, result db.Result, reason rules.Reason) error {
	st.Game.Status, st.Game.Result, st.Game.Reason = db.Finished, result, reason
	st.Game.DrawOffer, st.Game.Takeback, st.Game.PauseAsked = 0, 0, 0
	if st.Game.IsPaused() {
		st.Game.PausedFor = min(st.Game.PausedFor+st.Now.Sub(st.Game.Paused), MaxPause)
		st.Game.Paused = time.Time{}
	}
	if !st.Game.Rated || result == db.NoResult {
		return nil
	}
	score := map[db.Result]float64{db.WhiteWins: 1, db.Draw: 0.5, db.BlackWins: 0}[result]
	w, b := rating.Game(ratingOf(st.White), ratingOf(st.Black), score)
	st.Rated = &RatingChange{
		White: int(math.Round(w.Rating)) - int(math.Round(st.White.Rating)),
		Black: int(math.Round(b.Rating)) - int(math.Round(st.Black.Rating)),
	}
	st.Game.WhiteRating, st.Game.BlackRating = w.Rating, b.Rating
	for _, x := range []struct {
		p *db.Player
		r rating.Rating
	}{{&st.White, w}, {&st.Black, b}} {
		x.p.Rating, x.p.Deviation, x.p.Volatility = x.r.Rating, x.r.Deviation, x.r.Volatility
		x.p.RatedGames++
		if err := tx.SetPlayer(ctx, *x.p); err != nil {
			return err
		}
	}
	return nil
}

// ratingOf is a player's rating.
func ratingOf(p db.Player) rating.Rating {
	return rating.Rating{Rating: p.Rating, Deviation: p.Deviation, Volatility: p.Volatility}
}

// answerConditional plays the conditional answer of the player to move to
// the move just made, m, if they have one (M14): the branches that start
// with m and that answer keep their rest; all others are dropped. An
// answer may be to resign, or to offer a draw or accept the one offered
// (M69): the events then say it was conditional.
func answerConditional(ctx context.Context, tx *db.Tx, st *State, m rules.Move) ([]Event, error) {
	player := st.ToMove()
	branches, err := tx.Conditionals(ctx, st.ID(), player.ID)
	if err != nil || len(branches) == 0 {
		return nil, err
	}
	if _, err := tx.DeleteConditionals(ctx, st.ID(), player.ID); err != nil {
		return nil, err
	}
	var answer string
	for _, b := range branches {
		if len(b) < 2 || b[0] != m.String() || answer != "" && b[1] != answer {
			continue
		}
		answer = b[1]
		if len(b) >= 4 {
			if err := tx.AddConditional(ctx, st.ID(), player.ID, b[2:]); err != nil {
				return nil, err
			}
		}
	}
	switch answer {
	case "":
		return nil, nil
	case parser.ThenResign:
		evs, err := Resign(ctx, tx, st, player)
		for i := range evs {
			evs[i].Conditional = true
		}
		return evs, err
	case parser.ThenDraw:
		evs, err := Draw(ctx, tx, st, player)
		for i := range evs {
			evs[i].Conditional = true
		}
		return evs, err
	}
	reply, err := st.Pos.ParseMove(answer)
	if err != nil { // the lines were checked when sent; a takeback clears them
		return nil, &Fault{Game: st.ID(), What: "conditional move no longer legal", Move: answer, Err: err}
	}
	return play(ctx, tx, st, player, reply, "", true)
}

// Resign ends the game in the favour of resigner's opponent.
func Resign(ctx context.Context, tx *db.Tx, st *State, resigner db.Player) ([]Event, error) {
	if err := finish(ctx, tx, st, resultOf(st.ColorOf(resigner.ID).Other()), rules.Resigned); err != nil {
		return nil, err
	}
	if err := st.save(ctx, tx); err != nil {
		return nil, err
	}
	return []Event{event(Ended, st, resigner)}, nil
}
