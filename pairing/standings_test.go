package pairing

import (
	"errors"
	"testing"
)

// handles makes unrated players of the handles.
func handles(hs ...string) []Player {
	ps := make([]Player, len(hs))
	for i, h := range hs {
		ps[i] = Player{Handle: h}
	}
	return ps
}

func TestStandings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		sys     System
		players []Player
		rounds  []Round
		want    string
	}{
		{
			// The Berger table of 4 (alice 1, bob 2, carol 3, dave 4):
			//   1. alice-dave 1-0     bob-carol ½-½
			//   2. dave-carol 0-1     alice-bob 0-1
			//   3. bob-dave   ½-½     carol-alice 0-1
			// Points: alice 1+0+1 = 2, bob ½+1+½ = 2,
			// carol ½+1+0 = 1.5, dave 0+0+½ = 0.5.
			// SB: bob beat alice (2), drew carol (1.5/2) and dave
			// (0.5/2): 2+0.75+0.25 = 3; alice beat dave (0.5) and
			// carol (1.5): 2; carol drew bob (1), beat dave (0.5): 1.5;
			// dave drew bob: 1. bob is ahead of alice on SB.
			name:    "round robin of 4, SB parts two",
			sys:     RoundRobin,
			players: handles("alice", "bob", "carol", "dave"),
			rounds: []Round{
				{Games: []Game{{"alice", "dave", WhiteWon}, {"bob", "carol", Drawn}}},
				{Games: []Game{{"dave", "carol", BlackWon}, {"alice", "bob", BlackWon}}},
				{Games: []Game{{"bob", "dave", Drawn}, {"carol", "alice", BlackWon}}},
			},
			want: `1. bob  2  (SB 3)
2. alice  2  (SB 2)
3. carol  1.5  (SB 1.5)
4. dave  0.5  (SB 1)
`,
		},
		{
			// The table of 3, seeded carol 1, alice 2, bob 3: every game
			// drawn. A round robin's bye scores nothing, so each has 1
			// point and SB ½+½ = 1: the handle decides.
			name:    "round robin of 3, all equal",
			sys:     RoundRobin,
			players: handles("carol", "alice", "bob"),
			rounds: []Round{
				{Games: []Game{{"alice", "bob", Drawn}}, Bye: "carol"},
				{Games: []Game{{"carol", "alice", Drawn}}, Bye: "bob"},
				{Games: []Game{{"bob", "carol", Drawn}}, Bye: "alice"},
			},
			want: `1. alice  1  (SB 1)
2. bob  1  (SB 1)
3. carol  1  (SB 1)
`,
		},
		{
			// The table of 5 (ann 1 .. eve 5), eve withdrawn: her three
			// unfinished games are lost, ben-cat is still being played.
			//   1. ben-eve ½-½   cat-dan 1-0    (bye ann)
			//   2. eve-cat  -    ann-ben ½-½    (bye dan)  cat wins
			//   3. cat-ann 0-1   dan-eve  -     (bye ben)  dan wins
			//   4. ann-dan 1-0   ben-cat  -     (bye eve)
			//   5. dan-ben 0-1   eve-ann  -     (bye cat)  ann wins
			// Points: ann ½+1+1+1 = 3.5, ben ½+½+1 = 2, cat 1+1+0 = 2,
			// dan 0+1+0+0 = 1, eve ½.
			// SB: ann ½·2 + 2 + 1 + 0.5 = 4.5; ben ½·0.5 + ½·3.5 + 1 = 3;
			// cat 1 + 0.5 = 1.5; dan 0.5; eve ½·2 = 1.
			name: "round robin of 5, a withdrawal",
			sys:  RoundRobin,
			players: []Player{{Handle: "ann"}, {Handle: "ben"}, {Handle: "cat"}, {Handle: "dan"},
				{Handle: "eve", Withdrawn: true}},
			rounds: []Round{
				{Games: []Game{{"ben", "eve", Drawn}, {"cat", "dan", WhiteWon}}, Bye: "ann"},
				{Games: []Game{{"eve", "cat", Unfinished}, {"ann", "ben", Drawn}}, Bye: "dan"},
				{Games: []Game{{"cat", "ann", BlackWon}, {"dan", "eve", Unfinished}}, Bye: "ben"},
				{Games: []Game{{"ann", "dan", WhiteWon}, {"ben", "cat", Unfinished}}, Bye: "eve"},
				{Games: []Game{{"dan", "ben", BlackWon}, {"eve", "ann", Unfinished}}, Bye: "cat"},
			},
			want: `1. ann  3.5  (SB 4.5)
2. ben  2  (SB 3)
3. cat  2  (SB 1.5)
4. dan  1  (SB 0.5)
5. eve  0.5  (SB 1)
`,
		},
		{
			// A Swiss of 5, three rounds:
			//   1. ann-cat 1-0   ben-dan ½-½   bye eve
			//   2. eve-ann 0-1   cat-ben 1-0   bye dan
			//   3. ann-dan ½-½   ben-eve 1-0   bye cat
			// Points (a bye is 1): ann 1+1+½ = 2.5, cat 0+1+1 = 2,
			// dan ½+1+½ = 2, ben ½+0+1 = 1.5, eve 1+0+0 = 1.
			// Buchholz (a bye adds one's own points): ann cat 2 + eve 1
			// + dan 2 = 5; cat ann 2.5 + ben 1.5 + own 2 = 6; dan ben 1.5
			// + own 2 + ann 2.5 = 6; ben dan 2 + cat 2 + eve 1 = 5; eve
			// own 1 + ann 2.5 + ben 1.5 = 5.
			// SB (a bye adds half one's own): ann 2 + 1 + ½·2 = 4;
			// cat 1.5 + ½·2 = 2.5; dan ½·1.5 + ½·2 + ½·2.5 = 3;
			// ben ½·2 + 1 = 2; eve ½·1 = 0.5.
			// dan and cat tie on points and Buchholz: SB puts dan first.
			name: "swiss of 5 with byes",
			sys:  Swiss,
			players: []Player{{"ann", 1900, false}, {"ben", 1800, false}, {"cat", 1700, false},
				{"dan", 1600, false}, {"eve", 1500, false}},
			rounds: []Round{
				{Games: []Game{{"ann", "cat", WhiteWon}, {"ben", "dan", Drawn}}, Bye: "eve"},
				{Games: []Game{{"eve", "ann", BlackWon}, {"cat", "ben", WhiteWon}}, Bye: "dan"},
				{Games: []Game{{"ann", "dan", Drawn}, {"ben", "eve", WhiteWon}}, Bye: "cat"},
			},
			want: `1. ann  2.5  (Buchholz 5, SB 4)
2. dan  2  (Buchholz 6, SB 3)
3. cat  2  (Buchholz 6, SB 2.5)
4. ben  1.5  (Buchholz 5, SB 2)
5. eve  1  (Buchholz 5, SB 0.5)
`,
		},
		{
			// A Swiss of 6, three rounds, no byes:
			//   1. f-c 1-0   d-e ½-½   b-a 0-1
			//   2. e-b ½-½   d-c 1-0   a-f 1-0
			//   3. f-b ½-½   c-e ½-½   a-d ½-½
			// Points: a 1+1+½ = 2.5, d ½+1+½ = 2, f 1+0+½ = 1.5,
			// e ½+½+½ = 1.5, b 0+½+½ = 1, c 0+0+½ = 0.5.
			// Buchholz: a b 1 + f 1.5 + d 2 = 4.5; d e 1.5 + c 0.5 + a 2.5
			// = 4.5; f c 0.5 + a 2.5 + b 1 = 4; e d 2 + b 1 + c 0.5 = 3.5;
			// b a 2.5 + e 1.5 + f 1.5 = 5.5; c f 1.5 + d 2 + e 1.5 = 5.
			// SB: a 1 + 1.5 + ½·2 = 3.5; d ½·1.5 + 0.5 + ½·2.5 = 2.5;
			// f 0.5 + ½·1 = 1; e ½·(2+1+0.5) = 1.75; b ½·1.5 + ½·1.5
			// = 1.5; c ½·1.5 = 0.75.
			// f and e tie on points: Buchholz puts f first, though e's SB
			// is higher.
			name:    "swiss of 6, Buchholz before SB",
			sys:     Swiss,
			players: handles("a", "b", "c", "d", "e", "f"),
			rounds: []Round{
				{Games: []Game{{"f", "c", WhiteWon}, {"d", "e", Drawn}, {"b", "a", BlackWon}}},
				{Games: []Game{{"e", "b", Drawn}, {"d", "c", WhiteWon}, {"a", "f", WhiteWon}}},
				{Games: []Game{{"f", "b", Drawn}, {"c", "e", Drawn}, {"a", "d", Drawn}}},
			},
			want: `1. a  2.5  (Buchholz 4.5, SB 3.5)
2. d  2  (Buchholz 4.5, SB 2.5)
3. f  1.5  (Buchholz 4, SB 1)
4. e  1.5  (Buchholz 3.5, SB 1.75)
5. b  1  (Buchholz 5.5, SB 1.5)
6. c  0.5  (Buchholz 5, SB 0.75)
`,
		},
	}
	for _, tt := range tests {
		st, err := Standings(tt.sys, tt.players, tt.rounds)
		if err != nil {
			t.Errorf("%s: Standings: %v", tt.name, err)
			continue
		}
		if got := FormatStandings(tt.sys, st); got != tt.want {
			t.Errorf("%s: Standings =\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
}

func TestCrosstable(t *testing.T) {
	t.Parallel()
	// The round robin of 5 with eve withdrawn, above.
	players := []Player{{Handle: "ann"}, {Handle: "ben"}, {Handle: "cat"}, {Handle: "dan"},
		{Handle: "eve", Withdrawn: true}}
	rounds := []Round{
		{Games: []Game{{"ben", "eve", Drawn}, {"cat", "dan", WhiteWon}}, Bye: "ann"},
		{Games: []Game{{"eve", "cat", Unfinished}, {"ann", "ben", Drawn}}, Bye: "dan"},
		{Games: []Game{{"cat", "ann", BlackWon}, {"dan", "eve", Unfinished}}, Bye: "ben"},
		{Games: []Game{{"ann", "dan", WhiteWon}, {"ben", "cat", Unfinished}}, Bye: "eve"},
		{Games: []Game{{"dan", "ben", BlackWon}, {"eve", "ann", Unfinished}}, Bye: "cat"},
	}
	c, err := NewCrosstable(players, rounds)
	if err != nil {
		t.Fatalf("NewCrosstable: %v", err)
	}
	want := `        1  2  3  4  5
1. ann  ×  ½  1  1  1  3.5
2. ben  ½  ×  ·  1  ½  2
3. cat  0  ·  ×  1  1  2
4. dan  0  0  0  ×  1  1
5. eve  0  ½  0  0  ×  0.5
`
	if got := c.String(); got != want {
		t.Errorf("NewCrosstable(...).String() =\n%s\nwant\n%s", got, want)
	}
	if got := c.Cells[1][4]; got != "½" {
		t.Errorf("Cells[ben][eve] = %q, want ½", got)
	}

	// A double round robin of 3, seeded a, b, c: the table of 3 with
	// its rounds 2 and 3 swapped, then again with colours reversed.
	//   1. b-c 1-0   2. c-a ½-½   3. a-b 1-0
	//   4. c-b 0-1   5. b-a ½-½   6. a-c 1-0
	// a: ½+1+½+1 = 3, b: 1+0+1+½ = 2.5, c: 0+½+0+0 = 0.5.
	rounds = Berger([]string{"a", "b", "c"}, true)
	results := []Result{WhiteWon, Drawn, WhiteWon, BlackWon, Drawn, WhiteWon}
	for i := range rounds {
		rounds[i].Games[0].Result = results[i]
	}
	c, err = NewCrosstable(handles("a", "b", "c"), rounds)
	if err != nil {
		t.Fatalf("NewCrosstable: %v", err)
	}
	want = `      1   2   3
1. a  ×   1½  ½1  3
2. b  0½  ×   11  2.5
3. c  ½0  00  ×   0.5
`
	if got := c.String(); got != want {
		t.Errorf("NewCrosstable(double of 3).String() =\n%s\nwant\n%s", got, want)
	}
}

func TestStandingsInconsistent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		players []Player
		rounds  []Round
	}{
		{"no handle", handles("a", ""), nil},
		{"a player twice", handles("a", "b", "a"), nil},
		{"a stranger", handles("a", "b"), []Round{{Games: []Game{{"a", "z", Drawn}}}}},
		{"twice in a round", handles("a", "b", "c"), []Round{{Games: []Game{{"a", "b", Drawn}}, Bye: "a"}}},
		{"a bad result", handles("a", "b"), []Round{{Games: []Game{{"a", "b", Result(9)}}}}},
	}
	for _, tt := range tests {
		if _, err := Standings(Swiss, tt.players, tt.rounds); !errors.Is(err, errPlayers) {
			t.Errorf("%s: Standings: err = %v, want errPlayers", tt.name, err)
		}
	}
}
