package rules

import (
	"errors"
	"strings"
	"testing"
)

// placed writes pieces as "b4 white pawn, c4 white monkey".
func placed(list []Placed) string {
	var parts []string
	for _, p := range list {
		parts = append(parts, p.Square.String()+" "+p.Piece.String())
	}
	return strings.Join(parts, ", ")
}

type playCase struct {
	name     string
	pos      string
	moves    []string // played in order; the last one's effects are checked
	want     string   // the position after the moves
	captured string
	drowned  string
	promoted bool
	outcome  Outcome
}

func testPlay(t *testing.T, cases []playCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := mustParse(t, c.pos)
			var eff Effects
			for _, text := range c.moves {
				var err error
				before := p
				if p, eff, err = p.Play(text); err != nil {
					t.Fatalf("Play(%q) in %q: %v", text, before, err)
				}
				if eff.Move.String() != text || eff.Piece != before.At(eff.Move.From()) {
					t.Errorf("Play(%q) in %q: Effects.Move, Piece = %v, %v", text, before, eff.Move, eff.Piece)
				}
			}
			if got := p.String(); got != c.want {
				t.Errorf("after %v: position %q, want %q", c.moves, got, c.want)
			}
			if got := placed(eff.Captured); got != c.captured {
				t.Errorf("after %v: captured %q, want %q", c.moves, got, c.captured)
			}
			if got := placed(eff.Drowned); got != c.drowned {
				t.Errorf("after %v: drowned %q, want %q", c.moves, got, c.drowned)
			}
			if eff.Promoted != c.promoted {
				t.Errorf("after %v: promoted %v, want %v", c.moves, eff.Promoted, c.promoted)
			}
			if eff.Outcome != c.outcome {
				t.Errorf("after %v: outcome %v, want %v", c.moves, eff.Outcome, c.outcome)
			}
			if got := p.Outcome(); got != eff.Outcome {
				t.Errorf("after %v: Outcome() = %v, Effects.Outcome = %v", c.moves, got, eff.Outcome)
			}
			if back, err := ParsePosition(c.want); err != nil || back != p {
				t.Errorf("ParsePosition(%q) = %v, %v; want the position played to", c.want, back, err)
			}
		})
	}
}

var (
	whiteWins = Outcome{State: Won, Winner: White, Reason: LionCaptured}
	blackWins = Outcome{State: Won, Winner: Black, Reason: LionCaptured}
)

func TestR8Chains(t *testing.T) {
	t.Parallel()
	testPlay(t, []playCase{
		{
			// Back on its start square, with all four pawns of the ring.
			name: "round the ring", pos: "3l3/7/3p3/2p1p2/2Mp3/7/3L3 w 1", moves: []string{"c3xe3xe5xc5xc3"},
			want: "3l3/7/7/7/2M4/7/3L3 b 1", captured: "d3 black pawn, e4 black pawn, d5 black pawn, c4 black pawn",
		},
		{
			name: "stopping half way", pos: "3l3/7/3p3/2p1p2/2Mp3/7/3L3 w 1", moves: []string{"c3xc5xe5"},
			want: "3l3/7/4M2/4p2/3p3/7/3L3 b 1", captured: "c4 black pawn, d5 black pawn",
		},
	})
}

func TestR11Promotion(t *testing.T) {
	t.Parallel()
	testPlay(t, []playCase{
		{
			name: "by a move", pos: "2ml3/1P5/7/7/7/7/3L3 w 1", moves: []string{"b6-b7"},
			want: "1Sml3/7/7/7/7/7/3L3 b 1", promoted: true,
		},
		{
			name: "by a capture", pos: "2ml3/1P5/7/7/7/7/3L3 w 1", moves: []string{"b6xc7"},
			want: "2Sl3/7/7/7/7/7/3L3 b 1", captured: "c7 black monkey", promoted: true,
		},
		{
			name: "black", pos: "3l3/7/7/7/7/4p2/3L3 b 1", moves: []string{"e2-e1"},
			want: "3l3/7/7/7/7/7/3Ls2 w 2", promoted: true,
		},
		{
			name: "capturing the lion", pos: "3l3/7/7/7/7/4p2/3L3 b 1", moves: []string{"e2xd1"},
			want: "3l3/7/7/7/7/7/3s3 w 2", captured: "d1 white lion", promoted: true, outcome: blackWins,
		},
		{
			name: "not before the last rank", pos: "2ml3/7/1P5/7/7/7/3L3 w 1", moves: []string{"b5-b6"},
			want: "2ml3/1P5/7/7/7/7/3L3 b 1",
		},
	})
}

