package engine

import (
	"context"
	"testing"
	"time"

	"github.com/congobymail/congo/rules"
)

// line returns the positions of the moves played from fen: the first is
// the one of fen, the last the one after the last move.
func line(t *testing.T, fen string, moves ...string) []rules.Position {
	t.Helper()
	p := mustParse(t, fen)
	out := []rules.Position{p}
	for _, text := range moves {
		m, err := p.ParseMove(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		p = p.After(m)
		out = append(out, p)
	}
	return out
}

func TestRepetitions(t *testing.T) {
	const fen = "3l3/p6/7/7/7/3P3/3L2Z w 1"
	for _, c := range []struct {
		moves []string
		want  int
	}{
		{nil, 1},
		{[]string{"g1-f3", "d7-e7"}, 1},
		{[]string{"g1-f3", "d7-e7", "f3-g1", "e7-d7"}, 2},
		{[]string{"g1-f3", "d7-e7", "f3-g1", "e7-d7", "g1-f3", "d7-e7", "f3-g1", "e7-d7"}, 3},
		// The same board with the other side to move is another position.
		{[]string{"g1-f3", "d7-e7", "f3-g1", "e7-d7", "g1-f3"}, 2},
	} {
		if got := Repetitions(line(t, fen, c.moves...)); got != c.want {
			t.Errorf("Repetitions(%v) = %d, want %d", c.moves, got, c.want)
		}
	}
}

// The side behind goes back to a position of the game: a draw, and better
// for it than anything else. Without the game's positions it sees no
// draw.
func TestSearchGameSeeksRepetitionWhenBehind(t *testing.T) {
	// White has everything, Black a lion and a pawn; the d2 pawn keeps
	// the lions apart.
	const fen = "3l3/p6/7/7/7/PPPPPPP/2ELE1Z w 1"
	game := line(t, fen, "g1-f3", "d7-e7", "f3-g1")
	before, p := game[:len(game)-1], game[len(game)-1]
	r := New(Options{TTBits: 16}).SearchGame(context.Background(), before, p, Limits{Depth: 4})
	if r.Move.String() != "e7-d7" || r.Score != Contempt {
		t.Errorf("SearchGame(%v) = %v, score %d, want e7-d7, the draw scored %d for the side behind", p, r.Move, r.Score, Contempt)
	}
	if r := New(Options{TTBits: 16}).Search(context.Background(), p, Limits{Depth: 4}); r.Score > -AheadScore {
		t.Errorf("Search(%v) without the game = %v, score %d, want a lost position", p, r.Move, r.Score)
	}
}

// The side ahead does not go back to a position of the game: the same
// position with White's move, where g1-f3 would repeat.
func TestSearchGameAvoidsRepetitionWhenAhead(t *testing.T) {
	const fen = "3l3/p6/7/7/7/PPPPPPP/2ELE1Z w 1"
	game := line(t, fen, "g1-f3", "d7-e7", "f3-g1", "e7-d7")
	before, p := game[:len(game)-1], game[len(game)-1]
	e := New(Options{TTBits: 16})
	r := e.SearchGame(context.Background(), before, p, Limits{Depth: 4})
	after := p.After(r.Move)
	for _, q := range before {
		if q == after || q.Hash() == after.Hash() {
			t.Errorf("SearchGame(%v) = %v, back to a position of the game", p, r.Move)
		}
	}
	if r.Score < AheadScore {
		t.Errorf("SearchGame(%v) = %v, score %d, want White ahead", p, r.Move, r.Score)
	}
}

// Positions before the last capture cannot come back, and before may
// hold p itself by mistake: neither changes the search.
func TestSearchGameHistoryTail(t *testing.T) {
	const fen = "3l3/p6/7/7/7/PPPPPPP/2ELE1Z w 1"
	p := mustParse(t, fen)
	want := New(Options{TTBits: 16}).Search(context.Background(), p, Limits{Depth: 4})
	other := mustParse(t, "3l3/pp5/7/7/7/PPPPPPP/2ELE1Z w 1") // one piece more: never again
	for _, before := range [][]rules.Position{nil, {other}, {other, p}} {
		got := New(Options{TTBits: 16}).SearchGame(context.Background(), before, p, Limits{Depth: 4})
		if got.Move != want.Move || got.Score != want.Score || got.Nodes != want.Nodes {
			t.Errorf("SearchGame after %d positions = %v %d (%d nodes), want %v %d (%d nodes)",
				len(before), got.Move, got.Score, got.Nodes, want.Move, want.Score, want.Nodes)
		}
	}
}

// A match game ends as a draw when a position occurs for the third time:
// two players that walk their zebras to and fro.
func TestPlayGameThreefold(t *testing.T) {
	a := &scripted{moves: []string{"g1-f3", "f3-g1"}}
	b := &scripted{moves: []string{"g7-f5", "f5-g7"}}
	g := PlayGame(context.Background(), a, b, true, nil, 1, 300, time.Now)
	if g.Result != 0.5 || len(g.Moves) != 8 || g.Reason != "drawn: a position occurred 3 times" {
		t.Errorf("PlayGame of two shufflers = %v after %d plies (%s), want a draw after 8", g.Result, len(g.Moves), g.Reason)
	}
}

// scripted plays its moves in turn, over and over.
type scripted struct {
	moves []string
	i     int
}

func (s *scripted) Name() string   { return "scripted" }
func (s *scripted) NewGame(uint64) { s.i = 0 }
func (s *scripted) Play(_ context.Context, _ []rules.Position, p rules.Position, _ time.Time) Decision {
	m, err := p.ParseMove(s.moves[s.i%len(s.moves)])
	if err != nil {
		panic(err)
	}
	s.i++
	return Decision{Move: m}
}
