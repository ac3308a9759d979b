package server

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/templates"
)

// play makes move m for mover, records it with the mover's comment, and
// sends the board to everyone (M4). Then, while the player to move has a
// conditional move that answers it (M14), that is played too.
func (h *handling) play(ctx context.Context, gs *gameState, mover db.Player, m rules.Move, comment *templates.Comment, conditional bool) error {
	eff, err := h.applyMove(ctx, gs, mover, m, comment)
	if err != nil {
		return err
	}
	h.note(fmt.Sprintf("move %d %s", gs.g.ID, m))
	words := moveWords(mover.Handle, eff)
	words.Conditional = conditional
	if err := h.announce(ctx, gs, templates.BoardData{Move: words}, &mover, comment, true); err != nil {
		return err
	}
	if gs.g.Status != db.Active {
		return nil
	}
	return h.answerConditional(ctx, gs, m)
}

// applyMove makes the move on the board and the clocks, lets the
// opponent's draw offer and any takeback request lapse, ends the game
// when the move ends it, and stores it all.
func (h *handling) applyMove(ctx context.Context, gs *gameState, mover db.Player, m rules.Move, comment *templates.Comment) (rules.Effects, error) {
	n := ply(gs.pos)
	left := gs.chargeMove()
	next, eff := gs.pos.Apply(m)
	gs.pos, gs.g.Position = next, next.String()
	if gs.g.DrawOffer != mover.ID {
		gs.g.DrawOffer = 0 // an offer lapses when the offerer's opponent moves
	}
	gs.g.Takeback = 0
	stored := db.Move{Game: gs.g.ID, Ply: n, Move: m.String(), Position: gs.g.Position, At: h.now, TimeLeft: left}
	if comment != nil {
		stored.Comment = comment.Text
	}
	if err := h.tx.AddMove(ctx, stored); err != nil {
		return eff, err
	}
	if out := eff.Outcome; out.Over() {
		result := db.Draw
		if out.State == rules.Won {
			result = resultOf(out.Winner)
		}
		if err := h.finish(ctx, gs, result, reasonOf(out.Reason)); err != nil {
			return eff, err
		}
	} else {
		gs.startTurn()
	}
	return eff, h.tx.UpdateGame(ctx, gs.g, h.now)
}

// finish ends a game with a result (db.NoResult for an abort) and rates
// it when it is rated (M16).
func (h *handling) finish(ctx context.Context, gs *gameState, result db.Result, reason string) error {
	gs.g.Status, gs.g.Result, gs.g.Reason = db.Finished, result, reason
	gs.g.DrawOffer, gs.g.Takeback = 0, 0
	if !gs.g.Rated || result == db.NoResult {
		return nil
	}
	score := map[db.Result]float64{db.WhiteWins: 1, db.Draw: 0.5, db.BlackWins: 0}[result]
	w := rating{gs.white.Rating, gs.white.Deviation, gs.white.Volatility}
	b := rating{gs.black.Rating, gs.black.Deviation, gs.black.Volatility}
	w, b = w.update([]outcome{{b, score}}), b.update([]outcome{{w, 1 - score}})
	gs.rated = true
	gs.whiteChange = int(math.Round(w.r)) - int(math.Round(gs.white.Rating))
	gs.blackChange = int(math.Round(b.r)) - int(math.Round(gs.black.Rating))
	for _, x := range []struct {
		p *db.Player
		r rating
	}{{&gs.white, w}, {&gs.black, b}} {
		x.p.Rating, x.p.Deviation, x.p.Volatility = x.r.r, x.r.rd, x.r.vol
		x.p.RatedGames++
		if err := h.tx.UpdatePlayer(ctx, *x.p); err != nil {
			return err
		}
	}
	if h.sender != nil && gs.g.Has(h.sender.ID) {
		*h.sender = gs.player(gs.colorOf(h.sender.ID))
	}
	return nil
}

// announce sends the board to both players, each from their side, and to
// the observers, with what data says happened. actor, when not nil, is
// the player who caused it: the comment goes to the other. A perMove
// mail does not go to a player other than actor who asked for no mail
// per move (M18), unless the game is over. The first mail of a game
// without a thread starts it (M9). When the robot is to move, the mails
// about a move wait for its answer, and then show both moves.
func (h *handling) announce(ctx context.Context, gs *gameState, data templates.BoardData, actor *db.Player, comment *templates.Comment, perMove bool) error {
	if perMove && h.robotWaits(gs) {
		return nil // the robot's answer brings the move (RobotStep)
	}
	data.Game = gs.template()
	data.Earlier, h.earlier = h.earlier, nil
	if h.opening > 0 {
		// The robot's first move is the first mail of the game: it goes
		// out whatever the challenger's notify setting, as the answer
		// to a challenge does.
		data.Accepted, data.Level, data.By = true, h.opening, h.s.robot
		h.opening, perMove = 0, false
	}
	players := []db.Player{gs.white, gs.black}
	if actor != nil && actor.ID == gs.g.White {
		players = []db.Player{gs.black, gs.white}
	}
	observers, err := h.tx.Observers(ctx, gs.g.ID)
	if err != nil {
		return err
	}
	for i, to := range slices.Concat(players, observers) {
		isActor := actor != nil && to.ID == actor.ID
		if perMove && !isActor && gs.g.Status == db.Active && to.Notify != db.NotifyEach && to.Notify != "" {
			continue
		}
		data.To, data.Comment = to.Handle, nil
		if !isActor && i < len(players) {
			data.Comment = comment
		}
		side := rules.White
		if gs.g.Has(to.ID) {
			side = gs.colorOf(to.ID)
		}
		data.Board = gs.view(side)
		if err := h.boardMail(ctx, gs, to, data); err != nil {
			return err
		}
	}
	return nil
}

// boardMail sends one board mail about gs, in the game's thread, with
// its HTML alternative (M12); the first mail of a game starts the thread.
func (h *handling) boardMail(ctx context.Context, gs *gameState, to db.Player, data templates.BoardData) error {
	subject, body, html, err := templates.BoardMail(data)
	if err != nil {
		return err
	}
	id, err := h.gameMail(ctx, to, gs.g, subject, body, html)
	if err != nil {
		return err
	}
	if gs.g.ThreadRoot == "" && id != "" {
		gs.g.ThreadRoot = id
		return h.tx.UpdateGame(ctx, gs.g, h.now)
	}
	return nil
}