func TestR13Drowning(t *testing.T) {
	t.Parallel()
	testPlay(t, []playCase{
		{
			// b4 ends a second turn in the river; the black pawn on f4 is
			// not White's.
			name: "a piece left in the river drowns", pos: "3l3/7/7/1P3p1/7/7/3L2Z w 1", moves: []string{"g1-f3"},
			want: "3l3/7/7/5p1/5Z1/7/3L3 b 1", drowned: "b4 white pawn",
		},
		{
			name: "b: entering the river", pos: "3l3/7/7/7/1P5/7/3L3 w 1", moves: []string{"b3-b4"},
			want: "3l3/7/7/1P5/7/7/3L3 b 1",
		},
		{
			name: "b: the next own move drowns it", pos: "3l3/7/7/7/1P5/7/3L3 w 1", moves: []string{"b3-b4", "d7-d6", "d1-d2"},
			want: "7/3l3/7/7/7/3L3/7 b 2", drowned: "b4 white pawn",
		},
		{
			name: "moving along the river", pos: "3l3/7/7/1E5/7/7/3L3 w 1", moves: []string{"b4-d4"},
			want: "3l3/7/7/7/7/7/3L3 b 1", drowned: "d4 white elephant",
		},
		{
			name: "a: a crocodile stays", pos: "3l3/7/7/1C5/7/7/3L2Z w 1", moves: []string{"g1-f3"},
			want: "3l3/7/7/1C5/5Z1/7/3L3 b 1",
		},
		{
			name: "a: a crocodile moves along the river", pos: "3l3/7/7/1C5/7/7/3L2Z w 1", moves: []string{"b4-f4"},
			want: "3l3/7/7/5C1/7/7/3L2Z b 1",
		},
		{
			name: "black drowns on black's move", pos: "3l3/7/7/4p2/7/7/3L2Z b 1", moves: []string{"d7-d6"},
			want: "7/3l3/7/7/7/7/3L2Z w 2", drowned: "e4 black pawn",
		},
		{
			name: "a monkey stepping along the river", pos: "3l3/7/7/M6/7/7/3L3 w 1", moves: []string{"a4-b4"},
			want: "3l3/7/7/7/7/7/3L3 b 1", drowned: "b4 white monkey",
		},
		{
			// R14: the capture stands although the monkey drowns.
			name: "c: a chain that stays in the river", pos: "3l3/7/7/Mp5/7/7/3L3 w 1", moves: []string{"a4xc4"},
			want: "3l3/7/7/7/7/7/3L3 b 1", captured: "b4 black pawn", drowned: "c4 white monkey",
		},
		{
			// The worked example: c4 over d5 to e6, out of the river, then
			// over e5 back to e4. The black crocodile on a4 is not White's.
			name: "c: a chain that leaves the river and comes back", pos: "3l3/7/3pp2/c1M4/7/7/2L4 w 1", moves: []string{"c4xe6xe4"},
			want: "3l3/7/7/c3M2/7/7/2L4 b 1", captured: "d5 black pawn, e5 black pawn",
		},
		{
			name: "c: then it must leave", pos: "3l3/7/3pp2/c1M4/7/7/2L4 w 1", moves: []string{"c4xe6xe4", "d7-d6", "c1-d1"},
			want: "7/3l3/7/c6/7/7/3L3 b 2", drowned: "e4 white monkey",
		},
		{
			name: "c: a chain from outside the river into it", pos: "3l3/7/7/7/1p5/M6/3L3 w 1", moves: []string{"a2xc4"},
			want: "3l3/7/7/2M4/7/7/3L3 b 1", captured: "b3 black pawn",
		},
	})
}

