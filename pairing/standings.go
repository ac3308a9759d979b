package pairing

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Standing is a player's line of the standings: their place and the
// points and tie-breaks that put them there.
type Standing struct {
	Place  int // from 1, no two equal: the last tie-break is the handle
	Handle string
	Points float64
	// Buchholz is the sum of the opponents' points, for a Swiss.
	Buchholz float64
	// SB (Sonneborn-Berger) is the sum of the points of the opponents
	// beaten and half the points of those drawn.
	SB        float64
	Withdrawn bool
}

// Standings scores the rounds (M37) and orders the players: by points,
// then for a round robin by Sonneborn-Berger, for a Swiss by Buchholz
// then Sonneborn-Berger, and last by handle.
//
// A win scores 1, a draw 1/2, a loss 0; a game lost on time or by
// resignation is a win for the other side. An unfinished game of a
// withdrawn player is lost by them (M38) and won by their opponent,
// unless the opponent withdrew too; other unfinished games count for
// nothing, neither in points nor in tie-breaks.
//
// A Swiss bye scores 1 point, and for the tie-breaks it is a game drawn
// against oneself: it adds the player's own points to their Buchholz and
// half of them to their Sonneborn-Berger (not FIDE's "virtual
// opponent"). A round robin's bye, a round without a game in an odd
// field, scores nothing and counts in no tie-break. Games a withdrawn
// player's opponents won from them count in the opponents' tie-breaks
// like any game, with the withdrawn player's points.
func Standings(sys System, players []Player, rounds []Round) ([]Standing, error) {
	t, err := tally(sys, players, rounds)
	if err != nil {
		return nil, err
	}
	st := make([]Standing, len(players))
	for i, p := range players {
		st[i] = Standing{Handle: p.Handle, Points: t[i].points, Withdrawn: p.Withdrawn}
		own := t[i].points
		st[i].Buchholz = float64(t[i].byes) * own
		st[i].SB = float64(t[i].byes) * own / 2
		for _, g := range t[i].games {
			if !g.ended {
				continue
			}
			st[i].Buchholz += t[g.opp].points
			st[i].SB += g.score * t[g.opp].points
		}
	}
	slices.SortFunc(st, func(a, b Standing) int {
		if c := cmp.Compare(b.Points, a.Points); c != 0 {
			return c
		}
		if sys == Swiss {
			if c := cmp.Compare(b.Buchholz, a.Buchholz); c != 0 {
				return c
			}
		}
		if c := cmp.Compare(b.SB, a.SB); c != 0 {
			return c
		}
		return strings.Compare(a.Handle, b.Handle)
	})
	for i := range st {
		st[i].Place = i + 1
	}
	return st, nil
}

// record is a player's rounds as scoring and pairing see them.
type record struct {
	points float64
	byes   int    // Swiss byes only: a round robin's score nothing
	games  []seat // in round order
	last   colour // the colour of the player's game in the last round, or none
}

// seat is one game from one player's side.
type seat struct {
	opp    int // index of the opponent
	colour colour
	score  float64 // the player's: 1, 1/2 or 0
	ended  bool    // it has a result, or was forfeited by a withdrawal
}

// colour is a side of a game. The zero value is none.
type colour int

const (
	white colour = iota + 1
	black
)

// tally reads every player's record from the rounds.
func tally(sys System, players []Player, rounds []Round) ([]record, error) {
	idx, err := index(players, rounds)
	if err != nil {
		return nil, err
	}
	t := make([]record, len(players))
	for r, rd := range rounds {
		for _, g := range rd.Games {
			w, b := idx[g.White], idx[g.Black]
			ws, bs, ended := 0.0, 0.0, true
			switch g.Result {
			case WhiteWon:
				ws = 1
			case BlackWon:
				bs = 1
			case Drawn:
				ws, bs = 0.5, 0.5
			default:
				switch {
				case players[w].Withdrawn && players[b].Withdrawn:
				case players[w].Withdrawn:
					bs = 1
				case players[b].Withdrawn:
					ws = 1
				default:
					ended = false
				}
			}
			t[w].points += ws
			t[b].points += bs
			t[w].games = append(t[w].games, seat{opp: b, colour: white, score: ws, ended: ended})
			t[b].games = append(t[b].games, seat{opp: w, colour: black, score: bs, ended: ended})
			if r == len(rounds)-1 {
				t[w].last, t[b].last = white, black
			}
		}
		if rd.Bye != "" && sys == Swiss {
			t[idx[rd.Bye]].byes++
			t[idx[rd.Bye]].points++
		}
	}
	return t, nil
}

