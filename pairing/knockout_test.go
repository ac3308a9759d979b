package pairing

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestBracketOrder(t *testing.T) {
	t.Parallel()
	tests := []struct {
		size int
		want []int
	}{
		{2, []int{1, 2}},
		{4, []int{1, 4, 2, 3}},
		{8, []int{1, 8, 4, 5, 2, 7, 3, 6}}, // M74's example
		{16, []int{1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11}},
	}
	for _, tt := range tests {
		if got := BracketOrder(tt.size); !slices.Equal(got, tt.want) {
			t.Errorf("BracketOrder(%d) = %v, want %v", tt.size, got, tt.want)
		}
	}
	for n, want := range map[int]int{2: 2, 3: 4, 4: 4, 5: 8, 8: 8, 13: 16, 64: 64, 65: 128, 1024: 1024} {
		if got := BracketSize(n); got != want {
			t.Errorf("BracketSize(%d) = %d, want %d", n, got, want)
		}
	}
}

// seeded are n players p01, p02, ... rated so that p01 is seed 1.
func seeded(n int) []Player {
	ps := make([]Player, n)
	for i := range ps {
		ps[i] = Player{Handle: fmt.Sprintf("p%02d", i+1), Rating: 2000 - float64(i)}
	}
	return ps
}

// matchString writes a match as "1 p01 - 8 -" (a place nobody holds is
// "-", one not known yet "?"), then its decision and winner.
func matchString(m Match) string {
	side := func(i int) string {
		switch {
		case m.Players[i] != "":
			return fmt.Sprintf("%d %s", m.Seeds[i], m.Players[i])
		case m.Round == 1:
			return "-"
		}
		return "?"
	}
	s := side(0) + " v " + side(1)
	switch m.Decided {
	case Bye:
		s += " bye"
	case Undecided:
		for _, g := range m.Due {
			s += fmt.Sprintf(" [%s-%s]", g.White, g.Black)
		}
	default:
		s += " > " + m.Winner
	}
	return s
}

// playRound plays the due games of the round being played, the higher
// seed winning each (or, where lower says, the lower seed).
func playRound(b Bracket, lower map[string]bool) Round {
	var rd Round
	for _, m := range b.Rounds[b.Round-1] {
		hi := m.Players[m.High()]
		for _, g := range m.Due {
			g.Result = WhiteWon
			if (g.White == hi) == lower[hi] {
				g.Result = BlackWon
			}
			rd.Games = append(rd.Games, g)
		}
	}
	return rd
}

