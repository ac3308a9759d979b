package server

import (
	"math"
	"testing"
)

func TestGlickoExample(t *testing.T) {
	// Glickman's worked example: a 1500/200 player beats a 1400/30 player
	// and loses to 1550/100 and 1700/300 players.
	p := rating{1500, 200, 0.06}
	got := p.update([]outcome{
		{rating{1400, 30, 0.06}, 1},
		{rating{1550, 100, 0.06}, 0},
		{rating{1700, 300, 0.06}, 0},
	})
	want := rating{1464.06, 151.52, 0.05999}
	if math.Abs(got.r-want.r) > 0.01 || math.Abs(got.rd-want.rd) > 0.01 || math.Abs(got.vol-want.vol) > 0.00001 {
		t.Errorf("update() = %+v, want %+v", got, want)
	}
}

func TestGlickoGame(t *testing.T) {
	fresh := rating{1500, 350, 0.06}
	tests := []struct {
		score      float64
		up, narrow bool // the rating goes up; the deviation shrinks
	}{
		{1, true, true},
		{0, false, true},
	}
	for _, tt := range tests {
		got := fresh.update([]outcome{{fresh, tt.score}})
		if (got.r > fresh.r) != tt.up || (got.rd < fresh.rd) != tt.narrow {
			t.Errorf("update(score %v) = %+v from %+v", tt.score, got, fresh)
		}
	}
	draw := fresh.update([]outcome{{fresh, 0.5}})
	if math.Abs(draw.r-1500) > 1e-9 {
		t.Errorf("update(draw between equals) rating = %v, want 1500", draw.r)
	}
	idle := fresh.update(nil)
	if idle.rd <= fresh.rd-1e-9 {
		t.Errorf("update(no games) deviation = %v, want at least %v", idle.rd, fresh.rd)
	}
}
