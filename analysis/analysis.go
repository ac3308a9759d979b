// Package analysis judges every move of a game with the engine, as a coach
// would (MAIL.md M50-M51): the evaluation after it, what it lost against
// the engine's best move, and a mark for each mistake.
//
// It takes a game and returns its analysis, and does nothing else: no I/O,
// no clock. The engine searches a fixed number of nodes in every position
// (Options.Nodes), so the same game gives the same analysis on every
// machine.
package analysis

import (
	"context"
	"fmt"

	"github.com/congobymail/congo/engine"
	"github.com/congobymail/congo/rules"
)

// DefaultNodes is the number of nodes the engine searches in each position
// of a game unless Options say otherwise: as many as level 4 plays with,
// so that a 60-ply game takes some seconds on one core (BenchmarkAnalyze60).
const DefaultNodes = 200_000

// ttBits sizes the engine's transposition table: 1<<17 entries, 7 MiB,
// as for the robot.
const ttBits = 17

// The thresholds of the marks, in hundredths of a pawn lost against the
// engine's best move, from the mover's view.
const (
	InaccuracyLoss = 50  // ?!
	MistakeLoss    = 100 // ?
	BlunderLoss    = 300 // ??
)

// WonScore is the least score, from the mover's view, of a won position:
// a move from one (by the engine's best move) to a position worth less
// than engine.AheadScore throws the win away, and is a blunder whatever
// it loses.
const WonScore = 300

// Cap bounds the value of a position in the losses: a forced capture of
// the lion counts as Cap, and a score beyond it counts as Cap, so that one
// move in a lost or won game does not swamp the average loss.
const Cap = 1000

// Options configure Analyze. The zero value is the default.
type Options struct {
	Nodes int64 // nodes searched in each position; 0 for DefaultNodes
	// Tables, when set, are endgame tables: a position they hold gets
	// their exact value (Eval.Tables), its best move and line theirs
	// (M77), and the search scores every position it meets there
	// exactly.
	Tables engine.Tables

	// Start is the position the game began from (M72); the zero
	// Position for the start of every game (R3).
	Start rules.Position
}

// Mark is the judgement of a move. The zero value, NoMark, is a move that
// lost less than InaccuracyLoss.
type Mark uint8

// The marks, from the mildest.
const (
	NoMark     Mark = iota
	Inaccuracy      // ?!: lost InaccuracyLoss or more
	Mistake         // ?: lost MistakeLoss or more
	Blunder         // ??: lost BlunderLoss or more, or see Note
)

// String returns the mark as written after a move: "?!", "?", "??", or ""
// for NoMark.
func (m Mark) String() string {
	switch m {
	case NoMark:
		return ""
	case Inaccuracy:
		return "?!"
	case Mistake:
		return "?"
	case Blunder:
		return "??"
	}
	return fmt.Sprintf("Mark(%d)", uint8(m))
}

// Note says why a move is a blunder whatever it lost. The zero value,
// NoNote, is a move judged by its loss alone.
type Note uint8

// The notes.
const (
	NoNote    Note = iota
	MissedWin      // the mover could take the lion, at once or by force, and did not
	LostLion       // the move lets the opponent take the lion by force, which the best move did not
	LostWin        // the move throws away a won position (WonScore) for one not ahead
)

// String returns the note in a few words, for plain text: "missed win",
// "lion lost", "win thrown away", or "" for NoNote.
func (n Note) String() string {
	switch n {
	case NoNote:
		return ""
	case MissedWin:
		return "missed win"
	case LostLion:
		return "lion lost"
	case LostWin:
		return "win thrown away"
	}
	return fmt.Sprintf("Note(%d)", uint8(n))
}

// Eval is the engine's judgement of a position, from White's view.
type Eval struct {
	// End is the outcome when the game is over in the position (R15-R17);
	// then Pawns and Lion are 0.
	End rules.Outcome
	// Lion is N > 0 when White takes the lion (or leaves Black without a
	// move, R16) on its N-th move from the position by force, -N when Black
	// does; 0 when the search found no forced end.
	Lion int
	// Pawns is the score in hundredths of a pawn, positive when White
	// stands better; 0 when Lion or End says more.
	Pawns int
	// Tables is set when the value is the endgame tables' (M77): exact,
	// with best play on both sides; Pawns is then 0 for a draw.
	Tables bool
}

