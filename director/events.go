package director

import (
	"fmt"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/pairing"
)

// What a change to a tournament returns: its refusals and its events.

// Problem is why a change to a tournament is refused. The zero value
// means none.
type Problem uint8

const (
	NoProblem   Problem = iota
	NotOpen             // joining, leaving before the start or starting a tournament not open
	NotRunning          // withdrawing from a tournament not running
	Joined              // joining twice
	NotAPlayer          // leaving a tournament one is not in; challenging on a ladder one is not on, or a player not on it (Handle)
	NotDirector         // the director's command from another
	TooFew              // starting with fewer than MinPlayers
	Continuous          // starting or cancelling a ladder, which runs from its creation
	NotLadder           // closing, or challenging on, a tournament that is no ladder
	Closed              // joining or challenging on a ladder that is closed
	OutOfReach          // challenging a player who is not 1 to pairing.LadderReach places above (Places)
	Busy                // challenging on a ladder while Handle has a game of it in progress, Game
)

// Refusal is a change to a tournament that its state does not allow.
// Nothing was changed.
type Refusal struct {
	Problem Problem
	// Director is the director's handle, Players the number of players,
	// for the answer.
	Director string
	Players  int
	// Handle is the player the problem is about (NotAPlayer, Busy), Game
	// their game in progress (Busy), and Places the places of the
	// challenger and of the player challenged (OutOfReach).
	Handle string
	Game   int64
	Places [2]int
}

func (r *Refusal) Error() string { return fmt.Sprintf("director: problem %d", r.Problem) }

// Kind says what happened to a tournament.
type Kind uint8

const (
	NoEvent       Kind = iota
	RoundBegun         // Round's games began (all of a round robin's at once: Round is 1); a Swiss's or a knockout's round before it ended
	RoundEnded         // every game of a round robin's Round has ended: the standings so far
	Finished           // every game has ended (the last of them in Round): the final standings, a knockout's final, a ladder's order once closed
	Cancelled          // the director called it off before the start
	TieBegun           // the tie game of a knockout's match, tied after its games, began: Games
	LadderMoved        // a ladder game's end moved players up and down: Moves
	LadderClosing      // the director closed a ladder whose games in progress play on
)

// Event is what happened to a tournament, with the tournament as it was
// just after.
type Event struct {
	Kind Kind
	// T is the tournament as it was just after; for LadderMoved only its
	// record and its director, not its players: a ladder may have
	// thousands, and only those who moved are told.
	T     State
	Round int
	// Games are the events of the games that began (game.Started).
	Games []game.Event
	// Rematches are the pairings that repeat a game, when no pairing
	// without one existed: the director is told.
	Rematches []pairing.Game
	// Game is the ladder game that ended, White and Black its players,
	// and Moves the changes of place it made, the winner's first
	// (LadderMoved).
	Game         db.Game
	White, Black db.Player
	Moves        []Move
}

// Move is a ladder player's change of place.
type Move struct {
	Player   db.Player
	From, To int
}
