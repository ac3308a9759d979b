package parser

import (
	"errors"
	"strings"

	"github.com/congobymail/congo/lang"
	"github.com/congobymail/congo/rules"
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

func challengeArgs(c *Command, args []string, _ int64) Error {
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
	c.Args = ChallengeArgs{Handle: args[0], Color: o.color, Control: o.control, Unrated: o.unrated, Level: o.level, Position: o.position}
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
	c.Args = SeekArgs{Control: o.control, Unrated: o.unrated}
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
	// move congo 42 "b2-b3".
	move, n, ok := splitMoveNumber(undecorate(strings.Join(args, " ")))
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
	c.Args = MoveArgs{Move: move, Number: n}
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

// positionOption reads the option position=<R21 line> of a challenge
// (M72), which args start with: the board after "position=", the side to
// move and the move number, which may be left out for 1, the whole
// perhaps in double quotes. It returns the position, written as R21
// does, and how many words it took. Only its form is checked: a position
// that breaks the rules (two lions of a side, a lion outside its castle,
// a pawn on its last rank) is the server's to refuse.
func positionOption(line string, args []string) (string, int, Error) {
	board := strings.TrimPrefix(args[0][len("position="):], `"`)
	fail := func(what string) (string, int, Error) {
		return "", 0, lineError(line, BadPosition, "%s is not a position: write it as R21 does, the ranks from 7 down to 1 separated by /, then the side to move and the move number, for example position=gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1", quote(what))
	}
	n := 1
	side := ""
	if len(args) > 1 {
		side = strings.ToLower(strings.TrimSuffix(args[1], `"`))
	}
	if side != "w" && side != "b" {
		return fail(strings.TrimSuffix(board, `"`))
	}
	n++
	number := "1"
	if len(args) > 2 {
		if d := strings.TrimSuffix(args[2], `"`); d != "" && strings.Trim(d, "0123456789") == "" {
			number = d
			n++
		}
	}
	text := board + " " + side + " " + number
	if _, err := rules.ParsePosition(text); err != nil {
		if pe, ok := errors.AsType[*rules.PositionError](err); !ok || !ruleFlaw(pe.Flaw) {
			return fail(text)
		}
	}
	return text, n, Error{}
}

// ruleFlaw reports whether f is no flaw of a position's form but of the
// rules (R21): the server says what is wrong with such a position.
func ruleFlaw(f rules.Flaw) bool {
	switch f {
	case rules.ExtraLion, rules.NoLions, rules.LionOutsideCastle, rules.PawnOnLastRank:
		return true
	}
	return false
}

// someWords: note is a command only before its text, so that a line
// "Note" alone in a message stays words.
func someWords(args []string) bool { return len(args) > 0 }

// gameAtMost: notes is a command alone or before a game ("notes congo
// 42", "notes 42"), so that "Notes from the weekend" stays words.
func gameAtMost(args []string) bool {
	if len(args) > 0 && isGameWord(args[0]) {
		args = args[1:]
	}
	switch len(args) {
	case 0:
		return true
	case 1:
		return looksLikeID(args[0])
	}
	return false
}

// previewStarts: preview is a command before a move, or a game and a
// move, so that "Preview of the tournament" stays words.
func previewStarts(args []string) bool {
	if len(args) > 0 && isGameWord(args[0]) {
		args = args[1:]
	}
	if len(args) > 0 && looksLikeID(args[0]) {
		args = args[1:]
	}
	return len(args) > 0 && looksLikeMove(args[0])
}

// maxNote is the longest note line read, in bytes.
const maxNote = maxNormLen

// noteArgs reads note <text> (the game the mail is about) or note congo
// <id> <text> (M68). The text is kept as written: the line after its
// command word, and after "congo <id>" when it names a game.
func noteArgs(c *Command, args []string, game int64) Error {
	words := strings.FieldsFunc(normalise(c.Line), isSpace)
	skip := len(words) - len(args) // "note", with "congo" before or after it
	named := false
	if skip >= 2 && len(args) > 0 {
		if id, ok := parseID(args[0]); ok {
			c.Game, named = id, true
			skip++
		}
	}
	if !named {
		if skip >= 2 && isGameWord(words[skip-1]) && keyword(words[skip-2]) == Note {
			skip-- // "note congo is ...": congo is the note's first word
		}
		if game == 0 {
			return lineError(c.Line, MissingGame, "a note needs its game: write note congo <id> <text>, or note <text> in a reply about the game")
		}
		c.Game = game
	}
	text := afterWords(c.Line, skip)
	if text == "" {
		return lineError(c.Line, MissingText, "a note needs its text: note congo %d <text>", c.Game)
	}
	c.Args = NoteArgs{Text: text}
	return Error{}
}

// afterWords returns line after its first n words, trimmed.
func afterWords(line string, n int) string {
	s := strings.TrimFunc(line, isSpace)
	for range n {
		_, s = cutWord(s)
	}
	return s
}

// maxPreview is the most moves a preview plays.
const maxPreview = 20

// previewArgs reads preview congo <id> <move> [<move> ...] (M70), or
// preview <move> ... in a reply about the game: moves one a word, each
// perhaps followed by a comma.
func previewArgs(c *Command, args []string, game int64) Error {
	if len(args) > 0 && looksLikeID(args[0]) {
		id, ok := parseID(args[0])
		if !ok {
			return lineError(c.Line, BadGame, "%s is not a game number: write %s, for example preview congo 42 b2-b3 b6-b5", quote(args[0]), usage(c.Kind))
		}
		c.Game, args = id, args[1:]
	}
	if c.Game == 0 {
		if game == 0 {
			return lineError(c.Line, MissingGame, "preview needs a game number: %s", usage(c.Kind))
		}
		c.Game = game
	}
	if len(args) == 0 {
		return lineError(c.Line, MissingMove, "preview needs moves after the game number: preview congo %d b2-b3 b6-b5", c.Game)
	}
	if len(args) > maxPreview {
		return lineError(c.Line, ExtraWords, "a preview plays at most %d moves", maxPreview)
	}
	var a PreviewArgs
	for _, w := range args {
		m := mapSeparators(strings.TrimRight(w, ",;"))
		if !isMove(m) {
			return lineError(c.Line, BadMove, "%s is not a move: write it as %s", quote(m), badMoveExample(m))
		}
		a.Moves = append(a.Moves, m)
	}
	c.Args = a
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

// adminGameArgs reads the game of adjourn, resume and adjudicate, and the
// result adjudicate names.
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

// options are the options of a challenge or a seek (M11).
type options struct {
	color    rules.Color
	control  TimeControl
	unrated  bool
	level    int
	position string
}

// readOptions reads the options of a challenge or a seek, in any order
// (M11): a colour (for a challenge), a time control, unrated, and the
// robot's level and the position to start from (for a challenge). line
// is the command's, for errors.
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
			seen, o.unrated = o.unrated, true
		case colour && len(w) >= 6 && strings.EqualFold(w[:6], "level="):
			n, ok := smallNumber(w[6:])
			if !ok || n < MinLevel || n > MaxLevel {
				return o, lineError(line, BadLevel, "%s is not a level: write level=N, N from %d (weakest) to %d (strongest)", quote(w), MinLevel, MaxLevel)
			}
			seen, o.level = o.level != 0, n
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
