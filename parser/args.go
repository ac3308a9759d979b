package parser

import (
	"github.com/congobymail/congo/lang"
	"github.com/congobymail/congo/rules"
)

// Args is the arguments of a command, of the type its Kind reads:
// RegisterArgs for Register, ChallengeArgs for Challenge, and so on. A
// kind whose command has no arguments other than its game, such as
// Accept or Adjourn, has none (nil). Only the types of this package are
// Args.
type Args interface {
	isArgs()
}

// RegisterArgs are the arguments of register <handle>.
type RegisterArgs struct {
	// Handle is the handle asked for, as written.
	Handle string
}

// RenameArgs are the arguments of rename <handle> (M56).
type RenameArgs struct {
	// Handle is the new handle, as written.
	Handle string
}

// ChallengeArgs are the arguments of challenge congo <handle>
// [white|black] [days=N|bank=D+I] [rated|unrated] [level=N]
// [timeout=claim|auto].
type ChallengeArgs struct {
	// Handle is the handle of the player challenged, as written.
	Handle string
	// Color is the color the challenger asks to play: White unless the
	// challenge names black.
	Color rules.Color
	// Control is the time control asked for; its zero value when none
	// was named.
	Control TimeControl
	// Unrated is true when the challenge names unrated.
	Unrated bool
	// Rated is true when the challenge names rated: a game against the
	// robot is unrated unless it does (M60).
	Rated bool
	// Level is the strength asked of the robot, MinLevel to MaxLevel
	// (level=N); 0 when none was named.
	Level int
	// TimeoutClaim is true when the challenge names timeout=claim: a
	// player who runs out of time loses when the opponent claims it
	// (M66); timeout=auto, the default, leaves it false.
	TimeoutClaim bool
	// Position is the position the game is to start from (M72), as
	// written after position= (R21: board, side to move, move number);
	// "" for the start of every game. Its syntax is checked
	// (rules.ParsePosition); whether a game may start from it is the
	// server's to judge.
	Position string
}

// MoveArgs are the arguments of move congo <id> <move> [#N], of a move
// alone in a reply about a game, and of a line "<id>: <move>" in a reply
// to a digest (M24).
type MoveArgs struct {
	// Move is the move text as written (for example "b2-b3", "b2 - b3" or
	// "a2-c4-c6x"), without the #N and with its words joined by one space,
	// read as M21 says: after Unicode NFKC (full-width "ｂ２－ｂ３" is
	// "b2-b3"), with the dashes of input methods and "×" written "-" and
	// "x", and without what M20 lets surround a move alone (quotes,
	// brackets, a final "." or "!?", a "Move:" before it). Its syntax is
	// checked (rules.ParseMoveText); the server resolves it against the
	// legal moves.
	Move string
	// Number is the #N guard after a move (M1); 0 when absent.
	Number int
	// Anyway is true when the word anyway follows the move: it is played
	// even when it lets the opponent take the mover's lion (M61).
	Anyway bool
}

// BoardArgs are the arguments of board congo <id>[#N].
type BoardArgs struct {
	// Past is true when board names a move: "board congo 42#3" shows the
	// position after black's move At (M15; 0 is the start).
	Past bool
	At   int
}

// GamesArgs are the arguments of games [<handle>].
type GamesArgs struct {
	// Handle is the player whose games are asked for, as written; "" for
	// the sender's own.
	Handle string
}

// ConditionalArgs are the arguments of conditional congo <id> [clear].
type ConditionalArgs struct {
	// Clear is true when the conditional moves are to be cleared.
	Clear bool
}

// IfArgs are the arguments of if <their move> then <my move> [if ...
// then ...], a conditional line (M14).
type IfArgs struct {
	// Moves are the moves of the line, as written: the opponent's move,
	// the sender's answer, the opponent's next move, and so on. The
	// sender's last answer may be ThenResign or ThenDraw instead of a
	// move (M69).
	Moves []string
}

// The words that may end a conditional line instead of a move (M69), as
// IfArgs.Moves holds them.
const (
	ThenResign = "resign" // if <their move> then resign
	ThenDraw   = "draw"   // if <their move> then draw: offer a draw, or accept the one offered
)

// NoteArgs are the arguments of note <text>, in a mail about a game, and
// of note congo <id> <text> (M68).
type NoteArgs struct {
	// Text is the note, as written (not normalised), trimmed.
	Text string
}

// PreviewArgs are the arguments of preview congo <id> <move> [<move>
// ...] (M70).
type PreviewArgs struct {
	// Moves are the moves to play in turn from the position now, as
	// written; their syntax is checked (rules.ParseMoveText), their
	// legality is the server's to judge.
	Moves []string
}

// SeekArgs are the arguments of seek congo [days=N|bank=D+I]
// [rating=LOW-HIGH] [unrated], or seek off.
type SeekArgs struct {
	// Off is true for seek off, which has no other argument.
	Off bool
	// Control is the time control asked for; its zero value when none
	// was named.
	Control TimeControl
	// Unrated is true when the seek names unrated.
	Unrated bool
	// RatingLow and RatingHigh are the range of the opponent's rating
	// asked for, both in it (rating=LOW-HIGH, M75): 0 and 0 when none
	// was named, else 0 <= RatingLow <= RatingHigh <= MaxRating.
	RatingLow, RatingHigh int
}

