package game

import (
	"testing"
	"time"

	"github.com/congobymail/congo/db"
)

// TestAccrue: the allowance grows by 30 days a year, capped at 30 (M17).
func TestAccrue(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	p := db.Player{VacationLeft: 10 * Day, VacationAccrued: t0}
	accrue(&p, t0.Add(year/2))
	if p.VacationLeft != 25*Day {
		t.Errorf("accrue(half a year) = %v, want 25 days", p.VacationLeft)
	}
	accrue(&p, t0.Add(year))
	if p.VacationLeft != maxVacation {
		t.Errorf("accrue(a year) = %v, want the cap %v", p.VacationLeft, maxVacation)
	}
}
