// Package director runs the tournaments of MAIL.md M33-M39 over the
// store: it creates them, takes players in and out, starts their games,
// and moves them on as games end. Pairing and scoring are the pure
// package tournament's; this one only reads and writes what they need.
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

// MinPlayers is the fewest players a tournament starts with (M34).
const MinPlayers = 3

// State is a tournament with its players, games and byes, as stored.
type State struct {
	T        db.Tournament
	Director db.Player
	Players  []db.TournamentPlayer // in the order they joined
	Games    []db.Game             // by round
	Byes     map[int]int64         // the player with the bye, by round
}

// Load reads a tournament whole. A missing one is an error that wraps
// db.ErrNotFound.
func Load(ctx context.Context, tx *db.Tx, id int64) (State, error) {
	t, err := tx.Tournament(ctx, id)
	if err != nil {
		return State{}, err
	}
	st := State{T: t}
	if st.Director, err = tx.Player(ctx, t.Director); err != nil {
		return State{}, err
	}
	if st.Players, err = tx.TournamentPlayers(ctx, id); err != nil {
		return State{}, err
	}
	if st.Games, err = tx.TournamentGames(ctx, id); err != nil {
		return State{}, err
	}
	if st.Byes, err = tx.Byes(ctx, id); err != nil {
		return State{}, err
	}
	return st, nil
}

// System is how the tournament pairs its players.
func (st *State) System() pairing.System {
	if st.T.System == pairing.Swiss.String() {
		return pairing.Swiss
	}
	return pairing.RoundRobin
}

// Player returns the tournament's player with the id; ok is false when
// they are not in it.
func (st *State) Player(id int64) (db.TournamentPlayer, bool) {
	for _, p := range st.Players {
		if p.ID == id {
			return p, true
		}
	}
	return db.TournamentPlayer{}, false
}

// Handle returns the handle of the tournament's player with the id.
func (st *State) Handle(id int64) string {
	p, _ := st.Player(id)
	return p.Handle
}

// Entrants are the players as pairing and scoring see them: by rating at
// the start (then handle), for the seeding of a round robin and the
// ranking of a Swiss.
func (st *State) Entrants() []pairing.Player {
	out := make([]pairing.Player, 0, len(st.Players))
	for _, p := range st.Players {
		out = append(out, pairing.Player{Handle: p.Handle, Rating: p.Rating, Withdrawn: !p.Withdrawn.IsZero()})
	}
	return out
}

// seeded are the players in the order of the seeding: the highest rated
// first, then by handle.
func (st *State) seeded() []db.TournamentPlayer {
	ps := slices.Clone(st.Players)
	slices.SortStableFunc(ps, func(a, b db.TournamentPlayer) int {
		return cmp.Or(cmp.Compare(b.Rating, a.Rating), cmp.Compare(a.Handle, b.Handle))
	})
	return ps
}

// Rounds are the tournament's rounds as pairing and scoring see them: a
// Swiss's up to the round being played, all of a round robin's.
func (st *State) Rounds() []pairing.Round {
	n := st.T.Round
	if st.System() == pairing.RoundRobin {
		n = st.T.Rounds
	}
	rounds := make([]pairing.Round, n)
	for _, g := range st.Games {
		if g.Round < 1 || g.Round > len(rounds) {
			continue
		}
		r := pairing.Unfinished
		if g.Status == db.Finished {
			r = map[db.Result]pairing.Result{db.WhiteWins: pairing.WhiteWon, db.BlackWins: pairing.BlackWon, db.Draw: pairing.Drawn}[g.Result]
		}
		rounds[g.Round-1].Games = append(rounds[g.Round-1].Games, pairing.Game{White: st.Handle(g.White), Black: st.Handle(g.Black), Result: r})
	}
	for r, p := range st.Byes {
		if r >= 1 && r <= len(rounds) {
			rounds[r-1].Bye = st.Handle(p)
		}
	}
	return rounds
}

// Standings scores the tournament so far (M37).
func (st *State) Standings() ([]pairing.Standing, error) {
	return pairing.Standings(st.System(), st.Entrants(), st.Rounds())
}

// StandingsAfter scores the tournament's first rounds only: the
// standings after round n, before the byes of the next.
func (st *State) StandingsAfter(n int) ([]pairing.Standing, error) {
	return pairing.Standings(st.System(), st.Entrants(), st.Rounds()[:n])
}

// Crosstable is the round robin's crosstable so far.
func (st *State) Crosstable() (pairing.Crosstable, error) {
	return pairing.NewCrosstable(st.Entrants(), st.Rounds())
}

// Problem is why a change to a tournament is refused. The zero value
// means none.
type Problem uint8

const (
	NoProblem   Problem = iota
	NotOpen             // joining, leaving before the start or starting a tournament not open
	NotRunning          // withdrawing from a tournament not running
	Joined              // joining twice
	NotAPlayer          // leaving a tournament one is not in
	NotDirector         // the director's command from another
	TooFew              // starting with fewer than MinPlayers
)

