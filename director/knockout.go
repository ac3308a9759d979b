package director

import (
	"cmp"
	"context"
	"fmt"
	"math/bits"
	"slices"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/pairing"
)

// knockout runs a knockout (M74): its players seeded into a bracket at
// the start, matches of the tournament's games, each round begun when
// the one before is decided, tie games begun as matches end level.
type knockout struct{}

// start seeds the players by rating, then handle, keeps the seeds, and
// begins the first round's matches; the top seeds have byes.
func (knockout) start(ctx context.Context, tx *db.Tx, st *State, now time.Time) ([]Event, error) {
	seeds := pairing.Seed(st.Entrants())
	st.T.Rounds = bits.Len(uint(pairing.BracketSize(len(seeds)))) - 1
	if err := tx.SetTournament(ctx, st.T, now); err != nil {
		return nil, err
	}
	byHandle := st.byHandle()
	for i, p := range seeds {
		if err := tx.SetSeed(ctx, st.T.ID, byHandle[p.Handle].ID, i+1); err != nil {
			return nil, err
		}
	}
	if err := reload(ctx, tx, st); err != nil {
		return nil, err
	}
	return moveOn(ctx, tx, st, now)
}

// gameEnded moves the knockout on after one of its games ended: a tie
// game when a match ends level, the next round when the round is
// decided, the end when the final is.
func (knockout) gameEnded(ctx context.Context, tx *db.Tx, t db.Tournament, _ db.Game, now time.Time) ([]Event, error) {
	st, err := Load(ctx, tx, t.ID)
	if err != nil {
		return nil, err
	}
	return moveOn(ctx, tx, &st, now)
}

// withdrawn: the player's games were lost, and their match, if its
// games do not decide it, is forfeited (pairing.PlayKnockout).
func (knockout) withdrawn(context.Context, *db.Tx, *State, db.TournamentPlayer) error { return nil }

// moveOn begins the games that the knockout's bracket says are due, in
// the round being played, and says what that is: a round begun, or a
// match's tie game; or it ends the knockout when its final is decided.
func moveOn(ctx context.Context, tx *db.Tx, st *State, now time.Time) ([]Event, error) {
	b, err := st.Bracket()
	if err != nil {
		return nil, err
	}
	if b.Winner != "" {
		st.T.Round = b.Round
		return finish(ctx, tx, st, b.Round, now)
	}
	begun := b.Round != st.T.Round || len(st.Games) == 0
	st.T.Round = b.Round
	if err := tx.SetTournament(ctx, st.T, now); err != nil {
		return nil, err
	}
	byHandle := st.byHandle()
	var gevs []game.Event
	for _, m := range b.Rounds[b.Round-1] {
		for _, g := range m.Due {
			evs, err := startGame(ctx, tx, st, byHandle[g.White], byHandle[g.Black], b.Round, now)
			if err != nil {
				return nil, err
			}
			gevs = append(gevs, evs...)
		}
	}
	if err := reload(ctx, tx, st); err != nil {
		return nil, err
	}
	switch {
	case begun:
		return []Event{{Kind: RoundBegun, T: *st, Round: b.Round, Games: gevs}}, nil
	case len(gevs) > 0:
		return []Event{{Kind: TieBegun, T: *st, Round: b.Round, Games: gevs}}, nil
	}
	return nil, nil
}

// Bracket is the knockout's bracket as its games have played it (M74).
func (st *State) Bracket() (pairing.Bracket, error) {
	players := slices.Clone(st.Players)
	slices.SortFunc(players, func(a, b db.TournamentPlayer) int { return cmp.Compare(a.Seed, b.Seed) })
	seeded := make([]pairing.Player, len(players))
	for i, p := range players {
		if p.Seed != i+1 {
			return pairing.Bracket{}, fmt.Errorf("knockout %d: %s has seed %d, want %d", st.T.ID, p.Handle, p.Seed, i+1)
		}
		seeded[i] = pairing.Player{Handle: p.Handle, Rating: p.Rating, Withdrawn: !p.Withdrawn.IsZero()}
	}
	b, err := pairing.PlayKnockout(seeded, cmp.Or(st.T.Games, pairing.DefaultMatchGames), st.Rounds())
	if err != nil {
		return pairing.Bracket{}, fmt.Errorf("knockout %d: %w", st.T.ID, err)
	}
	return b, nil
}
