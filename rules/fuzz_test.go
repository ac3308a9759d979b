package rules

import (
	"errors"
	"strings"
	"testing"
)

// Seeds live in testdata/fuzz/<FuzzName>/ as well; go test runs them all.

func FuzzParsePosition(f *testing.F) {
	for _, s := range []string{
		StartPosition,
		"3l3/7/3p3/2p1p2/2Mp3/7/3L3 w 1",
		"3L3/7/7/7/7/7/7 b 1",
		"3l3/7/7/6/7/7/3L3 w 1",
		"3l3/7/7/7/7/7/3L3 w 99999999999",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePosition(s)
		if err != nil {
			var pe *PositionError
			if !errors.As(err, &pe) || pe.Input != s || pe.Flaw == NoFlaw {
				t.Fatalf("ParsePosition(%q): %v, want a *PositionError with a flaw", s, err)
			}
			return
		}
		text := p.String()
		back, err := ParsePosition(text)
		if err != nil || back != p || back.String() != text {
			t.Fatalf("ParsePosition(%q).String() = %q, which reads back as %v, %v", s, text, back, err)
		}
		if err := checkPosition(p); err != nil {
			t.Fatal(err)
		}
		for _, side := range []Color{White, Black} {
			if d := p.Diagram(side); strings.Count(d, "\n") != 9 {
				t.Fatalf("Diagram(%v) of %q has %d lines", side, s, strings.Count(d, "\n"))
			}
		}
		if got, want := Perft(p, 2), perftSlow(p, 2); got != want {
			t.Fatalf("Perft(%q, 2) = %d, over Legal and Apply %d", s, got, want)
		}
	})
}

// fuzzPositions are the positions FuzzParseMove tries moves in.
var fuzzPositions = []string{
	StartPosition,
	"3l3/7/3p3/2p1p2/2Mp3/7/3L3 w 1",
	"7/2p4/2l4/7/2p4/1M5/3L3 w 1",
	"3l3/7/3pp2/c1M4/7/7/2L4 w 1",
	"3l3/3p3/1PSp3/1p5/4P2/7/3L3 w 1",
	"3L3/7/7/7/7/7/7 b 1",
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"b2-b3", "c3xc5xe5", "c3-e5", "a2-c4-c6x", "B2 x B3", "zz", "c4-c5", "e7-e6"} {
		f.Add(uint8(0), s)
		f.Add(uint8(1), s)
	}
	f.Fuzz(func(t *testing.T, i uint8, text string) {
		p, err := ParsePosition(fuzzPositions[int(i)%len(fuzzPositions)])
		if err != nil {
			t.Fatal(err)
		}
		squares, textErr := ParseMoveText(text)
		m, err := p.ParseMove(text)
		if err != nil {
			var me *MoveError
			if !errors.Is(err, ErrGameOver) && !errors.As(err, &me) {
				t.Fatalf("ParseMove(%q) in %q: %v, want ErrGameOver or a *MoveError", text, p, err)
			}
			return
		}
		if textErr != nil || squares[0] != m.From() || squares[len(squares)-1] != m.To() {
			t.Fatalf("ParseMove(%q) = %v, but ParseMoveText gives %v, %v", text, m, squares, textErr)
		}
		if !p.isLegal(m) {
			t.Fatalf("ParseMove(%q) in %q = %v, not a legal move", text, p, m)
		}
		if back, err := p.ParseMove(m.String()); err != nil || back != m {
			t.Fatalf("ParseMove(%q) = %v, %v, want %v", m, back, err, m)
		}
		next, eff := p.Apply(m)
		if err := checkEffects(p, next, eff); err != nil {
			t.Fatalf("%q, %v: %v", p, m, err)
		}
	})
}

// FuzzPlay plays a game from the start, each byte choosing the next move
// among the legal ones, and checks every position on the way: no panic,
// the position round-trips, each legal move parses back to itself and is
// listed once, at most one lion a side, Effects agree with the change.
func FuzzPlay(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09"))
	f.Add([]byte(strings.Repeat("congo by mail", 20)))
	f.Fuzz(func(t *testing.T, choices []byte) {
		if err := checkGame(choices); err != nil {
			t.Fatal(err)
		}
	})
}