// TestKnockoutBrackets: brackets of 5, 8, 13 and 64 players (M74): the
// top seeds have the byes, seeds 1 and 2 are in different halves, each
// round begins when the one before is decided, and with the higher seed
// winning every game the semi-finals are 1 v 4 and 2 v 3 and seed 1
// wins the final against seed 2.
func TestKnockoutBrackets(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n      int
		rounds int
		first  []string // round 1, when listed
	}{
		{5, 3, []string{"1 p01 v - bye", "4 p04 v 5 p05 [p04-p05] [p05-p04]", "2 p02 v - bye", "3 p03 v - bye"}},
		{8, 3, []string{"1 p01 v 8 p08 [p01-p08] [p08-p01]", "4 p04 v 5 p05 [p04-p05] [p05-p04]",
			"2 p02 v 7 p07 [p02-p07] [p07-p02]", "3 p03 v 6 p06 [p03-p06] [p06-p03]"}},
		{13, 4, []string{"1 p01 v - bye", "8 p08 v 9 p09 [p08-p09] [p09-p08]", "4 p04 v 13 p13 [p04-p13] [p13-p04]",
			"5 p05 v 12 p12 [p05-p12] [p12-p05]", "2 p02 v - bye", "7 p07 v 10 p10 [p07-p10] [p10-p07]",
			"3 p03 v - bye", "6 p06 v 11 p11 [p06-p11] [p11-p06]"}},
		{64, 6, nil},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.n), func(t *testing.T) {
			players := seeded(tt.n)
			var played []Round
			b, err := PlayKnockout(players, 2, played)
			if err != nil {
				t.Fatal(err)
			}
			if len(b.Rounds) != tt.rounds || b.Round != 1 || b.Size != BracketSize(tt.n) {
				t.Fatalf("%d rounds, round %d, size %d; want %d rounds, round 1", len(b.Rounds), b.Round, b.Size, tt.rounds)
			}
			var first []string
			byes := 0
			for _, m := range b.Rounds[0] {
				first = append(first, matchString(m))
				if m.Decided == Bye {
					byes++
					if s := m.Seeds[m.High()]; s > b.Size-tt.n {
						t.Errorf("seed %d has a bye: only the top %d do", s, b.Size-tt.n)
					}
				}
			}
			if byes != b.Size-tt.n {
				t.Errorf("%d byes, want %d", byes, b.Size-tt.n)
			}
			if tt.first != nil && !slices.Equal(first, tt.first) {
				t.Errorf("round 1:\n%s\nwant\n%s", strings.Join(first, "\n"), strings.Join(tt.first, "\n"))
			}
			half := len(b.Rounds[0]) / 2
			if top := b.Rounds[0][:half]; !slices.ContainsFunc(top, func(m Match) bool { return m.Seeds[0] == 1 }) ||
				slices.ContainsFunc(top, func(m Match) bool { return m.Seeds[0] == 2 || m.Seeds[1] == 2 }) {
				t.Errorf("seeds 1 and 2 are not in different halves: %q", first)
			}
			for r := 1; r <= tt.rounds; r++ {
				if b.Round != r || b.Winner != "" {
					t.Fatalf("after %d rounds played: round %d, winner %q", r-1, b.Round, b.Winner)
				}
				// Every match of the round has its players, the higher
				// seeds, and its games due: seeds sum to 2^(rounds-r+1)+1.
				for _, m := range b.Rounds[r-1] {
					if m.Decided == Bye {
						continue
					}
					if sum := m.Seeds[0] + m.Seeds[1]; sum != b.Size>>(r-1)+1 || len(m.Due) != 2 {
						t.Errorf("round %d: %s, want seeds summing to %d and its two games due", r, matchString(m), b.Size>>(r-1)+1)
					}
				}
				if r < tt.rounds { // the next round waits: a player not known, no game due
					unknown := 0
					for _, m := range b.Rounds[r] {
						if len(m.Due) > 0 || m.Decided != Undecided {
							t.Errorf("round %d before it began: %s", r+1, matchString(m))
						}
						if m.Players[0] == "" || m.Players[1] == "" {
							unknown++
						}
					}
					if unknown == 0 {
						t.Errorf("round %d has all its players before round %d is played", r+1, r)
					}
				}
				played = append(played, playRound(b, nil))
				if b, err = PlayKnockout(players, 2, played); err != nil {
					t.Fatal(err)
				}
			}
			final := b.Rounds[len(b.Rounds)-1][0]
			if b.Winner != "p01" || final.Players != [2]string{"p01", "p02"} || final.Decided != OnPoints {
				t.Errorf("final %s, winner %q; want p01 beating p02 on points", matchString(final), b.Winner)
			}
			if semis := b.Rounds[len(b.Rounds)-2]; tt.n >= 4 && (semis[0].Seeds != [2]int{1, 4} || semis[1].Seeds != [2]int{2, 3}) {
				t.Errorf("semi-finals %s, %s; want 1 v 4 and 2 v 3", matchString(semis[0]), matchString(semis[1]))
			}
		})
	}
}