// Refusal is a change to a tournament that its state does not allow.
// Nothing was changed.
type Refusal struct {
	Problem Problem
	// Director is the director's handle, Players the number of players,
	// for the answer.
	Director string
	Players  int
}

func (r *Refusal) Error() string { return fmt.Sprintf("director: problem %d", r.Problem) }

// Kind says what happened to a tournament.
type Kind uint8

const (
	NoEvent    Kind = iota
	RoundBegun      // Round's games began (all of a round robin's at once: Round is 1); a Swiss's round before it ended
	RoundEnded      // every game of a round robin's Round has ended: the standings so far
	Finished        // every game has ended (the last of them in Round): the final standings
	Cancelled       // the director called it off before the start
)

// Event is what happened to a tournament, with the tournament as it was
// just after.
type Event struct {
	Kind  Kind
	T     State
	Round int
	// Games are the events of the games that began (game.Started).
	Games []game.Event
	// Rematches are the pairings that repeat a game, when no pairing
	// without one existed: the director is told.
	Rematches []pairing.Game
}

// Spec is what a new tournament is to be (M33).
type Spec struct {
	Name    string
	System  pairing.System
	Rounds  int // of a Swiss; 0 for the default at the start
	Double  bool
	Control parser.TimeControl
	Unrated bool
	// Pauses lets its games be paused by agreement (M63); NoVacation
	// has vacations not stop their clocks (M67).
	Pauses     bool
	NoVacation bool
}

// New creates a tournament open for joining, directed by director, who
// is its first player.
func New(ctx context.Context, tx *db.Tx, director db.Player, spec Spec, now time.Time) (State, error) {
	tc := spec.Control
	if tc.Days == 0 {
		tc = game.DefaultControl
	}
	t, err := tx.AddTournament(ctx, db.Tournament{Name: spec.Name, System: spec.System.String(), Director: director.ID,
		Rounds: spec.Rounds, Double: spec.Double, TimeControl: tc.String(), Rated: !spec.Unrated,
		Pauses: spec.Pauses, NoVacation: spec.NoVacation}, now)
	if err != nil {
		return State{}, err
	}
	if err := tx.AddTournamentPlayer(ctx, t.ID, director.ID, now); err != nil {
		return State{}, err
	}
	return Load(ctx, tx, t.ID)
}

// Join adds player to an open tournament.
func Join(ctx context.Context, tx *db.Tx, st *State, player db.Player, now time.Time) error {
	if st.T.Status != db.TournamentOpen {
		return &Refusal{Problem: NotOpen}
	}
	if _, ok := st.Player(player.ID); ok {
		return &Refusal{Problem: Joined}
	}
	if err := tx.AddTournamentPlayer(ctx, st.T.ID, player.ID, now); err != nil {
		return err
	}
	return reload(ctx, tx, st)
}

// Leave takes player out of an open tournament: they are no longer in
// it. After the start, see Withdraw.
func Leave(ctx context.Context, tx *db.Tx, st *State, player db.Player) error {
	if _, ok := st.Player(player.ID); !ok {
		return &Refusal{Problem: NotAPlayer}
	}
	if st.T.Status != db.TournamentOpen {
		return &Refusal{Problem: NotOpen}
	}
	if _, err := tx.DeleteTournamentPlayer(ctx, st.T.ID, player.ID); err != nil {
		return err
	}
	return reload(ctx, tx, st)
}

// Withdraw takes player out of a running tournament (M38), at their
// wish or the director's: their games in progress are lost, and a Swiss
// pairs them no further. It returns the events of the games that ended;
// what their ends cause comes of GameEnded, as for any game's end.
func Withdraw(ctx context.Context, tx *db.Tx, st *State, player db.Player, now time.Time) ([]game.Event, error) {
	p, ok := st.Player(player.ID)
	switch {
	case !ok || !p.Withdrawn.IsZero():
		return nil, &Refusal{Problem: NotAPlayer}
	case st.T.Status != db.TournamentRunning:
		return nil, &Refusal{Problem: NotRunning}
	}
	if err := tx.SetWithdrawn(ctx, st.T.ID, player.ID, now); err != nil {
		return nil, err
	}
	var evs []game.Event
	for _, g := range st.Games {
		if g.Status != db.Active || !g.Has(player.ID) {
			continue
		}
		gs, err := game.Of(ctx, tx, g, now)
		if err != nil {
			return nil, err
		}
		if gs.Game.IsAdjourned() {
			// The operator stopped the game; it ends all the same.
			if _, err := game.Resume(ctx, tx, &gs); err != nil {
				return nil, err
			}
		}
		more, err := game.Resign(ctx, tx, &gs, p.Player)
		if err != nil {
			return nil, err
		}
		evs = append(evs, more...)
	}
	return evs, reload(ctx, tx, st)
}

