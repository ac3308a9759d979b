package templates

import (
	"strings"
	"time"

	"github.com/congobymail/congo/lang"
)

// ReplyData is the one answer to a mail: its sections in the order of the
// commands they answer.
type ReplyData struct {
	Lang    lang.Code // the recipient's language; "" for English
	Subject string    // the Subject of the mail answered; "" for none, or one not to repeat
	// Game is the game the answer is about, when it answers a mail in
	// the game's thread: its Subject is then the game's (M22).
	Game     *Game
	Sections []Section
	// OwnSubject is set for the answer to a mail that proves nothing
	// (M55): its Subject is never the sender's, but the game's, or what
	// its first section is about, or "Your mail to Congo".
	OwnSubject bool
}

// Reply renders the answer to a mail.
func Reply(d ReplyData) (subject, body string, err error) {
	t := tongueOf(d.Lang)
	parts, err := t.sections(d.Sections)
	if err != nil {
		return "", "", err
	}
	body, err = t.execute("reply", parts)
	if err != nil {
		return "", "", err
	}
	if d.Game != nil {
		if subject, err = t.subject(*d.Game); err != nil {
			return "", "", err
		}
		return "Re: " + subject, body, nil
	}
	if d.OwnSubject {
		if len(d.Sections) > 0 {
			subject, err = t.answerSubject(d.Sections[0], "subject_unproven")
		} else {
			subject, err = t.raw("subject_unproven", nil)
		}
		return strings.TrimSpace(subject), body, err
	}
	if strings.TrimSpace(d.Subject) == "" && len(d.Sections) > 0 {
		subject, err = t.answerSubject(d.Sections[0], "subject_answer")
		return subject, body, err
	}
	if s := strings.TrimSpace(d.Subject); s != "" {
		return replySubject(s), body, nil
	}
	subject, err = t.raw("subject_answer", nil)
	return subject, body, err
}

// sections renders sections of a reply, each as its text.
func (t *tongue) sections(secs []Section) ([]string, error) {
	out := make([]string, 0, len(secs))
	for _, s := range secs {
		text, err := t.execute(s.template(), s)
		if err != nil {
			return nil, err
		}
		out = append(out, strings.TrimSpace(text))
	}
	return out, nil
}

// answerSubject names an answer to a mail without a Subject, or with a
// command for one, which the answer must not repeat, or one whose
// Subject it must not repeat: by what it begins with (templates
// "subject_..." of the language), else by the template other.
func (t *tongue) answerSubject(s Section, other string) (string, error) {
	name := other
	var data any
	switch s := s.(type) {
	case Registered:
		name, data = "subject_welcome", s
	case Help:
		name = "subject_manual"
	case RulesSummary:
		name = "subject_rules"
	case GameList:
		name = "subject_games"
	case Ratings:
		name = "subject_ratings"
	case NewKey:
		name = "subject_newkey"
	case HowToRegister:
		name = "subject_how_to_register"
	case Prove:
		name = "subject_prove"
	case TournamentCreated:
		return t.tournamentSubject(s.T)
	case TournamentJoin:
		return t.tournamentSubject(s.T)
	case TournamentRobot:
		return t.tournamentSubject(s.T)
	case TournamentDone:
		return t.tournamentSubject(s.T)
	case LadderChallenge:
		return t.tournamentSubject(s.T)
	case TournamentList:
		name = "subject_tournaments"
	case LanguageSet:
		name = "subject_language"
	case Error:
		if s.Tournament != nil {
			return t.tournamentSubject(*s.Tournament)
		}
	}
	subject, err := t.raw(name, data)
	return strings.TrimSpace(subject), err
}

// replySubject is the Subject of an answer: "Re: " and the Subject
// answered, once.
func replySubject(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 3 && strings.EqualFold(s[:3], "re:") {
		return s
	}
	return "Re: " + s
}

// A Section is one part of a reply.
type Section interface {
	template() string
}

