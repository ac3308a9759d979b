package analysis

import (
	"fmt"
	"math"
	"strings"

	"github.com/congobymail/congo/rules"
)

// lineMoves is the most moves of the engine's line the renderings show.
const lineMoves = 6

// recordWidth is the longest line of Movetext, as in the game record.
const recordWidth = 72

// sparkWidth is the most plies a line of the text graph holds.
const sparkWidth = 60

// Moves returns the first n moves of line, space-separated (all of them
// when n <= 0).
func Moves(line []rules.Move, n int) string {
	if n > 0 && len(line) > n {
		line = line[:n]
	}
	s := make([]string, len(line))
	for i, m := range line {
		s[i] = m.String()
	}
	return strings.Join(s, " ")
}

// label returns the move with its number as a record writes it on its
// own: "12. d2-e3" for White, "12... d6-c5" for Black.
func (p *Ply) label() string {
	if p.Side == rules.White {
		return fmt.Sprintf("%d. %v", p.Number, p.Move)
	}
	return fmt.Sprintf("%d... %v", p.Number, p.Move)
}

// Comment returns what the annotated record says of a marked move, in
// braces' content: the note, then the better move with the line and the
// evaluation it leads to, like "missed win: better d1xd7 (1-0)" or
// "better c6-c5 e3-e4 c5-c4 (+0.10)". It is "" for an unmarked move.
func (p *Ply) Comment() string {
	if p.Mark == NoMark {
		return ""
	}
	s := fmt.Sprintf("better %s (%v)", Moves(p.Line, lineMoves), p.BestEval)
	if p.Note != NoNote {
		s = p.Note.String() + ": " + s
	}
	return s
}

// Text returns the analysis in plain text, for the command line and the
// plain part of a mail: a line per move (its evaluation, and for a marked
// move the better one and its line), the summary per player, and the
// evaluation graph as a sparkline.
func (a *Analysis) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Analysis: %d nodes a position; evaluations after each move, from White's side, in pawns.\n", a.Nodes)
	if a.Tables() {
		b.WriteString("An evaluation from the tables is exact: the endgame tables know every position of four men or fewer.\n")
	}
	b.WriteString("\n")
	for i := range a.Plies {
		p := &a.Plies[i]
		line := fmt.Sprintf("%-22s %-12v", p.label()+p.Mark.String(), p.Eval)
		if p.Eval.Tables {
			line += " from the tables"
			if p.Mark != NoMark {
				line += ";"
			}
		}
		if c := p.Comment(); c != "" {
			line += " " + c
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	b.WriteString("\n")
	for c := rules.White; c <= rules.Black; c++ {
		s := a.Players[c]
		moves := "moves"
		if s.Moves == 1 {
			moves = "move"
		}
		fmt.Fprintf(&b, "%-6s %d ?!, %d ?, %d ??; average loss %.2f pawns a move over %d %s\n",
			capital(c.String())+":", s.Inaccuracies, s.Mistakes, s.Blunders, s.AverageLoss(), s.Moves, moves)
	}
	if len(a.Plies) > 0 {
		b.WriteString("\nEvaluation, a mark per move (" + string(sparks[0]) + " Black winning, " +
			string(sparks[len(sparks)-1]) + " White winning):\n")
		spark := []rune(a.Sparkline())
		for i := 0; i < len(spark); i += sparkWidth {
			fmt.Fprintf(&b, "%4d. %s\n", a.Plies[i].Number, string(spark[i:min(i+sparkWidth, len(spark))]))
		}
	}
	return b.String()
}

// Tables reports whether an evaluation after a move comes from the
// endgame tables (Eval.Tables).
func (a *Analysis) Tables() bool {
	for i := range a.Plies {
		if a.Plies[i].Eval.Tables {
			return true
		}
	}
	return false
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Movetext returns the moves of the game in the record format of
// docs/playing.md ("The game record"), annotated: each mark right after its
// move, and for each marked move the comment (Ply.Comment) in braces after
// it; result last ("1-0", "0-1", "1/2-1/2" or "*"; "" for the result on
// the board, or "*" if there is none). Lines are at most 72 characters,
// broken between tokens; a comment breaks between its words.
func (a *Analysis) Movetext(result string) string {
	if result == "" {
		result = "*"
		if a.End.Over() {
			result = Eval{End: a.End}.String()
		}
	}
	var tokens []string
	for i := range a.Plies {
		p := &a.Plies[i]
		m := p.Move.String() + p.Mark.String()
		if p.Side == rules.White {
			m = fmt.Sprintf("%d. %s", p.Number, m)
		} else if i == 0 {
			m = fmt.Sprintf("%d... %s", p.Number, m)
		}
		tokens = append(tokens, m)
		if words := strings.Fields(p.Comment()); len(words) > 0 {
			words[0], words[len(words)-1] = "{"+words[0], words[len(words)-1]+"}"
			tokens = append(tokens, words...)
		}
	}
	tokens = append(tokens, result)
	var b strings.Builder
	line := ""
	for _, t := range tokens {
		if line != "" && len(line)+1+len(t) > recordWidth {
			b.WriteString(line + "\n")
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += t
	}
	b.WriteString(line + "\n")
	return b.String()
}

// sparks are the marks of the sparkline, from Black winning to White
// winning.
var sparks = []rune("▁▂▃▄▅▆▇█")

// chance maps an Eval to -1 (Black wins) .. +1 (White wins), the way a
// pawn's worth changes the odds: a logistic curve, 0 for an equal game,
// ±0.5 at about ±1.5 pawns, ±1 for a forced or done lion capture.
func chance(e Eval) float64 {
	v := e.Value()
	if v >= Cap || v <= -Cap {
		return float64(v / Cap)
	}
	return 2/(1+math.Exp(-0.0037*float64(v))) - 1
}

// Sparkline returns the evaluation after each move as one mark per move
// (sparks), the lowest for Black winning, the highest for White winning,
// an equal game at the fifth of the eight marks.
func (a *Analysis) Sparkline() string {
	var b strings.Builder
	for i := range a.Plies {
		c := chance(a.Plies[i].Eval)
		k := int((c + 1) / 2 * float64(len(sparks)))
		b.WriteRune(sparks[max(0, min(len(sparks)-1, k))])
	}
	return b.String()
}
