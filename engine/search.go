package engine

import (
	"context"
	"math/bits"
	"math/rand/v2"

	"github.com/congobymail/congo/rules"
)

// Transposition table entry bounds.
const (
	boundExact uint8 = iota + 1
	boundLower       // the score is at least this
	boundUpper       // the score is at most this
)

type ttEntry struct {
	key   uint64
	move  rules.Move
	score int32
	depth int8
	bound uint8
}

// infinity is beyond every score.
const infinity = Mate + 1

// maxQuiesce bounds how deep the quiescence search answers threats to the
// lion with every move rather than captures only.
const maxQuiesce = 4

// Search returns the best move in p found within lim, with its score and
// principal variation. The game must not be over in p: Search returns a
// zero Result then. With the same options, a new Engine (or one just
// Reset) gives the same Result for the same p and lim, unless lim has a
// Deadline or ctx ends the search first (Result.Stop says so); then the
// best move of the deepest iteration done is returned.
//
// Search knows only the positions of its own path: one that recurs there
// is a draw (see AheadScore). SearchGame knows the game's too.
func (e *Engine) Search(ctx context.Context, p rules.Position, lim Limits) Result {
	return e.SearchGame(ctx, nil, p, lim)
}

// SearchGame is Search in a game where the positions before came before
// p, oldest first (p itself not among them): a move to a position that
// occurred before, in the game or on the search's path, scores as a draw,
// with contempt: worse than 0 for a side that is ahead by AheadScore or
// more, better for the side behind. Only the positions since the last
// capture or drowning matter; before may hold the whole game.
func (e *Engine) SearchGame(ctx context.Context, before []rules.Position, p rules.Position, lim Limits) Result {
	e.nodes, e.limits, e.ctx, e.stopped, e.why = 0, lim, ctx, false, StopNone
	e.rootSide = p.Turn()
	root := p.AppendLegal(nil)
	if len(root) == 0 {
		return Result{}
	}
	if r, ok := e.tableRoot(&p, root); ok {
		return r
	}
	e.startRepetitions(&p, before)
	// Vary the order of equal moves by seed; the ordering below is stable.
	rng := rand.New(rand.NewPCG(e.opts.Seed, p.Hash()))
	rng.Shuffle(len(root), func(i, j int) { root[i], root[j] = root[j], root[i] })
	scores := make([]int32, len(root))
	e.scoreMoves(&p, root, scores, rules.Move{}, 0)
	sortMoves(root, scores)
	for c := range e.history {
		for f := range e.history[c] {
			for t := range e.history[c][f] {
				e.history[c][f][t] /= 8
			}
		}
	}
	maxDepth := lim.Depth
	if maxDepth <= 0 || maxDepth > MaxPly-8 {
		maxDepth = MaxPly - 8
	}
	best := Result{Move: root[0], PV: []rules.Move{root[0]}}
	for depth := 1; depth <= maxDepth; depth++ {
		score, ok := e.searchRoot(&p, root, depth)
		if !ok {
			break
		}
		best.Move, best.Score, best.Depth = root[0], score, depth
		best.PV = append(best.PV[:0], e.pv[0][:e.pvLen[0]]...)
		if e.stopped {
			break
		}
		if n, mate := MatePlies(score); mate && abs(n) <= depth {
			break // nothing deeper can change a certain end
		}
	}
	best.Nodes, best.Stop = e.nodes, e.why
	if len(best.PV) == 0 || best.PV[0] != best.Move {
		best.PV = []rules.Move{best.Move}
	}
	return best
}

// searchRoot searches the root moves to depth, moving the best to the
// front. It reports false when the search stopped before any move got a
// score at this depth.
func (e *Engine) searchRoot(p *rules.Position, root []rules.Move, depth int) (int, bool) {
	alpha, beta := -infinity, infinity
	bestIdx := -1
	e.pvLen[0] = 0
	for i := range root {
		child := &e.stack[1]
		*child = p.After(root[i])
		var score int
		if i == 0 {
			score = -e.search(child, depth-1, 1, -beta, -alpha, true)
		} else {
			score = -e.search(child, depth-1, 1, -alpha-1, -alpha, false)
			if score > alpha && !e.stopped {
				score = -e.search(child, depth-1, 1, -beta, -alpha, true)
			}
		}
		if e.stopped {
			break
		}
		if score > alpha {
			alpha, bestIdx = score, i
			e.updatePV(0, root[i])
		}
	}
	if bestIdx < 0 {
		return 0, false
	}
	m := root[bestIdx]
	copy(root[1:bestIdx+1], root[:bestIdx])
	root[0] = m
	return alpha, true
}