// Help is the manual. Robot is the handle of the robot player, "" when
// there is none.
type Help struct {
	Robot      string // the computer player's handle; "" for none
	RobotLevel int    // the level of a challenge to it that names none
	// AnalysesPerDay is the most analyses a player may ask for in a
	// day; 0 for no cap.
	AnalysesPerDay int
}

// Registered answers register: a welcome, or, for an address registered
// already, a reminder of its handle and personal address.
type Registered struct {
	Handle   string
	Personal string // the personal address
	Already  bool
	Asked    string // with Already: the handle asked for, when another
	// Confirm is set while the address is not confirmed (M28): the
	// player is asked to answer, and told how to take an address
	// someone else registered (M56).
	Confirm bool
	// Rename is set for a confirmed player whose handle may still
	// change (rename), their first game not begun, who asked for another.
	Rename bool
	Robot  string // the computer player's handle, for the welcome; "" for none
}

// Renamed answers rename: the player's new handle (M56).
type Renamed struct {
	Old, New string
}

// NewKey answers newkey with the new personal address.
type NewKey struct {
	Personal string
}

// GameList answers games: in progress games, the most urgent first, then
// recent results.
type GameList struct {
	Of        string // the player whose games these are, when not the recipient
	YourMove  []Game // active games where it is the recipient's move
	ToAnswer  []Game // challenges waiting for the recipient's answer
	TheirMove []Game // active games where it is the opponent's move
	Sent      []Game // the recipient's challenges not yet answered
	Finished  []Game
}

// Problem is what is wrong with a command. The zero value means none.
type Problem string

