package parser

import (
	"strings"

	"github.com/congobymail/congo/lang"
)

// noArgs reads a command of one word.
func noArgs(c *Command, args []string, _ int64) Error {
	if len(args) > 0 {
		return lineError(c.Line, ExtraWords, "unexpected %s after %s: send just %s", quote(strings.Join(args, " ")), c.Kind, c.Kind)
	}
	return Error{}
}

func gamesArgs(c *Command, args []string, _ int64) Error {
	if len(args) > 1 {
		return lineError(c.Line, ExtraWords, "unexpected %s at the end: write games, or games <handle>", quote(strings.Join(args[1:], " ")))
	}
	var a GamesArgs
	if len(args) == 1 {
		if !ValidHandle(args[0]) {
			return lineError(c.Line, BadHandle, "%s is not a handle: handles are 2-20 letters a-z, digits, - or _", quote(args[0]))
		}
		a.Handle = args[0]
	}
	c.Args = a
	return Error{}
}

func registerArgs(c *Command, args []string, _ int64) Error {
	if len(args) == 0 {
		return lineError(c.Line, MissingHandle, "register needs a handle: register <handle>")
	}
	h := strings.Join(args, " ")
	if !ValidHandle(h) {
		return lineError(c.Line, BadHandle, "%s is not a handle: handles are 2-20 letters a-z, digits, - or _", quote(h))
	}
	c.Args = RegisterArgs{Handle: h}
	return Error{}
}

// renameArgs reads the new handle of rename.
func renameArgs(c *Command, args []string, _ int64) Error {
	if len(args) == 0 {
		return lineError(c.Line, MissingHandle, "rename needs the new handle: rename <handle>")
	}
	if !ValidHandle(args[0]) {
		return lineError(c.Line, BadHandle, "%s is not a handle: handles are 2-20 letters a-z, digits, - or _", quote(args[0]))
	}
	c.Args = RenameArgs{Handle: args[0]}
	return Error{}
}

func challengeArgs(c *Command, args []string, game int64) Error {
	if len(args) >= 2 && strings.EqualFold(args[0], "ladder") && looksLikeID(args[1]) {
		c.Kind = LadderChallenge // challenge ladder <t> <handle> (M73)
		return grammar[LadderChallenge].args(c, args[1:], game)
	}
	if len(args) == 0 {
		return lineError(c.Line, MissingHandle, "challenge needs a handle: %s", usage(c.Kind))
	}
	if !ValidHandle(args[0]) {
		return lineError(c.Line, BadHandle, "%s is not a handle: handles are 2-20 letters a-z, digits, - or _", quote(args[0]))
	}
	o, e := readOptions(c.Line, args[1:], true)
	if e.Problem != NoProblem {
		return e
	}
	c.Args = ChallengeArgs{Handle: args[0], Color: o.color, Control: o.control, Unrated: o.unrated, Rated: o.rated, Level: o.level, TimeoutClaim: o.claim, Position: o.position}
	return Error{}
}

func seekArgs(c *Command, args []string, _ int64) Error {
	if len(args) == 1 && strings.EqualFold(args[0], "off") {
		c.Args = SeekArgs{Off: true}
		return Error{}
	}
	o, e := readOptions(c.Line, args, false)
	if e.Problem != NoProblem {
		return e
	}
	c.Args = SeekArgs{Control: o.control, Unrated: o.unrated, RatingLow: o.ratings[0], RatingHigh: o.ratings[1]}
	return Error{}
}

func notifyArgs(c *Command, args []string, _ int64) Error {
	if len(args) != 1 {
		return lineError(c.Line, BadSetting, "notify needs one word: notify each, notify digest or notify off")
	}
	var n Notice
	switch strings.ToLower(args[0]) {
	case "each":
		n = NoticeEach
	case "digest":
		n = NoticeDigest
	case "off":
		n = NoticeOff
	default:
		return lineError(c.Line, BadSetting, "%s is not a setting of notify: write notify each, notify digest or notify off", quote(args[0]))
	}
	c.Args = NotifyArgs{Notice: n}
	return Error{}
}

