package robot

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/engine"
	"github.com/congobymail/congo/rules"
)

func mustParse(t *testing.T, fen string) rules.Position {
	t.Helper()
	p, err := rules.ParsePosition(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestChoose(t *testing.T) {
	lost := -engine.ResignScore - 100
	for _, c := range []struct {
		fen    string
		level  int
		scores []int
		want   string // the move, "" for any legal move
		resign bool
	}{
		// Every level takes the lion when it can.
		{"2elc2/ppp1ppp/7/7/7/PPP1PPP/2ELE2 w 1", 1, nil, "d1xd7", false},
		{"2elc2/ppp1ppp/7/7/7/PPP1PPP/2ELE2 w 1", 5, nil, "d1xd7", false},
		{"3pl2/3pp2/4Z2/7/7/7/2L4 w 1", 4, nil, "e5-g6", false},
		{rules.StartPosition, 2, nil, "", false},
		// Two hopeless searches before, and this one too: resign.
		{"gmelecz/ppppppp/7/7/7/7/3L3 w 1", 2, []int{lost, lost}, "", true},
		// Level 1 never resigns.
		{"gmelecz/ppppppp/7/7/7/7/3L3 w 1", 1, []int{lost, lost, lost}, "", false},
		// A good search ends the run of bad ones.
		{"gmelecz/ppppppp/7/7/7/7/3L3 w 1", 3, []int{lost, 0}, "", false},
	} {
		p := mustParse(t, c.fen)
		d, err := Choose(context.Background(), p, c.level, 1, c.scores)
		if err != nil {
			t.Errorf("Choose(%q, %d) error %v", c.fen, c.level, err)
			continue
		}
		if d.Resign != c.resign {
			t.Errorf("Choose(%q, %d, %v) = %+v, want resign %v", c.fen, c.level, c.scores, d, c.resign)
		}
		if d.Resign {
			continue
		}
		if _, err := p.ParseMove(d.Move.String()); err != nil {
			t.Errorf("Choose(%q, %d) = %v: %v", c.fen, c.level, d.Move, err)
		}
		if c.want != "" && d.Move.String() != c.want {
			t.Errorf("Choose(%q, %d) = %v, want %v", c.fen, c.level, d.Move, c.want)
		}
	}
}

func TestChooseErrors(t *testing.T) {
	t.Parallel()
	if _, err := Choose(context.Background(), rules.Start(), 0, 1, nil); err == nil {
		t.Errorf("Choose at level 0 succeeded, want an error")
	}
	over := mustParse(t, "3L3/7/7/7/7/7/7 b 1")
	if _, err := Choose(context.Background(), over, 3, 1, nil); !errors.Is(err, rules.ErrGameOver) {
		t.Errorf("Choose in a finished game: %v, want ErrGameOver", err)
	}
}

// The same game and ply give the same decision; a cancelled context still
// gives a legal move, at once.
func TestChooseDeterministic(t *testing.T) {
	p := mustParse(t, "gmelecz/pp1pppp/2p4/1P5/7/P1PPPPP/GMELECZ w 2")
	first, _ := Choose(context.Background(), p, 3, Seed(42, 3), nil)
	for range 2 {
		d, _ := Choose(context.Background(), p, 3, Seed(42, 3), nil)
		if d != first {
			t.Errorf("Choose(%q) = %+v, then %+v", p, first, d)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	d, err := Choose(ctx, p, 5, 1, nil)
	if err != nil || time.Since(start) > time.Second {
		t.Errorf("Choose with a cancelled context took %v: %v", time.Since(start), err)
	}
	if _, err := p.ParseMove(d.Move.String()); err != nil {
		t.Errorf("Choose with a cancelled context = %v: %v", d.Move, err)
	}
}

func TestSeed(t *testing.T) {
	t.Parallel()
	seen := map[uint64]bool{}
	for id := int64(1); id <= 10; id++ {
		for ply := range 10 {
			s := Seed(id, ply)
			if seen[s] || s != Seed(id, ply) {
				t.Fatalf("Seed(%d, %d) = %#x repeats", id, ply, s)
			}
			seen[s] = true
		}
	}
}

// positions returns the positions of the moves played from fen, the one
// of fen first and the one after the last move last.
func positions(t *testing.T, fen string, moves ...string) []rules.Position {
	t.Helper()
	p := mustParse(t, fen)
	out := []rules.Position{p}
	for _, text := range moves {
		next, _, err := p.Play(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		p = next
		out = append(out, p)
	}
	return out
}

// Behind, the robot goes back to a position of the game; Choose, which
// does not know the game, does not.
func TestChooseInGameSeeksRepetitionWhenBehind(t *testing.T) {
	game := positions(t, "3l3/p6/7/7/7/PPPPPPP/2ELE1Z w 1", "g1-f3", "d7-e7", "f3-g1")
	before, p := game[:len(game)-1], game[len(game)-1]
	for level := 4; level <= 5; level++ {
		d, err := ChooseInGame(context.Background(), p, level, 1, nil, before)
		if err != nil || d.Move.String() != "e7-d7" || d.Score != engine.Contempt || d.TimedOut {
			t.Errorf("ChooseInGame(%v, level %d) = %+v, %v; want e7-d7 scored %d", p, level, d, err, engine.Contempt)
		}
	}
}

func TestHistory(t *testing.T) {
	t.Parallel()
	got, err := History(rules.Start(), []string{"d2-e3", "d6-c5", "d1xd7"})
	want := positions(t, rules.StartPosition, "d2-e3", "d6-c5")
	if err != nil || len(got) != len(want) {
		t.Fatalf("History = %d positions, %v; want %d", len(got), err, len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("History()[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	if _, err := History(rules.Start(), []string{"d2-e3", "d2-d3"}); err == nil {
		t.Errorf("History with an illegal move succeeded")
	}
}

func TestAcceptsDraw(t *testing.T) {
	t.Parallel()
	const fen = "3l3/p6/7/7/7/PPPPPPP/2ELE1Z w 1"
	cycle := []string{"g1-f3", "d7-e7", "f3-g1", "e7-d7"}
	twice := append(append([]string{}, cycle...), cycle...)
	ahead, level, behind, lost := engine.AheadScore, engine.AheadScore-1, -300, DrawScore
	for _, c := range []struct {
		moves  []string
		scores []int
		want   bool
	}{
		{nil, nil, false},
		{nil, []int{lost}, true},              // clearly lost
		{nil, []int{lost, behind}, false},     // the last score counts
		{cycle, []int{behind}, false},         // twice only
		{twice, []int{behind}, true},          // three times, behind
		{twice, []int{level}, true},           // three times, not ahead
		{twice, nil, true},                    // three times, no score yet
		{twice, []int{ahead}, false},          // three times, but ahead
		{twice, []int{engine.Contempt}, true}, // a draw foreseen is no advantage
	} {
		game := positions(t, fen, c.moves...)
		before, p := game[:len(game)-1], game[len(game)-1]
		if got := AcceptsDraw(p, before, c.scores); got != c.want {
			t.Errorf("AcceptsDraw after %v, scores %v = %v, want %v", c.moves, c.scores, got, c.want)
		}
	}
}

// game36 is game 36 of congo match -a 5 -b 4 (seed 1, 4 opening plies)
// before the search knew repetitions, up to 18. d6-d5: level 5 (Black,
// about 2 pawns of material up) answered 17. d5-d6, which attacks its lion
// on d7, with d7-c6, and 18. d6-d5 with c6-d7, and so on to the 300-ply
// limit. Black must not take on d5 or d6: that opens the d-file, and
// White's lion flies from d2.
const game36 = "b2-b3 d6-c5 g2-f3 c6-b5 c2-d3 g7-f5 a1-c3 a7-a5 b1-c2 c7-c6 " +
	"a2-a3 f6-g5 e2-e3 e6-d5 b3-b4 a5xc3 c2xc4xe6xg4 g5xg4 d3-e4 c6-d6 " +
	"d2-c3 b5-c4 c3xc4 c5xc4 d1-d2 c4-b3 c1-b1 d6-d4 e3xd4 b3-b2 " +
	"d4-d5 b2xb1 d5-d6 d7-c6 d6-d5"

// At 18... the cycle closes with c6-d7, back to the position after
// 16... b2xb1. Level 5 not knowing the game plays it again; knowing it,
// it plays a move to a position the game has not seen. Here that is all
// it can do: the pawn on d5 attacks the lion on c6, c6-d7 and c6-c7 are
// its only moves that do not lose the lion, and d5-d6 attacks it again on
// either, so White can go on repeating and the search scores the game a
// draw (-Contempt for Black, ahead). When a position has come round three
// times, the robot accepts a draw offer.
func TestChooseInGameLeavesTheCycleOfGame36(t *testing.T) {
	moves := strings.Fields(game36)
	before, err := History(rules.Start(), moves)
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := before[len(before)-1].Play(moves[len(moves)-1])
	if err != nil {
		t.Fatal(err)
	}
	seed := Seed(36, len(moves))
	if d, err := Choose(context.Background(), p, 5, seed, nil); err != nil || d.Move.String() != "c6-d7" {
		t.Errorf("Choose(%v) without the game = %v, %v; want c6-d7, the cycle", p, d.Move, err)
	}
	d, err := ChooseInGame(context.Background(), p, 5, seed, nil, before)
	if err != nil || d.TimedOut {
		t.Fatalf("ChooseInGame(%v) = %+v, %v", p, d, err)
	}
	t.Logf("level 5 leaves the cycle of game 36 with %v, score %d", d.Move, d.Score)
	after := p.After(d.Move)
	for i, q := range before {
		if q.Hash() == after.Hash() {
			t.Errorf("ChooseInGame(%v) = %v, back to the position before ply %d", p, d.Move, i+1)
		}
	}
	if d.Score != -engine.Contempt {
		t.Errorf("ChooseInGame(%v) = %v, score %d; want %d, a draw for the side ahead", p, d.Move, d.Score, -engine.Contempt)
	}
	if AcceptsDraw(p, before, []int{d.Score}) {
		t.Errorf("AcceptsDraw at 18... = true, want false: no position has come three times")
	}
	// Two more rounds, as the game went: 18... c6-d7 19. d5-d6 d7-c6
	// 20. d6-d5 c6-d7 21. d5-d6 d7-c6 22. d6-d5.
	more := append(moves, "c6-d7", "d5-d6", "d7-c6", "d6-d5", "c6-d7", "d5-d6", "d7-c6", "d6-d5")
	before, err = History(rules.Start(), more)
	if err != nil {
		t.Fatal(err)
	}
	p, _, _ = before[len(before)-1].Play(more[len(more)-1])
	if !AcceptsDraw(p, before, []int{d.Score}) {
		t.Errorf("AcceptsDraw at 22... with a score of %d = false, want true: the position came three times", d.Score)
	}
}

// A cycle at level 5, ahead: game 1 of congo match -a 5 -b 4 (seed 1,
// engine/testdata/level5-level4.txt) at move 24, where level 5 (White)
// stands 3 pawns up and plays e2-c2; Black's superpawn can step to a1 and
// back while the elephant goes back to e2, and the position comes round
// again. After two rounds, level 5 must leave the cycle, and still stand
// better; without the game, it walks into it again.
func TestChooseInGameLeavesCycleWhenAhead(t *testing.T) {
	const fen = "2l2c1/4e1p/p1P2zp/7/6P/M3ECP/1s1LZ2 w 24"
	cycle := []string{"e2-c2", "b1-a1", "c2-e2", "a1-b1"}
	game := positions(t, fen, append(append([]string{}, cycle...), cycle...)...)
	before, p := game[:len(game)-1], game[len(game)-1]
	if p != game[0] && p.Hash() != game[0].Hash() {
		t.Fatalf("the cycle ends in %v, want %v", p, game[0])
	}
	d, err := Choose(context.Background(), p, 5, Seed(1, 46), nil)
	if err != nil || d.Move.String() != cycle[0] {
		t.Errorf("Choose(%v) without the game = %v, %v; want %s, into the cycle", p, d.Move, err, cycle[0])
	}
	d, err = ChooseInGame(context.Background(), p, 5, Seed(1, 46), nil, before)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("level 5 leaves the cycle with %v, score %d", d.Move, d.Score)
	after := p.After(d.Move)
	for i, q := range before {
		if q.Hash() == after.Hash() {
			t.Errorf("ChooseInGame(%v) = %v, back to the position of ply %d of the cycle", p, d.Move, i)
		}
	}
	if d.Score < engine.AheadScore || d.TimedOut {
		t.Errorf("ChooseInGame(%v) = %+v, want a move that keeps White ahead", p, d)
	}
	if AcceptsDraw(p, before, []int{d.Score}) {
		t.Errorf("AcceptsDraw(%v) with a score of %d, want a refusal: the robot is ahead", p, d.Score)
	}
}

// TestPick (M54): the robot's turns go to the players one at a time, in
// turn by their ids after the one last served, each player's oldest turn
// first.
func TestPick(t *testing.T) {
	at := func(m int) time.Time { return time.Date(2026, 12, 1, 12, m, 0, 0, time.UTC) }
	waiting := []Waiting{
		{Game: 1, Player: 5, Since: at(1)}, {Game: 2, Player: 5, Since: at(0)}, {Game: 3, Player: 5, Since: at(2)},
		{Game: 4, Player: 9, Since: at(3)}, {Game: 5, Player: 7, Since: at(4)}, {Game: 6, Player: 7, Since: at(4)},
	}
	tests := []struct {
		last int64
		want int64 // game
	}{
		{0, 2}, // player 5, the oldest of theirs
		{5, 5}, // then 7, the first of two of the same age
		{7, 4}, // then 9
		{9, 2}, // and round again
		{6, 5},
		{100, 2},
	}
	for _, tt := range tests {
		if got := Pick(waiting, tt.last); got.Game != tt.want {
			t.Errorf("Pick(last %d) = game %d, want game %d", tt.last, got.Game, tt.want)
		}
	}
	// Served in turn, a player with three games waits one think per
	// other player between theirs.
	var order []int64
	last := int64(0)
	left := slices.Clone(waiting)
	for len(left) > 0 {
		w := Pick(left, last)
		order, last = append(order, w.Player), w.Player
		left = slices.DeleteFunc(left, func(x Waiting) bool { return x.Game == w.Game })
	}
	if want := []int64{5, 7, 9, 5, 7, 5}; !slices.Equal(order, want) {
		t.Errorf("players served in the order %v, want %v", order, want)
	}
}

// TestMain runs the tests with no time cap on the robot's searches (see
// noTimeCap): their node limits decide, on a loaded machine too.
func TestMain(m *testing.M) {
	noTimeCap = true
	os.Exit(m.Run())
}