func TestR14CapturesStand(t *testing.T) {
	t.Parallel()
	testPlay(t, []playCase{
		{
			// The zebra takes the lion; the pawn left in the river still
			// drowns after the capture (R15: the position after the move
			// has its drownings).
			name: "drowning after a winning capture", pos: "3l3/7/4Z2/1P5/7/7/3L3 w 1", moves: []string{"e5xd7"},
			want: "3Z3/7/7/7/7/7/3L3 b 1", captured: "d7 black lion", drowned: "b4 white pawn", outcome: whiteWins,
		},
		{
			name: "the capturing piece drowns", pos: "3l3/7/7/Ep5/7/7/3L3 w 1", moves: []string{"a4xb4"},
			want: "3l3/7/7/7/7/7/3L3 b 1", captured: "b4 black pawn", drowned: "b4 white elephant",
		},
	})
}

func TestR15LionCaptured(t *testing.T) {
	t.Parallel()
	testPlay(t, []playCase{
		{
			// The lion leaves its castle only so, and the position after it
			// (a lion in the other castle, the other lion gone) is valid.
			name: "flying capture", pos: "3l3/7/7/7/7/7/3L3 w 1", moves: []string{"d1xd7"},
			want: "3L3/7/7/7/7/7/7 b 1", captured: "d7 black lion", outcome: whiteWins,
		},
		{
			name: "black flies", pos: "2l4/7/7/7/7/7/2L4 b 1", moves: []string{"c7xc1"},
			want: "7/7/7/7/7/7/2l4 w 2", captured: "c1 white lion", outcome: blackWins,
		},
		{
			name: "by a monkey's chain", pos: "7/2p4/2l4/7/2p4/1M5/3L3 w 1", moves: []string{"b2xd4xb6"},
			want: "7/1Mp4/7/7/7/7/3L3 b 1", captured: "c3 black pawn, c5 black lion", outcome: whiteWins,
		},
		{
			name: "by a pawn", pos: "3l3/2P4/7/7/7/7/3L3 w 1", moves: []string{"c6xd7"},
			want: "3S3/7/7/7/7/7/3L3 b 1", captured: "d7 black lion", promoted: true, outcome: whiteWins,
		},
	})
	for _, c := range []struct {
		pos  string
		want Outcome
	}{
		{"3L3/7/7/7/7/7/7 b 1", whiteWins},
		{"7/7/7/7/7/7/2l4 w 2", blackWins},
		{"3l3/ppppppp/7/7/7/7/7 w 9", blackWins},
	} {
		p := mustParse(t, c.pos)
		if got := p.Outcome(); got != c.want {
			t.Errorf("ParsePosition(%q).Outcome() = %v, want %v", c.pos, got, c.want)
		}
		if got := p.Legal(); got != nil {
			t.Errorf("ParsePosition(%q).Legal() = %v, want nil", c.pos, got)
		}
		if _, err := p.ParseMove("a6-a5"); !errors.Is(err, ErrGameOver) {
			t.Errorf("ParsePosition(%q).ParseMove: %v, want ErrGameOver", c.pos, err)
		}
	}
}

// frozen is a position where White has no legal move: every white monkey
// is walled in by its own pieces and by black pawns whose squares beyond
// are all taken, and the lion on d1 has only white neighbours in its castle.
// Black's river pieces are crocodiles, which never drown (R13 a).
const frozen = "3l3/7/7/ccccccc/ppppppp/MMMMMMM/MMMLMMM w 1"

func TestR16NoLegalMove(t *testing.T) {
	t.Parallel()
	p := mustParse(t, frozen)
	lost := Outcome{State: Won, Winner: Black, Reason: NoLegalMove}
	if got := p.Outcome(); got != lost {
		t.Errorf("ParsePosition(%q).Outcome() = %v, want %v", frozen, got, lost)
	}
	if got := p.Legal(); got != nil {
		t.Errorf("ParsePosition(%q).Legal() = %v, want nil", frozen, got)
	}
	if got := Perft(p, 1); got != 0 {
		t.Errorf("Perft(%q, 1) = %d, want 0", frozen, got)
	}
	testPlay(t, []playCase{
		{
			// The zebra closes the last gap, on g3.
			name: "a move leaving no reply", pos: "3l3/7/5z1/ccccccc/pppppp1/MMMMMMM/MMMLMMM b 1", moves: []string{"f5-g3"},
			want: "3l3/7/7/ccccccc/ppppppz/MMMMMMM/MMMLMMM w 2", outcome: lost,
		},
		{
			// Black's own move leaves Black with moves: no stalemate draw
			// for anyone, and the gap on g3 gives White a way out.
			name: "one gap is enough", pos: "3l3/7/5z1/ccccccc/pppppp1/MMMMMMM/MMMLMMM b 1", moves: []string{"f5-g7"},
			want: "3l2z/7/7/ccccccc/pppppp1/MMMMMMM/MMMLMMM w 2",
		},
	})
}

