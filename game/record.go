package game

import (
	"fmt"
	"math"
	"strings"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/rules"
)

// recordWidth is the longest line of a record's moves.
const recordWidth = 72

// Record writes a game, with its moves, in the record format of
// docs/playing.md: PGN's tag pairs (Site is site, the server's address;
// SetUp and Position for a game from a position, M72), then the numbered
// moves in R20 notation, messages in braces, and the result.
func Record(st *State, moves []db.Move, site string) string {
	return RecordWithNotes(st, moves, nil, site)
}

// RecordWithNotes is Record with a player's own notes (M68), each in
// braces as "{note: ...}" after the move it was written at (those
// written at the start before the first move): the record of the game
// for that player alone.
func RecordWithNotes(st *State, moves []db.Move, notes []db.Note, site string) string {
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
	if st.Game.Start != "" {
		tag("SetUp", "1")
		tag("Position", st.Game.Start)
	}
	tag("TimeControl", st.Game.TimeControl)
	if st.Game.Status == db.Finished {
		tag("Termination", st.Game.Reason.String())
	}
	b.WriteByte('\n')
	// The tokens a line may break between: a move number stays with its
	// move, and a comment breaks between its words.
	var tokens []string
	comment := func(prefix, text string) {
		if words := strings.Fields(strings.NewReplacer("{", "(", "}", ")").Replace(text)); len(words) > 0 {
			words[0], words[len(words)-1] = "{"+prefix+words[0], words[len(words)-1]+"}"
			tokens = append(tokens, words...)
		}
	}
	noted := func(ply int) {
		for len(notes) > 0 && notes[0].Ply <= ply {
			comment("note: ", notes[0].Text)
			notes = notes[1:]
		}
	}
	noted(0)
	for i, m := range moves {
		switch n, side := MoveNumber(st.Start, m.Ply); {
		case side == rules.White:
			tokens = append(tokens, fmt.Sprintf("%d. %s", n, m.Move))
		case i == 0:
			tokens = append(tokens, fmt.Sprintf("%d... %s", n, m.Move)) // a game from a position, Black first
		default:
			tokens = append(tokens, m.Move)
		}
		comment("", m.Message)
		noted(m.Ply)
	}
	noted(math.MaxInt)
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
