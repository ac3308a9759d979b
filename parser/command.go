// Package parser turns the text of a mail into the commands it carries.
package parser

import (
	"fmt"
	"strings"
)

// TimeControl is the time control a challenge or seek asks for (M11).
// The zero value means none was named (the server then uses its default).
type TimeControl struct {
	Bank      bool // bank=D+I; otherwise days=N
	Days      int  // N days for every move, or the bank of D days
	Increment int  // I days added to the bank after each move, capped at D
}

// Levels of the robot a challenge may ask for (level=N).
const (
	MinLevel = 1
	MaxLevel = 5
)

// Limits of time controls, in days.
const (
	MaxDays = 60 // most days per move, or in a bank
)

// String writes tc as it is written in a command: "days=3", "bank=10+1",
// or "" for none.
func (tc TimeControl) String() string {
	switch {
	case tc.Days == 0:
		return ""
	case tc.Bank:
		return fmt.Sprintf("bank=%d+%d", tc.Days, tc.Increment)
	}
	return fmt.Sprintf("days=%d", tc.Days)
}

// ParseTimeControl reads a time control written "days=N" (1 <= N <= 60)
// or "bank=D+I" (1 <= D <= 60, 0 <= I <= D), in any case.
func ParseTimeControl(s string) (TimeControl, bool) {
	key, value, ok := strings.Cut(strings.ToLower(s), "=")
	if !ok {
		return TimeControl{}, false
	}
	switch key {
	case "days":
		n, ok := smallNumber(value)
		if !ok || n < 1 || n > MaxDays {
			return TimeControl{}, false
		}
		return TimeControl{Days: n}, true
	case "bank":
		d, i, ok := strings.Cut(value, "+")
		days, ok1 := smallNumber(d)
		inc, ok2 := smallNumber(i)
		if !ok || !ok1 || !ok2 || days < 1 || days > MaxDays || inc > days {
			return TimeControl{}, false
		}
		return TimeControl{Bank: true, Days: days, Increment: inc}, true
	}
	return TimeControl{}, false
}