// evalOf returns the Eval of a search score in p, from the view of the
// side to move in p.
func evalOf(p rules.Position, score int) Eval {
	sign := 1
	if p.Turn() == rules.Black {
		sign = -1
	}
	if n, ok := engine.MatePlies(score); ok {
		// The side to move wins on its n-th ply, that is its (n+1)/2-th
		// move, or loses on the opponent's -n/2-th move.
		if n > 0 {
			return Eval{Lion: sign * (n + 1) / 2}
		}
		return Eval{Lion: -sign * (-n + 1) / 2}
	}
	return Eval{Pawns: sign * score}
}

// endEval returns the Eval of a position where the game is over.
func endEval(p rules.Position) Eval { return Eval{End: p.Outcome()} }

// Value returns e in hundredths of a pawn from White's view, within Cap:
// a forced or done capture of the lion is Cap (or -Cap), a draw 0.
func (e Eval) Value() int {
	switch {
	case e.End.State == rules.Won && e.End.Winner == rules.White, e.Lion > 0:
		return Cap
	case e.End.State == rules.Won, e.Lion < 0:
		return -Cap
	case e.End.Over():
		return 0
	}
	return max(-Cap, min(Cap, e.Pawns))
}

// String writes e as the analysis does: "+1.25", "-0.40", "0.00",
// "+lion in 3", "-lion in 1", or the result when the game is over: "1-0",
// "0-1", "1/2-1/2".
func (e Eval) String() string {
	switch {
	case e.End.State == rules.Won && e.End.Winner == rules.White:
		return "1-0"
	case e.End.State == rules.Won:
		return "0-1"
	case e.End.Over():
		return "1/2-1/2"
	case e.Lion > 0:
		return fmt.Sprintf("+lion in %d", e.Lion)
	case e.Lion < 0:
		return fmt.Sprintf("-lion in %d", -e.Lion)
	case e.Pawns == 0:
		return "0.00"
	}
	sign := '+'
	v := e.Pawns
	if v < 0 {
		sign, v = '-', -v
	}
	return fmt.Sprintf("%c%d.%02d", sign, v/100, v%100)
}

// winning reports whether e is a forced win, or a won game, for side c.
func (e Eval) winning(c rules.Color) bool {
	if e.End.State == rules.Won {
		return e.End.Winner == c
	}
	return e.Lion > 0 && c == rules.White || e.Lion < 0 && c == rules.Black
}

// Ply is the analysis of one move.
type Ply struct {
	Number int         // the R21 move number
	Side   rules.Color // who played it
	Move   rules.Move
	Eval   Eval // after Move
	// Best is the engine's move in the position before Move, Move itself
	// when the engine agreed; BestEval is the position after it, by the
	// same search, and Line the moves the engine expects, Best first.
	Best     rules.Move
	BestEval Eval
	Line     []rules.Move
	// Loss is what Move lost against Best, in hundredths of a pawn from
	// the mover's view, 0 to 2*Cap: 0 when Move is Best.
	Loss int
	Mark Mark
	Note Note
}

// Summary counts the marks of one player's moves.
type Summary struct {
	Moves                            int
	Inaccuracies, Mistakes, Blunders int
	Loss                             int // the sum of the moves' Loss
}

// AverageLoss returns the loss per move in pawns, 0 for no moves.
func (s Summary) AverageLoss() float64 {
	if s.Moves == 0 {
		return 0
	}
	return float64(s.Loss) / 100 / float64(s.Moves)
}

// Analysis is the analysis of a game.
type Analysis struct {
	Nodes   int64          // searched in each position
	Start   rules.Position // the position the game began from
	Plies   []Ply          // one per move, in order
	Players [2]Summary     // by rules.Color: Players[rules.White] is White's
	End     rules.Outcome
}

// Analyze analyses the game of moves, played from o.Start:
// a Job made to its end. A move that is not legal is an error; when ctx
// ends first, it returns ctx.Err() (a Job keeps what was done instead).
func Analyze(ctx context.Context, moves []rules.Move, o Options) (*Analysis, error) {
	j, err := NewJob(moves, o)
	if err != nil {
		return nil, err
	}
	for {
		done, err := j.Step(ctx)
		if err != nil {
			return nil, err
		}
		if done {
			return j.Analysis(), nil
		}
	}
}

// Job is the analysis of a game being made, one position at a time, so
// that it can stop between two positions and go on later where it
// stopped (M54): each position's search is made by a fresh engine, and
// depends on its position alone, so the analysis is the same however
// often it stops.
type Job struct {
	nodes     int64
	tables    engine.Tables
	moves     []rules.Move
	positions []rules.Position
	results   []engine.Result
	evals     []Eval
	next      int // the position the next Step searches
	engine    *engine.Engine
}

