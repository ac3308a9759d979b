package web

import (
	"fmt"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

// ladderAndKnockout plays, by mail, a ladder and a knockout for their
// pages. Tournament 1 is alice's Club Ladder, unrated (so that all
// are seeded alike in the knockout): bob, carol and dave join;
// dave challenges alice and wins (game 1); bob challenges alice (game
// 2, being played). Tournament 2 is carol's Cup, a knockout of alice,
// bob, carol, dave and erin, seeded by handle: alice, bob and carol
// have byes; dave and erin play games 3 and 4, erin resigning game 3.
func ladderAndKnockout(t *testing.T) (*servertest.World, *Handler) {
	t.Helper()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob", "carol", "dave", "erin")
	for _, m := range []struct{ from, line string }{
		{"alice", "tournament new ladder unrated Club Ladder"},
		{"bob", "join tournament 1"}, {"carol", "join tournament 1"}, {"dave", "join tournament 1"},
		{"dave", "challenge ladder 1 alice"}, {"alice", "resign congo 1"},
		{"bob", "challenge ladder 1 alice"},
		{"carol", "tournament new knockout Cup"},
		{"alice", "join tournament 2"}, {"bob", "join tournament 2"}, {"dave", "join tournament 2"}, {"erin", "join tournament 2"},
		{"carol", "tournament start 2"}, {"erin", "resign congo 3"},
	} {
		w.SendProven(m.from, m.line)
		w.Deliver()
	}
	h, err := New(Config{DB: w.DB, PublicURL: "http://congo.example/", Site: "congo@example.org", Now: w.Clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	return w, h
}

// tags drops the HTML tags of s, and folds its white space.
func tags(s string) string {
	s = regexp.MustCompile(`<[^>]*>`).ReplaceAllString(s, " ")
	return strings.Join(strings.Fields(s), " ")
}

// TestLadderAndKnockoutPages: a ladder's page shows its order with each
// player's wins, draws and losses and the game they play, the games
// being played and those over, and how to join and challenge (M73); a
// knockout's shows its bracket, seeds, byes and points, the games of
// each match linked and the player gone through in bold (M74).
func TestLadderAndKnockoutPages(t *testing.T) {
	t.Parallel()
	_, h := ladderAndKnockout(t)

	ladder := mustGet(t, h, "/tournaments/1")
	text := tags(between(ladder, "<h2>Ladder</h2>", "</table>"))
	for i, want := range []string{"1 dave 1 0 0", "2 alice 0 0 1 game 2", "3 bob 0 0 0 game 2", "4 carol 0 0 0"} {
		if !strings.Contains(text, want) {
			t.Errorf("line %d of the ladder: %q lacks %q", i+1, text, want)
		}
	}
	for _, want := range []string{"Tournament 1: ladder, 3 days a move, unrated", "<code>join tournament 1</code>", "<code>challenge ladder 1 &lt;handle&gt;</code>",
		"<h2>Being played</h2>", `<a href="/games/2">2</a>`, "<h2>Games over</h2>", `<a href="/games/1">1</a>`, "1 of 2 games over"} {
		if !strings.Contains(ladder, want) {
			t.Errorf("GET /tournaments/1 lacks %q", want)
		}
	}
	if strings.Contains(ladder, "Standings") || strings.Contains(ladder, "Bracket") {
		t.Errorf("the ladder's page shows standings or a bracket")
	}

	cup := mustGet(t, h, "/tournaments/2")
	for _, want := range []string{"Tournament 2: knockout, matches of 2 games, 3 days a move, rated", "Now: round 1 of 3", "<h2>Bracket</h2>",
		"<h3>Round 1</h3>", "<h3>Round 2</h3>", "<h3>Final</h3>", "<h3>Winner</h3>", `<a href="/games/4" class="playing">4</a>`} {
		if !strings.Contains(cup, want) {
			t.Errorf("GET /tournaments/2 lacks %q", want)
		}
	}
	round1 := tags(between(cup, "<h3>Round 1</h3>", "</section>"))
	for _, want := range []string{"1 alice bye", "4 dave 1 5 erin 0 games 3 , 4", "2 bob bye", "3 carol bye"} {
		if !strings.Contains(round1, want) {
			t.Errorf("round 1 of the bracket: %q lacks %q", round1, want)
		}
	}
	round2 := tags(between(cup, "<h3>Round 2</h3>", "</section>"))
	if want := "1 alice ? 2 bob 3 carol"; !strings.Contains(round2, want) {
		t.Errorf("round 2 of the bracket: %q lacks %q", round2, want)
	}
	if !strings.Contains(between(cup, "<h3>Round 1</h3>", "</section>"), `<div class="side won"><span class="seed">1</span><span class="who"><a href="/players/alice">alice</a>`) {
		t.Errorf("alice's bye does not show her through in bold")
	}
	if strings.Contains(cup, "Standings") || strings.Contains(cup, "Crosstable") {
		t.Errorf("the knockout's page shows standings")
	}
}

// TestLadderAndKnockoutInChromium loads the ladder's and the knockout's
// pages in Chromium, wide and 375 px, light and dark: each shows its
// table or bracket, in the scheme's background, and nothing beyond the
// window's right edge (the bracket scrolls within its box).
func TestLadderAndKnockoutInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPED under -short: the ladder's and knockout's pages in Chromium")
	}
	chromium := chromiumOrSkip(t)
	_, h := ladderAndKnockout(t)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	for _, p := range []struct{ name, target, want string }{
		{"ladder", "/tournaments/1", `<h2>Ladder</h2>`}, {"knockout", "/tournaments/2", `<div class="bracket">`},
	} {
		for _, width := range []int{1280, 375} {
			for _, dark := range []bool{false, true} {
				name := fmt.Sprintf("%s-%d-%s", p.name, width, map[bool]string{true: "dark", false: "light"}[dark])
				t.Run(name, func(t *testing.T) {
					dom, _ := checkPage(t, chromium, name, srv.URL+p.target, width, dark)
					if !strings.Contains(dom, p.want) {
						t.Errorf("the DOM lacks %q", p.want)
					}
				})
			}
		}
	}
}
