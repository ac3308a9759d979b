// Package director runs the tournaments of MAIL.md M33-M39 and M73-M74
// over the store: it creates them, takes players in and out, starts
// their games, and moves them on as games end. Each system of
// tournament (round robin, Swiss, ladder, knockout) fills an entry of
// the table systems in a file of its own; pairing and scoring are the
// pure package pairing's, and this one only reads and writes what they
// need.
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
	s, _ := pairing.ParseSystem(st.T.System)
	return s
}

// system is the entry of st's system in the table of systems.
func (st *State) system() system { return systemOf(st.T) }

// systemOf is the entry of t's system; a round robin's for a system this
// program does not know (the store's check allows none).
func systemOf(t db.Tournament) system {
	s, _ := pairing.ParseSystem(t.System)
	if sys, ok := systems[s]; ok {
		return sys
	}
	return roundRobin{}
}

// A system runs one kind of tournament over the store. Each kind's file
// (roundrobin.go, swiss.go, ladder.go, knockout.go) defines one, and
// systems holds them: the moments every tournament has (its start, a
// game's end, a withdrawal) call it. What is a kind's own, such as a
// ladder's challenges, its file exports besides.
type system interface {
	// start begins the play of st, a tournament with its players that
	// is now running in its round 1: its first games.
	start(ctx context.Context, tx *db.Tx, st *State, now time.Time) ([]Event, error)
	// gameEnded moves on t, running, after its game g ended.
	gameEnded(ctx context.Context, tx *db.Tx, t db.Tournament, g db.Game, now time.Time) ([]Event, error)
	// withdrawn takes p, who has just withdrawn from st, out of its
	// play. Their games in progress are lost already; their ends come
	// to gameEnded after.
	withdrawn(ctx context.Context, tx *db.Tx, st *State, p db.TournamentPlayer) error
}

// A continuous system's tournaments run from their creation, without a
// start: players join them and leave them at any time (a ladder).
type continuous interface {
	system
	// join puts p, who is not in st, in it.
	join(ctx context.Context, tx *db.Tx, st *State, p db.Player, now time.Time) error
}

// systems are the systems of tournament, each filled in by its file.
var systems = map[pairing.System]system{
	pairing.RoundRobin: roundRobin{},
	pairing.Swiss:      swiss{},
	pairing.Ladder:     ladder{},
	pairing.Knockout:   knockout{},
}

// Continuous reports whether st runs from its creation, without a start,
// players joining and leaving at any time: a ladder (M73).
func (st *State) Continuous() bool {
	_, ok := st.system().(continuous)
	return ok
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
// Swiss's and a knockout's up to the round being played, all of a round
// robin's; a ladder has none.
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
		rounds[g.Round-1].Games = append(rounds[g.Round-1].Games, st.game(g))
	}
	for r, p := range st.Byes {
		if r >= 1 && r <= len(rounds) {
			rounds[r-1].Bye = st.Handle(p)
		}
	}
	return rounds
}

