package pairing

import (
	"errors"
	"strings"
	"testing"
)

// rated makes players of the handles, rated from high down by 100 a
// player, starting at top.
func rated(top float64, hs ...string) []Player {
	ps := make([]Player, len(hs))
	for i, h := range hs {
		ps[i] = Player{Handle: h, Rating: top - 100*float64(i)}
	}
	return ps
}

// pairingString writes a round on one line: "ann-cat ben-dan bye eve".
func pairingString(rd Round) string {
	var parts []string
	for _, g := range rd.Games {
		parts = append(parts, g.White+"-"+g.Black)
	}
	if rd.Bye != "" {
		parts = append(parts, "bye "+rd.Bye)
	}
	return strings.Join(parts, " ")
}

// swissStep is one round of a hand-worked Swiss: the pairing wanted,
// then the results played on its boards, and who withdraws during it
// (leaving their game unfinished).
type swissStep struct {
	want      string
	rematches int
	results   []Result
	withdraw  string
}

const (
	w = WhiteWon
	b = BlackWon
	d = Drawn
	u = Unfinished
)

func TestPairSwiss(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		players []Player
		steps   []swissStep
	}{
		{
			// ann 1500, bob 1500, cy 1400: ann ranks above bob by handle.
			// 1. cy, the lowest, has the bye; ann v bob, the higher White.
			// 2. ann 1, cy 1 (bye), bob 0: bob, the lowest without a
			//    bye, has it. cy has fewer whites (0 to 1): cy-ann.
			// 3. ann 1.5, cy 1.5, bob 1: only ann has had no bye. cy
			//    has 1 white, bob none: bob-cy.
			name:    "3 players",
			players: []Player{{"cy", 1400, false}, {"bob", 1500, false}, {"ann", 1500, false}},
			steps: []swissStep{
				{want: "ann-bob bye cy", results: []Result{w}},
				{want: "cy-ann bye bob", results: []Result{d}},
				{want: "bob-cy bye ann"},
			},
		},
		{
			// ann 2000 .. dan 1700, every game drawn.
			// 1. ann ben | cat dan: ann-cat, ben-dan.
			// 2. All on ½, one bracket. ann has met cat, so takes dan
			//    (the next down the bottom half), ben takes cat. dan
			//    and cat have no white yet: dan-ann, cat-ben.
			// 3. All on 1. ann has met cat and dan, so takes ben (up
			//    the top half); cat v dan. ann and ben both had Black
			//    last and have 1 white, 1 black each: the higher, ann,
			//    White; cat and dan both had White: cat White.
			// 4. Everyone has met everyone: as few rematches as can be,
			//    two, said so. ann takes cat (top of the bottom half),
			//    ben takes dan. ann and cat: 2 whites each, White last,
			//    1 black each: ann White. ben and dan: 1 white and 2
			//    blacks each, Black last: ben White.
			name:    "4 players, rematches at the end",
			players: rated(2000, "ann", "ben", "cat", "dan"),
			steps: []swissStep{
				{want: "ann-cat ben-dan", results: []Result{d, d}},
				{want: "dan-ann cat-ben", results: []Result{d, d}},
				{want: "ann-ben cat-dan", results: []Result{d, d}},
				{want: "ann-cat ben-dan", rematches: 2},
			},
		},
		{
			// ann 2000 .. eve 1600.
			// 1. eve has the bye; ann ben | cat dan. ann beats cat,
			//    ben draws dan.
			// 2. ann 1, eve 1; ben ½, dan ½; cat 0. cat has the bye.
			//    ann v eve would leave ben v dan, a rematch: the 1-point
			//    bracket cannot be paired, both float into the ½ bracket
			//    (ann eve | ben dan): ann-ben, eve v dan. ann and ben
			//    both had White, 1 white each: ann White. eve and dan
			//    have no white; dan had Black last: dan-eve. ben beats
			//    ann, dan draws eve.
			// 3. ben 1.5, eve 1.5; ann 1, cat 1, dan 1. dan is the
			//    lowest without a bye. ben v eve would leave ann v cat,
			//    a rematch: both float (ben eve | ann cat). ben has met
			//    ann, so takes cat: cat has fewer whites, cat-ben. ann
			//    (2 whites, no black) must have Black: eve-ann.
			name:    "5 players, whole brackets float",
			players: rated(2000, "ann", "ben", "cat", "dan", "eve"),
			steps: []swissStep{
				{want: "ann-cat ben-dan bye eve", results: []Result{w, d}},
				{want: "ann-ben dan-eve bye cat", results: []Result{b, d}},
				{want: "cat-ben eve-ann bye dan"},
			},
		},
		{
			// ann 2000 .. fay 1500.
			// 1. ann ben cat | dan eve fay. ann, eve and cat win.
			// 2. ann, cat, eve on 1; ben, dan, fay on 0. The 1-point
			//    bracket is odd: its lowest, eve, floats. ann v cat,
			//    both with White last and alike: ann White. Then eve
			//    ben dan fay: eve takes dan (top of the bottom half);
			//    eve and dan alike, eve the higher: eve-dan. ben v fay,
			//    fay has fewer whites: fay-ben. ann draws cat, eve beats
			//    dan; fay withdraws during her game, losing it.
			// 3. eve 2; ann 1.5, cat 1.5; ben 1; dan 0. dan has the
			//    bye. eve floats alone into ann cat, an odd bracket
			//    whose lowest, cat, floats: eve v ann, ann (2 whites, no
			//    black) Black. cat v ben: alike, both Black last, cat
			//    the higher White.
			name:    "6 players, a float and a withdrawal",
			players: rated(2000, "ann", "ben", "cat", "dan", "eve", "fay"),
			steps: []swissStep{
				{want: "ann-dan ben-eve cat-fay", results: []Result{w, b, w}},
				{want: "ann-cat eve-dan fay-ben", results: []Result{d, w, u}, withdraw: "fay"},
				{want: "eve-ann cat-ben bye dan"},
			},
		},
		{
			// ann 2000, ben 1900, cat 1800, dan 1800, eve 1700, fay 1600,
			// gus 1500: cat ranks above dan by handle.
			// 1. gus has the bye; ann ben cat | dan eve fay. ann draws
			//    dan, ben wins, fay wins.
			// 2. ben, fay, gus on 1; ann, dan on ½; cat, eve on 0. eve
			//    (lower rated than cat) has the bye. gus floats from the
			//    odd 1-point bracket: fay v ben, fay fewer whites. Then
			//    gus ann dan: dan floats; gus has no white: gus-ann.
			//    Last dan v cat: dan has no white: dan-cat.
			name: "7 players, floats",
			players: []Player{{"ann", 2000, false}, {"ben", 1900, false}, {"dan", 1800, false},
				{"cat", 1800, false}, {"eve", 1700, false}, {"fay", 1600, false}, {"gus", 1500, false}},
			steps: []swissStep{
				{want: "ann-dan ben-eve cat-fay bye gus", results: []Result{d, w, b}},
				{want: "fay-ben gus-ann dan-cat bye eve"},
			},
		},
		{
			// ann 2000 .. hal 1300.
			// 1. ann ben cat dan | eve fay gus hal; White wins all.
			// 2. ann ben | cat dan: ann-cat, ben-dan; eve fay | gus hal:
			//    eve-gus, fay-hal, the higher White among equals. ann
			//    wins, dan wins, eve draws gus, hal wins.
			// 3. ann 2, dan 2; ben 1, cat 1, hal 1; eve ½, gus ½; fay 0.
			//    ann v dan: ann (2 whites, no black) must have Black.
			//    ben cat hal: hal floats; ben (2 whites, no black) must
			//    have Black too: cat-ben. hal eve gus: gus floats;
			//    hal (no white, 2 blacks) must have White: hal-eve.
			//    gus v fay: gus has no white: gus-fay.
			name:    "8 players, colours kept within 2",
			players: rated(2000, "ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal"),
			steps: []swissStep{
				{want: "ann-eve ben-fay cat-gus dan-hal", results: []Result{w, w, w, w}},
				{want: "ann-cat ben-dan eve-gus fay-hal", results: []Result{w, b, d, b}},
				{want: "dan-ann cat-ben hal-eve gus-fay"},
			},
		},
		{
			// ann 2000 .. ivy 1200.
			// 1. ivy has the bye; ann ben cat dan | eve fay gus hal. ann
			//    wins, fay wins, cat draws gus, dan wins.
			// 2. ann, dan, fay, ivy on 1; cat, gus on ½; ben, eve, hal
			//    on 0. hal has the bye. ann dan | fay ivy: ann v fay,
			//    fay fewer whites; dan v ivy, ivy fewer. cat and gus have
			//    met: both float into cat gus | ben eve: cat v ben, alike
			//    with White last, cat the higher; gus v eve alike with
			//    Black last, gus the higher.
			name:    "9 players, a group that has met floats",
			players: rated(2000, "ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal", "ivy"),
			steps: []swissStep{
				{want: "ann-eve ben-fay cat-gus dan-hal bye ivy", results: []Result{w, b, d, w}},
				{want: "fay-ann ivy-dan cat-ben gus-eve bye hal"},
			},
		},
	}
	for _, tt := range tests {
		players := append([]Player(nil), tt.players...)
		var played []Round
		for r, step := range tt.steps {
			p, err := PairSwiss(players, played)
			if err != nil {
				t.Fatalf("%s: round %d: PairSwiss: %v", tt.name, r+1, err)
			}
			if got := pairingString(p.Round); got != step.want {
				t.Errorf("%s: round %d: PairSwiss = %q, want %q", tt.name, r+1, got, step.want)
				break
			}
			if len(p.Rematches) != step.rematches {
				t.Errorf("%s: round %d: PairSwiss has rematches %v, want %d", tt.name, r+1, p.Rematches, step.rematches)
			}
			for i, res := range step.results {
				p.Games[i].Result = res
			}
			for i := range players {
				if players[i].Handle == step.withdraw {
					players[i].Withdrawn = true
				}
			}
			played = append(played, p.Round)
		}
	}
}

