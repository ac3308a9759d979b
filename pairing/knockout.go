package pairing

import (
	"fmt"
	"slices"
	"strings"
)

// Limits of a knockout's matches (M74).
const (
	// DefaultMatchGames are the games of a match unless the tournament
	// says games=N.
	DefaultMatchGames = 2
	// MaxTieGames are the single games that may follow a tied match:
	// when they are all drawn, the higher seed goes through.
	MaxTieGames = 2
)

// BracketSize is the number of places in the first round of a knockout
// of n players: the smallest power of two at least n, and at least 2.
func BracketSize(n int) int {
	size := 2
	for size < n {
		size *= 2
	}
	return size
}

// BracketOrder returns the seeds in the order of the places of a bracket
// of size places (a power of two), top to bottom: each pair of places
// is a first-round match, and the winners of neighbouring matches meet
// in the next round. Seeds 1 and 2 can meet only in the final, seeds 1
// to 4 only from the semi-finals on, and so on: for 8 places 1 v 8 and
// 4 v 5 in the upper half, 2 v 7 and 3 v 6 in the lower (M74). A seed
// beyond the number of players is nobody: its opponent has a bye.
func BracketOrder(size int) []int {
	order := make([]int, 1, size)
	order[0] = 1
	for len(order) < size {
		m := 2 * len(order)
		next := make([]int, 0, m)
		for _, s := range order {
			next = append(next, s, m+1-s)
		}
		order = next
	}
	return order
}

// Seed orders the players of a knockout by their seeds (M74): by rating,
// the highest first, then by handle. The first is seed 1.
func Seed(players []Player) []Player {
	order := make([]int32, len(players)) // sorting numbers moves less than sorting players
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(i, j int32) int { // handles differ: the order is total
		a, b := &players[i], &players[j]
		if a.Rating != b.Rating {
			if a.Rating > b.Rating {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Handle, b.Handle)
	})
	out := make([]Player, len(players))
	for k, i := range order {
		out[k] = players[i]
	}
	return out
}

// Decision is how a knockout's match was decided. The zero value is not
// yet.
type Decision int

const (
	Undecided  Decision = iota
	Bye                 // the player had no opponent in the first round
	OnPoints            // more points in the match's games
	TieGame             // a tie game was won
	HigherSeed          // every tie game was drawn: the higher seed goes through
	Forfeit             // the other player withdrew (both did: the higher seed goes through)
)

// Match is a match of a knockout. Its two places are in the bracket's
// order, the upper first.
type Match struct {
	Round int // from 1
	// Players are the players of the places: "" for one not known yet,
	// while the match that sends them is not decided, and in the first
	// round for nobody (the other has a bye).
	Players [2]string
	Seeds   [2]int // the players' seeds; 0 for none
	// Games are the match's games in the order they began: its first
	// games, then the tie games.
	Games     []Game
	Points    [2]float64 // each player's points in the match's games
	TiePoints [2]float64 // and in its tie games
	// Of is the number of the match's games, before any tie game.
	Of int
	// Level is set when the match's games have all ended level: tie
	// games follow.
	Level   bool
	Decided Decision
	Winner  string // "" while Undecided
	// Due are the games that are to begin now, in the round being
	// played: all the match's games when the round begins, and each tie
	// game once the games before it have ended level.
	Due []Game
}

// High returns the place (0 or 1) of the higher seed, the lower number;
// that of the one known when only one is.
func (m Match) High() int {
	if m.Seeds[0] == 0 || m.Seeds[1] != 0 && m.Seeds[1] < m.Seeds[0] {
		return 1
	}
	return 0
}

// Bracket is a knockout as its games have played it.
type Bracket struct {
	Size   int       // places in the first round
	Rounds [][]Match // Rounds[r] are the matches of round r+1, in the bracket's order
	// Round is the round being played, from 1: the first with a match
	// not decided; the last once the final is decided.
	Round  int
	Winner string // the final's winner; "" until it is decided
}

