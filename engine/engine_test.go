package engine

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/congobymail/congo/rules"
)

var level5 = flag.Bool("level5", false, "solve the tactics at level 5's limits rather than at a fixed depth (slower)")

// tacticsDepth is the depth the tactics are solved at in a plain go test.
const tacticsDepth = 6

// tactics are positions with a best move, made up for this test: want
// lists the moves that solve it, avoid the moves that fail; mate, when not
// 0, is the score's MatePlies.
var tactics = []struct {
	name  string
	fen   string
	want  []string
	avoid []string
	mate  int
}{
	// The lion in one, by every kind of piece that can take it.
	{name: "lion flies along the file", fen: "2elc2/ppp1ppp/7/7/7/PPP1PPP/2ELE2 w 1", want: []string{"d1xd7"}, mate: 1},
	{name: "lion flies along a diagonal", fen: "7/2p1p2/4l2/7/2L4/3P3/7 w 1", want: []string{"c3xe5"}, mate: 1},
	{name: "black lion flies along a diagonal", fen: "7/1pp4/2l4/7/4L2/2P4/7 b 1", want: []string{"c5xe3"}, mate: 1},
	{name: "zebra takes the lion", fen: "3l3/3p3/2Z4/7/7/7/3L3 w 1", want: []string{"c5xd7"}, mate: 1},
	{name: "monkey chain ends on the lion", fen: "7/4l2/7/2p4/1M5/7/3L3 w 1", want: []string{"b3xd5xf7"}, mate: 1},
	{name: "crocodile slides to the lion", fen: "3l3/3p3/7/7/3L3/7/3c3 b 1", want: []string{"d1xd3"}, mate: 1},
	{name: "elephant jumps to the lion", fen: "3l3/3p3/3E3/7/7/7/2L4 w 1", want: []string{"d5xd7"}, mate: 1},
	{name: "giraffe jumps to the lion", fen: "3l3/7/1G5/7/7/7/2L4 w 1", want: []string{"b5xd7"}, mate: 1},
	{name: "pawn takes the lion", fen: "3l1g1/3pP2/7/7/7/7/3L3 w 1", want: []string{"e6xd7"}, mate: 1},
	// The lion in two: a walled-in lion and an attacker nobody can take.
	{name: "zebra on the lion walled in by its pawns", fen: "3pl2/3pp2/4Z2/7/7/7/2L4 w 1", want: []string{"e5-g6"}, mate: 3},
	{name: "elephant on the lion walled in by giraffes", fen: "2lg3/2gg3/E6/7/7/7/3L3 w 1", want: []string{"a5-c5"}, mate: 3},
	// Saving an attacked lion.
	{name: "take the zebra that attacks the lion", fen: "3l3/3pp2/7/7/4z2/3P3/3L3 w 1", want: []string{"d2xe3"}},
	{name: "lion takes the monkey about to jump it", fen: "3l3/3p3/7/7/3m3/P2L3/6Z w 1", want: []string{"d2xd3"}},
	{name: "lion steps out of the zebra's reach", fen: "3l3/3p3/7/7/4z2/P6/3L2Z w 1", want: []string{"d1-c1", "d1-d2", "d1-e1", "d1-e2"}},
	{name: "keep the lone blocker of the file", fen: "3l3/pp5/7/4z2/3P3/PP5/3L3 w 1", avoid: []string{"d3xe4", "d3-c4", "d3-d4"}},
	// Drowning (R13): a piece that entered the river leaves it.
	{name: "zebra leaves the river", fen: "3l3/pp1p3/7/3Z3/7/PP5/2L4 w 1", want: []string{"d4-f5", "d4-b5", "d4-c6", "d4-e6", "d4-b3", "d4-f3", "d4-c2", "d4-e2"}},
	{name: "monkey leaves the river by a capture", fen: "3l3/3p3/7/2M4/2p1p2/3P3/3L3 w 1", want: []string{"c4xc2"}},
	// Monkey chains.
	{name: "monkey ring: stop before opening the file", fen: "3l3/7/3p3/2p1p2/2Mp3/7/3L3 w 1", want: []string{"c3xe3xe5", "c3xc5xe5xe3", "c3xe3xe5xc5"}, avoid: []string{"c3xc5xe5xe3xc3", "c3xe3xe5xc5xc3"}},
	{name: "monkey takes two crocodiles", fen: "3l3/3p3/7/2c1c2/1M5/3P3/3L3 w 1", want: []string{"b3xd5xf3"}},
	// Crocodiles.
	{name: "crocodile slides along the river", fen: "3l3/3p3/7/C5z/7/3P3/3L3 w 1", want: []string{"a4xg4"}},
	{name: "crocodile slides up to the river", fen: "3l3/3p3/7/1m5/7/3P3/1C1L3 w 1", want: []string{"b1xb4"}},
	// Promotion (R11).
	{name: "pawn takes a giraffe and promotes", fen: "2l2g1/3pP2/7/7/7/7/3L3 w 1", want: []string{"e6xf7"}},
}

