package templates

import (
	"fmt"
	"strings"
	"testing"

	"github.com/congobymail/congo/lang"
)

// knockoutOfFive is the bracket of the knockout by mail's test, with
// round 1 played (dave beat erin after a tie game) and round 2 begun.
func knockoutOfFive() *Bracket {
	return &Bracket{Rounds: []BracketRound{
		{Round: 1, Matches: []Match{
			{Round: 1, Players: [2]string{"alice", ""}, Seeds: [2]int{1, 8}, Winner: "alice", Decided: "bye"},
			{Round: 1, Players: [2]string{"dave", "erin"}, Seeds: [2]int{4, 5}, Points: [2]string{"2", "1"}, Score: "1-1",
				TieScore: "1-0", Winner: "dave", Decided: "tie game", Level: true, Ties: 1,
				Games: []TournamentGame{{Round: 1, GameID: 1, White: "dave", Black: "erin", Result: "1-0"},
					{Round: 1, GameID: 2, White: "erin", Black: "dave", Result: "1-0"},
					{Round: 1, GameID: 3, White: "dave", Black: "erin", Result: "1-0"}}},
			{Round: 1, Players: [2]string{"bob", ""}, Seeds: [2]int{2, 7}, Winner: "bob", Decided: "bye"},
			{Round: 1, Players: [2]string{"carol", ""}, Seeds: [2]int{3, 6}, Winner: "carol", Decided: "bye"},
		}},
		{Round: 2, Matches: []Match{
			{Round: 2, Players: [2]string{"alice", "dave"}, Seeds: [2]int{1, 4},
				Games:   []TournamentGame{{Round: 2, GameID: 4, White: "alice", Black: "dave"}, {Round: 2, GameID: 5, White: "dave", Black: "alice"}},
				Playing: []int64{4, 5}},
			{Round: 2, Players: [2]string{"bob", "carol"}, Seeds: [2]int{2, 3},
				Games:   []TournamentGame{{Round: 2, GameID: 6, White: "bob", Black: "carol"}, {Round: 2, GameID: 7, White: "carol", Black: "bob"}},
				Playing: []int64{6, 7}},
		}},
		{Round: 3, Final: true, Matches: []Match{{Round: 3}}},
	}}
}