// updatePV sets the principal variation at ply to m followed by the one
// found at ply+1.
func (e *Engine) updatePV(ply int, m rules.Move) {
	e.pv[ply][ply] = m
	n := e.pvLen[ply+1]
	if n < ply+1 {
		n = ply + 1
	}
	copy(e.pv[ply][ply+1:n], e.pv[ply+1][ply+1:n])
	e.pvLen[ply] = n
}

// stop reports whether a limit is reached, checking the clock and ctx
// every 1024 nodes.
func (e *Engine) stop() bool {
	if e.stopped {
		return true
	}
	if e.limits.Nodes > 0 && e.nodes >= e.limits.Nodes {
		e.stopped, e.why = true, StopNodes
	} else if e.nodes&1023 == 0 {
		if !e.limits.Deadline.IsZero() && !e.opts.Now().Before(e.limits.Deadline) {
			e.stopped, e.why = true, StopDeadline
		} else if e.ctx != nil && e.ctx.Err() != nil {
			e.stopped, e.why = true, StopContext
		}
	}
	return e.stopped
}

// eval returns the static score of p with the engine's noise.
func (e *Engine) eval(p *rules.Position) int {
	s := evaluate(p, &e.weights)
	if n := e.opts.Noise; n > 0 {
		h := mix(p.Hash() ^ e.opts.Seed)
		s += int(h%uint64(2*n+1)) - n
	}
	return s
}

