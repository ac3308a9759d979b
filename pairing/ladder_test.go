package pairing

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestInReach(t *testing.T) {
	t.Parallel()
	tests := []struct {
		from, to int
		want     bool
	}{
		{2, 1, true}, {4, 1, true}, {5, 1, false}, {7, 4, true}, {7, 3, false},
		{3, 3, false}, {3, 4, false}, {1, 0, false},
	}
	for _, tt := range tests {
		if got := InReach(tt.from, tt.to); got != tt.want {
			t.Errorf("InReach(%d, %d) = %v, want %v", tt.from, tt.to, got, tt.want)
		}
	}
}

// TestLadderPlay: a ladder's places after each kind of result (M73).
func TestLadderPlay(t *testing.T) {
	t.Parallel()
	start := "ann bob cy dan eve"
	tests := []struct {
		name                  string
		challenger, challenge string
		result                Result
		want                  string // the ladder after
		moves                 string // "handle from>to" each
	}{
		{"won, one place up", "cy", "bob", w, "ann cy bob dan eve", "cy 3>2, bob 2>3"},
		{"won, two places up", "dan", "bob", w, "ann dan bob cy eve", "dan 4>2, bob 2>3, cy 3>4"},
		{"won, three places up, to the top", "dan", "ann", w, "dan ann bob cy eve", "dan 4>1, ann 1>2, bob 2>3, cy 3>4"},
		{"won from the bottom", "eve", "bob", w, "ann eve bob cy dan", "eve 5>2, bob 2>3, cy 3>4, dan 4>5"},
		{"drawn", "dan", "ann", d, start, ""},
		{"lost", "dan", "ann", b, start, ""},
		{"not ended", "dan", "ann", u, start, ""},
	}
	for _, tt := range tests {
		l := LadderOrder(strings.Fields(start))
		moves, err := l.Play(Game{White: tt.challenger, Black: tt.challenge, Result: tt.result})
		if err != nil {
			t.Errorf("%s: Play = %v", tt.name, err)
			continue
		}
		if got := strings.Join(l, " "); got != tt.want {
			t.Errorf("%s: the ladder is %q, want %q", tt.name, got, tt.want)
		}
		var ms []string
		for _, m := range moves {
			ms = append(ms, m.Handle+" "+strconv.Itoa(m.From)+">"+strconv.Itoa(m.To))
		}
		if got := strings.Join(ms, ", "); got != tt.moves {
			t.Errorf("%s: moves %q, want %q", tt.name, got, tt.moves)
		}
	}

	// A run of a ladder: places 3 to 5 of it; the moves count from the
	// run's top.
	run := LadderOrder{"cy", "dan", "eve"}
	moves, err := run.Play(Game{White: "eve", Black: "cy", Result: w})
	if err != nil || !slices.Equal(run, LadderOrder{"eve", "cy", "dan"}) || len(moves) != 3 || moves[0] != (LadderMove{"eve", 3, 1}) {
		t.Errorf("Play on a run = %v, %v; the run %q", moves, err, run)
	}

	for _, g := range []Game{
		{White: "bob", Black: "cy", Result: w},  // the challenger above
		{White: "cy", Black: "cy", Result: w},   // themselves
		{White: "zed", Black: "ann", Result: w}, // not on it
		{White: "cy", Black: "zed", Result: w},
	} {
		l := LadderOrder(strings.Fields(start))
		if _, err := l.Play(g); !errors.Is(err, errPlayers) {
			t.Errorf("Play(%v) = %v, want an error of players", g, err)
		}
		if got := strings.Join(l, " "); got != start {
			t.Errorf("Play(%v) that failed left %q", g, got)
		}
	}
}

// TestLadderStandings: wins, draws and losses in the ladder's games, by
// place, M73's lines.
func TestLadderStandings(t *testing.T) {
	t.Parallel()
	l := LadderOrder{"dan", "ann", "bob", "cy"}
	games := []Game{
		{White: "dan", Black: "ann", Result: w},
		{White: "cy", Black: "bob", Result: d},
		{White: "bob", Black: "ann", Result: b},
		{White: "cy", Black: "dan", Result: u},
		{White: "zed", Black: "ann", Result: b}, // zed left the ladder
	}
	got := FormatLadder(LadderStandings(l, games))
	want := "1. dan  (1-0-0)\n2. ann  (2-0-1)\n3. bob  (0-1-1)\n4. cy  (0-1-0)\n"
	if got != want {
		t.Errorf("LadderStandings =\n%s\nwant\n%s", got, want)
	}
}

// BenchmarkLadderPlay applies a result to a ladder of 10,000 players:
// the player at place 5,003 beats the one at 5,000 and takes the place,
// three players moving down one.
func BenchmarkLadderPlay(b *testing.B) {
	l := make(LadderOrder, 10000)
	for i := range l {
		l[i] = fmt.Sprintf("player%05d", i)
	}
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		if _, err := l.Play(Game{White: l[5002], Black: l[4999], Result: WhiteWon}); err != nil {
			b.Fatal(err)
		}
	}
}
