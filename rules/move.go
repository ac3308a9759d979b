package rules

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// maxPath is the most squares a move can name: the start and one landing
// square per piece a monkey jumps (R8). A chain lands only on squares whose
// file and rank have the parities of its start, and jumps each piece once.
// For the 16 squares with even file and rank (a1, c1, ...), the pieces that
// can be jumped stand on the 33 other squares, and the other classes of
// squares allow fewer jumps: so 33 jumps at most, whatever the position.
const maxPath = 1 + 33

// Move is a move of one piece: its start square and the squares it lands
// on. Moves are comparable values; get them from Position.Legal or
// Position.ParseMove.
type Move struct {
	path    [maxPath]Square // path[0] is the start square
	n       uint8           // squares used in path, at least 2
	capture bool
}

// From returns the square the move starts on.
func (m Move) From() Square { return m.path[0] }

// To returns the square the move ends on.
func (m Move) To() Square {
	if m.n == 0 {
		return NoSquare
	}
	return m.path[m.n-1]
}

// Path returns the squares the piece lands on, in order: one square for all
// moves but a monkey's chain of jumps (R8).
func (m Move) Path() []Square {
	if m.n == 0 {
		return nil
	}
	return append([]Square(nil), m.path[1:m.n]...)
}

// IsCapture reports whether the move captures.
func (m Move) IsCapture() bool { return m.capture }

// String returns the move in the canonical R20 notation: "b2-b3", "c3xd4",
// "b1xd3xf5".
func (m Move) String() string {
	if m.n == 0 {
		return "none"
	}
	sep := byte('-')
	if m.capture {
		sep = 'x'
	}
	b := make([]byte, 0, 3*int(m.n))
	for i, s := range m.path[:m.n] {
		if i > 0 {
			b = append(b, sep)
		}
		b = append(b, byte('a'+s.File()), byte('1'+s.Rank()))
	}
	return string(b)
}

// landings returns the landing squares of m as text joined by "x", for
// listing where a piece can go.
func (m Move) landings() string {
	s := m.String()
	return s[3:]
}

// ErrGameOver is returned, wrapped, for a move tried in a finished game.
var ErrGameOver = errors.New("the game is over")

// MoveError is the error for text that is not a legal move in a position:
// what is wrong, and what the piece named could do instead.
type MoveError struct {
	Input  string // the move as written, trimmed
	From   Square // the start square written, NoSquare if none could be read
	Piece  Piece  // the piece on From, NoPiece if none
	Legal  []Move // the legal moves of that piece (or the candidates, when ambiguous)
	Reason string // what is wrong, for people: fmt.Sprintf(Format, Args...)
	// Format and Args make Reason, so that a mail can say it in another
	// language: Format is the key of its translations. A Kind among Args
	// is a piece's name.
	Format string
	Args   []any
}

// say sets the reason of e to fmt.Sprintf(format, args...).
func (e *MoveError) say(format string, args ...any) {
	e.Format, e.Args, e.Reason = format, args, fmt.Sprintf(format, args...)
}

func (e *MoveError) Error() string {
	if e.Input == "" {
		return e.Reason
	}
	return e.Input + ": " + e.Reason
}

