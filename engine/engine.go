// Package engine plays Congo: an alpha-beta search over the rules package
// that picks a move and judges a position.
package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/tablebase"
)

// Scores are in hundredths of a pawn, from the view of the side to move.
// Capturing the enemy lion (R15) or leaving the enemy no legal move (R16)
// wins: a win in n plies scores Mate-n, a loss in n plies -(Mate-n).
const (
	Mate = 30000
	// MateBound is the least score that means a win found by the search
	// or by the endgame tables, whose wins may lie further than MaxPly.
	MateBound = Mate - MaxMatePlies
	// MaxPly is the deepest the search goes below the root.
	MaxPly = 64
	// MaxMatePlies is the furthest end a score can say: MaxPly below the
	// root, and then what the endgame tables say (at most 253 plies).
	MaxMatePlies = 1024
)

// MatePlies returns the plies to the end of the game for a mate score: n > 0
// when the side to move wins on its n-th ply from now, n < 0 when it loses
// on ply -n; ok is false for scores that are no mate.
func MatePlies(score int) (n int, ok bool) {
	switch {
	case score >= MateBound:
		return Mate - score, true
	case score <= -MateBound:
		return -(Mate + score), true
	}
	return 0, false
}

// Limits bound a search. The zero value searches until a win or a loss is
// certain or MaxPly is reached, which may take very long. Depth and Nodes give the same result on
// every run; Deadline does not, since it depends on the machine.
type Limits struct {
	Depth    int       // the deepest iteration, in plies; 0 for no limit
	Nodes    int64     // stop after about this many nodes; 0 for no limit
	Deadline time.Time // stop at this time (see Options.Now); zero for none
}

// Options configure an Engine.
type Options struct {
	// TTBits sets the size of the transposition table: 1<<TTBits entries of
	// 56 bytes. 0 means DefaultTTBits.
	TTBits int
	// Seed varies the choice among moves of equal score, and the noise of
	// Noise; the same seed and limits give the same move.
	Seed uint64
	// Noise adds up to this many hundredths of a pawn, either way, to every
	// evaluation, fixed per position and seed: weaker, more varied play.
	Noise int
	// Weights are the terms of the evaluation; nil means DefaultWeights.
	Weights *Weights
	// Now reads the clock for Limits.Deadline; nil means time.Now.
	Now func() time.Time
	// Tables, when set, are endgame tables: a position they hold is
	// scored by them, exactly, wherever the search meets it, and a root
	// they hold is played by them (Result.Tables).
	Tables Tables
}

// Tables are endgame tables (package tablebase): the exact value of
// every position with few pieces.
type Tables interface {
	// Probe returns the value of p for the side to move, or Unknown.
	Probe(p rules.Position) tablebase.Value
	// MaxPieces is the most pieces besides the lions of a position
	// Probe may know.
	MaxPieces() int
}

// DefaultTTBits is the transposition table size when Options.TTBits is 0:
// 1<<18 entries, 14 MiB.
const DefaultTTBits = 18

// Result is what a search found.
type Result struct {
	Move  rules.Move   // the best move found
	Score int          // its score, from the view of the side to move
	Depth int          // the last iteration completed
	Nodes int64        // positions visited
	PV    []rules.Move // the principal variation, starting with Move
	Stop  Stop         // what ended the search
	// Tables is set when the root is in the endgame tables: Move and PV
	// are theirs, and Score is exact (0 for a draw).
	Tables bool
}

// Stop says what ended a search. The zero value, StopNone, is a search
// that ended by itself: its depth limit, a certain result, or MaxPly.
type Stop uint8

// The ends of a search.
const (
	StopNone     Stop = iota
	StopNodes         // Limits.Nodes was reached
	StopDeadline      // Limits.Deadline passed: the result depends on the machine
	StopContext       // ctx ended
)

func (s Stop) String() string {
	switch s {
	case StopNone:
		return "none"
	case StopNodes:
		return "nodes"
	case StopDeadline:
		return "deadline"
	case StopContext:
		return "context"
	}
	return fmt.Sprintf("Stop(%d)", uint8(s))
}

// Engine searches positions. It keeps its transposition table and move
// ordering statistics from one search to the next, so that the moves of one
// game help each other; Reset forgets them. An Engine is not safe for use
// by several goroutines at once.
type Engine struct {
	opts    Options
	weights Weights
	// tableMen is the most men (pieces, lions included) of a position
	// the tables may hold; 0 without tables.
	tableMen int
	tt       []ttEntry
	mask     uint64

	// Per search.
	nodes    int64
	limits   Limits
	ctx      context.Context
	stopped  bool
	why      Stop
	rootSide rules.Color

	// Repetitions (repeat.go): the keys of the game's positions since
	// the piece count last changed, then those of the search path, the
	// root's at keys[base]; from[ply] is where the positions with the
	// piece count of the node at ply begin in keys; draw is the score of
	// a repetition for the side to move at the root.
	keys []uint64
	base int
	from [MaxPly + 1]int
	draw int

	stack   [MaxPly + 1]rules.Position // the position at each ply
	killers [MaxPly + 1][2]rules.Move
	history [2][49][49]int32
	pv      [MaxPly + 1][MaxPly + 1]rules.Move
	pvLen   [MaxPly + 1]int
	moves   [MaxPly + 1][]rules.Move
	scores  [MaxPly + 1][]int32
}

// New returns an Engine with the options o.
func New(o Options) *Engine {
	if o.TTBits <= 0 {
		o.TTBits = DefaultTTBits
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	e := &Engine{opts: o, weights: defaultWeights}
	if o.Tables != nil {
		e.tableMen = 2 + o.Tables.MaxPieces()
	}
	if o.Weights != nil {
		e.weights = *o.Weights
	}
	e.tt = make([]ttEntry, 1<<o.TTBits)
	e.mask = 1<<o.TTBits - 1
	for i := range e.moves {
		e.moves[i] = make([]rules.Move, 0, 128)
		e.scores[i] = make([]int32, 0, 128)
	}
	return e
}

// Reset forgets everything learnt in earlier searches: the engine then
// plays as a new one with the same options.
func (e *Engine) Reset() {
	clear(e.tt)
	e.history = [2][49][49]int32{}
	e.killers = [MaxPly + 1][2]rules.Move{}
}