// NotifyArgs are the arguments of notify each|digest|off.
type NotifyArgs struct {
	// Notice is the setting asked for.
	Notice Notice
}

// VacationArgs are the arguments of vacation <days>, or vacation off.
type VacationArgs struct {
	// Off is true for vacation off, which has no number of days.
	Off bool
	// Days is the length of the vacation, from 1 to 365.
	Days int
}

// GiveArgs are the arguments of give congo <id> <N>d|<N>h (M65).
type GiveArgs struct {
	// Hours is the time given, in hours: 1 to MaxGiveHours (<N>d is 24N).
	Hours int
}

// TimezoneArgs are the arguments of timezone [<name>] (M64).
type TimezoneArgs struct {
	// Zone is the time zone named, as written ("Europe/Prague"); "" when
	// the command asks for the player's own.
	Zone string
}

// WeekendsArgs are the arguments of weekends pause|play (M64).
type WeekendsArgs struct {
	// Pause is true for weekends pause, false for weekends play.
	Pause bool
}

// LanguageArgs are the arguments of language en|ja|cs.
type LanguageArgs struct {
	// Language is the language named.
	Language lang.Code
}

// GuardArgs are the arguments of guard on|off (M61).
type GuardArgs struct {
	// On is true for guard on: moves that let the opponent take the
	// player's lion are not played unless they say anyway.
	On bool
}

// TournamentArgs are the arguments of tournament <t>, tournament start
// <t>, tournament cancel <t>, join tournament <t> and leave tournament
// <t>.
type TournamentArgs struct {
	// Tournament is the number of the tournament the command names.
	Tournament int64
}

// TournamentNewArgs are the arguments of tournament new
// roundrobin|swiss|ladder|knockout [rounds=N] [games=N] [days=N|bank=D+I]
// [unrated] [double] [pauses] [novacation] <name>.
type TournamentNewArgs struct {
	// System is RoundRobin, Swiss, Ladder or Knockout.
	System string
	// Rounds is the number of rounds of a Swiss; 0 for the default.
	Rounds int
	// Double is true when every pair of a round robin plays twice.
	Double bool
	// Games is the number of games of a knockout's match, 1 to
	// MaxMatchGames; 0 for the default.
	Games int
	// Control is the time control of the tournament's games; its zero
	// value when none was named.
	Control TimeControl
	// Unrated is true when the tournament names unrated.
	Unrated bool
	// Name is the tournament's name: its words joined by one space, at
	// most MaxNameLength characters.
	Name string
	// Pauses is true when the tournament's games may be paused by
	// agreement (M63); NoVacation when vacations do not stop their
	// clocks (M67).
	Pauses     bool
	NoVacation bool
}

// KickArgs are the arguments of tournament kick <t> <handle>.
type KickArgs struct {
	// Tournament is the number of the tournament.
	Tournament int64
	// Handle is the handle of the player to remove from it, as written.
	Handle string
}

// TournamentAddArgs are the arguments of tournament <t> add robot
// [level=N] (M60).
type TournamentAddArgs struct {
	// Tournament is the number of the tournament.
	Tournament int64
	// Handle is the handle of the player added, as written: the server
	// adds the robot alone.
	Handle string
	// Level is the robot's strength in the tournament's games, MinLevel
	// to MaxLevel; 0 when none was named.
	Level int
}

// LadderChallengeArgs are the arguments of challenge ladder <t>
// <handle> (M73).
type LadderChallengeArgs struct {
	// Tournament is the number of the ladder.
	Tournament int64
	// Handle is the handle of the player challenged, as written.
	Handle string
}

// BanArgs are the arguments of the operator's ban <handle> and unban
// <handle>.
type BanArgs struct {
	// Handle is the handle, as written: whether a player has it is the
	// server's to say.
	Handle string
}

// AdjudicateArgs are the arguments of the operator's adjudicate [congo]
// <id> white|black|draw. (Adjourn and resume name only their game.)
type AdjudicateArgs struct {
	// Result is the result named: "white", "black" or "draw".
	Result string
}

func (RegisterArgs) isArgs()        {}
func (RenameArgs) isArgs()          {}
func (ChallengeArgs) isArgs()       {}
func (MoveArgs) isArgs()            {}
func (BoardArgs) isArgs()           {}
func (GamesArgs) isArgs()           {}
func (ConditionalArgs) isArgs()     {}
func (IfArgs) isArgs()              {}
func (NoteArgs) isArgs()            {}
func (PreviewArgs) isArgs()         {}
func (SeekArgs) isArgs()            {}
func (NotifyArgs) isArgs()          {}
func (VacationArgs) isArgs()        {}
func (LanguageArgs) isArgs()        {}
func (GiveArgs) isArgs()            {}
func (TimezoneArgs) isArgs()        {}
func (WeekendsArgs) isArgs()        {}
func (GuardArgs) isArgs()           {}
func (TournamentArgs) isArgs()      {}
func (TournamentAddArgs) isArgs()   {}
func (TournamentNewArgs) isArgs()   {}
func (KickArgs) isArgs()            {}
func (LadderChallengeArgs) isArgs() {}
func (BanArgs) isArgs()             {}
func (AdjudicateArgs) isArgs()      {}