// Start begins an open tournament, by its director: a round robin's games
// all at once (M35), a Swiss's first round (M36).
func Start(ctx context.Context, tx *db.Tx, st *State, now time.Time) ([]Event, error) {
	switch {
	case st.T.Status != db.TournamentOpen:
		return nil, &Refusal{Problem: NotOpen}
	case len(st.Players) < MinPlayers:
		return nil, &Refusal{Problem: TooFew, Players: len(st.Players)}
	}
	st.T.Status, st.T.Round = db.TournamentRunning, 1
	if st.System() == pairing.Swiss && st.T.Rounds == 0 {
		st.T.Rounds = pairing.SwissRounds(len(st.Players))
	}
	if st.System() == pairing.RoundRobin {
		return startRoundRobin(ctx, tx, st, now)
	}
	return pairRound(ctx, tx, st, now)
}

// startRoundRobin begins every game of a round robin, each marked with
// its round of the Berger tables.
func startRoundRobin(ctx context.Context, tx *db.Tx, st *State, now time.Time) ([]Event, error) {
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

// pairRound pairs the round st.T.Round of a Swiss and begins its games.
func pairRound(ctx context.Context, tx *db.Tx, st *State, now time.Time) ([]Event, error) {
	p, err := pairing.PairSwiss(st.Entrants(), st.Rounds()[:st.T.Round-1])
	if err != nil {
		return nil, err
	}
	if err := tx.SetTournament(ctx, st.T, now); err != nil {
		return nil, err
	}
	byHandle := map[string]db.Player{}
	for _, tp := range st.Players {
		byHandle[tp.Handle] = tp.Player
	}
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

// startGame begins a game of the tournament. A game against the robot
// its director added (AddRobot) is played at the robot's level there,
// and unrated, as every game against the robot that did not ask to be
// rated (M60).
func startGame(ctx context.Context, tx *db.Tx, st *State, white, black db.Player, round int, now time.Time) ([]game.Event, error) {
	tc, _ := parser.ParseTimeControl(st.T.TimeControl)
	robot, level, err := tx.TournamentRobot(ctx, st.T.ID)
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return nil, err
	}
	robotGame := robot != 0 && (white.ID == robot || black.ID == robot)
	g, evs, err := game.Start(ctx, tx, game.Terms{White: white, Black: black, Challenger: white, Control: tc,
		Unrated: !st.T.Rated || robotGame, Tournament: st.T.ID, Round: round}, now)
	if err != nil || !robotGame {
		return evs, err
	}
	return evs, tx.SetRobotLevel(ctx, g.ID(), level)
}

// AddRobot adds the robot player to an open tournament, by its director
// (M60): it plays its games there like any player, at level.
func AddRobot(ctx context.Context, tx *db.Tx, st *State, robot db.Player, level int, now time.Time) error {
	if err := Join(ctx, tx, st, robot, now); err != nil {
		return err
	}
	return tx.SetTournamentRobot(ctx, st.T.ID, robot.ID, level)
}

// Cancel calls off a tournament that has not started.
func Cancel(ctx context.Context, tx *db.Tx, st *State, now time.Time) ([]Event, error) {
	if st.T.Status != db.TournamentOpen {
		return nil, &Refusal{Problem: NotOpen}
	}
	st.T.Status = db.TournamentCancelled
	if err := tx.SetTournament(ctx, st.T, now); err != nil {
		return nil, err
	}
	return []Event{{Kind: Cancelled, T: *st}}, nil
}

// GameEnded moves on the tournament of a game that just ended, if any:
// when the game was the last of its round to end, the round's standings
// (a round robin's rounds are played at once: RoundEnded), a Swiss's
// next round, or the final standings once the last game has ended.
func GameEnded(ctx context.Context, tx *db.Tx, g db.Game, now time.Time) ([]Event, error) {
	if g.Tournament == 0 {
		return nil, nil
	}
	st, err := Load(ctx, tx, g.Tournament)
	if err != nil || st.T.Status != db.TournamentRunning {
		return nil, err
	}
	round, all := true, true
	for _, o := range st.Games {
		if o.Status == db.Active {
			all = false
			round = round && o.Round != g.Round
		}
	}
	switch {
	case !round:
		return nil, nil
	case all && (st.System() == pairing.RoundRobin || st.T.Round >= st.T.Rounds || len(active(&st)) < 2):
		st.T.Status = db.TournamentOver
		if err := tx.SetTournament(ctx, st.T, now); err != nil {
			return nil, err
		}
		return []Event{{Kind: Finished, T: st, Round: g.Round}}, nil
	case st.System() == pairing.RoundRobin:
		return []Event{{Kind: RoundEnded, T: st, Round: g.Round}}, nil
	case g.Round != st.T.Round:
		return nil, nil // a game of an earlier round, ended by the operator
	}
	st.T.Round++
	return pairRound(ctx, tx, &st, now)
}

// active are the players who have not withdrawn.
func active(st *State) []db.TournamentPlayer {
	var out []db.TournamentPlayer
	for _, p := range st.Players {
		if p.Withdrawn.IsZero() {
			out = append(out, p)
		}
	}
	return out
}

// reload reads the tournament again into st.
func reload(ctx context.Context, tx *db.Tx, st *State) error {
	fresh, err := Load(ctx, tx, st.T.ID)
	if err == nil {
		*st = fresh
	}
	return err
}
