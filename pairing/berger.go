package pairing

// Berger returns the rounds of a round robin among players, numbered in
// the order given (players[0] is number 1), as FIDE's Berger tables
// (Handbook C.05, Annex 1) pair them, board by board, the first named
// White. An odd number of players is paired as one more, the highest
// number, whose opponent has the round's bye. Every player's whites and
// blacks then differ by at most one (M35).
//
// With double every pair plays twice: the table's rounds are played
// once more with the colours reversed. As the Annex recommends, the
// last two rounds of the first cycle are played in swapped order, so
// that nobody plays three games in a row with one colour where the
// cycles meet.
func Berger(players []string, double bool) []Round {
	n := len(players)
	if n < 2 {
		return nil
	}
	m := n + n%2 // the table's size: even
	table := make([]Round, m-1)
	for r := range table {
		table[r] = bergerRound(players, m, r)
	}
	if !double {
		return table
	}
	rounds := make([]Round, 0, 2*(m-1))
	rounds = append(rounds, table...)
	if len(rounds) >= 2 {
		last := len(rounds) - 1
		rounds[last-1], rounds[last] = rounds[last], rounds[last-1]
	}
	for _, rd := range table {
		back := Round{Games: make([]Game, len(rd.Games)), Bye: rd.Bye}
		for i, g := range rd.Games {
			back.Games[i] = Game{White: g.Black, Black: g.White}
		}
		rounds = append(rounds, back)
	}
	return rounds
}

// bergerRound is round r (from 0) of the Berger table of m (even)
// numbers. The numbers 1..m-1 turn on a circle around m: in round r
// number p plays m, where p = r*m/2 mod (m-1) + 1, and on board k
// number p+k-1 (White) plays p-k+1 (Black), counting around the circle.
// m is Black in odd rounds (from 1) and White in even ones.
func bergerRound(players []string, m, r int) Round {
	around := func(x int) int { // x on the circle of 1..m-1
		return ((x-1)%(m-1)+(m-1))%(m-1) + 1
	}
	p := around(r*(m/2) + 1)
	pairs := make([][2]int, 0, m/2)
	if r%2 == 0 {
		pairs = append(pairs, [2]int{p, m})
	} else {
		pairs = append(pairs, [2]int{m, p})
	}
	for k := 2; k <= m/2; k++ {
		pairs = append(pairs, [2]int{around(p + k - 1), around(p - k + 1)})
	}
	var rd Round
	for _, pr := range pairs {
		w, b := pr[0], pr[1]
		switch {
		case w > len(players):
			rd.Bye = players[b-1]
		case b > len(players):
			rd.Bye = players[w-1]
		default:
			rd.Games = append(rd.Games, Game{White: players[w-1], Black: players[b-1]})
		}
	}
	return rd
}
