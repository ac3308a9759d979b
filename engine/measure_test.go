package engine

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/bits"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/rules"
)

var versus = flag.Int("versus", 0, "play this many games between the default weights and -values (TestMeasureMatch)")
var values = flag.String("values", "", "piece values for TestMeasureMatch: zebra,elephant,giraffe,monkey,crocodile,pawn,superpawn")
var versusLevel = flag.Int("versuslevel", 3, "the level of TestMeasureMatch")

var measure = flag.Int("measure", 0, "play this many self-play games and fit the piece values to their results (TestMeasureValues)")

// kinds are the kinds whose values TestMeasureValues fits.
var kinds = []rules.Kind{rules.Zebra, rules.Elephant, rules.Giraffe, rules.Monkey, rules.Crocodile, rules.Pawn, rules.Superpawn}

// TestMeasureValues measures the piece values: it plays -measure games of
// level 2 against itself from random openings, and fits by logistic
// regression the chance that White wins to the difference in the number of
// pieces of each kind, in the positions of those games. The values are the
// fitted weights scaled to a pawn of 100.
func TestMeasureValues(t *testing.T) {
	if *measure == 0 {
		t.Skip("run with -measure N")
	}
	type sample struct {
		diff   [7]float64
		result float64 // White's points
	}
	var samples []sample
	a, _ := NewPlayer("2", time.Now)
	b, _ := NewPlayer("2", time.Now)
	for i := range *measure {
		opening := randomOpening(7, uint64(i), 6)
		g := PlayGame(context.Background(), a, b, true, opening, uint64(i), 300, time.Now)
		white := g.Result
		p := rules.Start()
		for ply, m := range g.Moves {
			p = p.After(m)
			if ply < 8 || ply%2 == 1 || len(p.AppendCaptures(nil)) > 0 {
				continue // openings, and positions in the middle of exchanges
			}
			var s sample
			s.result = white
			for c := rules.White; c <= rules.Black; c++ {
				sign := 1.0
				if c == rules.Black {
					sign = -1
				}
				for bb := p.Occupied(c); bb != 0; bb &= bb - 1 {
					k := p.At(rules.Square(bits.TrailingZeros64(bb))).Kind()
					for j, kk := range kinds {
						if k == kk {
							s.diff[j] += sign
						}
					}
				}
			}
			samples = append(samples, s)
		}
	}
	// Newton's method on the log loss, the bias as an eighth weight.
	const n = 8
	var wt [n]float64
	for range 25 {
		var grad [n]float64
		var hess [n][n]float64
		for _, s := range samples {
			x := [n]float64{s.diff[0], s.diff[1], s.diff[2], s.diff[3], s.diff[4], s.diff[5], s.diff[6], 1}
			z := 0.0
			for j := range wt {
				z += wt[j] * x[j]
			}
			q := 1 / (1 + math.Exp(-z))
			for j := range x {
				grad[j] += (q - s.result) * x[j]
				for k := range x {
					hess[j][k] += q * (1 - q) * x[j] * x[k]
				}
			}
		}
		for j := range hess {
			hess[j][j] += 1e-3 // a touch of ridge, for kinds never seen
		}
		step := solve(hess, grad)
		for j := range wt {
			wt[j] -= step[j]
		}
	}
	bias := wt[7]
	t.Logf("%d games, %d positions, bias %.3f", *measure, len(samples), bias)
	for j, k := range kinds {
		t.Logf("%-10v %4.0f  (weight %.3f)", k, 100*wt[j]/wt[5], wt[j])
	}
}

// solve returns x with a x = b, by Gaussian elimination with pivoting.
func solve(a [8][8]float64, b [8]float64) [8]float64 {
	const n = 8
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		a[c], a[p] = a[p], a[c]
		b[c], b[p] = b[p], b[c]
		for r := c + 1; r < n; r++ {
			f := a[r][c] / a[c][c]
			for k := c; k < n; k++ {
				a[r][k] -= f * a[c][k]
			}
			b[r] -= f * b[c]
		}
	}
	var x [n]float64
	for r := n - 1; r >= 0; r-- {
		s := b[r]
		for k := r + 1; k < n; k++ {
			s -= a[r][k] * x[k]
		}
		x[r] = s / a[r][r]
	}
	return x
}

// TestMeasureMatch checks piece values by a match: -versus games at
// -versuslevel between the values of -values (player a) and the default
// ones.
func TestMeasureMatch(t *testing.T) {
	if *versus == 0 {
		t.Skip("run with -versus N -values z,e,g,m,c,p,s")
	}
	w := DefaultWeights()
	var v [7]int
	if _, err := fmt.Sscanf(*values, "%d,%d,%d,%d,%d,%d,%d", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]); err != nil {
		t.Fatalf("-values %q: %v", *values, err)
	}
	for j, k := range kinds {
		w.Piece[k] = v[j]
	}
	l, _ := LevelOf(*versusLevel)
	a := &levelPlayer{name: "a", n: *versusLevel, level: l, now: time.Now, weights: &w}
	b := &levelPlayer{name: "b", n: *versusLevel, level: l, now: time.Now}
	res, err := Match(context.Background(), a, b, MatchOptions{Games: *versus, Seed: 11, OpeningPlies: 4}, time.Now, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, m := res.Elo()
	t.Logf("%s vs default: %+v, Elo %+.0f ± %.0f", *values, res, d, m)
}

