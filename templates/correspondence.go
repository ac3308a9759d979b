package templates

import (
	"strings"
	"time"

	"github.com/congobymail/congo/lang"
)

// DigestData is the daily mail of the games where it is the recipient's
// move (M18).
type DigestData struct {
	Lang  lang.Code // the recipient's language; "" for English
	To    string
	Games []DigestGame
}

// DigestGame is one game of a digest, with its board.
type DigestGame struct {
	Game  Game
	Board View
	Page  string // the game's page on the web (M43), or ""
}

// Digest renders the daily digest.
func Digest(d DigestData) (subject, body string, err error) {
	t := tongueOf(d.Lang)
	if body, err = t.execute("digest", d); err != nil {
		return "", "", err
	}
	subject, err = t.raw("subject_digest", len(d.Games))
	return strings.TrimSpace(subject), body, err
}

// ConditionalList answers conditional and if lines: the sender's
// conditional moves in a game, after the change the mail made.
type ConditionalList struct {
	GameID   int64
	Branches [][]string // each: their move, your move, their move, ...
	Added    int        // branches added by this mail
	Cleared  int        // branches cleared by this mail
}

// line writes one branch as it is sent: "if c6-c5 then b2-b3 if ...".
func (ConditionalList) Line(branch []string) string {
	var b strings.Builder
	for i, m := range branch {
		switch {
		case i == 0:
			b.WriteString("if " + m)
		case i%2 == 1:
			b.WriteString(" then " + m)
		default:
			b.WriteString(" if " + m)
		}
	}
	return b.String()
}

// Observing answers observe and unobserve.
type Observing struct {
	Game    Game
	On      bool // observing now
	Changed bool // false when nothing changed (observing already, or not at all)
}

// Seeking answers seek.
type Seeking struct {
	TimeControl string
	Unrated     bool
	// RatingLow and RatingHigh are the seek's range of the opponent's
	// rating (M75), 0 and 0 for none; Rating is the sender's.
	RatingLow, RatingHigh, Rating int
	Off                           bool // the seek was removed
	Had                           bool // for Off: there was a seek to remove
	Started                       int64
}

// NotifySet answers notify.
type NotifySet struct {
	Mode string // each, digest or off
}

// VacationSet answers vacation.
type VacationSet struct {
	Off   bool          // the vacation was ended
	Until time.Time     // the end of the vacation started
	Left  time.Duration // the allowance left
	Games int           // games whose clocks stopped
}

// TimeSet answers timezone and weekends (M64): the player's time zone,
// the time there now, and whether their clock stands still on weekends.
type TimeSet struct {
	Zone     string    // the IANA name, "UTC" for the default
	Now      time.Time // in the time zone
	Weekends bool      // the clock stands still on weekends
	// Next is the start of the next weekend in which the clock stands
	// still, in the time zone; zero when it never does.
	Next time.Time
	// Changed is set when the command changed the setting; otherwise it
	// asked for it.
	Changed bool
}

// Ratings answers ratings: the standings.
type Ratings struct {
	Rows []Rating
}

// Rating is one player of the standings.
type Rating struct {
	Rank   int
	Handle string
	Rating int
	Games  int
}

// Record answers history: the game in the record format of docs/playing.md.
type Record struct {
	GameID int64
	Text   string
}

func (ConditionalList) template() string { return "conditional_list" }
func (Observing) template() string       { return "observing" }
func (Seeking) template() string         { return "seeking" }
func (NotifySet) template() string       { return "notify_set" }
func (VacationSet) template() string     { return "vacation_set" }
func (Ratings) template() string         { return "ratings" }
func (TimeSet) template() string         { return "time_set" }
func (Record) template() string          { return "record" }
