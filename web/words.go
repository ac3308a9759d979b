package web

import (
	"fmt"
	"strings"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/templates"
)

// The words of the pages, in English as the mails' are (templates).

// outcome says how a finished game ended, as the mails do: "alice won:
// bob's lion was captured."
func outcome(g db.Game, white, black string) string {
	winner, loser := white, black
	if g.Result == db.BlackWins {
		winner, loser = black, white
	}
	switch g.Result {
	case db.NoResult:
		return "Aborted before both sides had moved."
	case db.Draw:
		switch g.Reason {
		case rules.Agreed:
			return "Drawn by agreement."
		case rules.BareLions:
			return "Drawn: only the lions were left."
		case rules.Adjudicated:
			return "Drawn, as the server's operator decided."
		}
		return "Drawn."
	}
	switch g.Reason {
	case rules.LionCaptured:
		return fmt.Sprintf("%s won: %s's lion was captured.", winner, loser)
	case rules.NoLegalMove:
		return fmt.Sprintf("%s won: %s had no legal move.", winner, loser)
	case rules.Resigned:
		return fmt.Sprintf("%s won: %s resigned.", winner, loser)
	case rules.OutOfTime:
		return fmt.Sprintf("%s won: %s ran out of time.", winner, loser)
	case rules.Adjudicated:
		return fmt.Sprintf("%s won, as the server's operator decided.", winner)
	}
	return winner + " won."
}

// scoreFor is a finished game's result for one of its players: "won",
// "lost", "drawn" or "aborted"; "" for a game not over.
func scoreFor(g db.Game, player int64) string {
	if g.Status != db.Finished {
		return ""
	}
	switch {
	case g.Result == db.NoResult:
		return "aborted"
	case g.Result == db.Draw:
		return "drawn"
	case (g.Result == db.WhiteWins) == (g.White == player):
		return "won"
	}
	return "lost"
}

// timeControl says a time control in words: "3 days a move", "a bank of
// 10 days, 1 day added a move".
func timeControl(tc string) string {
	var days, bank, inc int
	if _, err := fmt.Sscanf(tc, "days=%d", &days); err == nil {
		return plural(days, "day") + " a move"
	}
	if _, err := fmt.Sscanf(tc, "bank=%d+%d", &bank, &inc); err == nil {
		return fmt.Sprintf("a bank of %s, %s added a move", plural(bank, "day"), plural(inc, "day"))
	}
	return tc
}

// plural writes a count of things: "1 day", "2 days".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// duration writes a time left as the mails do: "2 days 4 hours".
func duration(d time.Duration) string { return templates.Duration(d) }

// day writes a date, in UTC: "2025-03-01".
func day(t time.Time) string { return t.UTC().Format("2006-01-02") }

// moment writes a time to the minute, in UTC: "2025-03-01 12:00 UTC".
func moment(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// moveLabel is a move with its R21 number: "3. d2-e3" for White's,
// "3... d6-c5" for Black's, ply counting both sides' moves from 1 in the
// game that began at start.
func moveLabel(start rules.Position, ply int, move string) string {
	n, side := game.MoveNumber(start, ply)
	if side == rules.White {
		return fmt.Sprintf("%d. %s", n, move)
	}
	return fmt.Sprintf("%d... %s", n, move)
}

// movingAt is the side to move and the R21 move number after ply plies
// of the game that began at start.
func movingAt(start rules.Position, ply int) (rules.Color, int) {
	n, side := game.MoveNumber(start, ply+1)
	return side, n
}

// movesPlayed is the number of moves of a game of plies plies, as the
// mails count them (R21): a move is White's and Black's; one that White
// has made and Black not yet counts.
func movesPlayed(plies int) int { return (plies + 1) / 2 }

// plyOf is the number of plies played before position p in the game
// that began at start.
func plyOf(start, p rules.Position) int { return game.Ply(start, p) - 1 }

// startOf is the position game g began from; the start of every game
// when it cannot be read (the page then numbers as for one).
func startOf(g db.Game) rules.Position {
	p, err := rules.ParsePosition(g.StartPosition())
	if err != nil {
		return rules.Start()
	}
	return p
}

// colourWord is "white" or "black".
func colourWord(c rules.Color) string { return strings.ToLower(c.String()) }

// clockWords is a player's time left as a game's page shows it, as the
// mails do: with "(weekends paused, Europe/Prague)" for a player whose
// clock stands still on weekends (M64), "out of time" for a player who
// may still move until the opponent claims the win (M66). A vacation
// is not shown (M46).
func clockWords(c game.Clock) string {
	s := duration(c.Left) + " left"
	if c.Out {
		s = "out of time"
	}
	if c.Weekends != "" {
		s += " (weekends paused, " + c.Weekends + ")"
	}
	return s
}
