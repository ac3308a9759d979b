package templates

import (
	"slices"
	"strconv"

	"github.com/congobymail/congo/rules"
)

// ViewOf is a position as the player of colour side sees it: as a
// diagram, and square by square for the HTML table.
func ViewOf(pos rules.Position, side rules.Color) View {
	v := View{Diagram: pos.Diagram(side), Position: pos.String()}
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
		row := Row{Rank: rank + 1}
		for j := range 7 {
			file := order(j)
			c := Cell{River: rank == 3, Castle: file >= 2 && file <= 4 && rank != 3}
			if p := pos.At(rules.Square(rank*7 + file)); p != rules.NoPiece {
				c.Piece, c.White = string(p.Letter()), p.Color() == rules.White
			}
			row.Cells = append(row.Cells, c)
		}
		v.Rows = append(v.Rows, row)
	}
	return v
}

// WithLast returns v with the squares of m marked as the last move's, for
// the HTML table: the square it started on and every square it landed on
// (a monkey's chain lands several times, R8), and no others. v itself is
// left as it was. A zero Move marks nothing.
func (v View) WithLast(m rules.Move) View {
	if m.PathLen() == 0 {
		return v
	}
	marked := map[string]bool{m.From().String(): true}
	for i := range m.PathLen() {
		marked[m.PathAt(i).String()] = true
	}
	rows := make([]Row, len(v.Rows))
	for i, r := range v.Rows {
		rows[i] = Row{Rank: r.Rank, Cells: slices.Clone(r.Cells)}
		for j := range rows[i].Cells {
			if j < len(v.Files) {
				rows[i].Cells[j].Last = marked[v.Files[j]+strconv.Itoa(r.Rank)]
			}
		}
	}
	v.Rows = rows
	return v
}

// DrowningOf lists the pieces of the side to move in pos that drown at
// the end of its move unless they leave the river on it (R13): all its
// pieces in the river but crocodiles, since any other piece of its there
// entered on its last move. From a1's side, in file order.
func DrowningOf(pos rules.Position) []Piece {
	var out []Piece
	for file := range 7 {
		sq := rules.Square(3*7 + file) // rank 4, the river (R2)
		p := pos.At(sq)
		if p != rules.NoPiece && p.Color() == pos.Turn() && p.Kind() != rules.Crocodile {
			out = append(out, Piece{Kind: p.Kind().String(), Square: sq.String()})
		}
	}
	return out
}

// MoveOf describes a move just made, by the player with handle by.
func MoveOf(by string, eff rules.Effects) Move {
	return Move{
		By:       by,
		Notation: eff.Move.String(),
		Piece:    eff.Piece.Kind().String(),
		To:       eff.Move.To().String(),
		Captured: pieceWords(eff.Captured),
		Drowned:  pieceWords(eff.Drowned),
		Promoted: eff.Promoted,
	}
}

func pieceWords(ps []rules.Placed) []Piece {
	var out []Piece
	for _, p := range ps {
		out = append(out, Piece{Kind: p.Piece.Kind().String(), Square: p.Square.String()})
	}
	return out
}
