package templates

import (
	"fmt"
	"strings"
)

// Bracket is a knockout's bracket as mails show it (M74): the text
// part draws it as a tree, the HTML part lists its matches in a table.
type Bracket struct {
	Rounds []BracketRound
	Winner string // once the final is decided
	// Text is the text part's tree, which TournamentMail draws in the
	// recipient's language.
	Text string
}

// BracketRound is a round of a bracket, its matches in the bracket's
// order.
type BracketRound struct {
	Round   int
	Final   bool
	Matches []Match
}

// Match is a knockout's match, its two places in the bracket's order.
type Match struct {
	Round int
	// Players are the players of the two places: "" for one not known
	// yet and, in the first round, for nobody (a bye).
	Players [2]string
	Seeds   [2]int
	// Points are each player's points in all the match's games, tie
	// games too, as decimals ("1.5"); "" before its first game ends.
	Points [2]string
	// Score is the score of the match's games, "1.5-0.5", and TieScore
	// that of its tie games, "" for none; both "" before a game ends.
	Score    string
	TieScore string
	Winner   string
	Decided  string // how: "bye", "points", "tie game", "higher seed", "forfeit"; "" while it is played
	// Level is set when its games ended level and tie games followed;
	// Ties are the tie games begun.
	Level bool
	Ties  int
	// Games are its games begun, in order; Playing those being played.
	Games   []TournamentGame
	Playing []int64
}

// Bye reports whether the match is a first-round bye.
func (m Match) Bye() bool { return m.Decided == "bye" }

// Opponent is the other player of the match than handle.
func (m Match) Opponent(handle string) string {
	if m.Players[0] == handle {
		return m.Players[1]
	}
	return m.Players[0]
}

// Higher is the higher seed of the match's players.
func (m Match) Higher() string {
	if m.Seeds[0] == 0 || m.Seeds[1] != 0 && m.Seeds[1] < m.Seeds[0] {
		return m.Players[1]
	}
	return m.Players[0]
}

// treeWidth is the most columns a bracket's tree takes in the text
// part, indented by two: the earlier rounds of a wider one are listed
// above the tree of the later ones.
const treeWidth = width - 2

// bracketText draws a bracket for the text part, in t's language: a
// tree whose columns are the rounds' players, each pair joined to the
// winner of their match in the next, and the winner last:
//
//	Round 1          Round 2           Final
//	 1 alice  ---+
//	             +- alice  2  ---+
//	   (bye)  ---+               |
//	                             +- alice
//	 4 dave   ---+               |
//	 ...
//
// A player's points in a match (its tie games too) follow their handle,
// in the column of the match's round; "?" is a player not known yet.
// When the whole tree is wider than treeWidth, the first rounds are
// listed above it, a match a line ("1 alice  2-0  zed 8  -> alice"),
// and the tree begins with the first round that fits.
func (t *tongue) bracketText(b *Bracket) (string, error) {
	if len(b.Rounds) == 0 {
		return "", nil
	}
	bye, err := t.raw("bracket_bye", nil)
	if err != nil {
		return "", err
	}
	heads := make([]string, len(b.Rounds)+1)
	for i, r := range b.Rounds {
		if heads[i], err = t.raw("bracket_round", r); err != nil {
			return "", err
		}
	}
	if heads[len(b.Rounds)], err = t.raw("bracket_winner", nil); err != nil {
		return "", err
	}
	var out strings.Builder
	first := 0
	var tree []string
	for ; first < len(b.Rounds); first++ {
		if tree = drawTree(b, first, heads, bye); first == len(b.Rounds)-1 || maxColumns(tree) <= treeWidth {
			break
		}
	}
	for _, r := range b.Rounds[:first] {
		out.WriteString(heads[r.Round-1])
		out.WriteString("\n")
		for _, m := range r.Matches {
			out.WriteString(listLine(m, bye))
			out.WriteString("\n")
		}
		out.WriteString("\n")
	}
	for _, l := range tree {
		out.WriteString(strings.TrimRight(l, " "))
		out.WriteString("\n")
	}
	return out.String(), nil
}

