package engine

import (
	"fmt"
	"time"
)

// Level is how strongly the engine plays: how far it searches, and how
// much noise blurs its judgement.
type Level struct {
	Depth int           // the deepest iteration; 0 for no limit but Nodes and Time
	Nodes int64         // the nodes a move may take
	Time  time.Duration // the longest a move may take, whatever Nodes says
	Noise int           // Options.Noise
}

// Levels 1 to 5 (index 0 is unused). Depth and Nodes decide, so that a
// level plays the same moves on every machine; Time (SafetyTime) only
// protects a machine so slow or so loaded that it would take far longer
// than usual. A search it stops ends with StopDeadline.
var levels = [6]Level{
	1: {Depth: 1, Nodes: 5_000, Time: SafetyTime, Noise: 60},
	2: {Depth: 2, Nodes: 20_000, Time: SafetyTime, Noise: 25},
	3: {Depth: 3, Nodes: 50_000, Time: SafetyTime, Noise: 10},
	4: {Depth: 5, Nodes: 200_000, Time: SafetyTime},
	5: {Nodes: 1_500_000, Time: SafetyTime},
}

// TablesLevel is the least level that plays by the endgame tables, when
// it has them (Options.Tables, M77): levels 4 and 5.
const TablesLevel = 4

// SafetyTime is the time cap of every level: about ten times what level 5
// takes for a move on a loaded 2-core machine.
const SafetyTime = 10 * time.Second

// MinLevel and MaxLevel bound the levels.
const (
	MinLevel = 1
	MaxLevel = 5
)

// LevelOf returns level n, MinLevel to MaxLevel.
func LevelOf(n int) (Level, error) {
	if n < MinLevel || n > MaxLevel {
		return Level{}, fmt.Errorf("level %d: want %d to %d", n, MinLevel, MaxLevel)
	}
	return levels[n], nil
}

// Limits returns the search limits of l for a move started at now.
func (l Level) Limits(now time.Time) Limits {
	lim := Limits{Depth: l.Depth, Nodes: l.Nodes}
	if l.Time > 0 {
		lim.Deadline = now.Add(l.Time)
	}
	return lim
}

// The resignation rule: from level 2 up, the engine resigns when its score
// has been at most -ResignScore after each of its last ResignMoves moves:
// the position is lost beyond doubt, and playing on only wastes the
// opponent's time.
const (
	ResignScore = 1200
	ResignMoves = 3
)

// Hopeless reports whether an engine playing at level should resign, given
// the scores of its searches in this game, the latest last, each from its
// own view.
func Hopeless(level int, scores []int) bool {
	if level < 2 || len(scores) < ResignMoves {
		return false
	}
	for _, s := range scores[len(scores)-ResignMoves:] {
		if s > -ResignScore {
			return false
		}
	}
	return true
}
