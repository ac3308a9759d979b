package director

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/pairing"
	"github.com/congobymail/congo/parser"
)

// ladder runs a ladder (M73): it runs from its creation until its
// director closes it; players join at the bottom at any time and
// challenge up, and a challenger who wins takes the loser's place.
type ladder struct{}

// start: a ladder has none (Start refuses it).
func (ladder) start(context.Context, *db.Tx, *State, time.Time) ([]Event, error) {
	return nil, &Refusal{Problem: Continuous}
}

// join puts p at the bottom of the ladder.
func (ladder) join(ctx context.Context, tx *db.Tx, st *State, p db.Player, now time.Time) error {
	_, err := tx.AddLadderPlayer(ctx, st.T.ID, p.ID, now)
	if errors.Is(err, db.ErrJoined) {
		return &Refusal{Problem: Joined}
	}
	return err
}

// withdrawn takes the player off the ladder, those below moving up one;
// with a game in progress, whose end is to come, only after it has moved
// the places as any result does.
func (ladder) withdrawn(ctx context.Context, tx *db.Tx, st *State, p db.TournamentPlayer) error {
	for _, g := range st.Games {
		if g.Status == db.Active && g.Has(p.ID) {
			return nil
		}
	}
	return tx.DeleteLadderPlayer(ctx, st.T.ID, p.ID)
}

// gameEnded applies the result of a ladder game to the places (M73), in
// the transaction of the game's end, reading and writing only the places
// from the challenged player's to the challenger's: when the challenger
// (White) won, they take the loser's place, and the loser and everyone
// between move down one. A player who withdrew during the game then
// leaves the ladder. When the director has closed the ladder and this
// was its last game in progress, the ladder is over.
func (ladder) gameEnded(ctx context.Context, tx *db.Tx, t db.Tournament, g db.Game, now time.Time) ([]Event, error) {
	var evs []Event
	challenger, err := tx.TournamentPlayer(ctx, t.ID, g.White)
	if err != nil {
		return nil, err
	}
	challenged, err := tx.TournamentPlayer(ctx, t.ID, g.Black)
	if err != nil {
		return nil, err
	}
	if from, to := challenger.Place, challenged.Place; from > to && to > 0 {
		run, err := tx.LadderRun(ctx, t.ID, to, from)
		if err != nil {
			return nil, err
		}
		before := make(map[int64]int, len(run))
		order := make(pairing.LadderOrder, len(run))
		byHandle := make(map[string]db.TournamentPlayer, len(run))
		for i, p := range run {
			before[p.ID], order[i], byHandle[p.Handle] = p.Place, p.Handle, p
		}
		result := map[db.Result]pairing.Result{db.WhiteWins: pairing.WhiteWon, db.BlackWins: pairing.BlackWon, db.Draw: pairing.Drawn}[g.Result]
		moves, err := order.Play(pairing.Game{White: challenger.Handle, Black: challenged.Handle, Result: result})
		if err != nil {
			return nil, fmt.Errorf("ladder %d, game %d: %w", t.ID, g.ID, err)
		}
		for _, m := range moves {
			if err := tx.SetPlace(ctx, t.ID, byHandle[m.Handle].ID, m.To+to-1); err != nil {
				return nil, err
			}
		}
		// Those who withdrew during the game leave the ladder now; the
		// others' places are then the order of the run without them.
		var gone int
		var moved []Move
		for i, h := range order {
			p := byHandle[h]
			if !p.Withdrawn.IsZero() {
				if err := tx.DeleteLadderPlayer(ctx, t.ID, p.ID); err != nil {
					return nil, err
				}
				gone++
				continue
			}
			if place := to + i - gone; place != before[p.ID] {
				moved = append(moved, Move{Player: p.Player, From: before[p.ID], To: place})
			}
		}
		slices.SortStableFunc(moved, func(a, b Move) int { return cmp.Compare(a.To, b.To) })
		if len(moved) > 0 {
			d, err := tx.Player(ctx, t.Director)
			if err != nil {
				return nil, err
			}
			evs = append(evs, Event{Kind: LadderMoved, T: State{T: t, Director: d}, Game: g,
				White: challenger.Player, Black: challenged.Player, Moves: moved})
		}
	} else {
		for _, p := range []db.TournamentPlayer{challenger, challenged} {
			if !p.Withdrawn.IsZero() && p.Place > 0 {
				if err := tx.DeleteLadderPlayer(ctx, t.ID, p.ID); err != nil {
					return nil, err
				}
			}
		}
	}
	if t.Closed.IsZero() {
		return evs, nil
	}
	st, err := Load(ctx, tx, t.ID)
	if err != nil {
		return nil, err
	}
	if _, all := roundEnded(&st, g); !all {
		return evs, nil
	}
	over, err := finish(ctx, tx, &st, 0, now)
	return append(evs, over...), err
}