// TestKnockoutMatch: one match, as its games end: points decide it, and
// a tie after its games is decided by single tie games, colours running
// on, at most two, then by the seeds; a withdrawal forfeits a match its
// games have not decided.
func TestKnockoutMatch(t *testing.T) {
	t.Parallel()
	// Results from the higher seed's side: 1 won, 0 lost, h drawn, . not
	// ended. Game k has the higher seed White when k is even. due lists
	// the games to begin, hi-lo for the higher seed White.
	tests := []struct {
		name     string
		games    int
		results  string
		withdraw string // "hi", "lo" or "both"
		decided  Decision
		winner   string // hi or lo
		due      string
	}{
		{"the match begins", 2, "", "", Undecided, "", "hi-lo lo-hi"},
		{"one game over", 2, "1.", "", Undecided, "", ""},
		{"won 2-0", 2, "11", "", OnPoints, "hi", ""},
		{"won 1½-½", 2, "h0", "", OnPoints, "lo", ""},
		{"tied 1-1: a tie game, the higher seed White", 2, "10", "", Undecided, "", "hi-lo"},
		{"tied ½-½ twice: the second tie game, colours alternate", 2, "hhh", "", Undecided, "", "lo-hi"},
		{"tie game being played", 2, "10.", "", Undecided, "", ""},
		{"the first tie game won", 2, "100", "", TieGame, "lo", ""},
		{"the second tie game won", 2, "01h1", "", TieGame, "hi", ""},
		{"both tie games drawn: the higher seed", 2, "10hh", "", HigherSeed, "hi", ""},
		{"a match of 1 game drawn: the tie game, the lower seed White", 1, "h", "", Undecided, "", "lo-hi"},
		{"a match of 3 games tied", 3, "10h", "", Undecided, "", "lo-hi"},
		{"a match of 3 games won", 3, "1h1", "", OnPoints, "hi", ""},
		{"withdrawn with a game left", 2, "1.", "lo", Forfeit, "hi", ""},
		{"withdrawn when tied", 2, "10", "hi", Forfeit, "lo", ""},
		{"both withdrawn", 2, "", "both", Forfeit, "hi", ""},
		{"withdrawn after the match was won", 2, "00", "lo", OnPoints, "lo", ""},
	}
	for _, tt := range tests {
		players := []Player{{Handle: "hi", Rating: 1600, Withdrawn: tt.withdraw == "hi" || tt.withdraw == "both"},
			{Handle: "lo", Rating: 1500, Withdrawn: tt.withdraw == "lo" || tt.withdraw == "both"}}
		var rd Round
		for k, r := range tt.results {
			g := Game{White: "hi", Black: "lo"}
			if k%2 == 1 {
				g = Game{White: "lo", Black: "hi"}
			}
			hiWhite := g.White == "hi"
			switch r {
			case '1':
				g.Result = map[bool]Result{true: WhiteWon, false: BlackWon}[hiWhite]
			case '0':
				g.Result = map[bool]Result{true: BlackWon, false: WhiteWon}[hiWhite]
			case 'h':
				g.Result = Drawn
			}
			rd.Games = append(rd.Games, g)
		}
		b, err := PlayKnockout(players, tt.games, []Round{rd})
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		m := b.Rounds[0][0]
		var due []string
		for _, g := range m.Due {
			due = append(due, g.White+"-"+g.Black)
		}
		if m.Decided != tt.decided || m.Winner != tt.winner || strings.Join(due, " ") != tt.due {
			t.Errorf("%s: decided %d, winner %q, due %q; want %d, %q, %q", tt.name, m.Decided, m.Winner, due, tt.decided, tt.winner, tt.due)
		}
		if (tt.winner != "") != (b.Winner != "") {
			t.Errorf("%s: the knockout's winner is %q", tt.name, b.Winner)
		}
	}
}

