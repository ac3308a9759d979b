package parser

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tournament systems, as tournament new names them (M33, M73, M74).
const (
	RoundRobin = "roundrobin"
	Swiss      = "swiss"
	Ladder     = "ladder"
	Knockout   = "knockout"
)

// Limits of tournament new.
const (
	MaxRounds     = 20 // rounds=N of a Swiss
	MaxMatchGames = 10 // games=N of a knockout
	MaxNameLength = 40 // characters of a tournament's name
)

const tournamentNewForm = "tournament new roundrobin|swiss|ladder|knockout [rounds=N] [games=N] [days=N|bank=D+I] [unrated] [double] [pauses] [novacation] <name>"

// systemForms are how tournament new is written for each system, for
// the errors about an option that is not the system's.
var systemForms = map[string]string{
	RoundRobin: "tournament new roundrobin [double] [days=N|bank=D+I] [unrated] [pauses] [novacation] <name>",
	Swiss:      "tournament new swiss [rounds=N] [days=N|bank=D+I] [unrated] [pauses] [novacation] <name>",
	Ladder:     "tournament new ladder [days=N|bank=D+I] [unrated] [pauses] [novacation] <name>",
	Knockout:   "tournament new knockout [games=N] [days=N|bank=D+I] [unrated] [pauses] [novacation] <name>",
}

// tournamentWords are the words after "tournament" that name its
// commands other than showing one.
var tournamentWords = map[string]Kind{
	"new": TournamentNew, "start": TournamentStart, "cancel": TournamentCancel, "kick": TournamentKick,
	"add":   TournamentAdd,
	"close": TournamentClose,
}

// tournamentStarts: "tournament" begins a command alone, before a
// number, or before one of tournamentWords; "Tournament games suit me"
// is words.
func tournamentStarts(args []string) bool {
	if len(args) == 0 || looksLikeID(args[0]) {
		return true
	}
	_, ok := tournamentWords[strings.ToLower(args[0])]
	return ok
}

// tournamentWordFirst: join and leave are commands before "tournament".
func tournamentWordFirst(args []string) bool {
	return len(args) > 0 && strings.EqualFold(args[0], "tournament")
}

// tournamentArgs reads the words after "tournament": a number, or the
// word of another tournament command and its own words.
func tournamentArgs(c *Command, args []string, game int64) Error {
	if len(args) == 0 {
		return lineError(c.Line, MissingTournament, "tournament needs a number: tournament <number> for its standings, tournaments for the list, or %s", tournamentNewForm)
	}
	if k, ok := tournamentWords[strings.ToLower(args[0])]; ok {
		c.Kind = k
		return grammar[k].args(c, args[1:], game)
	}
	if len(args) > 1 && strings.EqualFold(args[1], "add") { // tournament 3 add robot (M60)
		c.Kind = TournamentAdd
		return tournamentAddArgs(c, append(args[:1:1], args[2:]...), game)
	}
	return tournamentIDArgs(c, args, game)
}

// joinArgs reads the words of join and leave after their command word:
// "tournament" and a number.
func joinArgs(c *Command, args []string, game int64) Error {
	return tournamentIDArgs(c, args[1:], game)
}

// tournamentIDArgs reads the number of the tournament a command names,
// and nothing after it.
func tournamentIDArgs(c *Command, args []string, _ int64) Error {
	id, e := tournamentID(c, args)
	if e.Problem != NoProblem {
		return e
	}
	c.Args = TournamentArgs{Tournament: id}
	return Error{}
}

// tournamentID reads the number of the tournament c names, args, and
// nothing after it.
func tournamentID(c *Command, args []string) (int64, Error) {
	form := usage(c.Kind)
	if len(args) == 0 {
		return 0, lineError(c.Line, MissingTournament, "%s needs the tournament's number: %s (tournaments lists them)", c.Kind, form)
	}
	id, ok := parseID(args[0])
	if !ok {
		return 0, lineError(c.Line, BadTournament, "%s is not a tournament number: write %s", quote(args[0]), form)
	}
	if len(args) > 1 {
		return 0, lineError(c.Line, ExtraWords, "unexpected %s at the end: write %s", quote(strings.Join(args[1:], " ")), form)
	}
	return id, Error{}
}