// NewJob returns the job of analysing the game of moves, played from
// o.Start; a move that is not legal is an error.
func NewJob(moves []rules.Move, o Options) (*Job, error) {
	if o.Nodes <= 0 {
		o.Nodes = DefaultNodes
	}
	if o.Start == (rules.Position{}) {
		o.Start = rules.Start()
	}
	positions := []rules.Position{o.Start}
	for i, m := range moves {
		p := positions[i]
		legal, err := p.ParseMove(m.String())
		if err != nil {
			return nil, fmt.Errorf("move %d %v: %w", i+1, m, err)
		}
		if legal != m {
			return nil, fmt.Errorf("move %d %v: not a legal move", i+1, m)
		}
		positions = append(positions, p.After(m))
	}
	return &Job{nodes: o.Nodes, tables: o.Tables, moves: moves, positions: positions,
		results: make([]engine.Result, len(positions)), evals: make([]Eval, len(positions))}, nil
}

// Step searches the next position of the game, and reports whether the
// job is done. When ctx ends during the search, the position is left for
// the next Step, and Step returns ctx.Err().
func (j *Job) Step(ctx context.Context) (bool, error) {
	if j.next == len(j.positions) {
		return true, nil
	}
	if err := ctx.Err(); err != nil {
		return false, err
	}
	p := j.positions[j.next]
	if p.Outcome().Over() {
		j.evals[j.next] = endEval(p)
	} else {
		if j.engine == nil {
			j.engine = engine.New(engine.Options{TTBits: ttBits, Tables: j.tables})
		}
		j.engine.Reset()
		r := j.engine.Search(ctx, p, engine.Limits{Nodes: j.nodes})
		if r.Stop == engine.StopContext || ctx.Err() != nil {
			return false, ctx.Err()
		}
		j.results[j.next], j.evals[j.next] = r, evalOf(p, r.Score)
		j.evals[j.next].Tables = r.Tables
	}
	j.next++
	if j.next == len(j.positions) {
		j.engine = nil // its table is not needed any more
		return true, nil
	}
	return false, nil
}

// Progress is how many of the game's positions are searched, of how
// many.
func (j *Job) Progress() (done, of int) { return j.next, len(j.positions) }

// Analysis returns the analysis, once Step has reported the job done.
func (j *Job) Analysis() *Analysis {
	return assemble(j.nodes, j.moves, j.positions, j.results, j.evals)
}

// assemble makes the analysis of the game of moves from what the engine
// found in each of its positions (the start, then the position after
// each move): the search's result, of which the move and the line are
// read, and the evaluation.
func assemble(nodes int64, moves []rules.Move, positions []rules.Position, results []engine.Result, evals []Eval) *Analysis {
	a := &Analysis{Nodes: nodes, Start: positions[0], End: positions[len(positions)-1].Outcome()}
	for i, m := range moves {
		p, r := positions[i], results[i]
		ply := Ply{
			Number:   p.MoveNumber(),
			Side:     p.Turn(),
			Move:     m,
			Eval:     evals[i+1],
			Best:     r.Move,
			BestEval: evals[i],
			Line:     r.PV,
		}
		judge(&ply)
		a.Plies = append(a.Plies, ply)
		s := &a.Players[ply.Side]
		s.Moves++
		s.Loss += ply.Loss
		switch ply.Mark {
		case Inaccuracy:
			s.Inaccuracies++
		case Mistake:
			s.Mistakes++
		case Blunder:
			s.Blunders++
		}
	}
	return a
}

// judge sets the loss, the mark and the note of ply.
func judge(ply *Ply) {
	if ply.Move == ply.Best {
		return
	}
	us := ply.Side
	sign := 1
	if us == rules.Black {
		sign = -1
	}
	best, played := sign*ply.BestEval.Value(), sign*ply.Eval.Value()
	ply.Loss = max(0, best-played)
	lost := func(e Eval) bool { return e.winning(us.Other()) }
	switch {
	case ply.BestEval.winning(us) && !ply.Eval.winning(us):
		ply.Note = MissedWin
	case lost(ply.Eval) && !lost(ply.BestEval):
		ply.Note = LostLion
	case best >= WonScore && played < engine.AheadScore:
		ply.Note = LostWin
	}
	switch {
	case ply.Note != NoNote || ply.Loss >= BlunderLoss:
		ply.Mark = Blunder
	case ply.Loss >= MistakeLoss:
		ply.Mark = Mistake
	case ply.Loss >= InaccuracyLoss:
		ply.Mark = Inaccuracy
	}
}
