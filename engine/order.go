package engine

import "github.com/congobymail/congo/rules"

// scoreMoves fills scores for moves in p: the move from the table first,
// then captures of the lion, other captures by the value taken and the
// cheapness of the taker (MVV-LVA), the killer moves, then the others by
// their history.
func (e *Engine) scoreMoves(p *rules.Position, moves []rules.Move, scores []int32, ttMove rules.Move, ply int) {
	us := p.Turn()
	w := &e.weights
	for i := range moves {
		m := &moves[i]
		from := m.From()
		switch {
		case *m == ttMove:
			scores[i] = ttScore
		case m.IsCapture():
			mover := p.At(from).Kind()
			taken, lion := captured(p, m, mover, w)
			if lion {
				scores[i] = lionScore
				continue
			}
			scores[i] = int32(captureScore + taken*64 - w.Piece[mover])
		case *m == e.killers[ply][0]:
			scores[i] = killerScore + 1
		case *m == e.killers[ply][1]:
			scores[i] = killerScore
		default:
			scores[i] = e.history[us][from][m.To()]
		}
	}
}

// captured returns the value of the pieces m takes in p, and whether it
// takes the lion.
func captured(p *rules.Position, m *rules.Move, mover rules.Kind, w *Weights) (int, bool) {
	if mover != rules.Monkey {
		k := p.At(m.To()).Kind()
		return w.Piece[k], k == rules.Lion
	}
	v, at := 0, m.From()
	for i := range m.PathLen() {
		to := m.PathAt(i)
		k := p.At((at + to) / 2).Kind()
		if k == rules.Lion {
			return v, true
		}
		v += w.Piece[k]
		at = to
	}
	return v, false
}

// rememberCutoff records a quiet move that refuted the position as a
// killer at ply and in the history.
func (e *Engine) rememberCutoff(p *rules.Position, m rules.Move, ply, depth int) {
	if e.killers[ply][0] != m {
		e.killers[ply][1] = e.killers[ply][0]
		e.killers[ply][0] = m
	}
	h := &e.history[p.Turn()][m.From()][m.To()]
	*h += int32(depth * depth)
	if *h > killerScore/2 {
		for c := range e.history {
			for f := range e.history[c] {
				for t := range e.history[c][f] {
					e.history[c][f][t] /= 2
				}
			}
		}
	}
}

// pickMove brings the best-scored move from i on to i.
func pickMove(moves []rules.Move, scores []int32, i int) {
	b := i
	for j := i + 1; j < len(moves); j++ {
		if scores[j] > scores[b] {
			b = j
		}
	}
	moves[i], moves[b] = moves[b], moves[i]
	scores[i], scores[b] = scores[b], scores[i]
}

// sortMoves orders moves by falling score, keeping the order of equals.
func sortMoves(moves []rules.Move, scores []int32) {
	for i := 1; i < len(moves); i++ {
		for j := i; j > 0 && scores[j] > scores[j-1]; j-- {
			moves[j], moves[j-1] = moves[j-1], moves[j]
			scores[j], scores[j-1] = scores[j-1], scores[j]
		}
	}
}