// FormatPoints writes points as a decimal: "2", "2.5", "3.25".
func FormatPoints(x float64) string {
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// Format writes the standing as its line of the standings (M37):
// "1. alice  2.5  (SB 3.25)" for a round robin,
// "1. alice  2.5  (Buchholz 6, SB 3.25)" for a Swiss.
func (s Standing) Format(sys System) string {
	if sys == Swiss {
		return fmt.Sprintf("%d. %s  %s  (Buchholz %s, SB %s)", s.Place, s.Handle, FormatPoints(s.Points), FormatPoints(s.Buchholz), FormatPoints(s.SB))
	}
	return fmt.Sprintf("%d. %s  %s  (SB %s)", s.Place, s.Handle, FormatPoints(s.Points), FormatPoints(s.SB))
}

// FormatStandings writes the standings one line each, in order.
func FormatStandings(sys System, st []Standing) string {
	var b strings.Builder
	for _, s := range st {
		b.WriteString(s.Format(sys))
		b.WriteString("\n")
	}
	return b.String()
}

// Crosstable is a round robin's results, player against player, in the
// order of its standings.
type Crosstable struct {
	Standings []Standing
	// Cells[i][j] is what Standings[i] scored against Standings[j], a
	// game at a time in round order, each "1", "½" or "0" (M37): "1½"
	// in a double round robin. Games not yet ended add nothing; the
	// diagonal is "".
	Cells [][]string
}

// NewCrosstable scores a round robin's rounds as Standings does and lays
// the results out player against player.
func NewCrosstable(players []Player, rounds []Round) (Crosstable, error) {
	st, err := Standings(RoundRobin, players, rounds)
	if err != nil {
		return Crosstable{}, err
	}
	t, _ := tally(RoundRobin, players, rounds) // Standings checked them
	row := make(map[string]int, len(st))
	for i, s := range st {
		row[s.Handle] = i
	}
	c := Crosstable{Standings: st, Cells: make([][]string, len(st))}
	for i := range c.Cells {
		c.Cells[i] = make([]string, len(st))
	}
	for p, rec := range t {
		i := row[players[p].Handle]
		for _, g := range rec.games {
			if g.ended {
				c.Cells[i][row[players[g.opp].Handle]] += cell(g.score)
			}
		}
	}
	return c, nil
}

func cell(score float64) string {
	switch score {
	case 1:
		return "1"
	case 0.5:
		return "½"
	}
	return "0"
}

// String writes the crosstable as text for a mail: a line for each
// player, their place and handle, their results against each player in
// the order of the standings ("×" against themselves, "·" where no game
// has ended yet) and their points.
//
//	          1  2  3
//	1. alice  ×  1  ½  1.5
//	2. bob    0  ×  1  1
//	3. carol  ½  0  ×  0.5
func (c Crosstable) String() string {
	names := make([]string, len(c.Standings))
	nameW, cellW := 0, 1
	for i, s := range c.Standings {
		names[i] = fmt.Sprintf("%d. %s", s.Place, s.Handle)
		nameW = max(nameW, utf8.RuneCountInString(names[i]))
		cellW = max(cellW, len(strconv.Itoa(s.Place)))
		for _, x := range c.Cells[i] {
			cellW = max(cellW, utf8.RuneCountInString(x))
		}
	}
	pad := func(b *strings.Builder, s string, w int) {
		b.WriteString(s)
		b.WriteString(strings.Repeat(" ", w-utf8.RuneCountInString(s)))
	}
	var b strings.Builder
	pad(&b, "", nameW)
	for i := range c.Standings {
		b.WriteString("  ")
		pad(&b, strconv.Itoa(i+1), cellW)
	}
	head := strings.TrimRight(b.String(), " ")
	b.Reset()
	b.WriteString(head)
	b.WriteString("\n")
	for i, s := range c.Standings {
		pad(&b, names[i], nameW)
		for j, x := range c.Cells[i] {
			switch {
			case i == j:
				x = "×"
			case x == "":
				x = "·"
			}
			b.WriteString("  ")
			pad(&b, x, cellW)
		}
		b.WriteString("  ")
		b.WriteString(FormatPoints(s.Points))
		b.WriteString("\n")
	}
	return b.String()
}