var moveTime = flag.Int("movetime", 0, "play this many plies of level 5 against itself and report the time of each move (TestMeasureMoveTime)")

// TestMeasureMoveTime times level 5's moves in a game against itself.
func TestMeasureMoveTime(t *testing.T) {
	if *moveTime == 0 {
		t.Skip("run with -movetime PLIES")
	}
	l, _ := LevelOf(5)
	e := New(Options{Noise: l.Noise})
	p := rules.Start()
	var total, longest time.Duration
	var nodes int64
	n := 0
	for ; n < *moveTime && !p.Outcome().Over(); n++ {
		start := time.Now()
		r := e.Search(context.Background(), p, l.Limits(start))
		d := time.Since(start)
		total += d
		nodes += r.Nodes
		longest = max(longest, d)
		p = p.After(r.Move)
	}
	t.Logf("%d moves: mean %v, longest %v, %.0f nodes/s", n, total/time.Duration(n), longest, float64(nodes)/total.Seconds())
}

var movePositions = flag.Int("movepositions", 0, "time level 5 on this many positions of testdata/level5-level4.txt (TestMeasurePositions)")
var moveLevel = flag.Int("movelevel", 5, "the level TestMeasurePositions times")

// TestMeasurePositions times level 5 (or -movelevel), as the robot plays it (a new engine
// for each move, the game's positions known), on -movepositions positions
// spread evenly over the games of testdata/level5-level4.txt (games of
// congo match -a 5 -b 4 before the levels knew repetitions, one a line).
// Run it with the cores busy, e.g. with a CPU burner per core started
// outside the test, to see how far the time cap SafetyTime is.
func TestMeasurePositions(t *testing.T) {
	if *movePositions == 0 {
		t.Skip("run with -movepositions N")
	}
	text, err := os.ReadFile("testdata/level5-level4.txt")
	if err != nil {
		t.Fatal(err)
	}
	type sample struct {
		before []rules.Position
		p      rules.Position
	}
	var all []sample
	for _, game := range strings.Split(strings.TrimSpace(string(text)), "\n") {
		p := rules.Start()
		var before []rules.Position
		for _, s := range strings.Fields(game) {
			m, err := p.ParseMove(s)
			if err != nil {
				t.Fatalf("%s: %v", s, err)
			}
			before = append(before, p)
			p = p.After(m)
			if !p.Outcome().Over() {
				all = append(all, sample{before: slices.Clone(before), p: p})
			}
		}
	}
	n := min(*movePositions, len(all))
	l, err := LevelOf(*moveLevel)
	if err != nil {
		t.Fatal(err)
	}
	var times []time.Duration
	cut := 0
	for i := range n {
		s := all[i*len(all)/n]
		e := New(Options{TTBits: 17, Seed: uint64(i), Noise: l.Noise})
		start := time.Now()
		r := e.SearchGame(context.Background(), s.before, s.p, l.Limits(start))
		times = append(times, time.Since(start))
		if r.Stop == StopDeadline {
			cut++
		}
	}
	slices.Sort(times)
	q := func(f float64) time.Duration { return times[min(len(times)-1, int(f*float64(len(times))))] }
	t.Logf("level %d on %d positions of %d: median %v, 90%% %v, 99%% %v, longest %v; %d stopped by the time cap %v",
		*moveLevel, n, len(all), q(0.5).Round(time.Millisecond), q(0.9).Round(time.Millisecond), q(0.99).Round(time.Millisecond),
		times[len(times)-1].Round(time.Millisecond), cut, l.Time)
}

var replay = flag.Int("replay", 0, "replay game N (from 1) of congo match -a 5 -b B -seed 1 and print its moves (TestReplay)")
var replayB = flag.String("replayb", "greedy", "player b of TestReplay")

// TestReplay replays one game of a match of level 5 against -replayb
// (greedy unless told), to see how it went. Games whose moves no time cap
// cut come out as the match played them.
func TestReplay(t *testing.T) {
	if *replay == 0 {
		t.Skip("run with -replay N")
	}
	i := *replay - 1
	a, _ := NewPlayer("5", time.Now)
	b, err := NewPlayer(*replayB, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	opening := randomOpening(1, uint64(i/2), 4)
	seed := mix(1 ^ uint64(i+1)*0x9e3779b97f4a7c15)
	scores := map[int]int{}
	la, lb := &scored{a, scores}, &scored{b, scores}
	g := PlayGame(context.Background(), la, lb, i%2 == 0, opening, seed, 300, time.Now)
	p := rules.Start()
	for n, m := range g.Moves {
		t.Logf("%3d %-12v %6d %v", n+1, m, scores[n], p.After(m))
		p = p.After(m)
	}
	t.Logf("a white %v, result %v: %s", g.AWhite, g.Result, g.Reason)
}

// scored is a player that notes its search's score at each ply.
type scored struct {
	Player
	scores map[int]int
}

func (s *scored) Play(ctx context.Context, before []rules.Position, p rules.Position, now time.Time) Decision {
	d := s.Player.Play(ctx, before, p, now)
	s.scores[len(before)] = d.Score
	return d
}
