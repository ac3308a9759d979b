// Package templates holds the wording of every mail the server sends.
package templates

import (
	"embed"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	eawidth "golang.org/x/text/width"

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
	// Tournament and Round name the tournament round a game begins in
	// (TournamentGame).
	Tournament string
	Round      int
	// Conditional is set for what By's conditional moves did (M69): a
	// draw offered (DrawOffered).
	Conditional bool

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
		e.Yours, e.Other, e.GameID, e.Left = e.By == d.To, other, d.Game.ID, d.Game.Left()
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

// signatureSeparator starts the footer; mail programs leave what follows
// it out of replies. Its trailing space is part of it.
const signatureSeparator = "-- "

// width is the longest line of prose in a mail.
const width = 72

// tidy lets templates be written loosely: it removes trailing spaces and
// runs of blank lines, wraps prose lines longer than width, and ends the
// text with one newline. Indented lines and quotes ("> ") are left as
// they are: boards, commands, addresses and players' words.
func tidy(s string) string { return tidyWith(s, false) }

// tidyWith is tidy, and with oneLetter set it ends no line with a word of
// one letter, as Czech typography has it ("v", "k", "s", "z", "a", "i",
// "o", "u" go with the word after them).
func tidyWith(s string, oneLetter bool) string {
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
		out = append(out, wrap(l, oneLetter)...)
	}
	return strings.TrimRight(strings.Join(out, "\n"), "\n") + "\n"
}

// wrap breaks a line into lines of at most width columns, a wide
// character (as Japanese ones are) taking two: at spaces, and between two
// wide characters where Japanese line breaking allows it, not before
// closing punctuation such as 、。」） nor after opening such as 「（,
// and not within "<...>" or the quotes of Czech and Japanese, „...“ and
// 「...」, which hold commands, nor within a command (inCommand). A word longer than width stays whole on
// its own line.
func wrap(l string, oneLetter bool) []string {
	var lines []string
	for columns(l) > width {
		cut, skip := breakAt(l, oneLetter)
		if cut <= 0 {
			break
		}
		lines = append(lines, strings.TrimRight(l[:cut], " "))
		l = strings.TrimLeft(l[cut+skip:], " ")
	}
	return append(lines, l)
}

// breakAt finds where to break l, longer than width columns: the byte
// offset of the last break within width (or, when there is none, the
// first), and how many bytes the break itself takes (1 for a space, 0
// between wide characters); 0, 0 when l cannot be broken. With
// oneLetter, no break follows a word of one letter.
func breakAt(l string, oneLetter bool) (cut, skip int) {
	col, last, lastSkip := 0, 0, 0
	var prev rune
	word := 0       // letters of the word before, since the last space
	inside := false // within "<...>", "„...“" or "「...」": a command, or a placeholder of one
	for i, r := range l {
		if col > width && last > 0 {
			break
		}
		switch r {
		case '<', '„', '「':
			inside = closes(l[i:])
		case '>', '“', '」':
			inside = false
		}
		switch {
		case i == 0, inside:
		case r == ' ':
			if (col <= width || last == 0) && !(oneLetter && word == 1 && unicode.IsLetter(prev)) && !inCommand(l, i) {
				last, lastSkip = i, 1
			}
		case wide(prev) && wide(r) && !strings.ContainsRune(noBreakBefore, r) && !strings.ContainsRune(noBreakAfter, prev),
			strings.ContainsRune(breakAfter, prev) && !strings.ContainsRune(noBreakBefore, r):
			if col <= width || last == 0 {
				last, lastSkip = i, 0
			}
		}
		col += runeColumns(r)
		prev = r
		if r == ' ' {
			word = 0
		} else {
			word++
		}
	}
	return last, lastSkip
}

// inCommand reports whether the space at l[i] is within a command a
// player is to write, which a break would cut in two: between a command
// word and "congo" ("decline congo 42"), after "congo", or before a
// placeholder ("challenge congo <handle>"). After a command's argument a
// line may break ("congo 12, congo 15").
func inCommand(l string, i int) bool {
	before, next := l[:i], l[i+1:]
	if strings.HasSuffix(before, " congo") || strings.HasPrefix(next, "<") {
		return true
	}
	if !strings.HasPrefix(next, "congo ") {
		return false
	}
	word := before[strings.LastIndexByte(before, ' ')+1:]
	return word != "" && strings.Trim(word, "abcdefghijklmnopqrstuvwxyz") == ""
}

// closes reports whether the opening mark that starts s ("<", "„" or
// "「") is closed within a short span, as a placeholder or a quoted
// command is; a stray one (a "<" in a player's words) holds no line
// together. A placeholder holds no space.
func closes(s string) bool {
	open, size := utf8.DecodeRuneInString(s)
	want := '>'
	switch open {
	case '„':
		want = '“'
	case '「':
		want = '」'
	}
	n := 0
	for _, r := range s[size:] {
		switch {
		case r == want:
			return true
		case open == '<' && r == ' ', n == 60:
			return false
		}
		n++
	}
	return false
}

// Japanese line breaking (kinsoku): no line starts with noBreakBefore,
// none ends with noBreakAfter; a line may end after breakAfter, the
// Japanese closing punctuation, whatever follows it ("です。|2025年",
// "ください：|register").
const (
	noBreakBefore = "、。，．・：；？！ー）」』】〕〉》’”ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮ々〜…‥"
	noBreakAfter  = "（「『【〔〈《‘“"
	breakAfter    = "、。：；！？）」』"
)

// wide reports whether r takes two columns, as East Asian wide and
// full-width characters do.
func wide(r rune) bool {
	switch eawidth.LookupRune(r).Kind() {
	case eawidth.EastAsianWide, eawidth.EastAsianFullwidth:
		return true
	}
	return false
}

func runeColumns(r rune) int {
	if wide(r) {
		return 2
	}
	return 1
}

// columns is how many columns s takes in a fixed-width font.
func columns(s string) int {
	n := 0
	for _, r := range s {
		n += runeColumns(r)
	}
	return n
}

// pad writes s and spaces after it up to n columns.
func pad(n int, s string) string {
	return s + strings.Repeat(" ", max(0, n-columns(s)))
}

// joinLines joins two lines of prose that wrap broke apart: with a
// space, unless wrap broke between two wide characters.
func joinLines(a, b string) string {
	ra, _ := utf8.DecodeLastRuneInString(a)
	rb, _ := utf8.DecodeRuneInString(b)
	if wide(ra) && wide(rb) {
		return a + b
	}
	return a + " " + b
}

// indent puts prefix before every line of s.
func indent(prefix, s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}