// listLine is a match on a line of its own: "1 alice  2-0  zed 8  ->
// alice".
func listLine(m Match, bye string) string {
	side := func(i int) string {
		switch {
		case m.Players[i] != "":
			return m.Players[i]
		case m.Round == 1:
			return bye
		}
		return "?"
	}
	s := fmt.Sprintf("%d %s  %s-%s  %s", m.Seeds[0], side(0), orDash(m.Points[0]), orDash(m.Points[1]), side(1))
	if m.Seeds[1] != 0 {
		s += fmt.Sprintf(" %d", m.Seeds[1])
	}
	if m.Winner != "" {
		s += "  -> " + m.Winner
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// drawTree draws the tree of b's rounds from first (from 0) on, its
// head line first.
func drawTree(b *Bracket, first int, heads []string, bye string) []string {
	rounds := b.Rounds[first:]
	// cols[c] are the texts of column c: the players of round first+c
	// (their points in it after them), and last the winner.
	cols := make([][]string, len(rounds)+1)
	seedW := 0
	for _, m := range rounds[0].Matches {
		for _, s := range m.Seeds {
			seedW = max(seedW, len(fmt.Sprint(s)))
		}
	}
	handleW := make([]int, len(rounds))
	for c, r := range rounds {
		for _, m := range r.Matches {
			for i := range 2 {
				handleW[c] = max(handleW[c], columns(m.Players[i]), columns(bye))
			}
		}
	}
	for c, r := range rounds {
		for _, m := range r.Matches {
			for i := range 2 {
				name := m.Players[i]
				switch {
				case name == "" && r.Round == 1:
					name = bye
				case name == "":
					name = "?"
				}
				text := pad(handleW[c], name)
				if p := m.Points[i]; p != "" {
					text += " " + p
				}
				if c == 0 {
					seed := ""
					if m.Seeds[i] != 0 && m.Players[i] != "" {
						seed = fmt.Sprint(m.Seeds[i])
					}
					text = strings.Repeat(" ", seedW-len(seed)) + seed + " " + text
				}
				cols[c] = append(cols[c], text)
			}
		}
	}
	winner := b.Winner
	if winner == "" {
		winner = "?"
	}
	cols[len(rounds)] = []string{winner}

	rows := 2*len(cols[0]) - 1
	// The grid has a rune a column: a wide character is followed by a
	// 0, dropped at the end. Each row is written left to right.
	grid := make([][]rune, rows+2) // the head, a blank line, the tree
	x := 0
	heads = heads[first:]
	set := func(row, col int, s string) {
		line := grid[row]
		for len(line) < col {
			line = append(line, ' ')
		}
		line = line[:col]
		for _, r := range s {
			line = append(line, r)
			if wide(r) {
				line = append(line, 0)
			}
		}
		grid[row] = line
	}
	for c := range cols {
		w := columns(heads[c])
		for _, s := range cols[c] {
			w = max(w, columns(s))
		}
		set(0, x, heads[c])
		step := 1 << (c + 1)
		for i, s := range cols[c] {
			row := 2 + i*step + step/2 - 1
			if c == len(cols)-1 {
				set(row, x, s)
				continue
			}
			conn := x + w + 3
			set(row, x, s+" "+strings.Repeat("-", conn-x-columns(s)-1)+"+")
			if i%2 == 0 { // the line down to the next, and the next column's player
				for r := row + 1; r < row+step; r++ {
					set(r, conn, "|")
				}
				set(row+step/2, conn, "+- ")
			}
		}
		x += w + 6
	}
	lines := make([]string, len(grid))
	for i, l := range grid {
		lines[i] = strings.ReplaceAll(string(l), "\x00", "")
	}
	return lines
}

// maxColumns is the widest of the lines, in columns.
func maxColumns(lines []string) int {
	w := 0
	for _, l := range lines {
		w = max(w, columns(l))
	}
	return w
}
