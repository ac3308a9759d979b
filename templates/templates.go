// Package templates holds the wording of every mail the server sends.
package templates

import (
	"embed"
	"slices"
	"strconv"
	"time"

	"github.com/congobymail/congo/lang"
	"github.com/congobymail/congo/rules"
)

//go:embed *.tmpl *.html lang/*.tmpl
var files embed.FS

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
	// Event is the name of the tournament the game is part of, in its
	// Round; "" for other games.
	Event string
	Round int
	// SubjectLang is the language of the game's Subject for the
	// recipient, the one of their first mail about the game (M22): ""
	// for the language of the mail.
	SubjectLang lang.Code
	// Paused is when the pause by agreement going on began (M63), zero
	// for none; PauseLeft is how much longer the game's pauses may take.
	Paused    time.Time
	PauseLeft time.Duration
	// TimeoutClaim is set for a game won on time by a claim (M66).
	TimeoutClaim bool
	// NoVacation is set for a game of a tournament whose clocks
	// vacations do not stop (M67).
	NoVacation bool
}

// Clocks are the time both players have left.
type Clocks struct {
	White, Black Clock
}

// Clock is the time one player has left.
type Clock struct {
	Left     time.Duration
	Vacation time.Time // the end of the player's vacation; zero when not on vacation
	// Weekends is the time zone of a player whose clock stands still on
	// their weekends (M64), "" for one who plays them.
	Weekends string
	// Out is set when the player to move has run out of time in a
	// timeout=claim game (M66).
	Out bool
}

// Left is the time the player to move has left.
func (g Game) Left() time.Duration { return g.Mover().Left }

// Mover is the clock of the player to move; the zero Clock when the
// game shows none.
func (g Game) Mover() Clock {
	if g.Clocks == nil {
		return Clock{}
	}
	if g.ToMove == g.White {
		return g.Clocks.White
	}
	return g.Clocks.Black
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

// Message is a player's words to the opponent (M19), relayed with a move
// or alone.
type Message struct {
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
	Lang lang.Code // the recipient's language; "" for English
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
	// Message is the message the other player wrote (M19).
	Message *Message
	// First are paragraphs for this recipient alone that come first,
	// below the line that names the game: what their mail asked for in
	// words and did not get (M58).
	First []string
	// Notes are paragraphs for this recipient alone: answers to their
	// own mail about the game.
	Notes []string
	Board View
	// Drowning are the recipient's pieces that drown at the end of the
	// recipient's move unless they leave the river on it (R13), in the
	// mail to the player to move (DrowningOf).
	Drowning []Piece
	// Attack is the capture by which the opponent could take the lion
	// of the recipient, the player to move, with their next move (M61);
	// nil when the lion is not attacked, and in every other mail.
	Attack *LionAttack
	// Past is set for the board after black's move At (M15).
	Past bool
	At   int
	// Page is the address of the game's page on the web (M43); "" when
	// the server has none.
	Page string
	// Taps are the recipient's moves as one-tap links, in the HTML part
	// alone (M71): set in the mail to the player to move, of the board
	// now; nil otherwise.
	Taps *Taps
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
	// Given is the time given (TimeGiven, M65) to the player Receiver.
	Given    time.Duration
	Receiver string
	// Tournament and Round name the tournament round a game begins in
	// (TournamentGame).
	Tournament string
	Round      int
	// Conditional is set for what By's conditional moves did (M69): a
	// draw offered (DrawOffered).
	Conditional bool

	// Set by Board for the recipient: whether By is the recipient, the
	// recipient's opponent, the game, and the time left of the player
	// to move (for the events of pauses, set by the server: the pause
	// left).
	Yours  bool
	Other  string
	GameID int64
	Left   time.Duration
	// Reader is the recipient's handle; Claim is set in a timeout=claim
	// game (M66).
	Reader string
	Claim  bool
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
	Started         Event = "started"         // a game started from two seeks
	TournamentBegun Event = "tournament game" // a game of a tournament's round began
	RobotResigned   Event = "robot resigned"  // the robot, By, resigned a lost game
	PauseAsked      Event = "pause asked"     // By asks for a pause; Left is the pause left (M63)
	Paused          Event = "paused"          // By agreed to a pause; Left is the pause left
	Unpaused        Event = "unpaused"        // By resumed the game; "" when its pauses took all their time
	TimeGiven       Event = "time given"      // By gave the other player Given (M65)
	TimeUp          Event = "time up"         // By, to move, ran out of time in a timeout=claim game (M66)
	// By's conditional moves resigned the game, or accepted the draw
	// offered, in answer to the opponent's move (M69).
	ConditionalResign Event = "conditional resign"
	ConditionalDraw   Event = "conditional draw"
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
		e.Yours, e.Other, e.GameID, e.Reader, e.Claim = e.By == d.To, other, d.Game.ID, d.To, d.Game.TimeoutClaim
		switch e.Event {
		case PauseAsked, Paused, Unpaused:
		default:
			e.Left = d.Game.Left()
		}
	}
	return tongueOf(d.Lang).render("board", d.Game, d)
}

// ChallengeData is a mail about a challenge.
type ChallengeData struct {
	Lang       lang.Code // the recipient's language; "" for English
	Game       Game
	To         string // handle of the recipient
	Challenger string
	Challenged string
	Message    *Message
	// Relayed is set in the mail to the challenger when their message
	// went to the player challenged with the challenge.
	Relayed bool
	// Start is the board the game begins from, from the recipient's
	// side, for a game from a position (M72); nil for the usual start.
	Start *View
}

// Challenge renders the mail that asks the challenged player to accept.
func Challenge(d ChallengeData) (subject, body string, err error) {
	return tongueOf(d.Lang).render("challenge", d.Game, d)
}

// ChallengeSent renders the mail that tells the challenger the number of
// the new game.
func ChallengeSent(d ChallengeData) (subject, body string, err error) {
	return tongueOf(d.Lang).render("challenge_sent", d.Game, d)
}

// ChallengeDeclined renders the mail that tells a player the challenge
// was declined.
func ChallengeDeclined(d ChallengeData) (subject, body string, err error) {
	return tongueOf(d.Lang).render("declined", d.Game, d)
}