// PlayKnockout lays out the bracket of a knockout (M74) of the players
// seeded, in the order of their seeds (seeded[0] is seed 1), whose
// matches are of games games, after the rounds played: the games of
// each round in the order they began. It returns the bracket as they
// leave it: each match with its games, points and decision, and with
// the games that are due in the round being played.
//
// Game k of a match (from 0, tie games counting on from the match's
// games) has the higher seed White when k is even, so that colours
// alternate from the higher seed White first and run on through the
// tie games. The player with more points in the match's games goes
// through; a match whose games ended level is decided by single tie
// games, one at a time, until one is won, at most MaxTieGames, after
// which the higher seed goes through. A match is decided on points only
// when all its games have ended. A match not decided by its games that
// a withdrawn player is in is forfeited by them.
//
// A round begins when every match of the round before is decided. It
// fails when the rounds hold a game that is no match's, or a match's
// game played in a round not begun.
func PlayKnockout(seeded []Player, games int, rounds []Round) (Bracket, error) {
	n := len(seeded)
	switch {
	case n < 2:
		return Bracket{}, fmt.Errorf("%w: a knockout of %d players", errPlayers, n)
	case games < 1:
		return Bracket{}, fmt.Errorf("%w: matches of %d games", errPlayers, games)
	}
	seedOf := make(map[string]int, n)
	for i, p := range seeded {
		if p.Handle == "" {
			return Bracket{}, fmt.Errorf("%w: seed %d has no handle", errPlayers, i+1)
		}
		if _, dup := seedOf[p.Handle]; dup {
			return Bracket{}, fmt.Errorf("%w: %s is seeded twice", errPlayers, p.Handle)
		}
		seedOf[p.Handle] = i + 1
	}
	b := Bracket{Size: BracketSize(n)}
	places := make([]int, b.Size) // the seeds in the places of the round; 0 for nobody, or not known yet
	for i, s := range BracketOrder(b.Size) {
		if s <= n {
			places[i] = s
		}
	}
	matchOf := make([]int, n+1) // by seed: the player's match in the round, or -1
	for r := 0; len(places) > 1; r++ {
		var played []Game
		if r < len(rounds) {
			played = rounds[r].Games
		}
		current := b.Round == 0 // no round before this one is undecided
		if !current && len(played) > 0 {
			return Bracket{}, fmt.Errorf("%w: round %d has games before it began", errPlayers, r+1)
		}
		matches := make([]Match, len(places)/2)
		// The games of each match, in the order they began, laid out
		// match by match in one slice.
		for i := range matchOf {
			matchOf[i] = -1
		}
		for i, s := range places {
			if s != 0 {
				matchOf[s] = i / 2
			}
		}
		of := make([]int, len(played)) // each game's match
		start := make([]int, len(matches)+1)
		for k, g := range played {
			w, bl := seedOf[g.White], seedOf[g.Black]
			if w == 0 || bl == 0 || w == bl || matchOf[w] < 0 || matchOf[w] != matchOf[bl] {
				return Bracket{}, fmt.Errorf("%w: round %d: %s v %s is no match's game", errPlayers, r+1, g.White, g.Black)
			}
			of[k] = matchOf[w]
			start[of[k]+1]++
		}
		for i := 1; i < len(start); i++ {
			start[i] += start[i-1]
		}
		laid := make([]Game, len(played))
		fill := slices.Clone(start)
		for k, g := range played {
			laid[fill[of[k]]] = g
			fill[of[k]]++
		}
		var due []Game // the matches' due games, in turn, made by the first match with any
		next := make([]int, len(places)/2)
		decided := true
		for i := range matches {
			a, c := places[2*i], places[2*i+1]
			m := &matches[i]
			m.Round = r + 1
			m.Seeds = [2]int{a, c}
			if a != 0 {
				m.Players[0] = seeded[a-1].Handle
			}
			if c != 0 {
				m.Players[1] = seeded[c-1].Handle
			}
			switch {
			case r == 0 && (a == 0 || c == 0):
				m.Decided, m.Winner = Bye, m.Players[m.High()]
			case a == 0 || c == 0:
			default:
				m.Games = laid[start[i]:start[i+1]:start[i+1]]
				due = m.play(games, [2]bool{seeded[a-1].Withdrawn, seeded[c-1].Withdrawn}, current, due, games*(len(matches)-i))
			}
			if m.Decided == Undecided {
				decided = false
			} else {
				next[i] = m.Seeds[m.place(m.Winner)]
			}
		}
		if current && !decided {
			b.Round = r + 1
		}
		b.Rounds = append(b.Rounds, matches)
		places = next
	}
	if b.Round == 0 {
		b.Round = len(b.Rounds)
		b.Winner = seeded[places[0]-1].Handle
	}
	return b, nil
}