// tournamentAndHandle reads the first two of args, at least two: a
// tournament's number and a handle, as written.
func tournamentAndHandle(c *Command, args []string) (int64, string, Error) {
	id, e := tournamentID(c, args[:1])
	if e.Problem != NoProblem {
		return 0, "", e
	}
	if !ValidHandle(args[1]) {
		return 0, "", lineError(c.Line, BadHandle, "%s is not a handle: handles are 2-20 letters a-z, digits, - or _", quote(args[1]))
	}
	return id, args[1], Error{}
}

// tournamentKickArgs reads the tournament and the handle of tournament
// kick.
func tournamentKickArgs(c *Command, args []string, _ int64) Error {
	if len(args) != 2 {
		if _, e := tournamentID(c, args[:min(len(args), 1)]); e.Problem != NoProblem {
			return e
		}
		return lineError(c.Line, MissingHandle, "tournament kick needs the tournament's number and a handle: %s", usage(c.Kind))
	}
	id, handle, e := tournamentAndHandle(c, args)
	if e.Problem != NoProblem {
		return e
	}
	c.Args = KickArgs{Tournament: id, Handle: handle}
	return Error{}
}

// tournamentAddArgs reads the tournament, the handle and the level of
// tournament <t> add robot [level=N] (M60), the words after "add" (or,
// in the order "tournament add <t> robot", after the number).
func tournamentAddArgs(c *Command, args []string, _ int64) Error {
	if len(args) < 2 || len(args) > 3 {
		if _, e := tournamentID(c, args[:min(len(args), 1)]); e.Problem != NoProblem {
			return e
		}
		return lineError(c.Line, MissingHandle, "tournament add needs the tournament's number and the robot: %s", usage(c.Kind))
	}
	id, handle, e := tournamentAndHandle(c, args)
	if e.Problem != NoProblem {
		return e
	}
	a := TournamentAddArgs{Tournament: id, Handle: handle}
	if len(args) == 3 {
		w := args[2]
		n, ok := 0, len(w) > 6 && strings.EqualFold(w[:6], "level=")
		if ok {
			n, ok = smallNumber(w[6:])
		}
		if !ok || n < MinLevel || n > MaxLevel {
			return lineError(c.Line, BadLevel, "%s is not a level: write level=N, N from %d (weakest) to %d (strongest)", quote(w), MinLevel, MaxLevel)
		}
		a.Level = n
	}
	c.Args = a
	return Error{}
}

// ladderChallengeArgs reads challenge ladder's words after "ladder": the
// ladder's number and the handle of the player challenged.
func ladderChallengeArgs(c *Command, args []string, _ int64) Error {
	if len(args) > 2 {
		return lineError(c.Line, ExtraWords, "unexpected %s at the end: write %s", quote(strings.Join(args[2:], " ")), usage(c.Kind))
	}
	if len(args) != 2 {
		if _, e := tournamentID(c, args[:min(len(args), 1)]); e.Problem != NoProblem {
			return e
		}
		return lineError(c.Line, MissingHandle, "challenge ladder needs the ladder's number and a handle: %s", usage(c.Kind))
	}
	id, handle, e := tournamentAndHandle(c, args)
	if e.Problem != NoProblem {
		return e
	}
	c.Args = LadderChallengeArgs{Tournament: id, Handle: handle}
	return Error{}
}

