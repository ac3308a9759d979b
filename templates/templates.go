// Package templates holds the wording of every mail the server sends.
package templates

import (
	"embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"text/template"
	"time"

	"github.com/congobymail/congo/rules"
)

//go:embed *.tmpl *.html
var files embed.FS

// mails is the parsed set of templates, read once from the embedded files.
// It is never changed after that, and executing it is safe from many
// goroutines.
var mails = template.Must(template.New("").Funcs(template.FuncMap{
	"pieces":   pieces,
	"yours":    yours,
	"indent":   indent,
	"loser":    Game.loser,
	"duration": Duration,
	"when":     when,
	"plural":   plural,
	"signed":   signed,
}).ParseFS(files, "*.tmpl"))

// signed writes a change of rating with its sign: +12, -7, +0.
func signed(n int) string {
	if n < 0 {
		return strconv.Itoa(n)
	}
	return "+" + strconv.Itoa(n)
}

// State is where a game stands, as a mail tells it. The zero value means
// none.
type State string

const (
	Challenged State = "challenge" // waiting for the challenged player
	Declined   State = "declined"
	Playing    State = "playing"
	Won        State = "won"
	Drawn      State = "drawn"
	Aborted    State = "aborted" // removed without result
)

// Game names a game and says where it stands.
type Game struct {
	ID         int64
	White      string // handles
	Black      string
	State      State
	ToMove     string       // handle of the player to move, when Playing
	Winner     string       // handle of the winner, when Won
	Reason     rules.Reason // when Won, Drawn or Aborted
	MoveNumber int          // the number of the move to make (R21)

	WhiteRating int // ratings, rounded
	BlackRating int
	// RatingsChanged is set in the mails that tell the end of a rated
	// game: the ratings above are then the new ones, which changed by
	// WhiteChange and BlackChange.
	RatingsChanged           bool
	WhiteChange, BlackChange int
	TimeControl              string // "days=3", "bank=10+1"
	Unrated                  bool
	Clocks                   *Clocks // the players' time, while the game is played
}

// Clocks are the time both players have left.
type Clocks struct {
	White, Black Clock
}

// Clock is the time one player has left.
type Clock struct {
	Left     time.Duration
	Vacation time.Time // the end of the player's vacation; zero when not on vacation
}

// Left is the time the player to move has left.
func (g Game) Left() time.Duration {
	if g.Clocks == nil {
		return 0
	}
	if g.ToMove == g.White {
		return g.Clocks.White.Left
	}
	return g.Clocks.Black.Left
}

// loser returns the handle of the player who lost a won game.
func (g Game) loser() string {
	if g.Winner == g.White {
		return g.Black
	}
	return g.White
}

// Piece is a piece on a square, in words: Kind "pawn", Square "c2".
type Piece struct {
	Kind   string
	Square string
}

// Move is a move just made.
type Move struct {
	By       string // handle of the player who made it
	Notation string // canonical, like "b1xd3xf5"
	Piece    string // kind of the piece that moved, before any promotion
	To       string // the square it ended on
	Captured []Piece
	Drowned  []Piece // the mover's pieces drowned at the end of the move
	Promoted bool    // a pawn became a superpawn
	// Conditional is true when the move was played from the mover's
	// conditional moves (M14).
	Conditional bool
	// Yours is set by Board when the recipient made the move.
	Yours bool
}

// Comment is what a player wrote with a command sent in the Subject.
type Comment struct {
	By   string
	Text string
}

// View is a board as its recipient sees it.
type View struct {
	Diagram  string // from the recipient's side, ending in a newline
	Position string // R21
	// Rows are the ranks from the top as the recipient sees the board,
	// for the HTML table; Files are the file letters from the left.
	Rows  []Row
	Files []string
}

// Row is one rank of a board, from the recipient's left.
type Row struct {
	Rank  int
	Cells []Cell
}

// Cell is one square of a board.
type Cell struct {
	Piece  string // the letter of the piece (R21), "" for an empty square
	White  bool   // the piece is White's
	River  bool
	Castle bool
	Last   bool // the last move started or landed here (View.WithLast)
}