// ParseMoveText reads the squares of a move as a player writes it (R20):
// the start square and each landing square, joined by "-" or "x" in any mix,
// in either case, with or without spaces, with an optional trailing "x" (as
// in "a2-c4-c6x"). It checks the syntax only, not legality. The errors are
// *MoveError.
func ParseMoveText(text string) ([]Square, error) {
	input := strings.TrimSpace(text)
	fail := func(format string, args ...any) ([]Square, error) {
		e := &MoveError{Input: input, From: NoSquare}
		e.say(format, args...)
		return nil, e
	}
	if input == "" {
		return fail("not a move: it is empty; write squares like b2-b3")
	}
	var squares []Square
	sep := true // a separator was seen (or nothing yet)
	for i := 0; i < len(input); {
		r, w := utf8.DecodeRuneInString(input[i:])
		switch {
		case r == ' ' || r == '\t':
			i += w
			continue
		case r == 'x' || r == 'X' || r == '-' || r == '\u2013' || r == '\u2014' || r == '\u00d7':
			// x and - are interchangeable (R20); mail programs turn - into
			// dashes and x into a multiplication sign.
			if sep && len(squares) > 0 {
				return fail("not a move: two separators in a row")
			}
			if len(squares) == 0 {
				return fail("not a move: it starts with %q; start with a square like b2", r)
			}
			sep = true
			i += w
			continue
		}
		if i+2 > len(input) {
			return fail("not a move: %q is not a square", input[i:])
		}
		sq, err := ParseSquare(input[i : i+2])
		if err != nil {
			return fail("not a move: %q is not a square (files a-g, ranks 1-7)", input[i:min(i+2, len(input))])
		}
		if len(squares) == maxPath {
			return fail("not a move: more than %d squares", maxPath)
		}
		squares = append(squares, sq)
		sep = false
		i += 2
	}
	if len(squares) < 2 {
		return fail("not a move: want a start square and where the piece goes, like b2-b3")
	}
	return squares, nil
}

// ParseMove resolves a move written by a player (R20) against the legal
// moves of p. The squares written must match a legal move's; when only a
// start and an end square are written, the one legal move between them is
// taken. A move in a finished game gives an error wrapping ErrGameOver;
// other errors are *MoveError.
func (p Position) ParseMove(text string) (Move, error) {
	input := strings.TrimSpace(text)
	if o := p.Outcome(); o.Over() {
		return Move{}, fmt.Errorf("%s: %w (%s)", input, ErrGameOver, o)
	}
	squares, err := ParseMoveText(input)
	if err != nil {
		return Move{}, err
	}
	from := squares[0]
	pc := p.board[from]
	e := &MoveError{Input: input, From: from, Piece: pc}
	switch {
	case pc == NoPiece:
		e.say("there is no piece on %s", from)
		return Move{}, e
	case pc.Color() != p.turn && pc.Color() == White:
		e.say("the %s on %s is white's, and it is black's move", pc.Kind(), from)
		return Move{}, e
	case pc.Color() != p.turn:
		e.say("the %s on %s is black's, and it is white's move", pc.Kind(), from)
		return Move{}, e
	}
	var moves []Move
	p.genFrom(from, &moves)
	e.Legal = moves
	written := pathOf(squares)
	var ends []Move
	for _, m := range moves {
		if int(m.n) == len(squares) && m.path == written {
			return m, nil
		}
		if m.To() == squares[len(squares)-1] {
			ends = append(ends, m)
		}
	}
	if len(squares) == 2 && len(ends) == 1 {
		return ends[0], nil
	}
	if len(squares) == 2 && len(ends) > 1 {
		e.Legal = ends
		e.say("the %s on %s can reach %s in %d ways, write the squares it lands on: %s",
			pc.Kind(), from, squares[1], len(ends), joinMoves(ends, Move.String))
		return Move{}, e
	}
	if len(moves) == 0 {
		e.say("the %s on %s has no legal move", pc.Kind(), from)
		return Move{}, e
	}
	e.say("the %s on %s can go to %s", pc.Kind(), from, joinMoves(moves, Move.landings))
	return Move{}, e
}

// pathOf returns squares as a Move's path array.
func pathOf(squares []Square) [maxPath]Square {
	var a [maxPath]Square
	copy(a[:], squares)
	return a
}

func joinMoves(moves []Move, f func(Move) string) string {
	var b strings.Builder
	for i, m := range moves {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f(m))
	}
	return b.String()
}

// Play parses text as a move in p (see ParseMove) and applies it.
func (p Position) Play(text string) (Position, Effects, error) {
	m, err := p.ParseMove(text)
	if err != nil {
		return p, Effects{}, err
	}
	next, eff := p.Apply(m)
	return next, eff, nil
}
