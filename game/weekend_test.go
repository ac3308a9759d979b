package game

import (
	"testing"
	"time"
)

func utc(s string) time.Time {
	t, err := time.Parse("2006-01-02 15:04", s)
	if err != nil {
		panic(err)
	}
	return t
}

func zone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, ok := Zone(name)
	if !ok {
		t.Fatalf("Zone(%q) not found: is time/tzdata embedded?", name)
	}
	return loc
}

// TestWeekends: a paused weekend runs from Saturday 00:00 to Monday 00:00
// in the player's time zone (M64): in Tokyo from Friday 15:00 UTC, in
// Prague 47 hours over the spring's change of clocks and 49 over the
// autumn's; one begun before the player asked for it runs.
func TestWeekends(t *testing.T) {
	t.Parallel()
	long := utc("2020-01-01 00:00")
	tests := []struct {
		zone       string
		from, at   time.Time
		start, end time.Time
	}{
		{"Asia/Tokyo", long, utc("2025-03-07 14:00"), utc("2025-03-07 15:00"), utc("2025-03-09 15:00")},
		{"Asia/Tokyo", long, utc("2025-03-08 20:00"), utc("2025-03-07 15:00"), utc("2025-03-09 15:00")},
		{"Europe/Prague", long, utc("2025-03-27 12:00"), utc("2025-03-28 23:00"), utc("2025-03-30 22:00")},
		{"Europe/Prague", long, utc("2025-10-22 12:00"), utc("2025-10-24 22:00"), utc("2025-10-26 23:00")},
		{"", long, utc("2025-03-10 00:00"), utc("2025-03-15 00:00"), utc("2025-03-17 00:00")},
		// Asked for on a Saturday: that weekend runs, the next stops.
		{"", utc("2025-03-01 12:00"), utc("2025-03-01 13:00"), utc("2025-03-08 00:00"), utc("2025-03-10 00:00")},
	}
	for _, tt := range tests {
		w := weekends{loc: zone(t, ZoneName(tt.zone)), from: tt.from}
		start, end, ok := w.next(tt.at)
		if !ok || !start.Equal(tt.start) || !end.Equal(tt.end) {
			t.Errorf("%s: next(%v) = %v, %v, %v, want %v, %v", tt.zone, tt.at, start, end, ok, tt.start, tt.end)
		}
	}
	if _, _, ok := (weekends{}).next(long); ok {
		t.Errorf("next() of no paused weekends = ok")
	}
}

// TestRunningAndAfter: the time a clock runs leaves out the paused
// weekends, and after is its inverse.
func TestRunningAndAfter(t *testing.T) {
	t.Parallel()
	prague := weekends{loc: zone(t, "Europe/Prague"), from: utc("2025-01-01 00:00")}
	tests := []struct {
		w        weekends
		from, to time.Time
		running  time.Duration
	}{
		{weekends{}, utc("2025-03-27 12:00"), utc("2025-03-31 12:00"), 4 * Day},
		// Thursday noon to Monday noon in Prague: 96 hours less the 47
		// of the weekend of the change of clocks.
		{prague, utc("2025-03-27 12:00"), utc("2025-03-31 10:00"), 96*time.Hour - 2*time.Hour - 47*time.Hour},
		// From within the weekend: only Monday counts.
		{prague, utc("2025-03-29 12:00"), utc("2025-03-31 10:00"), 12 * time.Hour},
		// Two weekends.
		{prague, utc("2025-03-27 12:00"), utc("2025-04-07 12:00"), 11*Day - 47*time.Hour - 48*time.Hour},
		{prague, utc("2025-03-29 12:00"), utc("2025-03-30 12:00"), 0},
	}
	for _, tt := range tests {
		if got := tt.w.running(tt.from, tt.to); got != tt.running {
			t.Errorf("running(%v, %v) = %v, want %v", tt.from, tt.to, got, tt.running)
		}
		at := tt.w.after(tt.from, tt.running)
		if tt.running > 0 && !at.Equal(tt.to) {
			t.Errorf("after(%v, %v) = %v, want %v", tt.from, tt.running, at, tt.to)
		}
	}
	// A clock that would run out on a Saturday runs out on the Tuesday
	// after: 3 days from Thursday noon in Prague are 36 hours to the
	// weekend and 36 from Monday 00:00 (22:00 UTC).
	if got, want := prague.after(utc("2025-03-27 11:00"), 3*Day), utc("2025-04-01 10:00"); !got.Equal(want) || got.Location() != time.UTC {
		t.Errorf("after(Thursday, 3 days) = %v, want %v", got, want)
	}
	if got, want := prague.outside(utc("2025-03-29 10:00")), utc("2025-03-30 22:00"); !got.Equal(want) {
		t.Errorf("outside(Saturday) = %v, want Monday 00:00 in Prague, %v", got, want)
	}
	if got := prague.outside(utc("2025-03-27 10:00")); !got.Equal(utc("2025-03-27 10:00")) {
		t.Errorf("outside(Thursday) = %v, want it as it is", got)
	}
}

func TestLookupZone(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"Europe/Prague", "Europe/Prague", true},
		{"europe/prague", "Europe/Prague", true},
		{"AMERICA/NEW_YORK", "America/New_York", true},
		{"Asia/Tokyo", "Asia/Tokyo", true},
		{"UTC", "", true},
		{"utc", "", true},
		{"Mars/Olympus_Mons", "", false},
		{"Local", "", false},
		{"../etc/passwd", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		if got, ok := LookupZone(tt.in); got != tt.want || ok != tt.ok {
			t.Errorf("LookupZone(%q) = %q, %v, want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