// BoardData is a mail showing a game's board: what happened in the game
// since the recipient's last mail about it (M23: all that one incoming
// mail caused, in one mail), or the board asked for.
type BoardData struct {
	Game Game
	To   string // handle of the recipient
	// Moves are the moves made since the recipient's last mail about the
	// game, oldest first: a player's move that the robot answered at once
	// comes with the answer, a move with the conditional answer to it.
	Moves []Move
	// Events is what else happened, in order.
	Events []Happening
	// Level is the level of the robot, Robot, in the mail that starts a
	// game against it; 0 otherwise.
	Level int
	Robot string
	// Last is the move the HTML board marks (View.WithLast); the zero
	// Move for none.
	Last rules.Move
	// Comment is the message the other player wrote (M19).
	Comment *Comment
	// Notes are paragraphs for this recipient alone: answers to their
	// own mail about the game.
	Notes []string
	Board View
	// Drowning are the recipient's pieces that drown at the end of the
	// recipient's move unless they leave the river on it (R13), in the
	// mail to the player to move (DrowningOf).
	Drowning []Piece
	// Past is set for the board after black's move At (M15).
	Past bool
	At   int
}

// Happening is something that happened in a game besides a move, done By
// a player (a handle; "" for the server).
type Happening struct {
	Event Event
	By    string
	// Until is the end of a vacation (VacationStarted), and the time the
	// player to move runs out (Reminder); Final is set for the last
	// reminder before the time runs out.
	Until time.Time
	Final bool

	// Set by Board for the recipient: whether By is the recipient, the
	// recipient's opponent, the game, and the time left of the player
	// to move.
	Yours  bool
	Other  string
	GameID int64
	Left   time.Duration
}

// Event is what a board mail is about besides a move. The zero value
// means none.
type Event string

const (
	Accepted        Event = "accepted" // the challenge was accepted, By the challenged player
	DrawOffered     Event = "draw offered"
	DrawDeclined    Event = "draw declined"
	TakebackAsked   Event = "takeback asked"
	TakebackDone    Event = "takeback done"
	VacationStarted Event = "vacation"
	Reminder        Event = "reminder"
	Started         Event = "started"        // a game started from two seeks
	RobotResigned   Event = "robot resigned" // the robot, By, resigned a lost game
)

// Board renders a mail that shows a game's board.
func Board(d BoardData) (subject, body string, err error) {
	d.Moves = slices.Clone(d.Moves)
	for i := range d.Moves {
		d.Moves[i].Yours = d.Moves[i].By == d.To
	}
	other := d.Game.White
	if d.To == d.Game.White {
		other = d.Game.Black
	}
	d.Events = slices.Clone(d.Events)
	for i := range d.Events {
		e := &d.Events[i]
		e.Yours, e.Other, e.GameID, e.Left = e.By == d.To, other, d.Game.ID, d.Game.Left()
	}
	return render("board", d.Game, d)
}

// ChallengeData is a mail about a challenge.
type ChallengeData struct {
	Game       Game
	To         string // handle of the recipient
	Challenger string
	Challenged string
	Comment    *Comment
}

// Challenge renders the mail that asks the challenged player to accept.
func Challenge(d ChallengeData) (subject, body string, err error) {
	return render("challenge", d.Game, d)
}

// ChallengeSent renders the mail that tells the challenger the number of
// the new game.
func ChallengeSent(d ChallengeData) (subject, body string, err error) {
	return render("challenge_sent", d.Game, d)
}

// ChallengeDeclined renders the mail that tells a player the challenge
// was declined.
func ChallengeDeclined(d ChallengeData) (subject, body string, err error) {
	return render("declined", d.Game, d)
}

// ReplyData is the one answer to a mail: its sections in the order of the
// commands they answer.
type ReplyData struct {
	Subject string // the Subject of the mail answered; "" for none, or one not to repeat
	// Game is the game the answer is about, when it answers a mail in
	// the game's thread: its Subject is then the game's (M22).
	Game     *Game
	Sections []Section
}

// Reply renders the answer to a mail.
func Reply(d ReplyData) (subject, body string, err error) {
	parts := make([]string, 0, len(d.Sections))
	for _, s := range d.Sections {
		text, err := execute(s.template(), s)
		if err != nil {
			return "", "", err
		}
		parts = append(parts, strings.TrimSpace(text))
	}
	body, err = execute("reply", parts)
	if err != nil {
		return "", "", err
	}
	if d.Game != nil {
		if subject, err = execute("subject", *d.Game); err != nil {
			return "", "", err
		}
		return "Re: " + strings.TrimSpace(subject), body, nil
	}
	if strings.TrimSpace(d.Subject) == "" && len(d.Sections) > 0 {
		return answerSubject(d.Sections[0]), body, nil
	}
	return replySubject(d.Subject), body, nil
}

