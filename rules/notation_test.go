package rules

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParseSquare(t *testing.T) {
	t.Parallel()
	for s := Square(0); s < NoSquare; s++ {
		text := s.String()
		got, err := ParseSquare(text)
		if err != nil || got != s {
			t.Errorf("ParseSquare(%q) = %v, %v, want %v", text, got, err, s)
		}
		if got, err := ParseSquare(strings.ToUpper(text)); err != nil || got != s {
			t.Errorf("ParseSquare(%q) = %v, %v, want %v", strings.ToUpper(text), got, err, s)
		}
		if s.File() != int(s)%7 || s.Rank() != int(s)/7 {
			t.Errorf("%v: File, Rank = %d, %d", s, s.File(), s.Rank())
		}
	}
	for _, c := range []struct {
		text string
		want Square
	}{
		{"a1", 0}, {"g1", 6}, {"a2", 7}, {"d4", 24}, {"g7", 48},
	} {
		if got, err := ParseSquare(c.text); err != nil || got != c.want {
			t.Errorf("ParseSquare(%q) = %v, %v, want %d", c.text, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "a", "a0", "a8", "h1", "1a", "a11", " a1"} {
		if got, err := ParseSquare(bad); err == nil {
			t.Errorf("ParseSquare(%q) = %v, want an error", bad, got)
		}
	}
}

func TestPieces(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		color  Color
		kind   Kind
		letter byte
		name   string
	}{
		{White, Lion, 'L', "white lion"},
		{Black, Lion, 'l', "black lion"},
		{White, Zebra, 'Z', "white zebra"},
		{Black, Elephant, 'e', "black elephant"},
		{White, Giraffe, 'G', "white giraffe"},
		{Black, Monkey, 'm', "black monkey"},
		{White, Crocodile, 'C', "white crocodile"},
		{Black, Pawn, 'p', "black pawn"},
		{White, Superpawn, 'S', "white superpawn"},
	} {
		p := NewPiece(c.color, c.kind)
		if p == NoPiece || p.Color() != c.color || p.Kind() != c.kind || p.Letter() != c.letter || p.String() != c.name {
			t.Errorf("NewPiece(%v, %v) = %d: Color %v, Kind %v, Letter %q, String %q; want %q, %q",
				c.color, c.kind, p, p.Color(), p.Kind(), p.Letter(), p, c.letter, c.name)
		}
		if got, ok := pieceFromLetter(c.letter); !ok || got != p {
			t.Errorf("pieceFromLetter(%q) = %v, %v, want %v", c.letter, got, ok, p)
		}
	}
	if p := NewPiece(White, NoKind); p != NoPiece {
		t.Errorf("NewPiece(White, NoKind) = %v, want NoPiece", p)
	}
	if NoPiece.Kind() != NoKind || NoPiece.Letter() != 0 {
		t.Errorf("NoPiece: Kind %v, Letter %q", NoPiece.Kind(), NoPiece.Letter())
	}
	if White.Other() != Black || Black.Other() != White || White.String() != "white" || Black.String() != "black" {
		t.Errorf("Color: Other %v %v, String %q %q", White.Other(), Black.Other(), White, Black)
	}
}

func TestR21ParsePosition(t *testing.T) {
	t.Parallel()
	p := mustParse(t, StartPosition)
	if p != Start() {
		t.Errorf("ParsePosition(StartPosition) != Start()")
	}
	// R3: the start, file by file.
	back := "GMELECZ"
	for f := 0; f < size; f++ {
		for _, c := range []struct {
			rank int
			want Piece
		}{
			{0, mustLetter(t, back[f])},
			{1, NewPiece(White, Pawn)},
			{2, NoPiece}, {3, NoPiece}, {4, NoPiece},
			{5, NewPiece(Black, Pawn)},
			{6, mustLetter(t, lower(back[f]))},
		} {
			if got := p.At(squareAt(f, c.rank)); got != c.want {
				t.Errorf("start: At(%v) = %v, want %v", squareAt(f, c.rank), got, c.want)
			}
		}
	}
	if p.Turn() != White || p.MoveNumber() != 1 {
		t.Errorf("start: Turn, MoveNumber = %v, %d, want white, 1", p.Turn(), p.MoveNumber())
	}

	for _, c := range []struct {
		in, want string
	}{
		{StartPosition, StartPosition},
		{"3l3/7/7/7/7/7/3L3 b 42", "3l3/7/7/7/7/7/3L3 b 42"},
		{"  3l3/7/7/7/7/7/3L3   w  7 ", "3l3/7/7/7/7/7/3L3 w 7"},
		{"3l3/7/7/7/7/7/3L3 w 007", "3l3/7/7/7/7/7/3L3 w 7"},
		{"3l12/7/7/52/7/7/3L3 w 1", "3l3/7/7/7/7/7/3L3 w 1"},
		{"s1elecz/p1ppppp/1P5/3C3/7/2S4/GMELE1Z b 3", "s1elecz/p1ppppp/1P5/3C3/7/2S4/GMELE1Z b 3"},
		// One lion missing: the game is over, but the position is valid;
		// the winner may stand in the other castle after a flying capture.
		{"3L3/7/7/7/7/7/7 b 1", "3L3/7/7/7/7/7/7 b 1"},
		{"3l3/7/7/7/7/7/7 w 1", "3l3/7/7/7/7/7/7 w 1"},
	} {
		p, err := ParsePosition(c.in)
		if err != nil {
			t.Errorf("ParsePosition(%q): %v", c.in, err)
			continue
		}
		if got := p.String(); got != c.want {
			t.Errorf("ParsePosition(%q).String() = %q, want %q", c.in, got, c.want)
		}
		if again := mustParse(t, p.String()); again != p {
			t.Errorf("ParsePosition(%q) does not round-trip", c.in)
		}
	}
}

func mustLetter(t *testing.T, b byte) Piece {
	t.Helper()
	p, ok := pieceFromLetter(b)
	if !ok {
		t.Fatalf("pieceFromLetter(%q) failed", b)
	}
	return p
}

func TestR21ParsePositionErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in     string
		flaw   Flaw
		rank   int
		square string // "" for NoSquare
	}{
		{"", BadFields, 0, ""},
		{"3l3/7/7/7/7/7/3L3 w", BadFields, 0, ""},
		{"3l3/7/7/7/7/7/3L3 w 1 x", BadFields, 0, ""},
		{"3l3/7/7/7/7/3L3 w 1", BadRanks, 0, ""},
		{"3l3/7/7/7/7/7/3L3/7 w 1", BadRanks, 0, ""},
		{"3l3/7/7/6/7/7/3L3 w 1", BadFiles, 4, ""},
		{"3l3/7/7/7/7/8/3L3 w 1", BadLetter, 2, ""},
		{"3l3/7/7/7/7/ppppppp1/3L3 w 1", BadFiles, 2, ""},
		{"3l4/7/7/7/7/7/3L3 w 1", BadFiles, 7, ""},
		{"3l3/7/7/3x3/7/7/3L3 w 1", BadLetter, 4, ""},
		{"3l3/7/7/7/7/7/3L3 w 1\x00", BadMoveNumber, 0, ""},
		{"3l3/7/7/7/7/7/3LL2 w 1", ExtraLion, 1, "e1"},
		{"3ll2/7/7/7/7/7/3L3 w 1", ExtraLion, 7, "e7"},
		{"7/7/7/7/7/7/7 w 1", NoLions, 0, ""},
		{"3l3/7/7/7/7/7/L6 w 1", LionOutsideCastle, 1, "a1"},
		{"3l3/7/7/3L3/7/7/7 w 1", LionOutsideCastle, 4, "d4"},
		// In the other castle, but the other lion is still there.
		{"3lL2/7/7/7/7/7/7 b 1", LionOutsideCastle, 7, "e7"},
		{"7/7/7/7/7/7/3Ll2 w 1", LionOutsideCastle, 1, "e1"},
		{"P2l3/7/7/7/7/7/3L3 w 1", PawnOnLastRank, 7, "a7"},
		{"3l3/7/7/7/7/7/3L2p b 1", PawnOnLastRank, 1, "g1"},
		{"3l3/7/7/7/7/7/3L3 x 1", BadSide, 0, ""},
		{"3l3/7/7/7/7/7/3L3 W 1", BadSide, 0, ""},
		{"3l3/7/7/7/7/7/3L3 w 0", BadMoveNumber, 0, ""},
		{"3l3/7/7/7/7/7/3L3 w -1", BadMoveNumber, 0, ""},
		{"3l3/7/7/7/7/7/3L3 w +1", BadMoveNumber, 0, ""},
		{"3l3/7/7/7/7/7/3L3 w one", BadMoveNumber, 0, ""},
		{"3l3/7/7/7/7/7/3L3 w 99999999999", BadMoveNumber, 0, ""},
	} {
		p, err := ParsePosition(c.in)
		var pe *PositionError
		if !errors.As(err, &pe) {
			t.Errorf("ParsePosition(%q) = %v, %v, want a *PositionError", c.in, p, err)
			continue
		}
		want := NoSquare
		if c.square != "" {
			want = sq(t, c.square)
		}
		if pe.Flaw != c.flaw || pe.Rank != c.rank || pe.Square != want || pe.Input != c.in || pe.Reason == "" {
			t.Errorf("ParsePosition(%q): %+v, want flaw %d, rank %d, square %v", c.in, *pe, c.flaw, c.rank, want)
		}
	}
}