func TestPairSwissSmall(t *testing.T) {
	t.Parallel()
	tests := []struct {
		players []Player
		want    string
	}{
		{nil, ""},
		{handles("ann"), "bye ann"},
		{[]Player{{Handle: "ann", Withdrawn: true}, {Handle: "ben"}, {Handle: "cat"}}, "ben-cat"},
	}
	for _, tt := range tests {
		p, err := PairSwiss(tt.players, nil)
		if err != nil {
			t.Errorf("PairSwiss(%v): %v", tt.players, err)
			continue
		}
		if got := pairingString(p.Round); got != tt.want {
			t.Errorf("PairSwiss(%v) = %q, want %q", tt.players, got, tt.want)
		}
	}
	if _, err := PairSwiss(handles("ann", "ann"), nil); !errors.Is(err, errPlayers) {
		t.Errorf("PairSwiss(ann twice): err = %v, want errPlayers", err)
	}
}

func TestSwissRounds(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ players, want int }{
		{1, 1}, {2, 2}, {3, 3}, {4, 3}, {5, 4}, {8, 4}, {9, 5}, {16, 5}, {17, 6}, {200, 9},
	} {
		if got := SwissRounds(tt.players); got != tt.want {
			t.Errorf("SwissRounds(%d) = %d, want %d", tt.players, got, tt.want)
		}
	}
}

func TestRoundEnded(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rd   Round
		want bool
	}{
		{Round{}, true},
		{Round{Bye: "ann"}, true},
		{Round{Games: []Game{{"ann", "ben", Drawn}, {"cat", "dan", BlackWon}}}, true},
		{Round{Games: []Game{{"ann", "ben", Drawn}, {"cat", "dan", Unfinished}}}, false},
	}
	for _, tt := range tests {
		if got := tt.rd.Ended(); got != tt.want {
			t.Errorf("%v.Ended() = %v, want %v", tt.rd, got, tt.want)
		}
	}
}