// answerSubject names an answer to a mail without a Subject, or with a
// command for one, which the answer must not repeat: by what it begins
// with.
func answerSubject(s Section) string {
	switch s := s.(type) {
	case Registered:
		if s.Already {
			return "Your Congo address, " + s.Handle
		}
		return "Welcome to Congo, " + s.Handle
	case Help:
		return "The Congo manual"
	case RulesSummary:
		return "The rules of Congo"
	case GameList:
		return "Your Congo games"
	case Ratings:
		return "The Congo ratings"
	case NewKey:
		return "Your new Congo address"
	case HowToRegister:
		return "How to play Congo by mail"
	case Prove:
		return "Congo: send it to your personal address"
	}
	return "Congo: the answer to your mail"
}

// replySubject is the Subject of an answer: "Re: " and the Subject
// answered, once.
func replySubject(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return "Congo: the answer to your mail"
	}
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
	// player is asked to answer.
	Confirm bool
	Robot   string // the computer player's handle, for the welcome; "" for none
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
	NotUnderstood   Problem = "not understood"    // the parser's Detail says why
	BadHandle       Problem = "bad handle"        // Handle breaks the handle rule
	HandleTaken     Problem = "handle taken"      // Handle belongs to someone else
	NoSuchPlayer    Problem = "no such player"    // no player has Handle
	ChallengeSelf   Problem = "challenge self"    // a challenge to oneself
	NoSuchGame      Problem = "no such game"      // GameID names no game
	NotYourGame     Problem = "not your game"     // GameID is a game of other players
	NotChallenged   Problem = "not challenged"    // accept/decline of a game that waits for no answer
	OwnChallenge    Problem = "own challenge"     // accept/decline by the challenger
	NotActive       Problem = "not active"        // move/resign in a game not being played
	NotYourTurn     Problem = "not your turn"     // a move when the opponent is to move
	StaleMoveNumber Problem = "stale move number" // #N is not the number of the move to make
	IllegalMove     Problem = "illegal move"      // Detail has the rules' explanation
	Unsupported     Problem = "unsupported"       // a command this server does not carry out
	NoOffer         Problem = "no offer"          // nodraw with no draw offer from the opponent
	NotYourTakeback Problem = "not your takeback" // takeback by the wrong player; Handle is the other
	NoMoves         Problem = "no moves"          // takeback before any move
	TooLate         Problem = "too late"          // abort after both sides moved
	NoSuchMove      Problem = "no such move"      // board #N beyond the game; Detail is "#N"
	BadConditional  Problem = "bad conditional"   // an if line that cannot be played; Detail says why
	YourMove        Problem = "your move"         // an if line when it is the sender's move
	OwnGame         Problem = "own game"          // observe of one's own game
	NoVacation      Problem = "no vacation"       // more vacation asked than left; Detail is what is left
	NotOnVacation   Problem = "not on vacation"   // vacation off when not on vacation
	OnVacation      Problem = "on vacation"       // vacation when on vacation; Detail is until when
	LevelForHuman   Problem = "level for human"   // level=N in a challenge to a player who is not the robot
	RobotTakeback   Problem = "robot takeback"    // takeback in a game against the robot, Handle

	Unconfirmed       Problem = "unconfirmed"          // a challenge to Handle, whose address is not confirmed (M28)
	TooManyRobotGames Problem = "too many robot games" // Detail is the cap
	TooManyChallenges Problem = "too many challenges"  // Detail is the cap
)

