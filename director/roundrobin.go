package director

import (
	"context"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/pairing"
)

// roundRobin runs a round robin (M35): every game at once at the start,
// the standings as each round's games have all ended.
type roundRobin struct{}

// start begins every game of a round robin, each marked with its round
// of the Berger tables.
func (roundRobin) start(ctx context.Context, tx *db.Tx, st *State, now time.Time) ([]Event, error) {
	seeded := st.seeded()
	handles := make([]string, len(seeded))
	byHandle := map[string]db.Player{}
	for i, p := range seeded {
		handles[i], byHandle[p.Handle] = p.Handle, p.Player
	}
	rounds := pairing.Berger(handles, st.T.Double)
	st.T.Rounds = len(rounds)
	if err := tx.SetTournament(ctx, st.T, now); err != nil {
		return nil, err
	}
	var gevs []game.Event
	for r, round := range rounds {
		for _, g := range round.Games {
			evs, err := startGame(ctx, tx, st, byHandle[g.White], byHandle[g.Black], r+1, now)
			if err != nil {
				return nil, err
			}
			gevs = append(gevs, evs...)
		}
	}
	if err := reload(ctx, tx, st); err != nil {
		return nil, err
	}
	return []Event{{Kind: RoundBegun, T: *st, Round: 1, Games: gevs}}, nil
}

// gameEnded: when the game was the last of its round to end, the
// round's standings, or the final standings once the last game has
// ended.
func (roundRobin) gameEnded(ctx context.Context, tx *db.Tx, t db.Tournament, g db.Game, now time.Time) ([]Event, error) {
	st, err := Load(ctx, tx, t.ID)
	if err != nil {
		return nil, err
	}
	switch round, all := roundEnded(&st, g); {
	case all:
		return finish(ctx, tx, &st, g.Round, now)
	case round:
		return []Event{{Kind: RoundEnded, T: st, Round: g.Round}}, nil
	}
	return nil, nil
}

// withdrawn: the player's games were lost; nothing else changes.
func (roundRobin) withdrawn(context.Context, *db.Tx, *State, db.TournamentPlayer) error { return nil }

// Crosstable is the round robin's crosstable so far.
func (st *State) Crosstable() (pairing.Crosstable, error) {
	return pairing.NewCrosstable(st.Entrants(), st.Rounds())
}
