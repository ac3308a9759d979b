package analysis

import (
	"context"
	"encoding/xml"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/congobymail/congo/rules"
)

// testNodes keeps the tests quick, the race detector's included; the
// positions below are judged the same at DefaultNodes.
const testNodes = 20_000

// moves reads a game written as space-separated moves from the start.
func moves(t testing.TB, game string) []rules.Move {
	t.Helper()
	p := rules.Start()
	var out []rules.Move
	for _, text := range strings.Fields(game) {
		m, err := p.ParseMove(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		out = append(out, m)
		p = p.After(m)
	}
	return out
}

func analyze(t testing.TB, game string) *Analysis {
	t.Helper()
	a, err := Analyze(context.Background(), moves(t, game), Options{Nodes: testNodes})
	if err != nil {
		t.Fatalf("Analyze(%s): %v", game, err)
	}
	return a
}

// The games of the tests: a blunder that loses the lion, a missed lion
// capture, and a quiet opening where neither side errs.
const (
	blunderGame = "d2-e3 d6-c5 d1xd7"
	missedGame  = "d2-e3 d6-c5 e3-d4"
	quietGame   = "d2-e3 e6-d5 a2-a3 a7-c5 e2-d3 a6-b5 a1-c3 g6-g5 c2-b3 g7-e6 g1-e2 c5xc3"
)

// marks returns the marks of a's moves, "-" for none, and the notes of
// the marked ones.
func marks(a *Analysis) (string, []Note) {
	var s []string
	var notes []Note
	for _, p := range a.Plies {
		if p.Mark == NoMark {
			s = append(s, "-")
			continue
		}
		s = append(s, p.Mark.String())
		notes = append(notes, p.Note)
	}
	return strings.Join(s, " "), notes
}

func TestAnalyze(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		game  string
		marks string
		notes []Note
		best  string // the better move of the first marked one
		white Summary
		black Summary
	}{
		{blunderGame, "- ?? -", []Note{LostLion}, "", Summary{Moves: 2}, Summary{Moves: 1, Blunders: 1}},
		{missedGame, "- ?? ??", []Note{LostLion, MissedWin}, "", Summary{Moves: 2, Blunders: 1}, Summary{Moves: 1, Blunders: 1}},
		{quietGame, "- - - - - - - - - - - -", nil, "", Summary{Moves: 6}, Summary{Moves: 6}},
	} {
		a := analyze(t, c.game)
		gotMarks, gotNotes := marks(a)
		if gotMarks != c.marks || !reflect.DeepEqual(gotNotes, c.notes) {
			t.Errorf("Analyze(%s) marks %q, notes %v; want %q, %v", c.game, gotMarks, gotNotes, c.marks, c.notes)
		}
		for col, want := range []Summary{c.white, c.black} {
			got := a.Players[col]
			got.Loss = 0
			if got != want {
				t.Errorf("Analyze(%s) summary of %v = %+v, want %+v (the loss left out)", c.game, rules.Color(col), got, want)
			}
		}
	}
}

// The blunder and the win missed in detail: the better moves, the
// losses, the evaluations.
func TestAnalyzeDetails(t *testing.T) {
	t.Parallel()
	a := analyze(t, missedGame)
	lost, missed := a.Plies[1], a.Plies[2]
	if lost.Best == lost.Move || lost.Loss < BlunderLoss || lost.Eval.Lion != 1 || lost.Eval.String() != "+lion in 1" {
		t.Errorf("1... d6-c5: %+v, want another best move, a loss of the lion, +lion in 1", lost)
	}
	if missed.Best.String() != "d1xd7" || missed.Line[0] != missed.Best || missed.BestEval.Lion != 1 || missed.Loss < BlunderLoss {
		t.Errorf("2. e3-d4: %+v, want d1xd7 better, +lion in 1", missed)
	}
	if got, want := missed.Comment(), "missed win: better d1xd7 (+lion in 1)"; got != want {
		t.Errorf("2. e3-d4 comment %q, want %q", got, want)
	}
	b := analyze(t, blunderGame)
	if last := b.Plies[2]; last.Eval.End.State != rules.Won || last.Eval.String() != "1-0" || last.Mark != NoMark || b.End.Winner != rules.White {
		t.Errorf("2. d1xd7: %+v, want 1-0, no mark", last)
	}
	q := analyze(t, quietGame)
	for _, p := range q.Plies {
		if p.Loss >= InaccuracyLoss || p.Eval.Lion != 0 || p.Eval.Pawns < -100 || p.Eval.Pawns > 100 {
			t.Errorf("quiet game %s: %+v, want an even game", p.label(), p)
		}
	}
	if got := q.Players[rules.White].AverageLoss(); got >= 0.1 {
		t.Errorf("quiet game: White's average loss %.2f, want under 0.1", got)
	}
}

