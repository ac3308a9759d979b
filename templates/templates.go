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
	"list":     and,
	"games":    Games,
	"sub":      func(a, b int) int { return a - b },
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
	// Event is the name of the tournament the game is part of, in its
	// Round; "" for other games.
	Event string
	Round int
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
	// Page is the address of the game's page on the web (M43); "" when
	// the server has none.
	Page string
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
	// Tournament and Round name the tournament round a game begins in
	// (TournamentGame).
	Tournament string
	Round      int

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
	Started         Event = "started"         // a game started from two seeks
	TournamentBegun Event = "tournament game" // a game of a tournament's round began
	RobotResigned   Event = "robot resigned"  // the robot, By, resigned a lost game
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
