// Package parser turns the text of a mail into the commands it carries.
package parser

// Kind says which command a line is. The zero value means no command.
type Kind uint8

const (
	NoKind    Kind = iota
	Help           // help
	Register       // register <handle>
	NewKey         // newkey
	Challenge      // challenge congo <handle> [white|black]
	Accept         // accept congo <id>
	Decline        // decline congo <id>
	Move           // move congo <id> <move> [#N], or a bare move in a reply
	Board          // board congo <id>
	Resign         // resign congo <id>, or a bare resign in a reply
	Games          // games
)

// Colour is the colour a challenger asks for. The zero value means none was
// named (the server then uses its default, white).
type Colour uint8

const (
	AnyColour Colour = iota
	White
	Black
)

// Command is one command found in a mail.
type Command struct {
	Kind Kind
	// Line is the text the command was read from, as the sender wrote it
	// (trimmed), so that answers can quote it.
	Line string
	// Game is the game number the command names; 0 when it names none.
	// For a bare move or resign in a reply, Game is the game of the mail
	// replied to (see Context).
	Game int64
	// Handle is the player handle of register and challenge, as written.
	Handle string
	// Colour is the colour asked for in a challenge.
	Colour Colour
	// Move is the move text as written (for example "b2-b3" or "a2-c4-c6x");
	// the server resolves it against the legal moves with rules.
	Move string
	// MoveNumber is the #N guard after a move (M1); 0 when absent.
	MoveNumber int
}

// Error is a line that is not a command. The server answers it, quoting Line.
type Error struct {
	Line   string // the offending line, trimmed
	Reason string // what is wrong and how to fix it, one sentence
}

// Result is everything Parse found in one mail.
type Result struct {
	Commands []Command
	Errors   []Error
	// Comment is the body text that travels with a command taken from the
	// Subject: the message to the opponent. Empty otherwise.
	Comment string
	// FromSubject is true when the command came from the Subject line.
	FromSubject bool
}

// Context is what the server knows about the mail being parsed.
type Context struct {
	// Game is the game the mail replies to (from In-Reply-To/References or
	// a "Congo game N" Subject), or 0 when it is not a reply about a game.
	// It lets bare move and resign lines apply to that game.
	Game int64
}