func TestR20ParseMoveText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		want string // squares joined by spaces; "" for an error
	}{
		{"b2-b3", "b2 b3"},
		{"B2-B3", "b2 b3"},
		{"c3xd4", "c3 d4"},
		{"c3Xd4", "c3 d4"},
		{"b2xb3", "b2 b3"},
		{"b1xd3xf5", "b1 d3 f5"},
		{"b1-d3xf5", "b1 d3 f5"},
		{"d2-e3x", "d2 e3"},
		{"a2-c4-c6x", "a2 c4 c6"},
		{"b2 b3", "b2 b3"},
		{" b2 - b3 ", "b2 b3"},
		{"b2b3", "b2 b3"},
		{"b2\u2013b3", "b2 b3"}, // en dash, as mail programs write "-"
		{"b2\u00d7b3", "b2 b3"}, // multiplication sign
		{"", ""},
		{"   ", ""},
		{"b2", ""},
		{"b2-", ""},
		{"zz", ""},
		{"b2-b8", ""},
		{"h2-h3", ""},
		{"b2--b3", ""},
		{"-b2-b3", ""},
		{"x", ""},
		{"b2-b3 please", ""},
		{"b2-b", ""},
		{"resign", ""},
		{strings.Repeat("a1", maxPath+1), ""},
	} {
		got, err := ParseMoveText(c.in)
		if c.want == "" {
			var me *MoveError
			if !errors.As(err, &me) || me.From != NoSquare {
				t.Errorf("ParseMoveText(%q) = %v, %v, want a *MoveError", c.in, got, err)
			}
			continue
		}
		var parts []string
		for _, s := range got {
			parts = append(parts, s.String())
		}
		if err != nil || strings.Join(parts, " ") != c.want {
			t.Errorf("ParseMoveText(%q) = %v, %v, want %s", c.in, parts, err, c.want)
		}
	}
}

