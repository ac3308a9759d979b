package game

import (
	"testing"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/rules"
)

// BenchmarkClockNext measures what the clock asks of one game, when it
// is due and when a move stores its next time (clockDue): for a mover
// who plays weekends, and for one who pauses them in Prague, whose turn
// of 3 days spans one weekend or (with a 60-day bank) nine.
func BenchmarkClockNext(b *testing.B) {
	start := time.Date(2025, 3, 27, 11, 0, 0, 0, time.UTC) // a Thursday, before a change of clocks
	for _, tt := range []struct {
		name     string
		weekends bool
		left     time.Duration
	}{
		{"plays-weekends/days=3", false, 3 * Day},
		{"pauses-weekends/days=3", true, 3 * Day},
		{"pauses-weekends/bank=60", true, 60 * Day},
	} {
		b.Run(tt.name, func(b *testing.B) {
			mover := db.Player{ID: 1, Handle: "alice"}
			if tt.weekends {
				mover.TimeZone, mover.WeekendsFrom = "Europe/Prague", start.Add(-Day)
			}
			st := State{Game: db.Game{Status: db.Active, WhiteLeft: tt.left, BlackLeft: tt.left, ClockStart: start,
				TurnTime: tt.left}, White: mover, Black: db.Player{ID: 2, Handle: "bob"}, Pos: rules.Start(), Now: start}
			b.ReportAllocs()
			var at time.Time
			for b.Loop() {
				at = st.clockDue()
			}
			if at.IsZero() {
				b.Fatal("no clock due")
			}
		})
	}
}