// tournamentNewArgs reads tournament new: the system, the options in any
// order, then the name, every word after the options.
func tournamentNewArgs(c *Command, args []string, _ int64) Error {
	if len(args) == 0 {
		return lineError(c.Line, BadTournament, "tournament new needs a system and a name: %s", tournamentNewForm)
	}
	var a TournamentNewArgs
	switch sys := strings.ToLower(args[0]); sys {
	case RoundRobin, "round-robin":
		a.System = RoundRobin
	case Swiss, Ladder, Knockout:
		a.System = sys
	default:
		return lineError(c.Line, BadTournament, "%s is not a tournament system: write roundrobin, swiss, ladder or knockout, as in %s", quote(args[0]), tournamentNewForm)
	}
	args = args[1:]
	// notOption refuses w, an option of another system than a's.
	notOption := func(w string) Error {
		return lineError(c.Line, BadTournament, "%s is not an option of %s: write %s", quote(w), a.System, systemForms[a.System])
	}
	for len(args) > 0 {
		w := args[0]
		lower := strings.ToLower(w)
		var seen bool
		switch {
		case lower == "unrated":
			seen, a.Unrated = a.Unrated, true
		case lower == "pauses":
			seen, a.Pauses = a.Pauses, true
		case lower == "novacation":
			seen, a.NoVacation = a.NoVacation, true
		case lower == "double":
			switch a.System {
			case Swiss:
				return lineError(c.Line, BadTournament, "double is for a round robin (every pair plays twice): a Swiss has rounds=N instead")
			case Ladder, Knockout:
				return notOption(w)
			}
			seen, a.Double = a.Double, true
		case strings.HasPrefix(lower, "rounds="):
			switch a.System {
			case RoundRobin:
				return lineError(c.Line, BadTournament, "rounds=N is for a Swiss: a round robin has as many rounds as it needs (double plays it twice)")
			case Ladder, Knockout:
				return notOption(w)
			}
			n, ok := smallNumber(w[len("rounds="):])
			if !ok || n < 1 || n > MaxRounds {
				return lineError(c.Line, BadTournament, "%s is not a number of rounds: write rounds=N, N from 1 to %d", quote(w), MaxRounds)
			}
			seen, a.Rounds = a.Rounds != 0, n
		case strings.HasPrefix(lower, "games="):
			if a.System != Knockout {
				return notOption(w)
			}
			n, ok := smallNumber(w[len("games="):])
			if !ok || n < 1 || n > MaxMatchGames {
				return lineError(c.Line, BadTournament, "%s is not a number of games: write games=N, N from 1 to %d", quote(w), MaxMatchGames)
			}
			seen, a.Games = a.Games != 0, n
		case strings.HasPrefix(lower, "days=") || strings.HasPrefix(lower, "bank="):
			tc, ok := ParseTimeControl(w)
			if !ok {
				return lineError(c.Line, BadTimeControl, "%s is not a time control: write days=N (N from 1 to %d) or bank=D+I (D from 1 to %d, I from 0 to D)", quote(w), MaxDays, MaxDays)
			}
			seen, a.Control = a.Control.Days != 0, tc
		default:
			name, e := tournamentName(c, args)
			if e.Problem != NoProblem {
				return e
			}
			a.Name = name
			c.Args = a
			return Error{}
		}
		if seen {
			return lineError(c.Line, ExtraWords, "%s repeats an option: write %s", quote(w), tournamentNewForm)
		}
		args = args[1:]
	}
	return lineError(c.Line, BadTournament, "the tournament needs a name after its options: %s", tournamentNewForm)
}

// tournamentName reads the name of tournament new: its words joined by
// one space, at most MaxNameLength characters, of letters, digits,
// punctuation and symbols.
func tournamentName(c *Command, words []string) (string, Error) {
	name := strings.Join(words, " ")
	if n := utf8.RuneCountInString(name); n > MaxNameLength {
		return "", lineError(c.Line, BadTournament, "the name is %d characters long: a tournament's name has at most %d", n, MaxNameLength)
	}
	for _, r := range name {
		if !unicode.IsPrint(r) {
			return "", lineError(c.Line, BadTournament, "the name holds a character that cannot be shown: use letters, digits and punctuation")
		}
	}
	if strings.ContainsAny(name, "<>@") {
		return "", lineError(c.Line, BadTournament, "a tournament's name has no <, > or @: they would read as an address")
	}
	return name, Error{}
}
