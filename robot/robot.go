// Package robot decides the moves of the computer player that anyone can
// challenge by mail: which move to play at a level, and when to resign.
package robot

import (
	"context"
	"fmt"

	"github.com/congobymail/congo/engine"
	"github.com/congobymail/congo/rules"
)

// DefaultHandle is the robot's player name unless configured otherwise.
const DefaultHandle = "robot"

// DefaultLevel is the level of a challenge that names none.
const DefaultLevel = 3

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
}

// Choose decides the robot's turn in p, which must not be over, playing at
// level (engine.MinLevel to engine.MaxLevel). seed varies its choice among
// equal moves: derive it from the game (Seed) so that a game can be
// replayed. scores holds the Decision.Score of the robot's earlier moves in
// this game, oldest first, for the resignation rule (engine.Hopeless).
//
// The search stops at the level's node limit, or at its time limit (a few
// seconds at most), or when ctx ends: Choose then still returns the best
// move found. With the same arguments Choose returns the same Decision,
// unless a time limit or ctx cuts the search short.
func Choose(ctx context.Context, p rules.Position, level int, seed uint64, scores []int) (Decision, error) {
	l, err := engine.LevelOf(level)
	if err != nil {
		return Decision{}, err
	}
	if o := p.Outcome(); o.Over() {
		return Decision{}, fmt.Errorf("robot: %w (%s)", rules.ErrGameOver, o)
	}
	ctx, cancel := context.WithTimeout(ctx, l.Time)
	defer cancel()
	e := engine.New(engine.Options{TTBits: ttBits, Seed: seed, Noise: l.Noise})
	r := e.Search(ctx, p, engine.Limits{Depth: l.Depth, Nodes: l.Nodes})
	d := Decision{Move: r.Move, Score: r.Score, Depth: r.Depth, Nodes: r.Nodes}
	all := append(append(make([]int, 0, len(scores)+1), scores...), r.Score)
	if engine.Hopeless(level, all) {
		d.Move, d.Resign = rules.Move{}, true
	}
	return d, nil
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