func mix(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// terminal reports the score of p when the game is decided before looking
// at its moves: its lion is gone (R15), or only the lions are left (R17).
func terminal(p *rules.Position, ply int) (int, bool) {
	us := p.Turn()
	if p.Lion(us) == rules.NoSquare {
		return -Mate + ply, true
	}
	if bits.OnesCount64(p.Occupied(rules.White)|p.Occupied(rules.Black)) == 2 {
		if p.Attacks(us, p.Lion(us^1)) {
			return Mate - ply - 1, true
		}
		return 0, true
	}
	return 0, false
}

func (e *Engine) search(p *rules.Position, depth, ply, alpha, beta int, pvNode bool) int {
	e.pvLen[ply] = ply
	if s, ok := terminal(p, ply); ok {
		return s
	}
	if s, ok := e.probe(p, ply); ok {
		e.nodes++
		return s
	}
	if e.repeated(p, ply) {
		return e.drawScore(p)
	}
	us := p.Turn()
	inCheck := p.Attacks(us^1, p.Lion(us))
	if inCheck && ply < 2*MaxPly/3 {
		depth++
	}
	if depth <= 0 || ply >= MaxPly-1 {
		return e.quiesce(p, ply, alpha, beta, 0)
	}
	e.nodes++
	if e.stop() {
		return 0
	}
	// Mate distance: no win here is quicker than capturing the lion now.
	alpha = max(alpha, -Mate+ply)
	beta = min(beta, Mate-ply-1)
	if alpha >= beta {
		return alpha
	}
	key := p.Hash()
	ent := &e.tt[key&e.mask]
	var ttMove rules.Move
	if ent.key == key {
		ttMove = ent.move
		if int(ent.depth) >= depth && !pvNode {
			s := fromTT(int(ent.score), ply)
			switch {
			case ent.bound == boundExact,
				ent.bound == boundLower && s >= beta,
				ent.bound == boundUpper && s <= alpha:
				return s
			}
		}
	}
	// Reverse futility: far above beta near the leaves, with nothing
	// threatened, a quiet move will not lose it all.
	if !pvNode && !inCheck && depth <= 2 && abs(beta) < MateBound {
		if s := e.eval(p); s-150*depth >= beta {
			return s
		}
	}

	moves := p.AppendLegal(e.moves[ply][:0])
	e.moves[ply] = moves
	if len(moves) == 0 {
		return -Mate + ply // R16
	}
	scores := e.scores[ply][:0]
	for range moves {
		scores = append(scores, 0)
	}
	e.scores[ply] = scores
	e.scoreMoves(p, moves, scores, ttMove, ply)

	origAlpha := alpha
	best, bestMove := -infinity, rules.Move{}
	for i := range moves {
		pickMove(moves, scores, i)
		m := moves[i]
		quiet := !m.IsCapture()
		child := &e.stack[ply+1]
		*child = p.After(m)
		var score int
		if i == 0 {
			score = -e.search(child, depth-1, ply+1, -beta, -alpha, pvNode)
		} else {
			r := 0
			if depth >= 3 && i >= 3 && quiet && !inCheck && scores[i] < killerScore {
				r = 1
				if i >= 8 && depth >= 5 {
					r = 2
				}
			}
			score = -e.search(child, depth-1-r, ply+1, -alpha-1, -alpha, false)
			if score > alpha && r > 0 && !e.stopped {
				score = -e.search(child, depth-1, ply+1, -alpha-1, -alpha, false)
			}
			if score > alpha && score < beta && pvNode && !e.stopped {
				score = -e.search(child, depth-1, ply+1, -beta, -alpha, true)
			}
		}
		if e.stopped {
			return 0
		}
		if score > best {
			best, bestMove = score, m
			if score > alpha {
				alpha = score
				e.updatePV(ply, m)
				if score >= beta {
					if quiet {
						e.rememberCutoff(p, m, ply, depth)
					}
					break
				}
			}
		}
	}
	bound := boundExact
	switch {
	case best >= beta:
		bound = boundLower
	case best <= origAlpha:
		bound = boundUpper
	}
	*ent = ttEntry{key: key, move: bestMove, score: int32(toTT(best, ply)), depth: int8(depth), bound: bound}
	return best
}

// quiesce searches captures only, until the position is quiet, so that the
// evaluation is not taken in the middle of an exchange. When the lion of
// the side to move is attacked, every move is tried, qdepth plies deep at
// most.
func (e *Engine) quiesce(p *rules.Position, ply, alpha, beta, qdepth int) int {
	e.pvLen[ply] = ply
	if s, ok := terminal(p, ply); ok {
		return s
	}
	if s, ok := e.probe(p, ply); ok {
		e.nodes++
		return s
	}
	e.nodes++
	if e.stop() {
		return 0
	}
	if ply >= MaxPly-1 {
		return e.eval(p)
	}
	us := p.Turn()
	evade := qdepth < maxQuiesce && p.Attacks(us^1, p.Lion(us))
	best := -infinity
	var moves []rules.Move
	if evade {
		moves = p.AppendLegal(e.moves[ply][:0])
		if len(moves) == 0 {
			return -Mate + ply
		}
	} else {
		best = e.eval(p)
		if best >= beta {
			return best
		}
		alpha = max(alpha, best)
		moves = p.AppendCaptures(e.moves[ply][:0])
	}
	e.moves[ply] = moves
	scores := e.scores[ply][:0]
	for range moves {
		scores = append(scores, 0)
	}
	e.scores[ply] = scores
	e.scoreMoves(p, moves, scores, rules.Move{}, ply)
	for i := range moves {
		pickMove(moves, scores, i)
		child := &e.stack[ply+1]
		*child = p.After(moves[i])
		score := -e.quiesce(child, ply+1, -beta, -alpha, qdepth+1)
		if e.stopped {
			return 0
		}
		if score > best {
			best = score
			if score > alpha {
				alpha = score
				e.updatePV(ply, moves[i])
				if score >= beta {
					break
				}
			}
		}
	}
	return best
}

// toTT and fromTT store mate scores as distances from the node, not the
// root, so that they hold wherever the position recurs.
func toTT(s, ply int) int {
	switch {
	case s >= MateBound:
		return s + ply
	case s <= -MateBound:
		return s - ply
	}
	return s
}

func fromTT(s, ply int) int {
	switch {
	case s >= MateBound:
		return s - ply
	case s <= -MateBound:
		return s + ply
	}
	return s
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Move ordering scores.
const (
	ttScore      = 1 << 30
	lionScore    = 1 << 29
	captureScore = 1 << 24
	killerScore  = 1 << 22
)
