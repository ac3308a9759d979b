package rules

import (
	"fmt"
	"slices"
	"testing"
)

// checkSearchAPI checks the fast paths of search.go against Legal and
// Apply in p, whose legal moves are legal.
func checkSearchAPI(p Position, legal []Move) error {
	if got, want := p.Hash(), p.zobrist(); got != want {
		return fmt.Errorf("Hash() = %#x, from scratch %#x", got, want)
	}
	if got := p.AppendLegal(nil); !slices.Equal(got, legal) {
		return fmt.Errorf("AppendLegal = %v, want %v", got, legal)
	}
	var captures []Move
	for _, m := range legal {
		if m.IsCapture() {
			captures = append(captures, m)
		}
	}
	if got := p.AppendCaptures(nil); !slices.Equal(got, captures) {
		return fmt.Errorf("AppendCaptures = %v, want %v", got, captures)
	}
	for _, m := range legal {
		next, _ := p.Apply(m)
		if got := p.After(m); got != next {
			return fmt.Errorf("After(%v) = %q, want %q", m, got, next)
		}
		if got, want := next.Hash(), next.zobrist(); got != want {
			return fmt.Errorf("after %v: Hash() = %#x, from scratch %#x", m, got, want)
		}
		if !slices.Equal(m.Path(), pathByIndex(m)) {
			return fmt.Errorf("%v: PathAt gives %v, Path %v", m, pathByIndex(m), m.Path())
		}
	}
	for c := White; c <= Black && p.lion[White] != NoSquare && p.lion[Black] != NoSquare; c++ {
		q := p
		q.turn = c
		var hit uint64
		for _, m := range q.AppendCaptures(nil) {
			hit |= capturedBy(&q, m)
		}
		for s := Square(0); s < NoSquare; s++ {
			if got, want := p.Attacks(c, s), hit&s.bit() != 0; got != want {
				return fmt.Errorf("Attacks(%v, %v) = %v, want %v", c, s, got, want)
			}
		}
	}
	return nil
}

// capturedBy returns the squares m captures on in p.
func capturedBy(p *Position, m Move) uint64 {
	if p.board[m.From()].Kind() != Monkey {
		return m.To().bit()
	}
	var b uint64
	for i := 1; i < int(m.n); i++ {
		b |= ((m.path[i-1] + m.path[i]) / 2).bit()
	}
	return b
}

func pathByIndex(m Move) []Square {
	var out []Square
	for i := range m.PathLen() {
		out = append(out, m.PathAt(i))
	}
	return out
}

func TestHash(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{StartPosition, "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 7", true},
		{StartPosition, "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ b 1", false},
		{"3l3/7/7/7/7/7/3L3 w 1", "3l3/7/7/7/7/7/2L4 w 1", false},
		{"3l3/7/7/7/7/P6/3L3 w 1", "3l3/7/7/7/7/p6/3L3 w 1", false},
	} {
		a, b := mustParse(t, c.a), mustParse(t, c.b)
		if got := a.Hash() == b.Hash(); got != c.same {
			t.Errorf("Hash(%q) == Hash(%q) is %v, want %v", c.a, c.b, got, c.same)
		}
	}
	// The same board by two move orders.
	p1, p2 := Start(), Start()
	for _, m := range []string{"b2-b3", "b6-b5", "c2-c3"} {
		p1, _, _ = p1.Play(m)
	}
	for _, m := range []string{"c2-c3", "b6-b5", "b2-b3"} {
		p2, _, _ = p2.Play(m)
	}
	if p1 != p2 || p1.Hash() != p2.Hash() {
		t.Errorf("transposed games give %q (%#x) and %q (%#x)", p1, p1.Hash(), p2, p2.Hash())
	}
}

func TestLionAndOccupied(t *testing.T) {
	t.Parallel()
	p := mustParse(t, "3l3/7/7/7/7/P6/3L3 w 1")
	if got := p.Lion(White); got != 3 {
		t.Errorf("Lion(White) = %v, want d1", got)
	}
	if got := p.Lion(Black); got != 45 {
		t.Errorf("Lion(Black) = %v, want d7", got)
	}
	if got, want := p.Occupied(White), uint64(1<<3|1<<7); got != want {
		t.Errorf("Occupied(White) = %#x, want %#x", got, want)
	}
	if got, want := p.Occupied(Black), uint64(1<<45); got != want {
		t.Errorf("Occupied(Black) = %#x, want %#x", got, want)
	}
	won := mustParse(t, "3L3/7/7/7/7/7/7 b 1")
	if got := won.Lion(Black); got != NoSquare {
		t.Errorf("Lion(Black) = %v, want none", got)
	}
	if got := won.AppendLegal(nil); got != nil {
		t.Errorf("AppendLegal in a finished game = %v, want nothing", got)
	}
}

func BenchmarkAppendLegal(b *testing.B) {
	p := Start()
	buf := make([]Move, 0, 128)
	for b.Loop() {
		buf = p.AppendLegal(buf[:0])
	}
}