// game is g as pairing and scoring see it.
func (st *State) game(g db.Game) pairing.Game {
	r := pairing.Unfinished
	if g.Status == db.Finished {
		r = map[db.Result]pairing.Result{db.WhiteWins: pairing.WhiteWon, db.BlackWins: pairing.BlackWon, db.Draw: pairing.Drawn}[g.Result]
	}
	return pairing.Game{White: st.Handle(g.White), Black: st.Handle(g.Black), Result: r}
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

// Spec is what a new tournament is to be (M33, M73, M74).
type Spec struct {
	Name    string
	System  pairing.System
	Rounds  int // of a Swiss; 0 for the default at the start
	Double  bool
	Games   int // of a knockout's match; 0 for pairing.DefaultMatchGames
	Control parser.TimeControl
	Unrated bool
	// Pauses lets its games be paused by agreement (M63); NoVacation
	// has vacations not stop their clocks (M67).
	Pauses     bool
	NoVacation bool
}

// New creates a tournament directed by director, who is its first
// player: open for joining, or, for a ladder, running at once with them
// at its top.
func New(ctx context.Context, tx *db.Tx, director db.Player, spec Spec, now time.Time) (State, error) {
	tc := spec.Control
	if tc.Days == 0 {
		tc = game.DefaultControl
	}
	t := db.Tournament{Name: spec.Name, System: spec.System.String(), Director: director.ID,
		Rounds: spec.Rounds, Double: spec.Double, TimeControl: tc.String(), Rated: !spec.Unrated,
		Pauses: spec.Pauses, NoVacation: spec.NoVacation}
	if spec.System == pairing.Knockout {
		t.Games = cmp.Or(spec.Games, pairing.DefaultMatchGames)
	}
	sys, ok := systems[spec.System]
	if !ok {
		return State{}, fmt.Errorf("new tournament: no system %v", spec.System)
	}
	c, running := sys.(continuous)
	if running {
		t.Status = db.TournamentRunning
	}
	t, err := tx.AddTournament(ctx, t, now)
	if err != nil {
		return State{}, err
	}
	st, err := Load(ctx, tx, t.ID)
	if err != nil {
		return State{}, err
	}
	if running {
		err = c.join(ctx, tx, &st, director, now)
	} else {
		err = tx.AddTournamentPlayer(ctx, t.ID, director.ID, now)
	}
	if err != nil {
		return State{}, err
	}
	return st, reload(ctx, tx, &st)
}

// Join adds player to a tournament open for joining, or to a ladder.
func Join(ctx context.Context, tx *db.Tx, st *State, player db.Player, now time.Time) error {
	c, running := st.system().(continuous)
	switch p, in := st.Player(player.ID); {
	case running && in && p.Withdrawn.IsZero():
		return &Refusal{Problem: Joined}
	case running && st.T.Status == db.TournamentRunning && !st.T.Closed.IsZero():
		return &Refusal{Problem: Closed}
	case running && st.T.Status == db.TournamentRunning:
		if err := c.join(ctx, tx, st, player, now); err != nil {
			return err
		}
		return reload(ctx, tx, st)
	case st.T.Status != db.TournamentOpen:
		return &Refusal{Problem: NotOpen}
	case in:
		return &Refusal{Problem: Joined}
	}
	if err := tx.AddTournamentPlayer(ctx, st.T.ID, player.ID, now); err != nil {
		return err
	}
	return reload(ctx, tx, st)
}

// Leave takes player out of an open tournament: they are no longer in
// it. After the start, and on a ladder, see Withdraw.
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
// pairs them no further, a knockout's match is lost, a ladder's places
// below theirs move up. It returns the events of the games that ended;
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
	if err := st.system().withdrawn(ctx, tx, st, p); err != nil {
		return nil, err
	}
	return evs, reload(ctx, tx, st)
}

// Start begins an open tournament, by its director: a round robin's games
// all at once (M35), a Swiss's first round (M36), a knockout's (M74). A
// ladder has no start: it runs from its creation (M73).
func Start(ctx context.Context, tx *db.Tx, st *State, now time.Time) ([]Event, error) {
	switch {
	case st.Continuous():
		return nil, &Refusal{Problem: Continuous}
	case st.T.Status != db.TournamentOpen:
		return nil, &Refusal{Problem: NotOpen}
	case len(st.Players) < MinPlayers:
		return nil, &Refusal{Problem: TooFew, Players: len(st.Players)}
	}
	st.T.Status, st.T.Round = db.TournamentRunning, 1
	return st.system().start(ctx, tx, st, now)
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

// byHandle are the players of st by handle.
func (st *State) byHandle() map[string]db.Player {
	out := make(map[string]db.Player, len(st.Players))
	for _, tp := range st.Players {
		out[tp.Handle] = tp.Player
	}
	return out
}

// Cancel calls off a tournament that has not started.
func Cancel(ctx context.Context, tx *db.Tx, st *State, now time.Time) ([]Event, error) {
	switch {
	case st.Continuous():
		return nil, &Refusal{Problem: Continuous}
	case st.T.Status != db.TournamentOpen:
		return nil, &Refusal{Problem: NotOpen}
	}
	st.T.Status = db.TournamentCancelled
	if err := tx.SetTournament(ctx, st.T, now); err != nil {
		return nil, err
	}
	return []Event{{Kind: Cancelled, T: *st}}, nil
}

// GameEnded moves on the tournament of a game that just ended, if any,
// as its system says: a round's standings, the next round, a ladder's
// places, the end.
func GameEnded(ctx context.Context, tx *db.Tx, g db.Game, now time.Time) ([]Event, error) {
	if g.Tournament == 0 {
		return nil, nil
	}
	t, err := tx.Tournament(ctx, g.Tournament)
	if err != nil || t.Status != db.TournamentRunning {
		return nil, err
	}
	return systemOf(t).gameEnded(ctx, tx, t, g, now)
}

// roundEnded reports, for a tournament whose game g just ended, whether
// it was the last of its round to end, and whether it was the last of
// all.
func roundEnded(st *State, g db.Game) (round, all bool) {
	round, all = true, true
	for _, o := range st.Games {
		if o.Status == db.Active {
			all = false
			round = round && o.Round != g.Round
		}
	}
	return round, all
}

// finish ends st, every game played: the final standings.
func finish(ctx context.Context, tx *db.Tx, st *State, round int, now time.Time) ([]Event, error) {
	st.T.Status = db.TournamentOver
	if err := tx.SetTournament(ctx, st.T, now); err != nil {
		return nil, err
	}
	return []Event{{Kind: Finished, T: *st, Round: round}}, nil
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