const (
	NotUnderstood   Problem = "not understood"    // the parser's Reason says why
	BadHandle       Problem = "bad handle"        // Handle breaks the handle rule
	HandleTaken     Problem = "handle taken"      // Handle belongs to someone else; Detail "rename" for a rename
	HandleLooksLike Problem = "handle looks like" // Handle looks like another player's handle, Detail (M56)
	RenameTooLate   Problem = "rename too late"   // the player's first game has begun: they stay Handle (M56)
	TooManyMails    Problem = "too many mails"    // the sender's mails caused Detail mails to others (to Handle) this hour
	NoSuchPlayer    Problem = "no such player"    // no player has Handle
	ChallengeSelf   Problem = "challenge self"    // a challenge to oneself
	NoSuchGame      Problem = "no such game"      // GameID names no game
	NotYourGame     Problem = "not your game"     // GameID is a game of other players
	NotChallenged   Problem = "not challenged"    // accept/decline of a game that waits for no answer
	OwnChallenge    Problem = "own challenge"     // accept/decline by the challenger
	NotActive       Problem = "not active"        // move/resign in a game not being played
	NotYourTurn     Problem = "not your turn"     // a move when the opponent is to move
	StaleMoveNumber Problem = "stale move number" // #N is not the number of the move to make
	IllegalMove     Problem = "illegal move"      // Reason has the rules' explanation
	Unsupported     Problem = "unsupported"       // a command this server does not carry out
	NoOffer         Problem = "no offer"          // nodraw with no draw offer from the opponent
	NotYourTakeback Problem = "not your takeback" // takeback by the wrong player; Handle is the other
	NoMoves         Problem = "no moves"          // takeback before any move
	TooLate         Problem = "too late"          // abort after both sides moved
	NoSuchMove      Problem = "no such move"      // board #N beyond the game; Detail is "#N"
	BadConditional  Problem = "bad conditional"   // an if line that cannot be played; Reason says why
	YourMove        Problem = "your move"         // an if line when it is the sender's move
	OwnGame         Problem = "own game"          // observe of one's own game
	NoVacation      Problem = "no vacation"       // more vacation asked than left; Left is what is left
	NotOnVacation   Problem = "not on vacation"   // vacation off when not on vacation
	OnVacation      Problem = "on vacation"       // vacation when on vacation; Until is its end
	LevelForHuman   Problem = "level for human"   // level=N in a challenge to a player who is not the robot
	RobotTakeback   Problem = "robot takeback"    // takeback in a game against the robot, Handle
	BadTimeZone     Problem = "bad time zone"     // timezone with a name, Detail, the time zone database does not have (M64)
	RobotClaim      Problem = "robot claim"       // timeout=claim in a challenge to the robot, Handle (M66)

	// Time as players ask for it (M63-M66), the game's problems: Until
	// is when the pause concerned began, Left the pause left, the time
	// that may still be given, or the opponent's (Handle) time left.
	PausedAlready     Problem = "paused already"      // pause of a paused game
	PauseAskedAlready Problem = "pause asked already" // pause asked for twice; Handle may agree
	NoPauses          Problem = "no pauses"           // pause in a tournament game, whose tournament has no pauses
	PauseUsedUp       Problem = "pause used up"       // pause in a game whose pauses took 30 days
	NotPaused         Problem = "not paused"          // resume of a game that is not paused
	GamePaused        Problem = "game paused"         // a move or claim in a paused game
	TooMuchGiven      Problem = "too much given"      // give past 30 days in a game
	NoClaim           Problem = "no claim"            // claim in a timeout=auto game
	ClaimOnMove       Problem = "claim on move"       // claim by the player to move
	NotLate           Problem = "not late"            // claim before Handle ran out of time
	LionExposed       Problem = "lion exposed"        // Move lets Handle take the sender's lion with the capture Detail (M61)

	Unconfirmed       Problem = "unconfirmed"          // a challenge to Handle, whose address is not confirmed (M28)
	TooManyRobotGames Problem = "too many robot games" // Detail is the cap
	TooManyChallenges Problem = "too many challenges"  // Detail is the cap

	// Tournaments: Tournament is the tournament named.
	NoSuchTournament     Problem = "no such tournament"     // Detail is the number
	NotDirector          Problem = "not director"           // Detail is what only the director may do: "start", "cancel", "kick" or "add"
	TooFewPlayers        Problem = "too few players"        // tournament start with fewer than MinPlayers
	TournamentNotOpen    Problem = "tournament not open"    // join, start or cancel after the start
	TournamentNotRunning Problem = "tournament not running" // a withdrawal from a tournament not running
	Joined               Problem = "joined"                 // join twice
	NotAPlayer           Problem = "not a player"           // leave or kick of a player not in it (Handle, for kick); Detail set when they withdrew
	NotTheRobot          Problem = "not the robot"          // tournament add of Handle, who is not the robot (M60)
	TournamentAbort      Problem = "tournament game"        // abort of a tournament's game, whose name is Detail

	// Playing better by mail (M68-M72).
	TooManyNotes Problem = "too many notes" // a note past the most kept in a game: Detail is the characters there are
	BadPosition  Problem = "bad position"   // a challenge from a position no game can begin from: Reason says why
	PreviewOver  Problem = "preview over"   // a preview of a game that is over
	BadPreview   Problem = "bad preview"    // a preview whose moves cannot be played: Move and Reason say why
	LadderRuns   Problem = "ladder runs"    // start or cancel of a ladder, which runs from its creation
	NotLadder    Problem = "not a ladder"   // close of, or a challenge on, a tournament that is no ladder
	ClosedLadder Problem = "ladder closed"  // a challenge on, or a join of, a closed ladder; close twice
	OutOfReach   Problem = "out of reach"   // a challenge of Handle, not 1 to Reach places above (Places)
	Busy         Problem = "busy"           // a ladder challenge while Handle ("" for the sender) plays GameID of it
)

