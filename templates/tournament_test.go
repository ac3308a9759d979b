package templates

import (
	"fmt"
	"strings"
	"testing"

	"github.com/congobymail/congo/lang"
)

// TestTournamentGolden renders every kind of tournament mail and answer.
func TestTournamentGolden(t *testing.T) {
	t.Parallel()
	swiss := Tournament{ID: 3, Name: "Spring Cup", Swiss: true, Rounds: 3, TimeControl: "days=3", Director: "alice",
		Status: "running", Round: 2, Players: []string{"alice", "bob", "carol", "dave", "erin"}, MinPlayers: 3}
	open := swiss
	open.Status, open.Round, open.Rounds, open.Players = "open", 0, 0, []string{"alice", "bob"}
	rr := Tournament{ID: 4, Name: "Club Cup", Double: true, TimeControl: "bank=10+1", Unrated: true, Director: "dave",
		Status: "running", Round: 1, Rounds: 6, Players: []string{"dave", "alice", "bob", "carol"}, MinPlayers: 3}
	over := rr
	over.Status = "finished"
	standings := []Standing{
		{Line: "1. erin  2  (Buchholz 2, SB 1)", Place: 1, Handle: "erin", Points: "2", Buchholz: "2", SB: "1"},
		{Line: "2. alice  1.5  (Buchholz 2.5, SB 1.75)", Place: 2, Handle: "alice", Points: "1.5", Buchholz: "2.5", SB: "1.75"},
		{Line: "3. bob  0  (Buchholz 3.5, SB 0)", Place: 3, Handle: "bob", Points: "0", Buchholz: "3.5", SB: "0", Withdrawn: true},
	}
	rrStandings := []Standing{
		{Line: "1. dave  2  (SB 2.5)", Place: 1, Handle: "dave", Points: "2", SB: "2.5"},
		{Line: "2. alice  1.5  (SB 2.5)", Place: 2, Handle: "alice", Points: "1.5", SB: "2.5"},
		{Line: "3. bob  1.5  (SB 2)", Place: 3, Handle: "bob", Points: "1.5", SB: "2"},
		{Line: "4. carol  1  (SB 1.5)", Place: 4, Handle: "carol", Points: "1", SB: "1.5"},
	}
	cross := &Crosstable{
		Handles: []string{"dave", "alice", "bob", "carol"},
		Cells:   [][]string{{"", "0", "1", "1"}, {"1", "", "0", "½"}, {"0", "1", "", "½"}, {"0", "½", "½", ""}},
		Points:  []string{"2", "1.5", "1.5", "1"},
	}
	pairings := []TournamentGame{{Round: 2, GameID: 3, White: "dave", Black: "alice"}, {Round: 2, GameID: 4, White: "erin", Black: "bob", Result: "1-0"}}
	rrGames := []TournamentGame{{Round: 1, GameID: 7, White: "alice", Black: "dave"}, {Round: 2, GameID: 10, White: "alice", Black: "bob"}, {Round: 3, GameID: 12, White: "carol", Black: "alice"}}
	mails := []struct {
		name string
		d    TournamentData
	}{
		{"tournament_started_rr", TournamentData{To: "alice", T: rr, News: TournamentStarted, Round: 1, Yours: rrGames}},
		{"tournament_started_swiss_bye", TournamentData{To: "erin", T: swiss, News: TournamentStarted, Round: 1,
			Pairings: []TournamentGame{{Round: 1, GameID: 1, White: "alice", Black: "carol"}, {Round: 1, GameID: 2, White: "bob", Black: "dave"}}, Bye: "erin"}},
		{"tournament_round", TournamentData{To: "alice", T: swiss, News: TournamentRound, Round: 2, Yours: pairings[:1],
			Pairings: pairings, Bye: "carol", Standings: standings,
			Rematches: []TournamentGame{{Round: 2, White: "dave", Black: "alice"}}}},
		{"tournament_round_over", TournamentData{To: "bob", T: rr, News: TournamentRoundOver, Round: 1, Standings: rrStandings, Crosstable: cross}},
		{"tournament_over", TournamentData{To: "dave", T: over, News: TournamentOver, Round: 6, Standings: rrStandings, Crosstable: cross}},
		{"tournament_cancelled", TournamentData{To: "bob", T: open, News: TournamentCancelled, By: "alice"}},
		{"tournament_withdrawn", TournamentData{To: "bob", T: swiss, News: TournamentWithdrawn, By: "alice", Yours: pairings[1:]}},
		{"tournament_joined", TournamentData{To: "alice", T: open, News: TournamentJoined, By: "bob"}},
		{"tournament_left", TournamentData{To: "alice", T: open, News: TournamentLeftNews, By: "bob"}},
		{"tournament_standings_swiss", TournamentData{To: "bob", T: swiss, News: TournamentStandings, Standings: standings, Pairings: pairings, Bye: "carol"}},
		{"tournament_standings_rr", TournamentData{To: "bob", T: rr, News: TournamentStandings, Standings: rrStandings, Crosstable: cross, Playing: 5}},
		{"tournament_standings_open", TournamentData{To: "bob", T: open, News: TournamentStandings}},
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
				for _, s := range tt.d.Standings {
					if !strings.Contains(body, "\n"+s.Line+"\n") {
						t.Errorf("the text lacks the standings line %q", s.Line)
					}
					if !strings.Contains(html, ">"+s.Handle) {
						t.Errorf("the HTML lacks %s in a table", s.Handle)
					}
				}
				if strings.Contains(html, "1. dave   ×") {
					t.Errorf("the HTML shows the crosstable's text, not a table")
				}
				if tt.name == "tournament_over" {
					checkGolden(t, goldenName(tt.name+"_html", l), html)
				}
			})
		}
	}

	answers := []struct {
		name string
		secs []Section
	}{
		{"reply_tournament_created", []Section{TournamentCreated{T: open}}},
		{"reply_tournament_join", []Section{TournamentJoin{T: open}, TournamentJoin{T: open, Left: true}}},
		{"reply_tournament_done", []Section{
			TournamentDone{T: swiss, News: TournamentStarted, Games: 2},
			TournamentDone{T: open, News: TournamentCancelled},
			TournamentDone{T: swiss, News: TournamentWithdrawn, Who: "bob", You: true, Lost: []int64{4}},
			TournamentDone{T: rr, News: TournamentWithdrawn, Who: "carol", Lost: []int64{8, 9}},
		}},
		{"reply_tournaments", []Section{TournamentList{Open: []Tournament{open}, Running: []Tournament{swiss, rr}}, TournamentList{}}},
		{"reply_tournament_errors", []Section{
			Error{Line: "tournament 9", Problem: NoSuchTournament, Detail: "9"},
			Error{Line: "tournament start 3", Problem: NotDirector, Detail: "start", Tournament: &open},
			Error{Line: "tournament start 3", Problem: TooFewPlayers, Tournament: &open},
			Error{Line: "join tournament 3", Problem: TournamentNotOpen, Tournament: &swiss},
			Error{Line: "join tournament 4", Problem: TournamentNotOpen, Tournament: &over},
			Error{Line: "join tournament 3", Problem: Joined, Tournament: &open},
			Error{Line: "leave tournament 3", Problem: NotAPlayer, Tournament: &swiss, Detail: "withdrew"},
			Error{Line: "tournament kick 3 zoe", Problem: NotAPlayer, Handle: "zoe", Tournament: &swiss},
			Error{Line: "abort congo 7", Problem: TournamentAbort, GameID: 7, Detail: "Club Cup"},
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

// TestTournamentHTMLModes renders the final standings of a round robin in
// headless Chromium, light, dark and on a phone 375 pixels wide: the page
// does not scroll sideways, and the standings and crosstable are tables
// whose text is as dark (or, in the dark scheme, as light) as the prose.
func TestTournamentHTMLModes(t *testing.T) {
	chromium := chromiumOrSkip(t)
	d := TournamentData{To: "dave", News: TournamentOver, Round: 3,
		T: Tournament{ID: 4, Name: "Club Cup", TimeControl: "days=3", Director: "dave", Status: "finished", Rounds: 3,
			Players: []string{"dave", "alice", "bob", "carol"}, MinPlayers: 3},
		Standings: []Standing{
			{Line: "1. dave  2  (SB 2.5)", Place: 1, Handle: "dave", Points: "2", SB: "2.5"},
			{Line: "2. alice  1.5  (SB 2.5)", Place: 2, Handle: "alice", Points: "1.5", SB: "2.5"},
			{Line: "3. bob  1.5  (SB 2)", Place: 3, Handle: "bob", Points: "1.5", SB: "2"},
			{Line: "4. carol  1  (SB 1.5)", Place: 4, Handle: "carol", Points: "1", SB: "1.5"},
		},
		Crosstable: &Crosstable{Handles: []string{"dave", "alice", "bob", "carol"},
			Cells:  [][]string{{"", "0", "1", "1"}, {"1", "", "0", "½"}, {"0", "1", "", "½"}, {"0", "½", "½", ""}},
			Points: []string{"2", "1.5", "1.5", "1"}},
	}
	_, _, page, err := TournamentMail(d)
	if err != nil {
		t.Fatal(err)
	}
	// A round robin of 16 is wider than a phone: its crosstable scrolls
	// in its box, not the page.
	wide := d
	wide.Crosstable = &Crosstable{}
	for i := range 16 {
		wide.Crosstable.Handles = append(wide.Crosstable.Handles, fmt.Sprintf("player-%02d", i+1))
		wide.Crosstable.Points = append(wide.Crosstable.Points, "7.5")
		row := make([]string, 16)
		for j := range row {
			row[j] = "½"
		}
		wide.Crosstable.Cells = append(wide.Crosstable.Cells, row)
	}
	_, _, widePage, err := TournamentMail(wide)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("wide", func(t *testing.T) {
		if _, l := browse(t, chromium, "tournament_wide", widePage, 375, 1000, ""); l.Scroll > l.Width {
			t.Errorf("a crosstable of 16 makes the page %d pixels wide in a window of %d", l.Scroll, l.Width)
		}
	})
	for _, m := range []struct {
		name          string
		width, height int
		flags         []string
	}{
		{"light", 600, 900, nil},
		{"dark", 600, 900, []string{"--force-dark-mode"}},
		{"narrow", 375, 1000, nil},
	} {
		t.Run(m.name, func(t *testing.T) {
			img, l := browse(t, chromium, "tournament_"+m.name, page, m.width, m.height, "", m.flags...)
			if l.Scroll > l.Width {
				t.Errorf("the page is %d pixels wide in a window of %d: it scrolls sideways", l.Scroll, l.Width)
			}
			bg := rgba(img, 2, 2)
			dark := meanLuminance(img, 0, 0, 4, 4) < 0.5
			if dark != (m.name == "dark") {
				t.Errorf("the page's background is %v, want it dark only in the dark scheme", bg)
			}
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

// TestCrosstableText: the text part's crosstable heads its columns, the
// points' too, in the reader's language, and lines them up under their
// headings.
func TestCrosstableText(t *testing.T) {
	t.Parallel()
	c := &Crosstable{Handles: []string{"alice", "bob", "carol"},
		Cells:  [][]string{{"", "1", "½"}, {"0", "", "1"}, {"½", "0", ""}},
		Points: []string{"1.5", "1", "0.5"}}
	want := "          1  2  3  Points\n" +
		"1. alice  ×  1  ½  1.5\n" +
		"2. bob    0  ×  1  1\n" +
		"3. carol  ½  0  ×  0.5\n"
	if got := crosstableText(c, "Points"); got != want {
		t.Errorf("crosstableText() =\n%s\nwant\n%s", got, want)
	}
	for _, c2 := range []struct {
		lang lang.Code
		head string
	}{{lang.English, "1  2  3  Points"}, {lang.Czech, "1  2  3  Body"}, {lang.Japanese, "1  2  3  得点"}} {
		_, text, _, err := TournamentMail(TournamentData{Lang: c2.lang, To: "alice", T: Tournament{ID: 1, Name: "Cup", Status: "running", Players: c.Handles},
			News: TournamentStandings, Standings: []Standing{{Line: "1. alice  1.5  (SB 1.5)", Place: 1, Handle: "alice", Points: "1.5"}}, Crosstable: c})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text, c2.head+"\n") {
			t.Errorf("%s: the crosstable's heading is not %q:\n%s", c2.lang, c2.head, text)
		}
	}
}