func TestR20MoveString(t *testing.T) {
	t.Parallel()
	ring := mustParse(t, "3l3/7/3p3/2p1p2/2Mp3/7/3L3 w 1")
	for _, c := range []struct {
		p       Position
		in      string
		want    string
		path    string
		capture bool
	}{
		{Start(), "B2 B3", "b2-b3", "b3", false},
		{Start(), "b2xb3x", "b2-b3", "b3", false},
		{mustParse(t, "3l3/7/7/7/3p3/2P4/3L3 w 1"), "c2-d3", "c2xd3", "d3", true},
		{mustParse(t, "3l3/7/7/7/7/7/3L3 w 1"), "d1-d7", "d1xd7", "d7", true},
		{ring, "c3-c5-e5x", "c3xc5xe5", "c5 e5", true},
		{ring, "c3 x e3 x e5 x c5 x c3", "c3xe3xe5xc5xc3", "e3 e5 c5 c3", true},
		{ring, "c3-c2", "c3-c2", "c2", false},
	} {
		m, err := c.p.ParseMove(c.in)
		if err != nil {
			t.Errorf("ParseMove(%q) in %q: %v", c.in, c.p, err)
			continue
		}
		var path []string
		for _, s := range m.Path() {
			path = append(path, s.String())
		}
		if m.String() != c.want || strings.Join(path, " ") != c.path || m.IsCapture() != c.capture ||
			m.From() != m.path[0] || m.To() != m.Path()[len(path)-1] {
			t.Errorf("ParseMove(%q) = %v (path %v, capture %v), want %s (path %s, capture %v)",
				c.in, m, path, m.IsCapture(), c.want, c.path, c.capture)
		}
	}
}