// Error answers a command that could not be carried out.
type Error struct {
	Line    string // the line, quoted
	Problem Problem
	// Reason is the parser's, the rules' or the server's explanation
	// (NotUnderstood, IllegalMove, BadConditional), and Move the move it
	// is about, as written.
	Reason Phrase
	Move   string
	// Detail is what else the problem names: a number, a tournament's
	// name, what only a director may do ("start", "cancel", "kick").
	Detail string
	Handle string // the handle named, for handle problems
	GameID int64  // the game named
	Game   *Game  // the game, when the recipient may see it
	Board  *View  // the board, when the error is about a game being played or over
	// Tournament is the tournament named, for the tournaments' problems;
	// Places are the sender's place on a ladder and that of the player
	// they challenged (OutOfReach).
	Tournament *Tournament
	Places     [2]int
	// Left is the vacation left (NoVacation); Until the end of the
	// vacation being taken (OnVacation).
	Left  time.Duration
	Until time.Time
}

// Prove answers commands that were not applied because the mail did not
// prove its sender: it did not come to the personal address.
type Prove struct {
	Personal string
	Lines    []string
	More     int // lines not quoted
}

// HowToRegister answers commands from an address that is not registered.
type HowToRegister struct {
	Lines []string
	More  int // lines not quoted
}

// Omitted says that lines of the mail were not answered, to keep the
// answer to a mail that proves nothing short (M31).
type Omitted struct {
	Lines int
}

// NoCommand answers a mail with no command in it.
type NoCommand struct{}

// Cut says that only the start of the mail was read (M32): Why says why.
type Cut struct {
	Why Phrase
}

// Relayed tells the sender that their message went to the opponent,
// To (M19).
type Relayed struct {
	To string
}

// RelayedLine is the line of Relayed, for a board mail's notes, in
// language l.
func RelayedLine(l lang.Code, to string) (string, error) {
	return tongueOf(l).execute("relayed", Relayed{To: to})
}

// NotRelayed says that the sender's words were not passed on: they do
// not play in game GameID.
type NotRelayed struct {
	GameID int64
}

// RobotReadsNone says that the sender's words in a game against the
// robot, Robot, were not passed on: it reads no messages (M59).
type RobotReadsNone struct {
	Robot string
}

// RobotReadsNoneLine is the line of RobotReadsNone, for a board mail's
// notes, in language l.
func RobotReadsNoneLine(l lang.Code, robot string) (string, error) {
	return tongueOf(l).execute("robot_reads_none", RobotReadsNone{Robot: robot})
}

// Hints are what the sender's mail asked for and did not get (M58): a
// game action written in words, a move inside a sentence. Each Reason
// says what was not done and the line to send. They come first in the
// answer, or below the first line of the sender's board mail.
type Hints struct {
	Reasons []Phrase
}

// Sections renders sections of a reply in language l, each as its text,
// for the notes of a board mail.
func Sections(l lang.Code, secs []Section) ([]string, error) {
	return tongueOf(l).sections(secs)
}

// LoopNotice tells an address that sent Mails mails without a command in
// a few minutes, as a broken automatic responder does, that such mail is
// not answered until Quiet has passed without any.
type LoopNotice struct {
	Mails int
	Quiet time.Duration
}

// LanguageSet answers language: the language of the player's mails from
// now on, in which the answer is written already (M40).
type LanguageSet struct {
	Lang lang.Code
}

// RulesSummary answers rules: the rules of the game in plain words, for a
// player who has never seen it (M25).
type RulesSummary struct{}

func (Help) template() string           { return "help" }
func (Registered) template() string     { return "registered" }
func (Renamed) template() string        { return "renamed" }
func (NewKey) template() string         { return "newkey" }
func (GameList) template() string       { return "games" }
func (Error) template() string          { return "error" }
func (Prove) template() string          { return "prove" }
func (HowToRegister) template() string  { return "how_to_register" }
func (NoCommand) template() string      { return "no_command" }
func (Omitted) template() string        { return "omitted" }
func (RulesSummary) template() string   { return "rules" }
func (Cut) template() string            { return "cut" }
func (LoopNotice) template() string     { return "loop_notice" }
func (Relayed) template() string        { return "relayed" }
func (NotRelayed) template() string     { return "not_relayed" }
func (RobotReadsNone) template() string { return "robot_reads_none" }
func (Hints) template() string          { return "hints" }
func (LanguageSet) template() string    { return "language_set" }
