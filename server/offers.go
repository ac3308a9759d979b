package server

import (
	"context"
	"fmt"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/templates"
)

// draw offers a draw, or accepts the opponent's offer (M13).
func (h *handling) draw(ctx context.Context, c parser.Command) error {
	gs, ok, err := h.activeGame(ctx, c)
	if err != nil || !ok {
		return err
	}
	if other := gs.opponent(h.sender.ID); h.s.isRobot(other) {
		return h.robotDraw(ctx, &gs, other)
	}
	data := templates.BoardData{}
	if gs.g.DrawOffer == gs.opponent(h.sender.ID).ID {
		if err := h.finish(ctx, &gs, db.Draw, reasonAgreed); err != nil {
			return err
		}
		h.note(fmt.Sprintf("draw %d: agreed", gs.g.ID))
	} else {
		gs.g.DrawOffer = h.sender.ID
		data.Event, data.By = templates.DrawOffered, h.sender.Handle
		h.note(fmt.Sprintf("draw %d: offered", gs.g.ID))
	}
	if err := h.tx.UpdateGame(ctx, gs.g, h.now); err != nil {
		return err
	}
	return h.announce(ctx, &gs, data, h.sender, h.commentFor(), false)
}

// noDraw declines the opponent's draw offer.
func (h *handling) noDraw(ctx context.Context, c parser.Command) error {
	gs, ok, err := h.activeGame(ctx, c)
	if err != nil || !ok {
		return err
	}
	if gs.g.DrawOffer != gs.opponent(h.sender.ID).ID {
		h.fail(h.gameError(c, gs, templates.NoOffer, ""))
		return nil
	}
	gs.g.DrawOffer = 0
	if err := h.tx.UpdateGame(ctx, gs.g, h.now); err != nil {
		return err
	}
	h.note(fmt.Sprintf("nodraw %d", gs.g.ID))
	return h.announce(ctx, &gs, templates.BoardData{Event: templates.DrawDeclined, By: h.sender.Handle}, h.sender, h.commentFor(), false)
}

// takeback asks to undo the sender's last move, or grants the opponent's
// request (M13).
func (h *handling) takeback(ctx context.Context, c parser.Command) error {
	gs, ok, err := h.activeGame(ctx, c)
	if err != nil || !ok {
		return err
	}
	if other := gs.opponent(h.sender.ID); h.s.isRobot(other) {
		e := h.gameError(c, gs, templates.RobotTakeback, "")
		e.Handle = other.Handle
		h.fail(e)
		return nil
	}
	moves, err := h.tx.Moves(ctx, gs.g.ID)
	if err != nil {
		return err
	}
	if len(moves) == 0 {
		h.fail(h.gameError(c, gs, templates.NoMoves, ""))
		return nil
	}
	lastMover := gs.player(gs.pos.Turn().Other())
	switch {
	case lastMover.ID == h.sender.ID:
		gs.g.Takeback = h.sender.ID
		h.note(fmt.Sprintf("takeback %d: asked", gs.g.ID))
		if err := h.tx.UpdateGame(ctx, gs.g, h.now); err != nil {
			return err
		}
		return h.announce(ctx, &gs, templates.BoardData{Event: templates.TakebackAsked, By: h.sender.Handle}, h.sender, h.commentFor(), false)
	case gs.g.Takeback != lastMover.ID:
		e := h.gameError(c, gs, templates.NotYourTakeback, "")
		e.Handle = lastMover.Handle
		h.fail(e)
		return nil
	}
	if err := h.undo(ctx, &gs, moves); err != nil {
		return err
	}
	h.note(fmt.Sprintf("takeback %d: done", gs.g.ID))
	return h.announce(ctx, &gs, templates.BoardData{Event: templates.TakebackDone, By: h.sender.Handle}, h.sender, h.commentFor(), false)
}

// undo takes back the last of a game's moves: the player who made it is
// to move again, with the time they had left when they made it (a
// takeback gives no time; a days=N clock, which every move fills, is
// full), and conditional moves are dropped.
func (h *handling) undo(ctx context.Context, gs *gameState, moves []db.Move) error {
	if err := h.tx.DeleteLastMove(ctx, gs.g.ID); err != nil {
		return err
	}
	pos := rules.Start()
	if len(moves) > 1 {
		var err error
		if pos, err = rules.ParsePosition(moves[len(moves)-2].Position); err != nil {
			return err
		}
	}
	gs.pos, gs.g.Position = pos, pos.String()
	gs.g.Takeback, gs.g.DrawOffer = 0, 0
	tc, left := control(gs.g), gs.leftOf(pos.Turn())
	switch last := moves[len(moves)-1]; {
	case increment(tc) >= bank(tc):
		*left = bank(tc)
	case last.TimeLeft > 0:
		*left = last.TimeLeft
	default:
		// A move stored before its time left was: the increment off
		// again, which is that time unless the bank's cap cut it.
		*left = max(*left-increment(tc), 0)
	}
	gs.startTurn()
	for _, p := range []int64{gs.g.White, gs.g.Black} {
		if _, err := h.tx.ClearConditionals(ctx, gs.g.ID, p); err != nil {
			return err
		}
	}
	return h.tx.UpdateGame(ctx, gs.g, h.now)
}

// abort ends a game without result, while not both sides have moved
// (M13).
func (h *handling) abort(ctx context.Context, c parser.Command) error {
	gs, ok, err := h.activeGame(ctx, c)
	if err != nil || !ok {
		return err
	}
	if ply(gs.pos) > 2 {
		h.fail(h.gameError(c, gs, templates.TooLate, ""))
		return nil
	}
	if err := h.finish(ctx, &gs, db.NoResult, reasonAborted); err != nil {
		return err
	}
	if err := h.tx.UpdateGame(ctx, gs.g, h.now); err != nil {
		return err
	}
	h.note(fmt.Sprintf("abort %d", gs.g.ID))
	return h.announce(ctx, &gs, templates.BoardData{}, h.sender, h.commentFor(), false)
}
