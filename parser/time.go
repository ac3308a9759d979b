package parser

import "strings"

// The readers of time as players ask for it (M63-M66).

// gameOnly: pause, claim and resume are commands alone, or before a
// game, so that "Pause for thought" in a message stays words.
func gameOnly(args []string) bool {
	return len(args) == 0 || isGameWord(args[0]) || looksLikeID(args[0])
}

// giveStarts: give is a command before a game or an amount of time,
// "give 2d"; "Give me a day" stays words.
func giveStarts(args []string) bool {
	return len(args) > 0 && (isGameWord(args[0]) || looksLikeID(args[0]))
}

// Limits of give (M65).
const (
	MaxGiveDays  = 30
	MaxGiveHours = MaxGiveDays * 24
)

// giveArgs reads the rest of give: a game (or the game of the mail) and
// an amount of time, <N>d or <N>h.
func giveArgs(c *Command, args []string, game int64) Error {
	if len(args) > 2 {
		return lineError(c.Line, ExtraWords, "unexpected %s at the end: write %s", quote(strings.Join(args[2:], " ")), usage(c.Kind))
	}
	if len(args) == 2 || len(args) == 1 && !hasAmountSuffix(args[0]) {
		if e := gameArgs(c, args[:1], game); e.Problem != NoProblem {
			return e
		}
		args = args[1:]
	} else if e := gameArgs(c, nil, game); e.Problem != NoProblem {
		return e
	}
	if len(args) != 1 {
		return lineError(c.Line, BadAmount, "give needs an amount of time: write give congo %d 2d for 2 days, or 12h for 12 hours", c.Game)
	}
	hours, ok := giveAmount(args[0])
	if !ok {
		return lineError(c.Line, BadAmount, "%s is not an amount of time to give: write <N>d for N days or <N>h for N hours, at most %d days, as in give congo %d 2d",
			quote(args[0]), MaxGiveDays, c.Game)
	}
	c.Args = GiveArgs{Hours: hours}
	return Error{}
}

// hasAmountSuffix reports whether w ends as an amount of time does, in
// d or h.
func hasAmountSuffix(w string) bool {
	return w != "" && strings.ContainsRune("dDhH", rune(w[len(w)-1]))
}

// giveAmount reads an amount of time to give, <N>d or <N>h, as hours:
// from 1 hour to MaxGiveDays days.
func giveAmount(w string) (int, bool) {
	if !hasAmountSuffix(w) {
		return 0, false
	}
	n, ok := smallNumber(w[:len(w)-1])
	if strings.EqualFold(w[len(w)-1:], "d") {
		n *= 24
	}
	return n, ok && n >= 1 && n <= MaxGiveHours
}

// timezoneArgs reads the time zone of timezone, as written: whether the
// time zone database has it is the server's to say. timezone alone asks
// for the player's.
func timezoneArgs(c *Command, args []string, _ int64) Error {
	var a TimezoneArgs
	if len(args) == 1 {
		a.Zone = args[0]
	}
	c.Args = a
	return Error{}
}

// weekendsArgs reads weekends pause or weekends play.
func weekendsArgs(c *Command, args []string, _ int64) Error {
	var a WeekendsArgs
	switch {
	case len(args) == 1 && strings.EqualFold(args[0], "pause"):
		a.Pause = true
	case len(args) == 1 && strings.EqualFold(args[0], "play"):
	default:
		return lineError(c.Line, BadSetting, "weekends needs pause or play: weekends pause stops your clock from Saturday 00:00 to Monday 00:00 in your time zone, weekends play lets it run")
	}
	c.Args = a
	return Error{}
}
