package engine

import (
	"math/bits"

	"github.com/congobymail/congo/rules"
)

// Repetitions. R19 has no repetition draw for players, but a game that
// goes round in a cycle never ends: the search scores a position that
// occurred before, in the game or on its own path, as a draw, so that the
// side that stands better leaves the cycle and the side that stands worse
// looks for one.
const (
	// AheadScore is how much better a side must stand, at least, to count
	// as ahead: it then scores a draw by repetition as Contempt worse than
	// 0, and the side behind as Contempt better.
	AheadScore = 100
	// Contempt is what a draw by repetition costs the side that is ahead,
	// and brings the side behind; it is less than AheadScore, so that a
	// search that expects a repetition never says its side is ahead.
	Contempt = 50
)

// pieces returns the number of pieces on the board of p. It never grows
// in a game (a capture or a drowning lowers it, a promotion keeps it), so
// only positions with as many pieces can repeat.
func pieces(p *rules.Position) int {
	return bits.OnesCount64(p.Occupied(rules.White) | p.Occupied(rules.Black))
}

// startRepetitions prepares the repetition keys for a search of root after
// the game's positions before. The draw score depends on how the side to
// move stands, by a quiescence search of root.
func (e *Engine) startRepetitions(root *rules.Position, before []rules.Position) {
	n := pieces(root)
	first := len(before)
	for first > 0 && pieces(&before[first-1]) == n {
		first--
	}
	tail := before[first:]
	if len(tail) > 0 && tail[len(tail)-1].Hash() == root.Hash() && tail[len(tail)-1].Turn() == root.Turn() {
		tail = tail[:len(tail)-1] // before should not hold root, but did
	}
	if cap(e.keys) < len(tail)+MaxPly+1 {
		e.keys = make([]uint64, len(tail)+MaxPly+1)
	}
	e.keys = e.keys[:len(tail)+MaxPly+1]
	for i := range tail {
		e.keys[i] = tail[i].Hash()
	}
	e.base = len(tail)
	e.keys[e.base] = root.Hash()
	e.from[0] = 0
	e.draw = 0
	e.stack[0] = *root
	switch s := e.quiesce(&e.stack[0], 0, -infinity, infinity, 0); {
	case s >= AheadScore:
		e.draw = -Contempt
	case s <= -AheadScore:
		e.draw = Contempt
	}
}

// repeated reports whether p, the node at ply > 0 of the search path,
// occurred before in the game or on the path; it records p's key for the
// nodes below.
func (e *Engine) repeated(p *rules.Position, ply int) bool {
	i := e.base + ply
	key := p.Hash()
	e.keys[i] = key
	if pieces(p) != pieces(&e.stack[ply-1]) {
		e.from[ply] = i
		return false
	}
	e.from[ply] = e.from[ply-1]
	// The side to move alternates, and is part of the key: look at every
	// other position only.
	for j := i - 2; j >= e.from[ply]; j -= 2 {
		if e.keys[j] == key {
			return true
		}
	}
	return false
}

// drawScore is the score of a repetition for the side to move in p.
func (e *Engine) drawScore(p *rules.Position) int {
	if p.Turn() == e.rootSide {
		return e.draw
	}
	return -e.draw
}

// Repetitions returns how many times the position that occurs most often
// in positions occurs there: the same pieces on the same squares with the
// same side to move, whatever the move number. A game's tools (congo
// match, the robot's answer to a draw offer) call a position that occurred
// three times a draw; the rules do not (R19).
func Repetitions(positions []rules.Position) int {
	most := 0
	seen := make(map[uint64]int, len(positions))
	for i := range positions {
		k := positions[i].Hash()
		seen[k]++
		most = max(most, seen[k])
	}
	return most
}