// Ladder is the ladder's order (M73): its players by place, with their
// wins, draws and losses in its games.
func (st *State) Ladder() []pairing.LadderStanding {
	var on []db.TournamentPlayer
	for _, p := range st.Players {
		if p.Place > 0 {
			on = append(on, p)
		}
	}
	slices.SortFunc(on, func(a, b db.TournamentPlayer) int { return cmp.Compare(a.Place, b.Place) })
	order := make(pairing.LadderOrder, len(on))
	for i, p := range on {
		order[i] = p.Handle
	}
	games := make([]pairing.Game, 0, len(st.Games))
	for _, g := range st.Games {
		if g.Status == db.Finished {
			games = append(games, st.game(g))
		}
	}
	return pairing.LadderStandings(order, games)
}

// Challenge starts a ladder game (M73): challenger challenges challenged,
// at most pairing.LadderReach places above them; the game starts at
// once, the challenger White. Neither may have a game of the ladder in
// progress. It returns the game's events.
func Challenge(ctx context.Context, tx *db.Tx, st *State, challenger, challenged db.Player, now time.Time) (game.State, []game.Event, error) {
	if _, ok := st.system().(ladder); !ok {
		return game.State{}, nil, &Refusal{Problem: NotLadder}
	}
	switch {
	case st.T.Status != db.TournamentRunning:
		return game.State{}, nil, &Refusal{Problem: NotRunning}
	case !st.T.Closed.IsZero():
		return game.State{}, nil, &Refusal{Problem: Closed}
	}
	from, to := 0, 0
	if p, ok := st.Player(challenger.ID); ok {
		from = p.Place
	}
	if from == 0 {
		return game.State{}, nil, &Refusal{Problem: NotAPlayer}
	}
	if p, ok := st.Player(challenged.ID); ok {
		to = p.Place
	}
	if to == 0 {
		return game.State{}, nil, &Refusal{Problem: NotAPlayer, Handle: challenged.Handle}
	}
	if !pairing.InReach(from, to) {
		return game.State{}, nil, &Refusal{Problem: OutOfReach, Handle: challenged.Handle, Places: [2]int{from, to}}
	}
	for _, g := range st.Games {
		if g.Status != db.Active {
			continue
		}
		for _, p := range []db.Player{challenger, challenged} {
			if g.Has(p.ID) {
				return game.State{}, nil, &Refusal{Problem: Busy, Handle: p.Handle, Game: g.ID}
			}
		}
	}
	tc, _ := parser.ParseTimeControl(st.T.TimeControl)
	gs, evs, err := game.Start(ctx, tx, game.Terms{White: challenger, Black: challenged, Challenger: challenger, Control: tc,
		Unrated: !st.T.Rated, Tournament: st.T.ID}, now)
	if err != nil {
		return game.State{}, nil, err
	}
	return gs, evs, reload(ctx, tx, st)
}

// Close closes a ladder, by its director (M73): it takes no more
// challenges or players. Its games in progress play on, and their
// results still move the places; when the last has ended, or at once
// when none is being played, the ladder is over and its order final.
func Close(ctx context.Context, tx *db.Tx, st *State, now time.Time) ([]Event, error) {
	switch _, ok := st.system().(ladder); {
	case !ok:
		return nil, &Refusal{Problem: NotLadder}
	case st.T.Status != db.TournamentRunning:
		return nil, &Refusal{Problem: NotRunning}
	case !st.T.Closed.IsZero():
		return nil, &Refusal{Problem: Closed}
	}
	st.T.Closed = now
	for _, g := range st.Games {
		if g.Status == db.Active {
			if err := tx.SetTournament(ctx, st.T, now); err != nil {
				return nil, err
			}
			return []Event{{Kind: LadderClosing, T: *st}}, nil
		}
	}
	return finish(ctx, tx, st, 0, now)
}