func TestR20ParseMove(t *testing.T) {
	t.Parallel()
	ring := mustParse(t, "3l3/7/3p3/2p1p2/2Mp3/7/3L3 w 1")
	for _, c := range []struct {
		name  string
		p     Position
		in    string
		want  string // the move, or "" for a *MoveError
		from  string // the MoveError's From, "" for NoSquare
		piece Piece
		legal []string // the MoveError's Legal
	}{
		{name: "plain", p: Start(), in: "b2-b3", want: "b2-b3"},
		{name: "mixed separators", p: ring, in: "c3-c5xe5-e3x", want: "c3xc5xe5xe3"},
		{name: "a jump before a chain to the same square", p: ring, in: "c3xe3", want: "c3xe3"},
		{name: "the ends of the one chain between them", p: mustParse(t, "7/2p4/2l4/7/2p4/1M5/3L3 w 1"), in: "b2-b6", want: "b2xd4xb6"},
		{
			// c3-e5 and c3-c3 are each reached by two chains.
			name: "ambiguous ends", p: ring, in: "c3-e5",
			from: "c3", piece: NewPiece(White, Monkey), legal: []string{"c3xc5xe5", "c3xe3xe5"},
		},
		{
			name: "ambiguous return", p: ring, in: "c3xc3",
			from: "c3", piece: NewPiece(White, Monkey), legal: []string{"c3xc5xe5xe3xc3", "c3xe3xe5xc5xc3"},
		},
		{
			name: "a chain that is not there", p: ring, in: "c3xe5xc5",
			from: "c3", piece: NewPiece(White, Monkey),
			legal: strings.Fields(movesFrom(ring, sq(t, "c3"))),
		},
		{
			name: "not a legal move", p: Start(), in: "b2-b5",
			from: "b2", piece: NewPiece(White, Pawn), legal: []string{"b2-b3", "b2-a3", "b2-c3"},
		},
		{name: "empty square", p: Start(), in: "c4-c5", from: "c4"},
		{name: "the other side's piece", p: Start(), in: "e7-e6", from: "e7", piece: NewPiece(Black, Elephant)},
		{name: "a piece with no move", p: Start(), in: "b1-b3", from: "b1", piece: NewPiece(White, Monkey)},
		{name: "not a move", p: Start(), in: "zz"},
	} {
		m, err := c.p.ParseMove(c.in)
		if c.want != "" {
			if err != nil || m.String() != c.want {
				t.Errorf("%s: ParseMove(%q) = %v, %v, want %s", c.name, c.in, m, err, c.want)
			}
			continue
		}
		var me *MoveError
		if !errors.As(err, &me) {
			t.Errorf("%s: ParseMove(%q) = %v, %v, want a *MoveError", c.name, c.in, m, err)
			continue
		}
		from := NoSquare
		if c.from != "" {
			from = sq(t, c.from)
		}
		var legal []string
		for _, l := range me.Legal {
			legal = append(legal, l.String())
		}
		slices.Sort(legal)
		c.legal = slices.Sorted(slices.Values(c.legal))
		if me.From != from || me.Piece != c.piece || !slices.Equal(legal, c.legal) || me.Input != c.in {
			t.Errorf("%s: ParseMove(%q): %+v, want From %v, Piece %v, Legal %v", c.name, c.in, *me, from, c.piece, c.legal)
		}
	}
}

// The issue names these messages; the mail server passes them on.
func TestMoveErrorText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		p        Position
		in, want string
	}{
		{Start(), "b2-b5", "b2-b5: the pawn on b2 can go to b3, a3, c3"},
		{Start(), "c4-c5", "c4-c5: there is no piece on c4"},
		{Start(), "e7-e6", "e7-e6: the elephant on e7 is black's, and it is white's move"},
		{Start(), " b1-b3 ", "b1-b3: the monkey on b1 has no legal move"},
		{Start(), "a1-a4", "a1-a4: the giraffe on a1 can go to a3, c3"},
		{mustParse(t, "3l3/7/3p3/2p1p2/2Mp3/7/3L3 w 1"), "c3-e5",
			"c3-e5: the monkey on c3 can reach e5 in 2 ways, write the squares it lands on: c3xc5xe5, c3xe3xe5"},
		{mustParse(t, "7/2p4/2l4/7/2p4/1M5/3L3 w 1"), "b2-b7",
			"b2-b7: the monkey on b2 can go to a1, b1, c1, a2, c2, a3, b3, d4, d4xb6"},
	} {
		_, err := c.p.ParseMove(c.in)
		if err == nil || err.Error() != c.want {
			t.Errorf("ParseMove(%q) error %q, want %q", c.in, err, c.want)
		}
	}
	_, err := mustParse(t, "3l3/7/7/7/7/7/2L4 w 1").ParseMove("c1-c2")
	if !errors.Is(err, ErrGameOver) || err.Error() != "c1-c2: the game is over (drawn: only the two lions are left)" {
		t.Errorf("ParseMove in a drawn game: %v, want ErrGameOver", err)
	}
}