func TestTactics(t *testing.T) {
	if len(tactics) < 20 {
		t.Errorf("%d tactics, want at least 20", len(tactics))
	}
	l5, _ := LevelOf(5)
	for _, c := range tactics {
		t.Run(c.name, func(t *testing.T) {
			p, err := rules.ParsePosition(c.fen)
			if err != nil {
				t.Fatal(err)
			}
			e := New(Options{TTBits: 16})
			lim := Limits{Depth: tacticsDepth}
			if *level5 {
				e = New(Options{Noise: l5.Noise})
				lim = l5.Limits(time.Now())
			}
			r := e.Search(context.Background(), p, lim)
			got := r.Move.String()
			if c.want != nil && !slices.Contains(c.want, got) {
				t.Errorf("Search(%q) = %v (score %d, pv %v), want one of %v", c.fen, got, r.Score, r.PV, c.want)
			}
			if slices.Contains(c.avoid, got) {
				t.Errorf("Search(%q) = %v (score %d, pv %v), want none of %v", c.fen, got, r.Score, r.PV, c.avoid)
			}
			if n, ok := MatePlies(r.Score); c.mate != 0 && (!ok || n != c.mate) {
				t.Errorf("Search(%q) score %d, want mate in %d plies", c.fen, r.Score, c.mate)
			}
			if n, ok := MatePlies(r.Score); ok && n < 0 {
				t.Errorf("Search(%q) score %d: it thinks it is lost", c.fen, r.Score)
			}
		})
	}
}

// testPositions are positions from games for the tests below.
var testPositions = []string{
	rules.StartPosition,
	"gmelecz/pp1pppp/2p4/1P5/7/P1PPPPP/GMELECZ b 2",
	"3l3/7/3p3/2p1p2/2Mp3/7/3L3 w 1",
	"g1elec1/pp1p1pp/2pzp1m/7/2P1P2/PP1Z1PP/GMEL1CE w 5",
}

// Depth and node limits give the same result every time, seed by seed.
func TestDeterminism(t *testing.T) {
	for _, fen := range testPositions {
		p, _ := rules.ParsePosition(fen)
		for _, lim := range []Limits{{Depth: 4}, {Nodes: 20000}} {
			for _, seed := range []uint64{0, 1, 2} {
				var first Result
				for run := range 3 {
					e := New(Options{TTBits: 14, Seed: seed, Noise: 10})
					if run == 2 {
						// An engine reset after another search plays as a new one.
						e.Search(context.Background(), rules.Start(), Limits{Depth: 3})
						e.Reset()
					}
					r := e.Search(context.Background(), p, lim)
					if run == 0 {
						first = r
						continue
					}
					if r.Move != first.Move || r.Score != first.Score || r.Nodes != first.Nodes || !slices.Equal(r.PV, first.PV) {
						t.Errorf("Search(%q, %+v, seed %d) = %v %d %d %v, first %v %d %d %v",
							fen, lim, seed, r.Move, r.Score, r.Nodes, r.PV, first.Move, first.Score, first.Nodes, first.PV)
					}
				}
			}
		}
	}
}

// The transposition table is keyed by rules.Position.Hash, kept up to date
// move by move: it must equal the key of the same position read afresh,
// and the principal variation the search returns must be legal.
func TestHashConsistency(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	games := 40
	if testing.Short() {
		games = 10
	}
	for range games {
		p := rules.Start()
		for ply := 0; ply < 120 && !p.Outcome().Over(); ply++ {
			fresh, err := rules.ParsePosition(p.String())
			if err != nil {
				t.Fatal(err)
			}
			if p.Hash() != fresh.Hash() {
				t.Fatalf("Hash(%q) = %#x after moves, %#x read afresh", p, p.Hash(), fresh.Hash())
			}
			legal := p.Legal()
			p = p.After(legal[rng.IntN(len(legal))])
		}
	}
	e := New(Options{TTBits: 12}) // small: many collisions of index
	for _, fen := range testPositions {
		p, _ := rules.ParsePosition(fen)
		r := e.Search(context.Background(), p, Limits{Depth: 5})
		q := p
		for _, m := range r.PV {
			if _, err := q.ParseMove(m.String()); err != nil {
				t.Fatalf("Search(%q) PV %v: %v", fen, r.PV, err)
			}
			q = q.After(m)
		}
	}
}

