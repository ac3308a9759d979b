package server

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/templates"
)

// Why a game ended, as stored in db.Game.Reason.
const (
	reasonLionCaptured = "lion captured"
	reasonNoLegalMove  = "no legal move"
	reasonBareLions    = "bare lions"
	reasonResigned     = "resigned"
	reasonAgreed       = "agreed"  // a draw agreed by both players
	reasonTime         = "time"    // the loser ran out of time
	reasonAborted      = "aborted" // removed without result (M13)
)

// reasonOf is the stored reason for an end of the game on the board.
func reasonOf(r rules.Reason) string {
	switch r {
	case rules.LionCaptured:
		return reasonLionCaptured
	case rules.NoLegalMove:
		return reasonNoLegalMove
	case rules.BareLions:
		return reasonBareLions
	}
	return r.String()
}

// templateReason is the stored reason as the templates know it.
func templateReason(s string) templates.Reason {
	switch s {
	case reasonLionCaptured:
		return templates.LionCaptured
	case reasonNoLegalMove:
		return templates.NoLegalMove
	case reasonBareLions:
		return templates.BareLions
	case reasonResigned:
		return templates.Resigned
	case reasonAgreed:
		return templates.Agreed
	case reasonTime:
		return templates.TimeOut
	case reasonAborted:
		return templates.AbortedGame
	}
	return templates.Reason(s)
}

// resultOf is the stored result of a game won by c.
func resultOf(c rules.Color) db.Result {
	if c == rules.White {
		return db.WhiteWins
	}
	return db.BlackWins
}

// gameState is a game with its players and its position, at a time.
type gameState struct {
	g            db.Game
	white, black db.Player
	pos          rules.Position
	now          time.Time // for the clocks
	// rated is set when the game just ended rated, with the changes of
	// the players' rounded ratings.
	rated                    bool
	whiteChange, blackChange int
}

// loadGame reads a game with its players. A missing game is an error
// that wraps db.ErrNotFound.
func (h *handling) loadGame(ctx context.Context, id int64) (gameState, error) {
	g, err := h.tx.Game(ctx, id)
	if err != nil {
		return gameState{}, err
	}
	return h.gameState(ctx, g)
}

func (h *handling) gameState(ctx context.Context, g db.Game) (gameState, error) {
	gs := gameState{g: g, now: h.now}
	var err error
	if gs.white, err = h.tx.Player(ctx, g.White); err != nil {
		return gameState{}, err
	}
	if gs.black, err = h.tx.Player(ctx, g.Black); err != nil {
		return gameState{}, err
	}
	if gs.pos, err = rules.ParsePosition(g.Position); err != nil {
		return gameState{}, fmt.Errorf("game %d: %w", g.ID, err)
	}
	return gs, nil
}

// player returns the player of colour c.
func (gs gameState) player(c rules.Color) db.Player {
	if c == rules.White {
		return gs.white
	}
	return gs.black
}

// colorOf returns the colour the player plays.
func (gs gameState) colorOf(player int64) rules.Color {
	if player == gs.g.White {
		return rules.White
	}
	return rules.Black
}

// opponent returns the other player of the game.
func (gs gameState) opponent(player int64) db.Player {
	return gs.player(gs.colorOf(player).Other())
}

// template describes the game for a mail.
func (gs gameState) template() templates.Game {
	t := templates.Game{ID: gs.g.ID, White: gs.white.Handle, Black: gs.black.Handle, MoveNumber: gs.pos.MoveNumber(),
		WhiteRating: int(math.Round(gs.white.Rating)), BlackRating: int(math.Round(gs.black.Rating)),
		TimeControl: gs.g.TimeControl, Unrated: !gs.g.Rated, Clocks: gs.clocks(),
		RatingsChanged: gs.rated, WhiteChange: gs.whiteChange, BlackChange: gs.blackChange}
	switch gs.g.Status {
	case db.Challenged:
		t.State = templates.Challenged
	case db.Declined:
		t.State = templates.Declined
	case db.Active:
		t.State = templates.Playing
		t.ToMove = gs.player(gs.pos.Turn()).Handle
	case db.Finished:
		t.Reason = templateReason(gs.g.Reason)
		switch gs.g.Result {
		case db.NoResult:
			t.State = templates.Aborted
		case db.WhiteWins:
			t.State, t.Winner = templates.Won, gs.white.Handle
		case db.BlackWins:
			t.State, t.Winner = templates.Won, gs.black.Handle
		default:
			t.State = templates.Drawn
		}
	}
	return t
}

// view is the board as the player of colour side sees it.
func (gs gameState) view(side rules.Color) templates.View {
	return boardView(gs.pos, side)
}

// boardView is a position as the player of colour side sees it: as a
// diagram, and square by square for the HTML table.
func boardView(pos rules.Position, side rules.Color) templates.View {
	v := templates.View{Diagram: pos.Diagram(side), Position: pos.String()}
	order := func(i int) int { // White sees file a on the left and rank 7 on top
		if side == rules.White {
			return i
		}
		return 6 - i
	}
	for i := range 7 {
		v.Files = append(v.Files, string(rune('a'+order(i))))
	}
	for i := range 7 {
		rank := 6 - order(i)
		row := templates.Row{Rank: rank + 1}
		for j := range 7 {
			file := order(j)
			c := templates.Cell{River: rank == 3, Castle: file >= 2 && file <= 4 && rank != 3}
			if p := pos.At(rules.Square(rank*7 + file)); p != rules.NoPiece {
				c.Piece, c.White = string(p.Letter()), p.Color() == rules.White
			}
			row.Cells = append(row.Cells, c)
		}
		v.Rows = append(v.Rows, row)
	}
	return v
}

// ply is the number of the move about to be made in the game, counting
// both sides' moves from 1.
func ply(p rules.Position) int {
	n := 2 * (p.MoveNumber() - 1)
	if p.Turn() == rules.Black {
		n++
	}
	return n + 1
}

// moveWords describes a move just made for a mail.
func moveWords(by string, eff rules.Effects) *templates.Move {
	return &templates.Move{
		By:       by,
		Notation: eff.Move.String(),
		Piece:    eff.Piece.Kind().String(),
		To:       eff.Move.To().String(),
		Captured: pieceWords(eff.Captured),
		Drowned:  pieceWords(eff.Drowned),
		Promoted: eff.Promoted,
	}
}

func pieceWords(ps []rules.Placed) []templates.Piece {
	var out []templates.Piece
	for _, p := range ps {
		out = append(out, templates.Piece{Kind: p.Piece.Kind().String(), Square: p.Square.String()})
	}
	return out
}
