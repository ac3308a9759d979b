package director

import (
	"context"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/pairing"
)

// swiss runs a Swiss (M36): a round at a time, each paired when every
// game of the round before has ended.
type swiss struct{}

// start pairs round 1, after fixing the number of rounds if the
// director left it to the default.
func (swiss) start(ctx context.Context, tx *db.Tx, st *State, now time.Time) ([]Event, error) {
	if st.T.Rounds == 0 {
		st.T.Rounds = pairing.SwissRounds(len(st.Players))
	}
	return pairRound(ctx, tx, st, now)
}

// gameEnded: when the game was the last of its round to end, the next
// round, or the final standings after the last round (or when fewer
// than two players are left).
func (swiss) gameEnded(ctx context.Context, tx *db.Tx, t db.Tournament, g db.Game, now time.Time) ([]Event, error) {
	st, err := Load(ctx, tx, t.ID)
	if err != nil {
		return nil, err
	}
	switch round, all := roundEnded(&st, g); {
	case !round:
		return nil, nil
	case all && (st.T.Round >= st.T.Rounds || len(active(&st)) < 2):
		return finish(ctx, tx, &st, g.Round, now)
	case g.Round != st.T.Round:
		return nil, nil // a game of an earlier round, ended by the operator
	}
	st.T.Round++
	return pairRound(ctx, tx, &st, now)
}

// withdrawn: the player is paired no further, as they are withdrawn.
func (swiss) withdrawn(context.Context, *db.Tx, *State, db.TournamentPlayer) error { return nil }

// pairRound pairs the round st.T.Round of a Swiss and begins its games.
func pairRound(ctx context.Context, tx *db.Tx, st *State, now time.Time) ([]Event, error) {
	p, err := pairing.PairSwiss(st.Entrants(), st.Rounds()[:st.T.Round-1])
	if err != nil {
		return nil, err
	}
	if err := tx.SetTournament(ctx, st.T, now); err != nil {
		return nil, err
	}
	byHandle := st.byHandle()
	var gevs []game.Event
	for _, g := range p.Round.Games {
		evs, err := startGame(ctx, tx, st, byHandle[g.White], byHandle[g.Black], st.T.Round, now)
		if err != nil {
			return nil, err
		}
		gevs = append(gevs, evs...)
	}
	if p.Round.Bye != "" {
		if err := tx.SetBye(ctx, st.T.ID, st.T.Round, byHandle[p.Round.Bye].ID); err != nil {
			return nil, err
		}
	}
	if err := reload(ctx, tx, st); err != nil {
		return nil, err
	}
	return []Event{{Kind: RoundBegun, T: *st, Round: st.T.Round, Games: gevs, Rematches: p.Rematches}}, nil
}