// Error answers a command that could not be carried out.
type Error struct {
	Line    string // the line, quoted
	Problem Problem
	Detail  string // the parser's or the rules' explanation
	Handle  string // the handle named, for handle problems
	GameID  int64  // the game named
	Game    *Game  // the game, when the recipient may see it
	Board   *View  // the board, when the error is about a game being played or over
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

// CapNotice tells the one whose mail caused mails past a cap (M29) that
// they were not sent.
type CapNotice struct {
	Mails        int // held back
	PerRecipient int // the caps, mails an hour
	PerSender    int
}

// Cut says that only the start of the mail was read (M32): Why says why.
type Cut struct {
	Why string
}

// Relayed tells the sender that their message went to the opponent,
// To (M19).
type Relayed struct {
	To string
}

// RelayedLine is the line of Relayed, for a board mail's notes.
func RelayedLine(to string) (string, error) {
	return execute("relayed", Relayed{To: to})
}

// NotRelayed says that the sender's words were not passed on: they do
// not play in game GameID.
type NotRelayed struct {
	GameID int64
}

// Sections renders sections of a reply, each as its text, for the notes
// of a board mail.
func Sections(secs []Section) ([]string, error) {
	var out []string
	for _, s := range secs {
		text, err := execute(s.template(), s)
		if err != nil {
			return nil, err
		}
		out = append(out, strings.TrimSpace(text))
	}
	return out, nil
}

// LoopNotice tells an address that sent Mails mails without a command in
// a few minutes, as a broken automatic responder does, that such mail is
// not answered until Quiet has passed without any.
type LoopNotice struct {
	Mails int
	Quiet time.Duration
}

// RulesSummary answers rules: the rules of the game in plain words, for a
// player who has never seen it (M25).
type RulesSummary struct{}

func (Help) template() string          { return "help" }
func (Registered) template() string    { return "registered" }
func (NewKey) template() string        { return "newkey" }
func (GameList) template() string      { return "games" }
func (Error) template() string         { return "error" }
func (Prove) template() string         { return "prove" }
func (HowToRegister) template() string { return "how_to_register" }
func (NoCommand) template() string     { return "no_command" }
func (CapNotice) template() string     { return "cap_notice" }
func (Omitted) template() string       { return "omitted" }
func (RulesSummary) template() string  { return "rules" }
func (Cut) template() string           { return "cut" }
func (LoopNotice) template() string    { return "loop_notice" }
func (Relayed) template() string       { return "relayed" }
func (NotRelayed) template() string    { return "not_relayed" }

// render executes the body template name with data and the subject of
// the game g.
func render(name string, g Game, data any) (subject, body string, err error) {
	subject, err = execute("subject", g)
	if err != nil {
		return "", "", err
	}
	body, err = execute(name, data)
	if err != nil {
		return "", "", err
	}
	return strings.TrimSpace(subject), body, nil
}

// execute runs one template and tidies its text.
func execute(name string, data any) (string, error) {
	var b strings.Builder
	if err := mails.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("render %s: %w", name, err)
	}
	return tidy(b.String()), nil
}

// signatureSeparator starts the footer; mail programs leave what follows
// it out of replies. Its trailing space is part of it.
const signatureSeparator = "-- "

// width is the longest line of prose in a mail.
const width = 72

// tidy lets templates be written loosely: it removes trailing spaces and
// runs of blank lines, wraps prose lines longer than width, and ends the
// text with one newline. Indented lines and quotes ("> ") are left as
// they are: boards, commands, addresses and players' words.
func tidy(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l != signatureSeparator {
			l = strings.TrimRight(l, " \t")
		}
		if l == "" && (len(out) == 0 || out[len(out)-1] == "") {
			continue
		}
		if strings.HasPrefix(l, " ") || strings.HasPrefix(l, ">") {
			out = append(out, l)
			continue
		}
		out = append(out, wrap(l)...)
	}
	return strings.TrimRight(strings.Join(out, "\n"), "\n") + "\n"
}

// wrap breaks a line at spaces into lines of at most width bytes; a word
// longer than that stays whole on its own line.
func wrap(l string) []string {
	var lines []string
	for len(l) > width {
		cut := strings.LastIndexByte(l[:width+1], ' ')
		if cut <= 0 {
			cut = strings.IndexByte(l, ' ')
			if cut < 0 {
				break
			}
		}
		lines = append(lines, l[:cut])
		l = strings.TrimLeft(l[cut:], " ")
	}
	return append(lines, l)
}

// pieces names pieces in a sentence, those of one kind together:
// "the pawns on c2 and e4 and the zebra on d5".
func pieces(ps []Piece) string { return piecesWith("the", ps) }

// yours names the recipient's pieces in a sentence: "your pawns on c4
// and f4".
func yours(ps []Piece) string { return piecesWith("your", ps) }

// piecesWith names pieces in a sentence, each kind after the word
// article.
func piecesWith(article string, ps []Piece) string {
	var kinds []string
	squares := map[string][]string{}
	for _, p := range ps {
		if _, ok := squares[p.Kind]; !ok {
			kinds = append(kinds, p.Kind)
		}
		squares[p.Kind] = append(squares[p.Kind], p.Square)
	}
	groups := make([]string, 0, len(kinds))
	for _, k := range kinds {
		sq := squares[k]
		if len(sq) == 1 {
			groups = append(groups, article+" "+k+" on "+sq[0])
		} else {
			groups = append(groups, article+" "+k+"s on "+and(sq))
		}
	}
	return and(groups)
}

// and joins words as a list in a sentence: "a", "a and b", "a, b and c".
func and(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// indent puts prefix before every line of s.
func indent(prefix, s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}
