package pairing

import (
	"fmt"
	"strings"
)

// LadderReach is how far up a ladder a player may challenge: a player
// at most 3 places above their own (M73).
const LadderReach = 3

// LadderOrder is a ladder's players by place, the top first, or a run
// of consecutive places of one.
type LadderOrder []string

// Place returns the place of handle on l, from 1 at its top, or 0 when
// it is not on it.
func (l LadderOrder) Place(handle string) int {
	for i, h := range l {
		if h == handle {
			return i + 1
		}
	}
	return 0
}

// InReach reports whether a player at place from may challenge the one
// at place to: to is 1 to LadderReach places above from (M73).
func InReach(from, to int) bool {
	return to >= 1 && from-to >= 1 && from-to <= LadderReach
}

// LadderMove is a player's change of place on a ladder.
type LadderMove struct {
	Handle   string
	From, To int
}

// Play applies the result of a ladder game to l, in place, and returns
// the changes of place, the challenger's first (M73). g's White is the
// challenger, its Black the player challenged. When the challenger won,
// they take the challenged player's place, and the challenged player and
// everyone between move down one; a draw, a loss or a game not ended
// changes no place, and Play returns no moves.
//
// The places of the moves count from 1 at the top of l: for a run of a
// ladder, add the place of its first less one. Play fails, changing
// nothing, when either player is not on l or the challenger stands above
// the challenged.
func (l LadderOrder) Play(g Game) ([]LadderMove, error) {
	from, to := 0, 0 // found in one pass: the challenged is above
	for i, h := range l {
		switch h {
		case g.White:
			from = i + 1
		case g.Black:
			to = i + 1
		}
		if from != 0 {
			break
		}
	}
	switch {
	case from == 0:
		return nil, fmt.Errorf("%w: the challenger %s is not on the ladder", errPlayers, g.White)
	case to == 0:
		return nil, fmt.Errorf("%w: %s, challenged, is not on the ladder", errPlayers, g.Black)
	case from <= to:
		return nil, fmt.Errorf("%w: %s at place %d challenged %s at place %d, below", errPlayers, g.White, from, g.Black, to)
	case g.Result != WhiteWon:
		return nil, nil
	}
	moves := make([]LadderMove, 0, from-to+1)
	moves = append(moves, LadderMove{Handle: g.White, From: from, To: to})
	for p := to; p < from; p++ {
		moves = append(moves, LadderMove{Handle: l[p-1], From: p, To: p + 1})
	}
	copy(l[to:from], l[to-1:from-1])
	l[to-1] = g.White
	return moves, nil
}

// LadderStanding is a player's line of a ladder: their place, and their
// wins, draws and losses in its games.
type LadderStanding struct {
	Place               int
	Handle              string
	Wins, Draws, Losses int
}

// Format writes the standing as M73 does: "1. alice  (3-1-0)".
func (s LadderStanding) Format() string {
	return fmt.Sprintf("%d. %s  (%d-%d-%d)", s.Place, s.Handle, s.Wins, s.Draws, s.Losses)
}

// LadderStandings are the players of l, by place, with their wins,
// draws and losses in the ladder's games: those that have ended, whoever
// played them (a player who left the ladder too). A game lost on time or
// by resignation counts as lost.
func LadderStandings(l LadderOrder, games []Game) []LadderStanding {
	out := make([]LadderStanding, len(l))
	at := make(map[string]*LadderStanding, len(l))
	for i, h := range l {
		out[i] = LadderStanding{Place: i + 1, Handle: h}
		at[h] = &out[i]
	}
	for _, g := range games {
		w, b := at[g.White], at[g.Black]
		switch g.Result {
		case WhiteWon:
			if w != nil {
				w.Wins++
			}
			if b != nil {
				b.Losses++
			}
		case BlackWon:
			if b != nil {
				b.Wins++
			}
			if w != nil {
				w.Losses++
			}
		case Drawn:
			if w != nil {
				w.Draws++
			}
			if b != nil {
				b.Draws++
			}
		}
	}
	return out
}

// FormatLadder writes the standings one line each, in order.
func FormatLadder(st []LadderStanding) string {
	var b strings.Builder
	for _, s := range st {
		b.WriteString(s.Format())
		b.WriteString("\n")
	}
	return b.String()
}