// play scores a match of two known players from its games, matches of
// games games, decides it as PlayKnockout says (withdrawn says which of
// its players withdrew), and when current (in the round being played)
// appends the games due to buf, which it returns, and makes them its
// Due; a nil buf is made with room for room games.
func (m *Match) play(games int, withdrawn [2]bool, current bool, buf []Game, room int) []Game {
	m.Of = games
	hi := m.High()
	ended := [2]bool{true, true} // the match's games, and its tie games
	for k, g := range m.Games {
		var s [2]float64
		switch g.Result {
		case WhiteWon:
			s[m.place(g.White)] = 1
		case BlackWon:
			s[m.place(g.Black)] = 1
		case Drawn:
			s = [2]float64{0.5, 0.5}
		}
		tie := 0
		if k >= games {
			tie = 1
		}
		ended[tie] = ended[tie] && g.Result != Unfinished
		if tie == 0 {
			m.Points[0], m.Points[1] = m.Points[0]+s[0], m.Points[1]+s[1]
		} else {
			m.TiePoints[0], m.TiePoints[1] = m.TiePoints[0]+s[0], m.TiePoints[1]+s[1]
		}
	}
	played := len(m.Games)
	m.Level = played >= games && ended[0] && m.Points[0] == m.Points[1]
	from, to := played, played // the games to begin, by number in the match
	switch {
	case played < games:
		to = games
	case !ended[0]:
	case !m.Level:
		m.Decided, m.Winner = OnPoints, m.Players[higher(m.Points)]
	case !ended[1]:
	case m.TiePoints[0] != m.TiePoints[1]:
		m.Decided, m.Winner = TieGame, m.Players[higher(m.TiePoints)]
	case played-games < MaxTieGames:
		to = played + 1
	default:
		m.Decided, m.Winner = HigherSeed, m.Players[hi]
	}
	if m.Decided == Undecided {
		switch {
		case withdrawn[0] && withdrawn[1]:
			m.Decided, m.Winner = Forfeit, m.Players[hi]
		case withdrawn[0]:
			m.Decided, m.Winner = Forfeit, m.Players[1]
		case withdrawn[1]:
			m.Decided, m.Winner = Forfeit, m.Players[0]
		}
	}
	if m.Decided != Undecided || !current || from == to {
		return buf
	}
	if buf == nil {
		buf = make([]Game, 0, max(room, to-from))
	}
	first := len(buf)
	for k := from; k < to; k++ {
		w, b := m.Players[hi], m.Players[1-hi]
		if k%2 == 1 {
			w, b = b, w
		}
		buf = append(buf, Game{White: w, Black: b})
	}
	m.Due = buf[first:len(buf):len(buf)]
	return buf
}

// place is the place of handle in the match: 0 or 1.
func (m *Match) place(handle string) int {
	if handle == m.Players[1] {
		return 1
	}
	return 0
}

// higher is the place with more points.
func higher(p [2]float64) int {
	if p[1] > p[0] {
		return 1
	}
	return 0
}
