package server

import (
	"context"
	"fmt"
	"strings"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/templates"
)

// recordWidth is the longest line of a record's moves.
const recordWidth = 72

// history sends the record of a game the sender plays in or observes.
func (h *handling) history(ctx context.Context, c parser.Command) error {
	gs, ok, err := h.visibleGame(ctx, c)
	if err != nil || !ok {
		return err
	}
	moves, err := h.tx.Moves(ctx, gs.g.ID)
	if err != nil {
		return err
	}
	h.answer(templates.Record{GameID: gs.g.ID, Text: h.s.record(gs, moves)})
	h.note(fmt.Sprintf("history %d", gs.g.ID))
	if h.replyGame == 0 {
		h.replyGame = gs.g.ID
	}
	return nil
}

// record writes a game in the record format of README.md: PGN's tag
// pairs, then the numbered moves in R20 notation, comments in braces, and
// the result.
func (s *Server) record(gs gameState, moves []db.Move) string {
	result := resultToken(gs.g)
	var b strings.Builder
	tag := func(name, value string) {
		value = strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(value)
		fmt.Fprintf(&b, "[%s \"%s\"]\n", name, value)
	}
	tag("Event", fmt.Sprintf("Congo game %d", gs.g.ID))
	tag("Site", s.address)
	tag("Date", gs.g.Created.UTC().Format("2006.01.02"))
	tag("White", gs.white.Handle)
	tag("Black", gs.black.Handle)
	tag("Result", result)
	tag("TimeControl", gs.g.TimeControl)
	if gs.g.Status == db.Finished {
		tag("Termination", gs.g.Reason)
	}
	b.WriteByte('\n')
	var tokens []string
	for _, m := range moves {
		if m.Ply%2 == 1 {
			tokens = append(tokens, fmt.Sprintf("%d.", (m.Ply+1)/2))
		}
		tokens = append(tokens, m.Move)
		if c := strings.Join(strings.Fields(m.Comment), " "); c != "" {
			tokens = append(tokens, "{"+strings.NewReplacer("{", "(", "}", ")").Replace(c)+"}")
		}
	}
	tokens = append(tokens, result)
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
	b.WriteString(line)
	return b.String()
}

// resultToken is a game's result as PGN writes it: "1-0", "0-1",
// "1/2-1/2", or "*" for a game not over or aborted.
func resultToken(g db.Game) string {
	switch g.Result {
	case db.WhiteWins:
		return "1-0"
	case db.BlackWins:
		return "0-1"
	case db.Draw:
		return "1/2-1/2"
	}
	return "*"
}
