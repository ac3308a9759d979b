package game

import (
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/rules"
)

// Preview plays the moves written texts in turn from the position of st,
// each checked as a move is (its side's turn comes from the position, so
// the first is the move of the player to move now, the next their
// opponent's, and so on), and returns what each did and the position
// after them (M70). Nothing is stored. A move that cannot be played is a
// *Refusal with Problem BadPreview, saying why.
func Preview(st *State, texts []string) ([]rules.Effects, rules.Position, error) {
	switch st.Game.Status {
	case db.Declined, db.Finished:
		return nil, rules.Position{}, refuse(PreviewOver)
	}
	pos := st.Pos
	var out []rules.Effects
	for _, text := range texts {
		if pos.Outcome().Over() {
			return nil, rules.Position{}, refusef(BadPreview, "", "the game is over before %s", text)
		}
		m, err := pos.ParseMove(text)
		if err != nil {
			return nil, rules.Position{}, moveRefusal(BadPreview, text, err)
		}
		next, eff := pos.Apply(m)
		out = append(out, eff)
		pos = next
	}
	return out, pos, nil
}
