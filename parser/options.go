package parser

import (
	"strings"

	"github.com/congobymail/congo/rules"
)

// options are the options of a challenge or a seek (M11).
type options struct {
	color    rules.Color
	control  TimeControl
	unrated  bool
	rated    bool // a challenge's: a game against the robot is rated only so (M60)
	level    int
	claim    bool
	timeout  bool // timeout= was written
	position string
	ratings  [2]int // the range of the opponent's rating, of a seek (M75)
}

// MaxRating is the highest rating a seek's range may name (M75).
const MaxRating = 4000

// parseRatings reads a range of ratings, "LOW-HIGH", 0 <= LOW <= HIGH
// <= MaxRating and HIGH > 0.
func parseRatings(s string) (low, high int, ok bool) {
	l, h, ok := strings.Cut(s, "-")
	if !ok {
		return 0, 0, false
	}
	low, ok1 := smallNumber(l)
	high, ok2 := smallNumber(h)
	if !ok1 || !ok2 || low > high || high == 0 || high > MaxRating {
		return 0, 0, false
	}
	return low, high, true
}

// readOptions reads the options of a challenge or a seek, in any order
// (M11): a colour (for a challenge), a time control, unrated, and the
// robot's level, rated, timeout= and the position to start from (for a
// challenge), and the range of the opponent's rating (for a seek, M75).
// line is the command's, for errors.
func readOptions(line string, args []string, colour bool) (options, Error) {
	form := usage(Seek)
	if colour {
		form = usage(Challenge)
	}
	var o options
	colourSeen := false
	for i := 0; i < len(args); i++ {
		w := args[i]
		var seen bool
		switch {
		case colour && len(w) >= 9 && strings.EqualFold(w[:9], "position="):
			pos, n, e := positionOption(line, args[i:])
			if e.Problem != NoProblem {
				return o, e
			}
			seen, o.position = o.position != "", pos
			i += n - 1
		case colour && strings.EqualFold(w, "white"):
			seen, colourSeen, o.color = colourSeen, true, rules.White
		case colour && strings.EqualFold(w, "black"):
			seen, colourSeen, o.color = colourSeen, true, rules.Black
		case strings.EqualFold(w, "unrated"):
			if o.rated {
				return o, lineError(line, ExtraWords, "a game is rated or unrated, not both: write %s", form)
			}
			seen, o.unrated = o.unrated, true
		case len(w) >= 8 && strings.EqualFold(w[:8], "timeout="):
			if !colour {
				return o, lineError(line, BadTimeControl, "%s is for a challenge: the games of seeks end by themselves on time (timeout=auto)", quote(w))
			}
			switch strings.ToLower(w[8:]) {
			case "claim":
				o.claim = true
			case "auto":
				o.claim = false
			default:
				return o, lineError(line, BadTimeControl, "%s is not an option: write timeout=claim (a win on time is claimed) or timeout=auto (the default)", quote(w))
			}
			seen, o.timeout = o.timeout, true
		case colour && strings.EqualFold(w, "rated"):
			if o.unrated {
				return o, lineError(line, ExtraWords, "a game is rated or unrated, not both: write %s", form)
			}
			seen, o.rated = o.rated, true
		case colour && len(w) >= 6 && strings.EqualFold(w[:6], "level="):
			n, ok := smallNumber(w[6:])
			if !ok || n < MinLevel || n > MaxLevel {
				return o, lineError(line, BadLevel, "%s is not a level: write level=N, N from %d (weakest) to %d (strongest)", quote(w), MinLevel, MaxLevel)
			}
			seen, o.level = o.level != 0, n
		case !colour && len(w) >= 7 && strings.EqualFold(w[:7], "rating="):
			low, high, ok := parseRatings(w[7:])
			if !ok {
				return o, lineError(line, BadSetting, "%s is not a range of ratings: write rating=LOW-HIGH, as rating=1400-1700", quote(w))
			}
			seen, o.ratings = o.ratings[1] != 0, [2]int{low, high}
		case strings.Contains(w, "="):
			tc, ok := ParseTimeControl(w)
			if !ok {
				return o, lineError(line, BadTimeControl, "%s is not a time control: write days=N (N from 1 to %d) or bank=D+I (D from 1 to %d, I from 0 to D)", quote(w), MaxDays, MaxDays)
			}
			seen, o.control = o.control.Days != 0, tc
		case i == 0 && colour:
			return o, lineError(line, BadColour, "%s is not a colour or an option: write %s", quote(w), form)
		default:
			return o, lineError(line, ExtraWords, "unexpected %s: write %s", quote(strings.Join(args[i:], " ")), form)
		}
		if seen {
			return o, lineError(line, ExtraWords, "%s repeats an option: write %s", quote(w), form)
		}
	}
	return o, Error{}
}
