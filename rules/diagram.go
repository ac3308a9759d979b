package rules

import (
	"slices"
	"strings"
)

// Diagram draws p as plain text seen from side: that side's pieces at the
// bottom, files and ranks labelled on all four edges, "|" on either side of
// the castles, "~" on the empty squares of the river and "." on the others;
// pieces by their R21 letters. Each rank is one line, at most 30 columns,
// and the text ends with a newline. From White's side:
//
//	   a b c d e f g
//	7  g m|e l e|c z  7
//	6  p p|p p p|p p  6
//	5  . .|. . .|. .  5
//	4  ~ ~ ~ ~ ~ ~ ~  4  river
//	3  . .|. . .|. .  3
//	2  P P|P P P|P P  2
//	1  G M|E L E|C Z  1
//	   a b c d e f g
func (p Position) Diagram(side Color) string {
	files := []int{0, 1, 2, 3, 4, 5, 6}
	ranks := []int{6, 5, 4, 3, 2, 1, 0}
	if side == Black {
		slices.Reverse(files)
		slices.Reverse(ranks)
	}
	var b strings.Builder
	header := func() {
		b.WriteString("   ")
		for i, f := range files {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteByte(byte('a' + f))
		}
		b.WriteByte('\n')
	}
	header()
	for _, r := range ranks {
		label := byte('1' + r)
		b.WriteByte(label)
		b.WriteString("  ")
		for i, f := range files {
			if i > 0 {
				// A wall between a castle file (c-e) and a file outside it.
				if r != river && isCastleFile(f) != isCastleFile(files[i-1]) {
					b.WriteByte('|')
				} else {
					b.WriteByte(' ')
				}
			}
			switch pc := p.board[squareAt(f, r)]; {
			case pc != NoPiece:
				b.WriteByte(pc.Letter())
			case r == river:
				b.WriteByte('~')
			default:
				b.WriteByte('.')
			}
		}
		b.WriteString("  ")
		b.WriteByte(label)
		if r == river {
			b.WriteString("  river")
		}
		b.WriteByte('\n')
	}
	header()
	return b.String()
}

func isCastleFile(f int) bool { return 2 <= f && f <= 4 }
