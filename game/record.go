package game

import (
	"fmt"
	"strings"

	"github.com/congobymail/congo/db"
)

// recordWidth is the longest line of a record's moves.
const recordWidth = 72

// Record writes a game, with its moves, in the record format of
// docs/playing.md: PGN's tag pairs (Site is site, the server's address), then
// the numbered moves in R20 notation, comments in braces, and the result.
func Record(st *State, moves []db.Move, site string) string {
	result := st.Game.Result.Token()
	var b strings.Builder
	tag := func(name, value string) {
		value = strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(value)
		fmt.Fprintf(&b, "[%s \"%s\"]\n", name, value)
	}
	if st.Event != "" {
		tag("Event", st.Event)
	} else {
		tag("Event", fmt.Sprintf("Congo game %d", st.Game.ID))
	}
	tag("Site", site)
	tag("Date", st.Game.Created.UTC().Format("2006.01.02"))
	if st.Event != "" {
		tag("Round", fmt.Sprint(st.Game.Round))
	}
	tag("White", st.White.Handle)
	tag("Black", st.Black.Handle)
	tag("Result", result)
	tag("TimeControl", st.Game.TimeControl)
	if st.Game.Status == db.Finished {
		tag("Termination", st.Game.Reason.String())
	}
	b.WriteByte('\n')
	// The tokens a line may break between: a move number stays with its
	// move, and a comment breaks between its words.
	var tokens []string
	for _, m := range moves {
		if m.Ply%2 == 1 {
			tokens = append(tokens, fmt.Sprintf("%d. %s", (m.Ply+1)/2, m.Move))
		} else {
			tokens = append(tokens, m.Move)
		}
		if words := strings.Fields(strings.NewReplacer("{", "(", "}", ")").Replace(m.Message)); len(words) > 0 {
			words[0], words[len(words)-1] = "{"+words[0], words[len(words)-1]+"}"
			tokens = append(tokens, words...)
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
