package server

import (
	"math"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/templates"
)

// gameWords describes a game for a mail.
func gameWords(st *game.State) templates.Game {
	t := templates.Game{ID: st.Game.ID, White: st.White.Handle, Black: st.Black.Handle, MoveNumber: st.Pos.MoveNumber(),
		WhiteRating: int(math.Round(st.White.Rating)), BlackRating: int(math.Round(st.Black.Rating)),
		TimeControl: st.Game.TimeControl, Unrated: !st.Game.Rated}
	if w, b, ok := st.Clocks(); ok {
		t.Clocks = &templates.Clocks{White: templates.Clock(w), Black: templates.Clock(b)}
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

// gamesWords describes games for a mail.
func gamesWords(games []game.State) []templates.Game {
	var out []templates.Game
	for i := range games {
		out = append(out, gameWords(&games[i]))
	}
	return out
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