// The same game gives the same analysis, word for word, every time.
func TestAnalyzeDeterministic(t *testing.T) {
	t.Parallel()
	for _, game := range []string{blunderGame, missedGame, quietGame} {
		a, b := analyze(t, game), analyze(t, game)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("Analyze(%s) twice: %+v, then %+v", game, a, b)
		}
		for _, f := range []func(*Analysis) string{(*Analysis).Text, (*Analysis).SVG, (*Analysis).Sparkline, func(a *Analysis) string { return a.Movetext("") }} {
			if x, y := f(a), f(b); x != y {
				t.Errorf("Analyze(%s) rendered twice:\n%s\nthen\n%s", game, x, y)
			}
		}
	}
}

// TestJobStops (M54): a job stopped in the middle of its searches, again
// and again, goes on where it stopped, and ends with the analysis an
// uninterrupted one makes.
func TestJobStops(t *testing.T) {
	want := analyze(t, quietGame)
	j, err := NewJob(moves(t, quietGame), Options{Nodes: testNodes})
	if err != nil {
		t.Fatal(err)
	}
	stops := 0
	for {
		before, of := j.Progress()
		// A search cut short, as a robot turn does: nothing of it counts.
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if done, err := j.Step(ctx); done || !errors.Is(err, context.Canceled) {
			t.Fatalf("Step with its context ended = %v, %v, want false, context.Canceled", done, err)
		}
		if after, _ := j.Progress(); after != before {
			t.Fatalf("a stopped Step went from position %d to %d", before, after)
		}
		stops++
		done, err := j.Step(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if after, _ := j.Progress(); after != before+1 && !done {
			t.Fatalf("Step went from position %d to %d of %d", before, after, of)
		}
		if done {
			break
		}
	}
	if got := j.Analysis(); !reflect.DeepEqual(got, want) {
		t.Errorf("the analysis of a job stopped %d times differs from Analyze's:\n%+v\nwant\n%+v", stops, got, want)
	}
}

func TestAnalyzeErrors(t *testing.T) {
	t.Parallel()
	ms := moves(t, blunderGame)
	over := append(ms, ms[0])
	if _, err := Analyze(context.Background(), over, Options{Nodes: testNodes}); !errors.Is(err, rules.ErrGameOver) {
		t.Errorf("Analyze with a move after the end: %v, want ErrGameOver", err)
	}
	illegal := []rules.Move{ms[0], ms[0]}
	if _, err := Analyze(context.Background(), illegal, Options{Nodes: testNodes}); err == nil {
		t.Errorf("Analyze with an illegal move succeeded")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Analyze(ctx, moves(t, quietGame), Options{Nodes: 1 << 30}); !errors.Is(err, context.Canceled) {
		t.Errorf("Analyze with a cancelled context: %v, want context.Canceled", err)
	}
	if a, err := Analyze(context.Background(), nil, Options{Nodes: testNodes}); err != nil || len(a.Plies) != 0 || a.Movetext("") != "*\n" {
		t.Errorf("Analyze of no moves = %+v, %v", a, err)
	}
}

func TestJudge(t *testing.T) {
	t.Parallel()
	w := func(pawns int) Eval { return Eval{Pawns: pawns} }
	m1, m2 := moves(t, "d2-e3")[0], moves(t, "d2-d3")[0]
	for _, c := range []struct {
		side         rules.Color
		best, played Eval
		same         bool
		loss         int
		mark         Mark
		note         Note
	}{
		{rules.White, w(20), w(-29), false, 49, NoMark, NoNote},
		{rules.White, w(20), w(-30), false, 50, Inaccuracy, NoNote},
		{rules.White, w(20), w(-80), false, 100, Mistake, NoNote},
		{rules.White, w(20), w(-280), false, 300, Blunder, NoNote},
		{rules.Black, w(-20), w(80), false, 100, Mistake, NoNote},
		{rules.Black, w(-20), w(-500), false, 0, NoMark, NoNote}, // better than the engine thought
		{rules.White, w(20), w(-280), true, 0, NoMark, NoNote},   // the engine's move
		{rules.White, w(350), w(90), false, 260, Blunder, LostWin},
		{rules.White, w(350), w(120), false, 230, Mistake, NoNote},
		{rules.White, Eval{Lion: 3}, w(900), false, 100, Blunder, MissedWin},
		{rules.White, Eval{Lion: 1}, Eval{Lion: 4}, false, 0, NoMark, NoNote}, // slower, still won
		{rules.Black, Eval{Lion: -2}, w(-400), false, 600, Blunder, MissedWin},
		{rules.White, w(-20), Eval{Lion: -2}, false, 980, Blunder, LostLion},
		{rules.White, Eval{Lion: -1}, Eval{Lion: -2}, false, 0, NoMark, NoNote}, // lost whatever
		{rules.White, Eval{Lion: 1}, Eval{End: rules.Outcome{State: rules.Won, Winner: rules.White}}, false, 0, NoMark, NoNote},
	} {
		p := Ply{Side: c.side, Move: m1, Best: m2, BestEval: c.best, Eval: c.played}
		if c.same {
			p.Best = m1
		}
		judge(&p)
		if p.Loss != c.loss || p.Mark != c.mark || p.Note != c.note {
			t.Errorf("judge(%v: best %v, played %v) = loss %d %q %v, want %d %q %v",
				c.side, c.best, c.played, p.Loss, p.Mark, p.Note, c.loss, c.mark, c.note)
		}
	}
}

func TestEvalString(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		e    Eval
		want string
	}{
		{Eval{}, "0.00"},
		{Eval{Pawns: 125}, "+1.25"},
		{Eval{Pawns: -40}, "-0.40"},
		{Eval{Pawns: -5}, "-0.05"},
		{Eval{Lion: 3}, "+lion in 3"},
		{Eval{Lion: -1}, "-lion in 1"},
		{Eval{End: rules.Outcome{State: rules.Won, Winner: rules.Black, Reason: rules.LionCaptured}}, "0-1"},
		{Eval{End: rules.Outcome{State: rules.Drawn, Reason: rules.BareLions}}, "1/2-1/2"},
	} {
		if got := c.e.String(); got != c.want {
			t.Errorf("%+v.String() = %q, want %q", c.e, got, c.want)
		}
	}
}

func TestMovetext(t *testing.T) {
	t.Parallel()
	a := analyze(t, missedGame)
	got := a.Movetext("")
	if !strings.HasPrefix(got, "1. d2-e3 d6-c5?? {lion lost: better ") || !strings.HasSuffix(got, "2. e3-d4?? {missed win: better d1xd7 (+lion in 1)} *\n") {
		t.Errorf("Movetext = %q", got)
	}
	for _, line := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
		if len(line) > recordWidth {
			t.Errorf("Movetext line %q longer than %d", line, recordWidth)
		}
	}
	if got := analyze(t, blunderGame).Movetext(""); !strings.HasSuffix(got, " 2. d1xd7 1-0\n") {
		t.Errorf("Movetext of a won game = %q, want 1-0 last", got)
	}
	if got := analyze(t, quietGame).Movetext("0-1"); strings.ContainsAny(got, "?{") || !strings.HasSuffix(got, " 0-1\n") {
		t.Errorf("Movetext of the quiet game, resigned = %q", got)
	}
}