// smallNumber reads a number of 1 to 4 digits.
func smallNumber(s string) (int, bool) {
	if s == "" || len(s) > 4 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

// Notice is how a player wants to hear of moves (M18). The zero value
// means none was named.
type Notice uint8

const (
	NoNotice     Notice = iota
	NoticeEach          // each: a mail per move
	NoticeDigest        // digest: one daily mail
	NoticeOff           // off: no mail about moves
)

// String returns "each", "digest", "off" or "none".
func (n Notice) String() string {
	switch n {
	case NoticeEach:
		return "each"
	case NoticeDigest:
		return "digest"
	case NoticeOff:
		return "off"
	}
	return "none"
}

// Command is one command found in a mail.
type Command struct {
	Kind Kind
	// Line is the text the command was read from, as the sender wrote it
	// (trimmed), so that answers can quote it. For a command in the
	// Subject, it is the Subject without its reply prefixes and tags.
	Line string
	// Game is the game number the command names; 0 when it names none.
	// For a bare move, or a game command without a number, in a reply,
	// Game is the game of the mail replied to (see Context).
	Game int64
	// Args is the command's arguments, of the type its Kind reads
	// (args.go): ChallengeArgs for Challenge, MoveArgs for Move, and so
	// on, set even when the command names none of them (BoardArgs{} for a
	// board without #N). It is nil for a kind that has no arguments
	// other than its game, such as Accept.
	Args Args
}

// Error is a line that is not a command. The server answers it, quoting Line.
type Error struct {
	// Line is the offending line, trimmed; a line longer than 256 bytes is
	// cut there and ends in "...".
	Line    string
	Problem Problem // what is wrong, for code that branches on it
	Reason  string  // what is wrong and how to fix it, one sentence in English
	// Format and Args make Reason, fmt.Sprintf(Format, Args...), so that
	// a mail can say it in the reader's language: Format is the key of
	// its translations (templates/lang), Args are words of the line,
	// numbers and commands, which stay as they are.
	Format string
	Args   []any
}

// Problem says what is wrong with a line that is not a command. The zero
// value means no problem.
type Problem uint8

const (
	NoProblem         Problem = iota
	UnknownCommand            // the line starts with no command word
	LongLine                  // the line is too long to be a command
	ExtraWords                // words follow a complete command
	MissingGame               // a game command names no game and the mail is not a reply about one
	BadGame                   // the game number is not a positive number
	MissingMove               // move names no move
	BadMove                   // the move is not written as R20 says
	BadMoveNumber             // the #N after a move is not a number from 1 up
	MissingHandle             // register or challenge names no handle
	BadHandle                 // the handle breaks the handle rule (ValidHandle)
	BadColour                 // the word after a challenge's handle is not white or black
	BadTimeControl            // days=N or bank=D+I is out of range or malformed
	BadConditional            // an if line is not "if <move> then <move> ..."
	BadSetting                // notify, vacation or seek has an argument it does not know
	Ignored                   // a limit was reached: this line and the rest of the mail were not read
	BadLevel                  // level=N is not a level from MinLevel to MaxLevel
	NotRead                   // a command in the body of a mail whose Subject is one: the body is a message
	BadAdmin                  // an operator's command that is not written as it must be
	EmbeddedMove              // a mail about a game has no command, but a move inside a line of words: nothing was played (M20)
	NotInDigest               // a digest line "<id>: <move>" names a game the digest replied to did not list (M24)
	MissingTournament         // a tournament command names no tournament
	BadTournament             // a tournament command is not written as it must be
	BadAmount                 // give names no amount of time, or one it cannot give (M65)
	InWords                   // a line of a message asks in words for a game action ("I resign", "draw?"): nothing was done (M58)
	MissingText               // note names no text
	BadPosition               // position= of a challenge is not written as R21 says
)

// Result is everything Parse found in one mail.
type Result struct {
	Commands []Command
	Errors   []Error
	// Hints are what a mail about a game asked for and did not get
	// (M58), in the order of its lines, each an Error that says what was
	// not done and the line to send: a game action written in words
	// ("I resign", "draw?", Problem InWords), and a move inside a
	// sentence (M20) of a mail that holds other commands but no move in
	// the game (Problem EmbeddedMove). Their lines stay in the Message:
	// they are relayed as words. The answer to the mail starts with
	// them.
	Hints []Error
	// Message is the sender's message to the opponent (M19).
	//
	// In a mail about one game (Context.Game, or a "Congo game N"
	// Subject) whose commands are in the body, it is the body's lines
	// that are no command, down to where reading stops (a quote, a
	// signature, an attribution, a line of one of the server's own
	// mails, ...), in order: each line as the sender wrote it (not
	// normalised, only trimmed of trailing space), every run of blank
	// lines made one empty line, none at the start or the end, joined by
	// "\n". It is "" when the mail holds no such line, and when the mail
	// has no command but a move inside a line of words (EmbeddedMove):
	// then nothing is relayed.
	//
	// When the command is the Subject (FromSubject), it is the body down
	// to where reading stops, trimmed.
	//
	// At most 200 lines and 16 KiB are kept; a line beyond is reported as
	// one Error with Problem Ignored. In a mail about no game, Message is
	// "" and its lines that are no command are Errors; but when its one
	// command about a game is a challenge, its lines of words (those
	// that are no command and look like none) are the message to the
	// player challenged.
	Message string
	// FromSubject is true when the command came from the Subject line.
	FromSubject bool
	// CommandSubject is true when the Subject is a command, or was meant
	// to be one and has an error: an answer must not repeat such a
	// Subject, or a reply to the answer would carry the command again.
	CommandSubject bool
}

// Context is what the server knows about the mail being parsed.
type Context struct {
	// Game is the game the mail replies to (from In-Reply-To/References or
	// a "Congo game N" Subject), or 0 when it is not a reply about a game.
	// It lets bare move and resign lines apply to that game, and makes
	// the body's lines that are no command a message (Result.Message).
	Game int64
	// Digest is the games listed by the digest that the mail replies to
	// (M24), or nil. Lines "<id>: <move>", "<id> <move>" and "game <id>
	// <move>" are then moves in game <id>; an <id> not in Digest is an
	// Error with Problem NotInDigest. When the digest listed one game,
	// the server sets Game to it too, so that a bare move plays there.
	Digest []int64
	// Operator is set when the mail is the operator's, proven: the
	// operator's commands (ban, adjourn, ...) are read only then.
	Operator bool
}

// String returns a short name for p, such as "bad move".
func (p Problem) String() string {
	switch p {
	case NoProblem:
		return "no problem"
	case UnknownCommand:
		return "unknown command"
	case LongLine:
		return "long line"
	case ExtraWords:
		return "extra words"
	case MissingGame:
		return "missing game"
	case BadGame:
		return "bad game"
	case MissingMove:
		return "missing move"
	case BadMove:
		return "bad move"
	case BadMoveNumber:
		return "bad move number"
	case MissingHandle:
		return "missing handle"
	case BadHandle:
		return "bad handle"
	case BadColour:
		return "bad colour"
	case BadTimeControl:
		return "bad time control"
	case BadConditional:
		return "bad conditional"
	case BadSetting:
		return "bad setting"
	case Ignored:
		return "ignored"
	case BadLevel:
		return "bad level"
	case NotRead:
		return "not read"
	case BadAdmin:
		return "bad admin"
	case EmbeddedMove:
		return "embedded move"
	case NotInDigest:
		return "not in digest"
	case MissingTournament:
		return "missing tournament"
	case BadTournament:
		return "bad tournament"
	case BadAmount:
		return "bad amount"
	case InWords:
		return "in words"
	case MissingText:
		return "missing text"
	case BadPosition:
		return "bad position"
	}
	return fmt.Sprintf("Problem(%d)", uint8(p))
}

// Valid reports whether p is one of the problems above (NoProblem
// included).
func (p Problem) Valid() bool {
	return p <= BadPosition
}