func TestR17BareLions(t *testing.T) {
	t.Parallel()
	draw := Outcome{State: Drawn, Reason: BareLions}
	for _, c := range []struct {
		pos   string
		want  Outcome
		moves int
	}{
		{"3l3/7/7/7/7/7/2L4 w 1", draw, 0},
		{"2l4/7/7/7/7/7/4L2 b 5", draw, 0},
		// The side to move can take the other lion: play goes on, with
		// every lion move (d1: c1 e1 c2 d2 e2, and d1xd7).
		{"3l3/7/7/7/7/7/3L3 w 1", Outcome{}, 6},
		// c5: d5 c6 d6 in its castle, and c5xe3 along the diagonal.
		{"7/7/2l4/7/4L2/7/7 b 1", Outcome{}, 4},
		// A third piece: no draw, though neither lion can take.
		{"3l3/7/7/7/7/7/P1L4 w 1", Outcome{}, 5},
	} {
		p := mustParse(t, c.pos)
		if got := p.Outcome(); got != c.want {
			t.Errorf("ParsePosition(%q).Outcome() = %v, want %v", c.pos, got, c.want)
		}
		if got := len(p.Legal()); got != c.moves {
			t.Errorf("len(ParsePosition(%q).Legal()) = %d, want %d", c.pos, got, c.moves)
		}
	}
	testPlay(t, []playCase{
		{
			name: "by capturing the last piece", pos: "3l3/7/7/7/7/2p4/2L4 w 1", moves: []string{"c1xc2"},
			want: "3l3/7/7/7/7/2L4/7 b 1", captured: "c2 black pawn", outcome: draw,
		},
		{
			// After d1xd2 the black lion can fly down the open d-file.
			name: "not when the other lion can fly", pos: "3l3/7/7/7/7/3p3/3L3 w 1", moves: []string{"d1xd2"},
			want: "3l3/7/7/7/7/3L3/7 b 1", captured: "d2 black pawn",
		},
	})
}

func TestOutcomeString(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		o    Outcome
		want string
	}{
		{Outcome{}, "the game goes on"},
		{whiteWins, "white won: black's lion was captured"},
		{Outcome{State: Won, Winner: Black, Reason: NoLegalMove}, "black won: white has no legal move"},
		{Outcome{State: Drawn, Reason: BareLions}, "drawn: only the two lions are left"},
	} {
		if got := c.o.String(); got != c.want {
			t.Errorf("%#v.String() = %q, want %q", c.o, got, c.want)
		}
		if got, want := c.o.Over(), c.o.State != Playing; got != want {
			t.Errorf("%v.Over() = %v, want %v", c.o, got, want)
		}
	}
}

// Apply panics on a move that is not legal in the position: a move
// belongs to one position, and using it in another is the caller's bug.
func TestApplyRefusesForeignMove(t *testing.T) {
	t.Parallel()
	p := Start()
	m, err := p.ParseMove("b2-b3")
	if err != nil {
		t.Fatal(err)
	}
	next, _ := p.Apply(m)
	defer func() {
		if recover() == nil {
			t.Errorf("Apply(%v) in %q did not panic", m, next)
		}
	}()
	next.Apply(m)
}

// TestReasonRoundTrip: every reason a game ends for reads back from its
// words, as records and the database write them.
func TestReasonRoundTrip(t *testing.T) {
	t.Parallel()
	for r := LionCaptured; r <= Adjudicated; r++ {
		if got, err := ParseReason(r.String()); err != nil || got != r {
			t.Errorf("ParseReason(%q) = %v, %v, want %v", r.String(), got, err, r)
		}
	}
	if _, err := ParseReason("fell asleep"); err == nil {
		t.Error(`ParseReason("fell asleep") succeeded`)
	}
}