// TestKnockoutOfFive plays the knockout of the test by mail: alice,
// bob and carol have byes, dave beats erin after a tie game, then alice
// beats dave and bob carol, and alice wins the final.
func TestKnockoutOfFive(t *testing.T) {
	t.Parallel()
	players := rated(1900, "alice", "bob", "carol", "dave", "erin")
	step := func(rounds []Round, wantRound int, wantDue string) Bracket {
		t.Helper()
		b, err := PlayKnockout(players, 2, rounds)
		if err != nil {
			t.Fatal(err)
		}
		var due []string
		for _, m := range b.Rounds[b.Round-1] {
			for _, g := range m.Due {
				due = append(due, g.White+"-"+g.Black)
			}
		}
		if b.Round != wantRound || strings.Join(due, " ") != wantDue {
			t.Fatalf("round %d, due %q; want round %d, due %q", b.Round, due, wantRound, wantDue)
		}
		return b
	}
	r1 := Round{}
	step(nil, 1, "dave-erin erin-dave")
	r1.Games = []Game{{"dave", "erin", WhiteWon}, {"erin", "dave", WhiteWon}}
	step([]Round{r1}, 1, "dave-erin")
	r1.Games = append(r1.Games, Game{"dave", "erin", Drawn})
	step([]Round{r1}, 1, "erin-dave")
	r1.Games = append(r1.Games, Game{"erin", "dave", BlackWon})
	step([]Round{r1}, 2, "alice-dave dave-alice bob-carol carol-bob")
	r2 := Round{Games: []Game{{"alice", "dave", WhiteWon}, {"dave", "alice", Drawn}, {"bob", "carol", Drawn}, {"carol", "bob", BlackWon}}}
	step([]Round{r1, r2}, 3, "alice-bob bob-alice")
	r3 := Round{Games: []Game{{"alice", "bob", WhiteWon}, {"bob", "alice", BlackWon}}}
	b := step([]Round{r1, r2, r3}, 3, "")
	if b.Winner != "alice" {
		t.Errorf("winner %q, want alice", b.Winner)
	}
	if m := b.Rounds[0][1]; m.Decided != TieGame || m.Winner != "dave" || m.Points != [2]float64{1, 1} || m.TiePoints != [2]float64{1.5, 0.5} || !m.Level {
		t.Errorf("dave v erin: %+v", m)
	}
}

// TestKnockoutInconsistent: games that are no match's, or of a round not
// begun, are the caller's mistake.
func TestKnockoutInconsistent(t *testing.T) {
	t.Parallel()
	players := seeded(4) // p01 v p04, p02 v p03
	tests := []struct {
		name   string
		rounds []Round
	}{
		{"players of different matches", []Round{{Games: []Game{{White: "p01", Black: "p02"}}}}},
		{"a player not seeded", []Round{{Games: []Game{{White: "p01", Black: "zed"}}}}},
		{"the final before the semi-finals are decided", []Round{{Games: []Game{{White: "p01", Black: "p04", Result: WhiteWon}}},
			{Games: []Game{{White: "p01", Black: "p02"}}}}},
	}
	for _, tt := range tests {
		if _, err := PlayKnockout(players, 2, tt.rounds); !errors.Is(err, errPlayers) {
			t.Errorf("%s: PlayKnockout = %v, want an error of players", tt.name, err)
		}
	}
	if _, err := PlayKnockout(append(seeded(2), Player{Handle: "p01"}), 2, nil); !errors.Is(err, errPlayers) {
		t.Errorf("a player seeded twice: %v", err)
	}
}

// BenchmarkKnockoutStart seeds 1,024 players and pairs the first round
// of their knockout: 512 matches, their games due.
func BenchmarkKnockoutStart(b *testing.B) {
	players := make([]Player, 1024)
	for i := range players {
		players[i] = Player{Handle: fmt.Sprintf("player%04d", i), Rating: float64(1000 + (i*7919)%1500)}
	}
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		seeds := Seed(players)
		k, err := PlayKnockout(seeds, 2, nil)
		if err != nil || len(k.Rounds[0]) != 512 || len(k.Rounds[0][0].Due) != 2 {
			b.Fatal(err)
		}
	}
}

// BenchmarkKnockoutPlayed lays out the bracket of a 1,024-player
// knockout whose every match has been played: 1,023 matches, 2,046
// games, as a game's end does in the final.
func BenchmarkKnockoutPlayed(b *testing.B) {
	players := Seed(seeded(1024))
	var played []Round
	k, err := PlayKnockout(players, 2, nil)
	for err == nil && k.Winner == "" {
		played = append(played, playRound(k, nil))
		k, err = PlayKnockout(players, 2, played)
	}
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		if k, err := PlayKnockout(players, 2, played); err != nil || k.Winner != "p01" {
			b.Fatal(err)
		}
	}
}