// A deadline stops the search with the clock given, and a cancelled
// context stops it too; both still give a legal move.
func TestStop(t *testing.T) {
	p := rules.Start()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	calls := 0
	clock := func() time.Time {
		calls++
		return t0.Add(time.Duration(calls) * time.Millisecond)
	}
	e := New(Options{TTBits: 14, Now: clock})
	r := e.Search(context.Background(), p, Limits{Deadline: t0.Add(20 * time.Millisecond)})
	if calls < 20 || calls > 25 || r.Depth == 0 || r.Depth >= MaxPly-8 || r.Stop != StopDeadline {
		t.Errorf("Search with a deadline 20 clock readings away: %d readings, depth %d, stopped by %v", calls, r.Depth, r.Stop)
	}
	if _, err := p.ParseMove(r.Move.String()); err != nil {
		t.Errorf("Search with a deadline = %v: %v", r.Move, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r = New(Options{TTBits: 14}).Search(ctx, p, Limits{})
	if _, err := p.ParseMove(r.Move.String()); err != nil || r.Nodes > 2048 || r.Stop != StopContext {
		t.Errorf("Search with a cancelled context = %v after %d nodes, stopped by %v: %v", r.Move, r.Nodes, r.Stop, err)
	}
	for _, c := range []struct {
		lim  Limits
		want Stop
	}{
		{Limits{Nodes: 5000}, StopNodes},
		{Limits{Depth: 2}, StopNone},
		{Limits{Depth: 2, Nodes: 1 << 40, Deadline: time.Now().Add(time.Hour)}, StopNone},
	} {
		if r := New(Options{TTBits: 14}).Search(context.Background(), p, c.lim); r.Stop != c.want {
			t.Errorf("Search(%+v) stopped by %v, want %v", c.lim, r.Stop, c.want)
		}
	}
	if r := New(Options{TTBits: 10}).Search(context.Background(), mustParse(t, "3L3/7/7/7/7/7/7 b 1"), Limits{}); r.Move != (rules.Move{}) {
		t.Errorf("Search in a finished game = %v, want no move", r.Move)
	}
}

func mustParse(t *testing.T, fen string) rules.Position {
	t.Helper()
	p, err := rules.ParsePosition(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Once its tables are warm, the search allocates only at the root.
func TestSearchAllocations(t *testing.T) {
	p := rules.Start()
	e := New(Options{TTBits: 12})
	e.Search(context.Background(), p, Limits{Depth: 5})
	allocs := testing.AllocsPerRun(3, func() {
		e.Search(context.Background(), p, Limits{Depth: 5})
	})
	if allocs > 20 {
		t.Errorf("Search allocates %v times, want at most 20", allocs)
	}
}

func TestMatePlies(t *testing.T) {
	for _, c := range []struct {
		score, n int
		ok       bool
	}{
		{Mate - 1, 1, true},
		{Mate - 5, 5, true},
		{-(Mate - 2), -2, true},
		{MateBound, MaxMatePlies, true},
		{Mate - 301, 301, true}, // a win the tables found beyond MaxPly
		{MateBound - 1, 0, false},
		{0, 0, false},
		{-300, 0, false},
	} {
		if n, ok := MatePlies(c.score); n != c.n || ok != c.ok {
			t.Errorf("MatePlies(%d) = %d, %v, want %d, %v", c.score, n, ok, c.n, c.ok)
		}
	}
}

func TestHopeless(t *testing.T) {
	lost := -ResignScore - 1
	for _, c := range []struct {
		level  int
		scores []int
		want   bool
	}{
		{2, []int{lost, lost, lost}, true},
		{5, []int{0, 50, lost, lost, -Mate + 3}, true},
		{5, []int{lost, lost}, false},
		{5, []int{lost, 0, lost, lost}, false},
		{5, []int{lost, lost, -ResignScore + 1}, false},
		{1, []int{lost, lost, lost, lost}, false},
		{3, nil, false},
	} {
		if got := Hopeless(c.level, c.scores); got != c.want {
			t.Errorf("Hopeless(%d, %v) = %v, want %v", c.level, c.scores, got, c.want)
		}
	}
}

func TestLevels(t *testing.T) {
	for n := MinLevel - 1; n <= MaxLevel+1; n++ {
		l, err := LevelOf(n)
		if (err != nil) != (n < MinLevel || n > MaxLevel) {
			t.Errorf("LevelOf(%d) = %+v, %v", n, l, err)
			continue
		}
		if err == nil && (l.Time != SafetyTime || l.Nodes <= 0) {
			t.Errorf("LevelOf(%d) = %+v: want a node limit and the time cap %v", n, l, SafetyTime)
		}
	}
}

func TestElo(t *testing.T) {
	for _, c := range []struct {
		r            MatchResult
		diff, margin float64
	}{
		{MatchResult{Wins: 50, Losses: 50}, 0, 68},
		{MatchResult{Wins: 75, Losses: 25}, 191, 81},
		{MatchResult{Wins: 10, Draws: 80, Losses: 10}, 0, 31},
		{MatchResult{Wins: 8, Draws: 2}, 382, 166},
		{MatchResult{Wins: 100}, math.Inf(1), 607},
		{MatchResult{Losses: 100}, math.Inf(-1), -607},
	} {
		diff, margin := c.r.Elo()
		if !near(diff, c.diff) || !near(margin, c.margin) {
			t.Errorf("%+v.Elo() = %.0f, %.0f, want %.0f, %.0f", c.r, diff, margin, c.diff, c.margin)
		}
	}
}

func near(a, b float64) bool {
	if math.IsInf(b, 0) {
		return a == b
	}
	return math.Abs(a-b) < 1
}

func TestGreedy(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, c := range []struct {
		fen  string
		want []string
	}{
		// The crocodile rather than the pawn; the lion above all.
		{"3l3/3p3/7/c5p/1P5/7/G2L3 w 1", []string{"b3xa4"}},
		{"3l3/3p3/2Z4/7/7/7/3L3 w 1", []string{"c5xd7"}},
		// A chain of two pawns rather than one.
		{"3l3/3p3/7/2p4/1Mp4/7/3L3 w 1", []string{"b3xd3xb5"}},
	} {
		p := mustParse(t, c.fen)
		if got := Greedy(p, rng).String(); !slices.Contains(c.want, got) {
			t.Errorf("Greedy(%q) = %v, want one of %v", c.fen, got, c.want)
		}
	}
}

// A match is the same for the same seed, and random loses to greedy.
func TestMatch(t *testing.T) {
	a, _ := NewPlayer("greedy", nil)
	b, _ := NewPlayer("random", nil)
	var first []Game
	for run := range 2 {
		var games []Game
		res, err := Match(context.Background(), a, b, MatchOptions{Games: 4, Seed: 3, OpeningPlies: 2}, nil, func(i int, g Game) {
			games = append(games, g)
		})
		if err != nil || res.Games() != 4 || len(games) != 4 {
			t.Fatalf("Match = %+v, %v with %d games reported", res, err, len(games))
		}
		if games[0].AWhite == games[1].AWhite || !slices.Equal(games[0].Moves[:2], games[1].Moves[:2]) {
			t.Errorf("games 1 and 2 do not share an opening with colours swapped")
		}
		if run == 1 {
			for i := range games {
				if !slices.Equal(games[i].Moves, first[i].Moves) || games[i].Result != first[i].Result {
					t.Errorf("game %d differs between runs with the same seed", i+1)
				}
			}
		}
		first = games
	}
	for _, name := range []string{"0", "6", "strong", ""} {
		if _, err := NewPlayer(name, nil); err == nil {
			t.Errorf("NewPlayer(%q) succeeded, want an error", name)
		}
	}
	l, err := NewPlayer("3", nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Match(context.Background(), l, b, MatchOptions{Games: 2, Seed: 1, OpeningPlies: 2}, nil, nil)
	if err != nil || res.Wins != 2 {
		t.Errorf("level 3 vs random: %+v, %v, want 2 wins", res, err)
	}
}

// Random openings leave a game the players decide: it goes on, and no lion
// can be taken at once.
func TestRandomOpening(t *testing.T) {
	for i := range uint64(300) {
		p := rules.Start()
		moves := randomOpening(1, i, 4)
		for _, m := range moves {
			p = p.After(m)
		}
		if len(moves) != 4 || p.Outcome().Over() || p.Attacks(p.Turn(), p.Lion(p.Turn().Other())) {
			t.Fatalf("randomOpening(1, %d, 4) = %v, leading to %q", i, moves, p)
		}
	}
}

func BenchmarkSearch(b *testing.B) {
	for i, fen := range testPositions[:2] {
		b.Run(fmt.Sprintf("position%d/depth7", i+1), func(b *testing.B) {
			p, _ := rules.ParsePosition(fen)
			e := New(Options{})
			var nodes int64
			for b.Loop() {
				e.Reset()
				nodes += e.Search(context.Background(), p, Limits{Depth: 7}).Nodes
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}
