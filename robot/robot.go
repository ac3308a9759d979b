// Package robot decides the moves of the computer player that anyone can
// challenge by mail: which move to play at a level, and when to resign.
package robot

import (
	"context"
	"fmt"
	"time"

	"github.com/congobymail/congo/engine"
	"github.com/congobymail/congo/rules"
)

// DefaultLevel is the level of a challenge that names none.
const DefaultLevel = 3

// noTimeCap, set by tests alone, leaves the node limit to decide every
// search: a test machine loaded by others' tests may take longer than
// the cap, which protects a machine in use, not a test's meaning.
var noTimeCap bool

// ttBits sizes the robot's transposition table: 1<<17 entries, 7 MiB,
// enough for the nodes of level 5.
const ttBits = 17

// Decision is what the robot does on its turn.
type Decision struct {
	Move   rules.Move // the move to play; the zero Move when resigning
	Resign bool       // the game is hopeless: resign rather than move
	Score  int        // the search's score, for the robot; keep it for the next Choose
	Depth  int        // the depth searched
	Nodes  int64      // positions searched
	// TimedOut is set when the level's time cap (engine.SafetyTime)
	// stopped the search before its node limit: the move may then differ
	// from machine to machine. It should not happen; count it and log it.
	TimedOut bool
	// Tables is set when the endgame tables chose the move
	// (ChooseWithTables).
	Tables bool
}

// Choose decides the robot's turn in p, which must not be over, playing at
// level (engine.MinLevel to engine.MaxLevel). seed varies its choice among
// equal moves: derive it from the game (Seed) so that a game can be
// replayed. scores holds the Decision.Score of the robot's earlier moves in
// this game, oldest first, for the resignation rule (engine.Hopeless).
//
// Choose does not know the game's earlier positions, so it may repeat
// them for ever: ChooseInGame does.
func Choose(ctx context.Context, p rules.Position, level int, seed uint64, scores []int) (Decision, error) {
	return ChooseInGame(ctx, p, level, seed, scores, nil)
}

// ChooseInGame is Choose knowing the game's positions before p, oldest
// first, from the start, p not among them (History gives them from the
// moves): a move back to one of them scores as a draw, which the robot
// avoids when it is ahead and looks for when it is behind
// (engine.SearchGame).
//
// The level's node limit decides the move, so that a level plays the same
// on every machine; the time cap engine.SafetyTime only protects a machine
// far too slow or loaded (Decision.TimedOut says when it bit), and ctx may
// end the search too: ChooseInGame then still returns the best move found.
// With the same arguments it returns the same Decision, unless the time
// cap or ctx cuts the search short.
func ChooseInGame(ctx context.Context, p rules.Position, level int, seed uint64, scores []int, before []rules.Position) (Decision, error) {
	return ChooseWithTables(ctx, nil, p, level, seed, scores, before)
}

// ChooseWithTables is ChooseInGame with endgame tables (nil for none),
// which levels engine.TablesLevel and up use (M77): a position they hold is
// played by them, a won one won in exactly its N moves, a lost one
// defended as long as it lasts, without resigning (Decision.Tables); and
// the search scores every position it meets there exactly.
func ChooseWithTables(ctx context.Context, tables engine.Tables, p rules.Position, level int, seed uint64, scores []int, before []rules.Position) (Decision, error) {
	l, err := engine.LevelOf(level)
	if err != nil {
		return Decision{}, err
	}
	if o := p.Outcome(); o.Over() {
		return Decision{}, fmt.Errorf("robot: %w (%s)", rules.ErrGameOver, o)
	}
	opts := engine.Options{TTBits: ttBits, Seed: seed, Noise: l.Noise}
	if level >= engine.TablesLevel {
		opts.Tables = tables
	}
	e := engine.New(opts)
	lim := l.Limits(time.Now())
	if noTimeCap {
		lim.Deadline = time.Time{}
	}
	r := e.SearchGame(ctx, before, p, lim)
	d := Decision{Move: r.Move, Score: r.Score, Depth: r.Depth, Nodes: r.Nodes, TimedOut: r.Stop == engine.StopDeadline, Tables: r.Tables}
	all := append(append(make([]int, 0, len(scores)+1), scores...), r.Score)
	if !r.Tables && engine.Hopeless(level, all) {
		d.Move, d.Resign = rules.Move{}, true
	}
	return d, nil
}

// History returns the positions of a game that began at start (the
// start of every game, or a position of M72) before each of its moves,
// in R20 notation: start first, the one before the last move last. The
// position after the last move is not among them.
func History(start rules.Position, moves []string) ([]rules.Position, error) {
	p := start
	before := make([]rules.Position, 0, len(moves))
	for i, text := range moves {
		next, _, err := p.Play(text)
		if err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
		before = append(before, p)
		p = next
	}
	return before, nil
}

// Draw offers. The robot accepts a draw offer when its last search
// scored its position at DrawScore or worse (clearly lost, short of
// hopeless: engine.ResignScore is 1200), or when a position of the game
// has occurred three times and the robot is not ahead (its last score is
// below engine.AheadScore): then the game goes round in a cycle that it
// has no reason to leave. R19 has no repetition draw: the robot only
// agrees to one.
const (
	DrawScore       = -600
	DrawRepetitions = 3
)

// AcceptsDraw reports whether the robot accepts a draw offer in p, after
// the game's positions before (as for ChooseInGame). scores are the
// Decision.Score of the robot's moves in the game, oldest first; with none
// the robot counts as level.
func AcceptsDraw(p rules.Position, before []rules.Position, scores []int) bool {
	last := 0
	if len(scores) > 0 {
		last = scores[len(scores)-1]
	}
	if last <= DrawScore {
		return true
	}
	all := append(append(make([]rules.Position, 0, len(before)+1), before...), p)
	return last < engine.AheadScore && engine.Repetitions(all) >= DrawRepetitions
}

// Seed returns the seed for the robot's move at ply in the game with the
// given id: the same for the same game and ply, different from game to
// game.
func Seed(gameID int64, ply int) uint64 {
	z := uint64(gameID)*0x9e3779b97f4a7c15 + uint64(ply)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