// TestBracketText draws the bracket of five players as a tree, in each
// language, and a bracket of 64 whose tree would be too wide: its first
// rounds are listed above the tree of the rest, no line wider than the
// text's width.
func TestBracketText(t *testing.T) {
	t.Parallel()
	got, err := tongueOf(lang.English).bracketText(knockoutOfFive())
	if err != nil {
		t.Fatal(err)
	}
	want := `Round 1        Round 2      Final      Winner

1 alice ----+
            +- alice ----+
  (bye) ----+            |
                         +- ?     --+
4 dave  2 --+            |          |
            +- dave  ----+          |
5 erin  1 --+                       |
                                    +- ?
2 bob   ----+                       |
            +- bob   ----+          |
  (bye) ----+            |          |
                         +- ?     --+
3 carol ----+            |
            +- carol ----+
  (bye) ----+
`
	if got != want {
		t.Errorf("bracketText =\n%s\nwant\n%s", got, want)
	}
	for _, l := range lang.All {
		text, err := tongueOf(l).bracketText(knockoutOfFive())
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
		// Every "+" of a row is in the column of the same row's above it.
		if len(lines) != 17 {
			t.Errorf("%s: %d lines, want 17:\n%s", l, len(lines), text)
		}
		for i, line := range lines[2:] {
			if strings.Contains(line, "dave") && i%2 == 0 && !strings.HasPrefix(line, "4 dave") {
				t.Errorf("%s: line %d %q", l, i, line)
			}
		}
	}

	// 64 players, handles of 8: the tree from round 4 fits.
	b := &Bracket{}
	n := 64
	for r := 1; n > 1; r++ {
		round := BracketRound{Round: r, Final: n == 2}
		for i := 0; i < n/2; i++ {
			m := Match{Round: r, Players: [2]string{fmt.Sprintf("player%02d", i+1), fmt.Sprintf("player%02d", n-i)},
				Seeds: [2]int{i + 1, n - i}, Points: [2]string{"1.5", "0.5"}, Winner: fmt.Sprintf("player%02d", i+1)}
			round.Matches = append(round.Matches, m)
		}
		b.Rounds = append(b.Rounds, round)
		n /= 2
	}
	b.Winner = "player01"
	text, err := tongueOf(lang.English).bracketText(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(text, "\n") {
		if columns(line) > treeWidth {
			t.Errorf("a line of %d columns: %q", columns(line), line)
		}
	}
	for _, want := range []string{"Round 1\n1 player01  1.5-0.5  player64 64  -> player01\n", "\nRound 2\n", "\nRound 3\n",
		"\nRound 4             Round 5           Final             Winner\n\n1 player01 1.5 --+\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("the bracket of 64 lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "Round 4\n") {
		t.Errorf("round 4 is listed, not drawn:\n%s", text)
	}
}

// TestLadderKnockoutGolden renders every kind of mail and answer of a
// ladder (M73) and of a knockout (M74), in every language.
func TestLadderKnockoutGolden(t *testing.T) {
	t.Parallel()
	lad := Tournament{ID: 4, Name: "Club Ladder", Ladder: true, TimeControl: "days=3", Director: "alice", Status: "running",
		Players: []string{"dave", "alice", "bob", "carol"}, MinPlayers: 3, Reach: 3}
	closed := lad
	closed.Closed = true
	over := lad
	over.Status = "finished"
	lines := []LadderLine{
		{Line: "1. dave  (1-0-0)", Place: 1, Handle: "dave", Wins: 1},
		{Line: "2. alice  (0-0-1)", Place: 2, Handle: "alice", Losses: 1},
		{Line: "3. bob  (0-1-0)", Place: 3, Handle: "bob", Draws: 1},
		{Gap: true},
		{Line: "40. carol  (0-1-1)", Place: 40, Handle: "carol", Draws: 1, Losses: 1},
	}
	challenge := &TournamentGame{GameID: 7, White: "dave", Black: "alice"}
	won := &TournamentGame{GameID: 7, White: "dave", Black: "alice", Result: "1-0"}
	moves := []LadderMove{{"dave", 4, 1}, {"alice", 1, 2}, {"bob", 2, 3}, {"carol", 3, 4}}
	inProgress := []TournamentGame{{GameID: 8, White: "carol", Black: "bob"}}

	ko := Tournament{ID: 5, Name: "Cup", Knockout: true, Games: 2, Rounds: 3, Round: 2, TimeControl: "days=3", Director: "carol",
		Status: "running", Players: []string{"carol", "erin", "alice", "dave", "bob"}, MinPlayers: 3}
	koOver := ko
	koOver.Status, koOver.Round = "finished", 3
	five := knockoutOfFive()
	first := *five
	first.Rounds = append([]BracketRound{{Round: 1, Matches: append([]Match(nil), five.Rounds[0].Matches...)}}, five.Rounds[1:]...)
	first.Rounds[0].Matches[1] = Match{Round: 1, Players: [2]string{"dave", "erin"}, Seeds: [2]int{4, 5},
		Games: []TournamentGame{{Round: 1, GameID: 1, White: "dave", Black: "erin"}, {Round: 1, GameID: 2, White: "erin", Black: "dave"}}}
	first.Rounds[1] = BracketRound{Round: 2, Matches: []Match{{Round: 2, Players: [2]string{"alice", ""}, Seeds: [2]int{1, 0}},
		{Round: 2, Players: [2]string{"bob", "carol"}, Seeds: [2]int{2, 3}}}}
	koStart := ko
	koStart.Round = 1
	tied := five.Rounds[0].Matches[1]
	tied.Winner, tied.Decided, tied.TieScore, tied.Points = "", "", "", [2]string{"1", "1"}
	tied.Games = tied.Games[:3]
	// The end: alice beat dave 2-0 and bob carol 1.5-0.5 in round 2,
	// and alice beat bob 1.5-0.5 in the final.
	final := *five
	final.Rounds = []BracketRound{five.Rounds[0],
		{Round: 2, Matches: []Match{
			{Round: 2, Players: [2]string{"alice", "dave"}, Seeds: [2]int{1, 4}, Points: [2]string{"2", "0"}, Score: "2-0", Winner: "alice", Decided: "points"},
			{Round: 2, Players: [2]string{"bob", "carol"}, Seeds: [2]int{2, 3}, Points: [2]string{"1.5", "0.5"}, Score: "1.5-0.5", Winner: "bob", Decided: "points"},
		}},
		{Round: 3, Final: true, Matches: []Match{{Round: 3, Players: [2]string{"alice", "bob"}, Seeds: [2]int{1, 2},
			Points: [2]string{"1.5", "0.5"}, Score: "1.5-0.5", Winner: "alice", Decided: "points"}}},
	}
	final.Winner = "alice"

	mails := []struct {
		name string
		d    TournamentData
	}{
		{"ladder_challenged", TournamentData{To: "alice", T: lad, News: LadderChallenged, By: "dave", Place: 1, Other: 4, Game: challenge}},
		{"ladder_moved_winner", TournamentData{To: "dave", T: lad, News: LadderMoved, Game: won, Moves: moves}},
		{"ladder_moved_loser", TournamentData{To: "alice", T: lad, News: LadderMoved, Game: won, Moves: moves}},
		{"ladder_moved_other", TournamentData{To: "carol", T: lad, News: LadderMoved, Game: won, Moves: moves}},
		{"ladder_joined", TournamentData{To: "alice", T: lad, News: TournamentJoined, By: "carol", Place: 4}},
		{"ladder_standings", TournamentData{To: "carol", T: lad, News: TournamentStandings, Ladder: lines, InProgress: inProgress}},
		{"ladder_standings_closed", TournamentData{To: "carol", T: closed, News: TournamentStandings, Ladder: lines[:3], InProgress: inProgress}},
		{"ladder_over", TournamentData{To: "dave", T: over, News: TournamentOver, Ladder: lines[:3]}},
		{"ladder_withdrawn", TournamentData{To: "bob", T: lad, News: TournamentWithdrawn, By: "alice", Yours: inProgress}},
		{"knockout_started_bye", TournamentData{To: "alice", T: koStart, News: TournamentStarted, Round: 1, Bracket: &first,
			Match: &first.Rounds[0].Matches[0]}},
		{"knockout_started", TournamentData{To: "erin", T: koStart, News: TournamentStarted, Round: 1, Bracket: &first,
			Match: &first.Rounds[0].Matches[1]}},
		{"knockout_tie_game", TournamentData{To: "erin", T: koStart, News: TieGameBegun, Round: 1, Match: &tied,
			Game: &tied.Games[2]}},
		{"knockout_round", TournamentData{To: "dave", T: ko, News: TournamentRound, Round: 2, Bracket: five,
			Match: &five.Rounds[1].Matches[0]}},
		{"knockout_standings", TournamentData{To: "bob", T: ko, News: TournamentStandings, Bracket: five}},
		{"knockout_over", TournamentData{To: "bob", T: koOver, News: TournamentOver, Round: 3, Bracket: &final}},
	}
	for _, tt := range mails {
		for _, l := range lang.All {
			name := goldenName(tt.name, l)
			t.Run(name, func(t *testing.T) {
				d := tt.d
				d.Lang = l
				subject, body, html, err := TournamentMail(d)
				if err != nil {
					t.Fatal(err)
				}
				checkGolden(t, name, mail{subject, body}.String())
				checkMailText(t, l, subject, body)
				for _, line := range d.Ladder {
					if !line.Gap && (!strings.Contains(body, "\n"+line.Line+"\n") || !strings.Contains(html, ">"+line.Handle+"<")) {
						t.Errorf("the mail lacks the ladder's line %q, in the text or as a table", line.Line)
					}
				}
				if d.Bracket != nil && (!strings.Contains(body, "\n  1 alice ") || !strings.Contains(html, "alice (1)")) {
					t.Errorf("the mail lacks the bracket, in the text or as a table")
				}
				if tt.name == "knockout_round" || tt.name == "ladder_standings" {
					checkGolden(t, goldenName(tt.name+"_html", l), html)
				}
			})
		}
	}

	answers := []struct {
		name string
		secs []Section
	}{
		{"reply_ladder", []Section{
			TournamentCreated{T: lad},
			TournamentJoin{T: lad, Place: 4, Reach: []string{"bob", "alice", "dave"}},
			TournamentJoin{T: Tournament{ID: 4, Name: "Club Ladder", Ladder: true, TimeControl: "days=3", Players: []string{"alice"}, Reach: 3}, Place: 1},
			LadderChallenge{T: lad, Game: *challenge, Places: [2]int{4, 1}},
			TournamentDone{T: lad, News: LadderClosed, Games: 2},
			TournamentDone{T: lad, News: LadderClosed},
			TournamentDone{T: lad, News: TournamentWithdrawn, Who: "bob", You: true, Lost: []int64{8}},
			TournamentDone{T: lad, News: TournamentWithdrawn, Who: "carol"},
			TournamentDone{T: ko, News: TournamentWithdrawn, Who: "erin", You: true},
			TournamentList{Running: []Tournament{lad, ko}},
		}},
		{"reply_ladder_errors", []Section{
			Error{Line: "tournament start 4", Problem: LadderRuns, Tournament: &lad},
			Error{Line: "tournament close 5", Problem: NotLadder, Tournament: &ko},
			Error{Line: "tournament close 4", Problem: NotDirector, Detail: "close", Tournament: &lad},
			Error{Line: "challenge ladder 4 dave", Problem: ClosedLadder, Tournament: &closed},
			Error{Line: "challenge ladder 4 dave", Problem: OutOfReach, Handle: "dave", Places: [2]int{5, 1}, Tournament: &lad},
			Error{Line: "challenge ladder 4 bob", Problem: Busy, Handle: "bob", GameID: 8, Tournament: &lad},
			Error{Line: "challenge ladder 4 bob", Problem: Busy, GameID: 9, Tournament: &lad},
		}},
	}
	for _, tt := range answers {
		for _, l := range lang.All {
			name := goldenName(tt.name, l)
			t.Run(name, func(t *testing.T) {
				subject, body, err := Reply(ReplyData{Lang: l, Sections: tt.secs})
				if err != nil {
					t.Fatal(err)
				}
				checkGolden(t, name, mail{subject, body}.String())
				checkMailText(t, l, subject, body)
			})
		}
	}
}

// TestKnockoutHTMLModes renders round 2's mail of the knockout of five,
// its bracket a table in the HTML part, in headless Chromium: light,
// dark, and on a phone 375 pixels wide, in Japanese too (wider words).
// The page does not scroll sideways (the table scrolls in its box) and
// its background follows the scheme.
func TestKnockoutHTMLModes(t *testing.T) {
	chromium := chromiumOrSkip(t)
	five := knockoutOfFive()
	d := TournamentData{To: "dave", News: TournamentRound, Round: 2, Bracket: five, Match: &five.Rounds[1].Matches[0],
		T: Tournament{ID: 5, Name: "Cup", Knockout: true, Games: 2, Rounds: 3, Round: 2, TimeControl: "days=3", Director: "carol",
			Status: "running", Players: []string{"carol", "erin", "alice", "dave", "bob"}, MinPlayers: 3}}
	for _, l := range []lang.Code{lang.English, lang.Japanese} {
		d.Lang = l
		_, _, page, err := TournamentMail(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []struct {
			name          string
			width, height int
			flags         []string
		}{
			{"light", 600, 900, nil},
			{"dark", 600, 900, []string{"--force-dark-mode"}},
			{"narrow", 375, 1100, nil},
		} {
			t.Run(fmt.Sprintf("%s-%s", l, m.name), func(t *testing.T) {
				img, lay := browse(t, chromium, fmt.Sprintf("knockout_%s_%s", l, m.name), page, m.width, m.height, "", m.flags...)
				if lay.Scroll > lay.Width {
					t.Errorf("the page is %d pixels wide in a window of %d: it scrolls sideways", lay.Scroll, lay.Width)
				}
				if dark := meanLuminance(img, 0, 0, 4, 4) < 0.5; dark != (m.name == "dark") {
					t.Errorf("the page's background is %v, want it dark only in the dark scheme", rgba(img, 2, 2))
				}
				bg := rgba(img, 2, 2)
				for x := m.width - 8; x < m.width; x++ {
					for y := 0; y < m.height; y++ {
						if c := rgba(img, x, y); distance(c, bg) > 24 {
							t.Fatalf("pixel (%d,%d) = %v in the right margin, not the page's %v", x, y, c, bg)
						}
					}
				}
			})
		}
	}
}
