package rating

import (
	"math"
	"testing"
)

// near reports whether two ratings agree to the given tolerances.
func near(got, want Rating, r, rd, vol float64) bool {
	return math.Abs(got.Rating-want.Rating) <= r && math.Abs(got.Deviation-want.Deviation) <= rd &&
		math.Abs(got.Volatility-want.Volatility) <= vol
}

func TestUpdate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		p     Rating
		games []Result
		want  Rating
	}{
		{
			// Glickman's worked example (2013, section "Example"): a
			// 1500/200 player beats a 1400/30 player and loses to 1550/100
			// and 1700/300 players: 1464.06, 151.52, 0.05999.
			name: "Glickman's example",
			p:    Rating{1500, 200, 0.06},
			games: []Result{
				{Rating{1400, 30, 0.06}, 1},
				{Rating{1550, 100, 0.06}, 0},
				{Rating{1700, 300, 0.06}, 0},
			},
			want: Rating{1464.06, 151.52, 0.05999},
		},
		{
			// A first game between new players: phi = 350/173.7178 = 2.0148,
			// g = 1/sqrt(1 + 3 phi^2/pi^2) = 0.6691, E = 0.5, v = 1/(g^2/4) =
			// 8.935; phi* = sqrt(phi^2 + 0.06^2) = 2.0156, so phi' =
			// 1/sqrt(1/phi*^2 + 1/v) = 1.6712 (RD 290.3) and mu' = phi'^2 g
			// (1 - 0.5) = 0.9344 (rating 1662.3).
			name:  "first game, won",
			p:     Start,
			games: []Result{{Start, 1}},
			want:  Rating{1662.3, 290.3, 0.06},
		},
		{
			name:  "first game, lost",
			p:     Start,
			games: []Result{{Start, 0}},
			want:  Rating{1337.7, 290.3, 0.06},
		},
		{
			// A draw between equals moves no rating, but makes both surer.
			name:  "draw between equals",
			p:     Start,
			games: []Result{{Start, 0.5}},
			want:  Rating{1500, 290.3, 0.06},
		},
		{
			// No games: only the deviation grows, by the volatility:
			// sqrt(50^2 + (0.06*173.7178)^2) = 51.07.
			name: "one period without games",
			p:    Rating{1500, 50, 0.06},
			want: Rating{1500, 51.07, 0.06},
		},
	}
	for _, tt := range tests {
		got := tt.p.Update(tt.games)
		if !near(got, tt.want, 0.05, 0.05, 0.00001) {
			t.Errorf("%s: %+v.Update(%v) = %+v, want %+v", tt.name, tt.p, tt.games, got, tt.want)
		}
	}
}

func TestGame(t *testing.T) {
	t.Parallel()
	// A draw against a much lower rated player loses points; the lower
	// rated player wins as many back, more or less, weighted by the
	// deviations (a sure 1700 moves less than an unsure 1400).
	strong, weak := Rating{1700, 60, 0.06}, Rating{1400, 120, 0.06}
	s, w := Game(strong, weak, 0.5)
	if !(s.Rating < strong.Rating && w.Rating > weak.Rating) {
		t.Errorf("Game(%v, %v, draw) = %v, %v: want the stronger down and the weaker up", strong, weak, s, w)
	}
	if lost, won := strong.Rating-s.Rating, w.Rating-weak.Rating; lost >= won {
		t.Errorf("Game(%v, %v, draw): the surer player lost %.1f, the less sure won %.1f; want less lost than won", strong, weak, lost, won)
	}
	// White's score is Black's complement: a win for White is a loss for Black.
	w1, b1 := Game(Start, Start, 1)
	b2, w2 := Game(Start, Start, 0)
	if w1 != w2 || b1 != b2 {
		t.Errorf("Game(white wins) = %v, %v; Game with the sides swapped = %v, %v", w1, b1, w2, b2)
	}
}

func TestLongInactivity(t *testing.T) {
	t.Parallel()
	// Years without games: the deviation grows towards a new player's,
	// never beyond it (it gets there after about 1,100 periods at
	// volatility 0.06), and the rating itself stays where it was.
	p := Rating{1812, 45, 0.06}
	prev := p
	for i := range 2000 {
		next := prev.Update(nil)
		if next.Deviation < prev.Deviation || next.Deviation > Start.Deviation || next.Rating != p.Rating {
			t.Fatalf("period %d without games: %+v after %+v", i+1, next, prev)
		}
		prev = next
	}
	if prev.Deviation != Start.Deviation {
		t.Errorf("after 2000 periods without games, deviation %v, want %v", prev.Deviation, Start.Deviation)
	}
	// A returning player's next result then counts almost as a new one's.
	back := prev.Update([]Result{{Rating{1812, 350, 0.06}, 1}})
	if gain := back.Rating - prev.Rating; math.Abs(gain-162.3) > 0.1 {
		t.Errorf("a win after long inactivity gained %.1f, want a new player's gain, 162.3", gain)
	}
}
