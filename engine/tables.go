package engine

import (
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/tablebase"
)

// The endgame tables in the search (Options.Tables): a node they hold is
// a leaf with its exact score, and a root they hold is played by them.

// tableLine is the most plies of the line a root in the tables gives.
const tableLine = 16

// probe returns the score of p, the node at ply, from the tables: a win
// d plies from p scores Mate-(ply+d), as a win the search found would; a
// draw 0. ok is false when the tables do not hold p.
func (e *Engine) probe(p *rules.Position, ply int) (int, bool) {
	if e.tableMen == 0 || pieces(p) > e.tableMen {
		return 0, false
	}
	v := e.opts.Tables.Probe(*p)
	return tableScore(v, ply), v.Known()
}

// tableScore is the score of a value of the tables at ply.
func tableScore(v tablebase.Value, ply int) int {
	switch v.Result {
	case tablebase.Win:
		return Mate - ply - v.Plies()
	case tablebase.Loss:
		return -Mate + ply + v.Plies()
	}
	return 0
}

// afterMove returns the value of m in p for the side to move in p, by
// the tables: a capture of the lion wins in 1, else what the position
// after m is worth to the other side, turned round.
func (e *Engine) afterMove(p *rules.Position, m rules.Move) tablebase.Value {
	child := p.After(m)
	if child.Lion(child.Turn()) == rules.NoSquare {
		return tablebase.Value{Result: tablebase.Win, N: 1}
	}
	e.nodes++
	switch v := e.opts.Tables.Probe(child); v.Result {
	case tablebase.Win:
		return tablebase.Value{Result: tablebase.Loss, N: v.N}
	case tablebase.Loss:
		return tablebase.Value{Result: tablebase.Win, N: v.N + 1}
	default:
		return v
	}
}

// tableMove returns the move of root that keeps its value, among moves in
// their order: the quickest win, a move that keeps the draw, or the
// longest defence (M77).
func (e *Engine) tableMove(root *rules.Position, moves []rules.Move) (rules.Move, bool) {
	var best rules.Move
	var bestValue tablebase.Value
	for i, m := range moves {
		v := e.afterMove(root, m)
		if !v.Known() {
			return rules.Move{}, false // the tables lack a material: search
		}
		if i == 0 || tablebase.Better(v, bestValue) {
			best, bestValue = m, v
		}
	}
	return best, true
}

// tableRoot plays a root the tables hold: its move keeps the value, and
// its line follows the tables to the end of the game or tableLine plies.
// ok is false when the tables do not hold root.
func (e *Engine) tableRoot(root *rules.Position, moves []rules.Move) (Result, bool) {
	score, ok := e.probe(root, 0)
	if !ok {
		return Result{}, false
	}
	e.nodes++
	first, ok := e.tableMove(root, moves)
	if !ok {
		return Result{}, false
	}
	r := Result{Move: first, Score: score, PV: []rules.Move{first}, Tables: true}
	p := root.After(first)
	for len(r.PV) < tableLine && !p.Outcome().Over() {
		m, ok := e.tableMove(&p, p.Legal())
		if !ok {
			break
		}
		r.PV = append(r.PV, m)
		p = p.After(m)
	}
	r.Nodes = e.nodes
	return r, true
}
