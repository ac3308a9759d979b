// Package pairing pairs and scores the tournaments of Congo as MAIL.md
// M33-M39 and M73-M74 decide: round robins paired by the Berger tables
// (berger.go), Swiss events paired round by round (swiss.go), standings
// with their tie-breaks (standings.go), ladders (ladder.go) and
// knockouts (knockout.go). Pairing and scoring are pure functions of the
// players and the games played: no database, no clock and no randomness.
package pairing

import (
	"errors"
	"fmt"
)

// System is how a tournament pairs its players. The zero value is none.
type System int

const (
	// RoundRobin pairs every player with every other, all games at once,
	// by the Berger tables (M35).
	RoundRobin System = iota + 1
	// Swiss pairs a round at a time within score groups (M36).
	Swiss
	// Ladder keeps its players in order; each challenges up to take a
	// place (M73).
	Ladder
	// Knockout seeds its players into a bracket of matches; the winner
	// of each goes through (M74).
	Knockout
)

// systemNames are the systems' names, as tournament new and the store
// write them.
var systemNames = [...]string{RoundRobin: "roundrobin", Swiss: "swiss", Ladder: "ladder", Knockout: "knockout"}

func (s System) String() string {
	if s > 0 && int(s) < len(systemNames) {
		return systemNames[s]
	}
	return fmt.Sprintf("System(%d)", int(s))
}

// ParseSystem returns the system named name, as String writes it; ok
// is false for none.
func ParseSystem(name string) (s System, ok bool) {
	for i, n := range systemNames {
		if n != "" && n == name {
			return System(i), true
		}
	}
	return 0, false
}

// Player is an entrant as pairing and scoring see them.
type Player struct {
	Handle string
	// Rating ranks the players of a Swiss on equal points, and so all of
	// them in round 1 (M36).
	Rating float64
	// Withdrawn is set when the player left after the start (M38): their
	// unfinished games count as lost and a Swiss pairs them no further.
	Withdrawn bool
}

// Result is how a game ended. The zero value is a game not yet ended.
type Result int

const (
	Unfinished Result = iota // still being played
	WhiteWon                 // also Black lost on time or resigned
	BlackWon                 // also White lost on time or resigned
	Drawn
)

// Game is one pairing of a round, named by the players' handles.
type Game struct {
	White, Black string
	Result       Result
}

// Round is one round of a tournament: its games, board by board, and the
// player who has no game in it (an odd number of players), or "".
type Round struct {
	Games []Game
	Bye   string
}

// Ended reports whether every game of the round has a result.
func (r Round) Ended() bool {
	for _, g := range r.Games {
		if g.Result == Unfinished {
			return false
		}
	}
	return true
}

// SwissRounds is the default number of rounds of a Swiss of n players
// (M33): the smallest N with 2^N >= n, plus one.
func SwissRounds(n int) int {
	r := 0
	for 1<<r < n {
		r++
	}
	return r + 1
}

// errPlayers is wrapped by every error about players and rounds that do
// not fit together: a caller's mistake, not a tournament's state.
var errPlayers = errors.New("inconsistent tournament")

// index maps each handle to its place in players, and checks that the
// rounds name only those players, each at most once a round.
func index(players []Player, rounds []Round) (map[string]int, error) {
	idx := make(map[string]int, len(players))
	for i, p := range players {
		if p.Handle == "" {
			return nil, fmt.Errorf("%w: player %d has no handle", errPlayers, i+1)
		}
		if _, dup := idx[p.Handle]; dup {
			return nil, fmt.Errorf("%w: %s is a player twice", errPlayers, p.Handle)
		}
		idx[p.Handle] = i
	}
	seen := make(map[string]int, len(players)) // handle -> round+1 it was last seen in
	for r, rd := range rounds {
		mark := func(h string) error {
			if _, ok := idx[h]; !ok {
				return fmt.Errorf("%w: round %d names %q, who is not a player", errPlayers, r+1, h)
			}
			if seen[h] == r+1 {
				return fmt.Errorf("%w: %s is twice in round %d", errPlayers, h, r+1)
			}
			seen[h] = r + 1
			return nil
		}
		for _, g := range rd.Games {
			if err := mark(g.White); err != nil {
				return nil, err
			}
			if err := mark(g.Black); err != nil {
				return nil, err
			}
			if g.Result < Unfinished || g.Result > Drawn {
				return nil, fmt.Errorf("%w: round %d: %s v %s has result %d", errPlayers, r+1, g.White, g.Black, g.Result)
			}
		}
		if rd.Bye != "" {
			if err := mark(rd.Bye); err != nil {
				return nil, err
			}
		}
	}
	return idx, nil
}