func TestText(t *testing.T) {
	t.Parallel()
	got := analyze(t, missedGame).Text()
	for _, want := range []string{
		"1. d2-e3 ",
		"1... d6-c5??           +lion in 1   lion lost: better ",
		"2. e3-d4??            ",
		"missed win: better d1xd7 (+lion in 1)\n",
		"White: 0 ?!, 0 ?, 1 ??; average loss ",
		"Black: 0 ?!, 0 ?, 1 ??; average loss ",
		"   1. " + string(sparks[4]) + string(sparks[7]),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("Text() =\n%s\nwant it to hold %q", got, want)
		}
	}
}

func TestSparkline(t *testing.T) {
	t.Parallel()
	a := &Analysis{Plies: []Ply{
		{Eval: Eval{}}, {Eval: Eval{Pawns: -30}}, {Eval: Eval{Pawns: 150}}, {Eval: Eval{Pawns: -150}},
		{Eval: Eval{Lion: 2}}, {Eval: Eval{Lion: -2}}, {Eval: Eval{Pawns: 5000}},
	}}
	if got, want := a.Sparkline(), "▅▄▆▃█▁█"; got != want {
		t.Errorf("Sparkline() = %q, want %q", got, want)
	}
}

// The chart is well-formed XML, without script, and shows the blunders.
func TestSVG(t *testing.T) {
	t.Parallel()
	for _, game := range []string{blunderGame, missedGame, quietGame, ""} {
		a := analyze(t, game)
		svg := a.SVG()
		d := xml.NewDecoder(strings.NewReader(svg))
		circles := 0
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("SVG of %q: %v\n%s", game, err, svg)
			}
			if s, ok := tok.(xml.StartElement); ok {
				switch s.Name.Local {
				case "script", "foreignObject", "image":
					t.Errorf("SVG of %q has a %s element", game, s.Name.Local)
				case "circle":
					circles++
				}
			}
		}
		blunders := a.Players[0].Blunders + a.Players[1].Blunders + a.Players[0].Mistakes + a.Players[1].Mistakes
		if circles != blunders || strings.Contains(svg, "NaN") || strings.Contains(svg, "href") {
			t.Errorf("SVG of %q: %d dots for %d mistakes and blunders, or NaN, or a link:\n%s", game, circles, blunders, svg)
		}
	}
}