func vacationArgs(c *Command, args []string, _ int64) Error {
	if len(args) == 1 && strings.EqualFold(args[0], "off") {
		c.Args = VacationArgs{Off: true}
		return Error{}
	}
	n, ok := 0, len(args) == 1
	if ok {
		n, ok = smallNumber(args[0])
	}
	if !ok || n < 1 || n > 365 {
		return lineError(c.Line, BadSetting, "vacation needs a number of days or off: vacation 7, or vacation off")
	}
	c.Args = VacationArgs{Days: n}
	return Error{}
}

func ifArgs(c *Command, args []string, game int64) Error {
	moves, e := conditionalMoves(c.Line, args)
	if e.Problem != NoProblem {
		return e
	}
	if game == 0 {
		return lineError(c.Line, MissingGame, "conditional moves need a game: send them in a reply about the game, or below a line conditional congo <id>")
	}
	c.Game, c.Args = game, IfArgs{Moves: moves}
	return Error{}
}

func conditionalArgs(c *Command, args []string, game int64) Error {
	var a ConditionalArgs
	if n := len(args); n > 0 && strings.EqualFold(args[n-1], "clear") {
		a.Clear = true
		args = args[:n-1]
	}
	if e := gameArgs(c, args, game); e.Problem != NoProblem {
		return e
	}
	c.Args = a
	return Error{}
}

func moveArgs(c *Command, args []string, game int64) Error {
	if len(args) > 0 {
		if id, ok := parseID(args[0]); ok {
			c.Game = id
			args = args[1:]
		} else if looksLikeID(args[0]) {
			return lineError(c.Line, BadGame, "%s is not a game number: write %s, for example move congo 42 b2-b3", quote(args[0]), usage(c.Kind))
		}
	}
	if c.Game == 0 {
		if game == 0 {
			return lineError(c.Line, MissingGame, "move needs a game number: %s", usage(c.Kind))
		}
		c.Game = game
	}
	if len(args) == 0 {
		return lineError(c.Line, MissingMove, "move needs a move after the game number: move congo %d b2-b3", c.Game)
	}
	// The decorations of a move alone (M20) are allowed here too, as in
	// move congo 42 "b2-b3", and anyway after it (M61).
	text, anyway := cutAnyway(strings.Join(args, " "))
	move, n, ok := splitMoveNumber(undecorate(text))
	move, anyway2 := cutAnyway(move)
	move = mapSeparators(undecorate(move))
	switch {
	case !ok:
		return lineError(c.Line, BadMoveNumber, "the move number after # must be a number from 1 up: write it as b2-b3#1")
	case move == "" && n == 0:
		return lineError(c.Line, MissingMove, "move needs a move after the game number: move congo %d b2-b3", c.Game)
	case move == "":
		return lineError(c.Line, MissingMove, "move needs a move before the #: move congo %d b2-b3#%d", c.Game, n)
	case !isMove(move):
		return lineError(c.Line, BadMove, "%s is not a move: write it as %s", quote(move), badMoveExample(move))
	}
	c.Args = MoveArgs{Move: move, Number: n, Anyway: anyway || anyway2}
	return Error{}
}

// onOrOff: guard is a command alone before on or off, so that "Guard
// your lion!" in a message stays words.
func onOrOff(args []string) bool {
	return len(args) == 1 && (strings.EqualFold(trimMarks(args[0]), "on") || strings.EqualFold(trimMarks(args[0]), "off"))
}

// guardArgs reads guard on|off (M61).
func guardArgs(c *Command, args []string, _ int64) Error {
	c.Args = GuardArgs{On: strings.EqualFold(trimMarks(args[0]), "on")}
	return Error{}
}

