package parser

import (
	"errors"
	"strings"

	"github.com/congobymail/congo/rules"
)

// The readers of playing better by mail (M68-M72): notes, previews and
// the position a challenge starts from.

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