// BenchmarkAnalyze60 analyses the first 60 plies of a game of level 5
// against level 4 at DefaultNodes.
func BenchmarkAnalyze60(b *testing.B) {
	game := moves(b, "d2-c3 b6-b5 f2-g3 b5-b4 d1-d2 b4xc3 a1xc3 e6-d5 a2-a3 a7-c5 "+
		"g1-f3 g7-f5 e2-e3 a6-a5 c2-b3 e7-e6 e1-e2 c6-b5 b1-a2 b7-b6 "+
		"f1-f2 c5xc3 c1xc3 f6-g5 e2-c2 c7-c6 c2-e2 d5-d4 e3xd4 d7-c7 "+
		"d4-c5 c6xc5 f3-e1 c5xc3 b2xc3 d6-c5 b3-a4 c5-d4 a4xb5 d4xc3 "+
		"d2-d1 b6xb4 a3xb4 c3-b2 b4-c5 b2-b1 c5-b6 c7-c6 e2-c2 f5-d6 "+
		"b6-a7 g6-f5 e1-f3 f7-f6 f3-d2 c6-d5 c2-c3 e6-e5 c3-d3 d5-e6")
	if len(game) != 60 {
		b.Fatalf("%d plies, want 60", len(game))
	}
	for b.Loop() {
		if _, err := Analyze(context.Background(), game, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
