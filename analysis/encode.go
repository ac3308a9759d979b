package analysis

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/congobymail/congo/engine"
	"github.com/congobymail/congo/rules"
)

// encodingVersion is the version of Encode's format, which Decode checks.
const encodingVersion = 1

// encoded is the stored form of an Analysis: the moves of the game and
// what the engine found in each of its positions. Everything else (the
// losses, the marks, the summaries) follows from them, so Decode works it
// out again, as Analyze does.
type encoded struct {
	Version int   `json:"v"`
	Nodes   int64 `json:"nodes"`
	// Start is the position the game began from (M72), R21; "" for the
	// start of every game.
	Start string   `json:"start,omitempty"`
	Moves []string `json:"moves"`
	// Found has one entry for each position from the start to the one
	// before the last move, and one for the last position.
	Found []found `json:"found"`
}

// found is what the engine found in one position: its best move and the
// line it expects ("" and none in the last position, and where the game
// is over), and the evaluation (Eval's Lion and Pawns; End follows from
// the position).
type found struct {
	Best  string   `json:"best,omitempty"`
	Line  []string `json:"line,omitempty"`
	Lion  int      `json:"lion,omitempty"`
	Pawns int      `json:"pawns,omitempty"`
	// Tables is set when the value is the endgame tables' (Eval.Tables).
	Tables bool `json:"tables,omitempty"`
}

// Encode returns a in a form to store (JSON), from which Decode gives
// back the same analysis: what the engine found is kept, so that a game
// is analysed once, and the analysis can be worded anew for each reader.
func (a *Analysis) Encode() ([]byte, error) {
	e := encoded{Version: encodingVersion, Nodes: a.Nodes}
	if a.Start != (rules.Position{}) && a.Start != rules.Start() {
		e.Start = a.Start.String()
	}
	for i := range a.Plies {
		p := &a.Plies[i]
		e.Moves = append(e.Moves, p.Move.String())
		f := found{Lion: p.BestEval.Lion, Pawns: p.BestEval.Pawns, Tables: p.BestEval.Tables}
		if p.Best != (rules.Move{}) {
			f.Best = p.Best.String()
		}
		for _, m := range p.Line {
			f.Line = append(f.Line, m.String())
		}
		e.Found = append(e.Found, f)
	}
	if n := len(a.Plies); n > 0 {
		last := a.Plies[n-1].Eval
		e.Found = append(e.Found, found{Lion: last.Lion, Pawns: last.Pawns, Tables: last.Tables})
	}
	return json.Marshal(e)
}

// Decode reads an analysis written by Encode. Every move, best move and
// line must be legal where it stands.
func Decode(data []byte) (*Analysis, error) {
	var e encoded
	if err := json.Unmarshal(data, &e); err != nil {
		return nil, fmt.Errorf("decode analysis: %w", err)
	}
	switch {
	case e.Version != encodingVersion:
		return nil, fmt.Errorf("decode analysis: version %d, want %d", e.Version, encodingVersion)
	case len(e.Moves) > 0 && len(e.Found) != len(e.Moves)+1 || len(e.Moves) == 0 && len(e.Found) != 0:
		return nil, fmt.Errorf("decode analysis: %d positions for %d moves", len(e.Found), len(e.Moves))
	case e.Nodes <= 0:
		return nil, errors.New("decode analysis: no node count")
	}
	start := rules.Start()
	if e.Start != "" {
		var err error
		if start, err = rules.ParsePosition(e.Start); err != nil {
			return nil, fmt.Errorf("decode analysis: %w", err)
		}
	}
	positions := []rules.Position{start}
	moves := make([]rules.Move, 0, len(e.Moves))
	for i, text := range e.Moves {
		m, err := positions[i].ParseMove(text)
		if err != nil {
			return nil, fmt.Errorf("decode analysis: move %d: %w", i+1, err)
		}
		moves = append(moves, m)
		positions = append(positions, positions[i].After(m))
	}
	results := make([]engine.Result, len(e.Found))
	evals := make([]Eval, len(e.Found))
	for i, f := range e.Found {
		p := positions[i]
		if p.Outcome().Over() {
			evals[i] = endEval(p)
			continue
		}
		evals[i] = Eval{Lion: f.Lion, Pawns: f.Pawns, Tables: f.Tables}
		if f.Best != "" {
			m, err := p.ParseMove(f.Best)
			if err != nil {
				return nil, fmt.Errorf("decode analysis: best move in position %d: %w", i, err)
			}
			results[i].Move = m
		}
		q := p
		for j, text := range f.Line {
			m, err := q.ParseMove(text)
			if err != nil {
				return nil, fmt.Errorf("decode analysis: line in position %d, move %d: %w", i, j+1, err)
			}
			results[i].PV = append(results[i].PV, m)
			if q = q.After(m); q.Outcome().Over() && j < len(f.Line)-1 {
				return nil, fmt.Errorf("decode analysis: line in position %d goes on after the game ends", i)
			}
		}
	}
	return assemble(e.Nodes, moves, positions, results, evals), nil
}
