package game

import (
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // the time zone database, for a machine without one (M64)

	"github.com/congobymail/congo/db"
)

// zones holds the time zones loaded, by name: loading one reads and
// parses its data, which the clocks ask for with every game they read.
var zones sync.Map // string -> *time.Location

// Zone returns the time zone of a player (M64): the IANA zone named, UTC
// for "". ok is false for a name the time zone database does not have.
func Zone(name string) (loc *time.Location, ok bool) {
	if name == "" {
		return time.UTC, true
	}
	if l, ok := zones.Load(name); ok {
		return l.(*time.Location), true
	}
	if name == "Local" || strings.HasPrefix(name, "/") || strings.Contains(name, "..") {
		return nil, false
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, false
	}
	zones.Store(name, loc)
	return loc, true
}

// LookupZone returns the IANA name of the time zone written name, in any
// case ("europe/prague" is "Europe/Prague"), and whether there is one.
func LookupZone(name string) (string, bool) {
	for _, n := range []string{name, titleZone(name), strings.ToUpper(name)} {
		if _, ok := Zone(n); ok && n != "" {
			if n == "UTC" {
				return "", true // the default, stored as none
			}
			return n, true
		}
	}
	return "", false
}

// ZoneName is the name a mail gives a stored time zone: "UTC" for none.
func ZoneName(zone string) string {
	if zone == "" {
		return "UTC"
	}
	return zone
}

// titleZone writes a zone name as the IANA database mostly does: each
// word capitalised, the rest lower case ("america/new_york" is
// "America/New_York").
func titleZone(name string) string {
	b := []byte(strings.ToLower(name))
	for i := range b {
		if (i == 0 || strings.IndexByte("/_-", b[i-1]) >= 0) && 'a' <= b[i] && b[i] <= 'z' {
			b[i] -= 'a' - 'A'
		}
	}
	return string(b)
}

// weekends are the weekends in which a player's clock stands still
// (M64): from Saturday 00:00 to Monday 00:00 in their time zone, loc,
// those that begin at from or later (a weekend begun before the player
// asked for it, in that time zone, runs). The zero value pauses none.
type weekends struct {
	loc  *time.Location
	from time.Time
}

// weekendsOf returns the weekends in which p's clock stands still.
func weekendsOf(p db.Player) weekends {
	if !p.PausesWeekends() {
		return weekends{}
	}
	loc, ok := Zone(p.TimeZone)
	if !ok {
		loc = time.UTC
	}
	return weekends{loc: loc, from: p.WeekendsFrom}
}

// NextWeekend returns the first weekend of p's that ends after t in
// which their clock stands still (M64), by its start and end; ok is
// false when p plays their weekends.
func NextWeekend(p db.Player, t time.Time) (start, end time.Time, ok bool) {
	return weekendsOf(p).next(t)
}

// next returns the first paused weekend that ends after t, by its start
// and end; ok is false when none is paused.
func (w weekends) next(t time.Time) (start, end time.Time, ok bool) {
	if w.loc == nil {
		return time.Time{}, time.Time{}, false
	}
	// From the Saturday on or before t (or the start of the pauses, if
	// later): at most two weeks to look at.
	local := latest(t, w.from).In(w.loc)
	y, m, d := local.Date()
	d -= (int(local.Weekday()) - int(time.Saturday) + 7) % 7
	for {
		// time.Date counts days in the zone, so that a weekend of a
		// change of clocks lasts 47 or 49 hours.
		start, end = time.Date(y, m, d, 0, 0, 0, 0, w.loc), time.Date(y, m, d+2, 0, 0, 0, 0, w.loc)
		if end.After(t) && !start.Before(w.from) {
			return start.UTC(), end.UTC(), true
		}
		d += 7
	}
}

// running is how much of the time from from to to is not in a paused
// weekend.
func (w weekends) running(from, to time.Time) time.Duration {
	if !to.After(from) {
		return 0
	}
	total := to.Sub(from)
	for t := from; w.loc != nil; {
		start, end, _ := w.next(t)
		if !start.Before(to) {
			break
		}
		total -= Earliest(end, to).Sub(latest(start, t))
		t = end
	}
	return total
}

// after returns when d of running time has gone from from: the earliest
// time t with running(from, t) == d.
func (w weekends) after(from time.Time, d time.Duration) time.Time {
	if d <= 0 || w.loc == nil {
		return from.Add(max(d, 0))
	}
	t := from
	for {
		start, end, _ := w.next(t)
		if start.After(t) {
			if at := t.Add(d); !at.After(start) {
				return at
			}
			d -= start.Sub(t)
		}
		t = end
	}
}

// outside returns t, or the end of the paused weekend t falls in.
func (w weekends) outside(t time.Time) time.Time {
	if start, end, ok := w.next(t); ok && !t.Before(start) {
		return end
	}
	return t
}

// latest returns the later of two times.
func latest(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