// gameArgs reads the rest of a command that names a game, or applies to
// the game the mail is about: args is the game number or nothing.
func gameArgs(c *Command, args []string, game int64) Error {
	k := c.Kind
	if len(args) == 0 {
		if game == 0 {
			return lineError(c.Line, MissingGame, "%s needs a game number: %s", k, usage(k))
		}
		c.Game = game
		return Error{}
	}
	id, ok := parseID(args[0])
	if !ok {
		return lineError(c.Line, BadGame, "%s is not a game number: write %s, for example %s congo 42", quote(args[0]), usage(k), k)
	}
	c.Game = id
	if len(args) > 1 {
		return lineError(c.Line, ExtraWords, "unexpected %s at the end: write %s", quote(strings.Join(args[1:], " ")), usage(k))
	}
	return Error{}
}

// boardArgs reads the rest of board: a game, and a move number after "#"
// (M15), as in "board congo 42#3" or "board congo 42 #3". A lone "#42" is
// a game number, as for every game command.
func boardArgs(c *Command, args []string, game int64) Error {
	switch {
	case len(args) == 2 && strings.HasPrefix(args[1], "#"):
		return boardAt(c, args[:1], args[1][1:], game)
	case len(args) == 1 && strings.LastIndexByte(args[0], '#') > 0:
		i := strings.LastIndexByte(args[0], '#')
		return boardAt(c, []string{args[0][:i]}, args[0][i+1:], game)
	}
	if e := gameArgs(c, args, game); e.Problem != NoProblem {
		return e
	}
	c.Args = BoardArgs{}
	return Error{}
}

// boardAt reads the move number of board.
func boardAt(c *Command, args []string, at string, game int64) Error {
	n, ok := smallNumber(at)
	if !ok {
		return lineError(c.Line, BadMoveNumber, "the number after # must be a move number from 0 up: board congo 42#3")
	}
	if e := gameArgs(c, args, game); e.Problem != NoProblem {
		return e
	}
	c.Args = BoardArgs{Past: true, At: n}
	return Error{}
}

// oneWordAtMost: language is a command alone or before one word, so that
// "Language is no barrier" in a message stays words.
func oneWordAtMost(args []string) bool { return len(args) <= 1 }

// languageArgs reads the language of language: its code or a word for it
// (lang.Parse).
func languageArgs(c *Command, args []string, _ int64) Error {
	if len(args) == 0 {
		return lineError(c.Line, BadSetting, "language needs a language: language en (English), language ja (Japanese) or language cs (Czech)")
	}
	l, ok := lang.Parse(args[0])
	if !ok {
		return lineError(c.Line, BadSetting, "%s is not a language of this server: write language en (English), language ja (Japanese) or language cs (Czech)", quote(args[0]))
	}
	c.Args = LanguageArgs{Language: l}
	return Error{}
}

// adminUsage is the list of the operator's commands, for errors.
const adminUsage = "ban <handle>, unban <handle>, adjourn congo <id>, resume congo <id>, adjudicate congo <id> white|black|draw"

// adminHandleArgs reads the handle of ban and unban: one word, as written
// (whether a player has it is the server's to say).
func adminHandleArgs(c *Command, args []string, _ int64) Error {
	if len(args) != 1 {
		return lineError(c.Line, BadAdmin, "not understood: %s", adminUsage)
	}
	c.Args = BanArgs{Handle: args[0]}
	return Error{}
}

// adminGameArgs reads the game of adjourn and adjudicate, and the result
// adjudicate names.
func adminGameArgs(c *Command, args []string, _ int64) Error {
	if len(args) > 0 && isGameWord(args[0]) {
		args = args[1:]
	}
	want := 1
	if c.Kind == Adjudicate {
		want = 2
	}
	var ok bool
	if len(args) == want {
		c.Game, ok = parseID(args[0])
	}
	if ok && c.Kind == Adjudicate {
		switch r := strings.ToLower(args[1]); r {
		case "white", "black", "draw":
			c.Args = AdjudicateArgs{Result: r}
		default:
			ok = false
		}
	}
	if !ok {
		c.Game = 0
		return lineError(c.Line, BadAdmin, "not understood: %s", adminUsage)
	}
	return Error{}
}
