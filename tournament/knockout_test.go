package tournament_test

import (
	"context"
	"strings"
	"testing"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

const cupSubject = "Congo tournament 1: Cup"

// TestKnockoutByMail: a knockout of five players by mail (M74), to its
// final. carol makes it and alice, bob, dave and erin join; all rated
// alike, they are seeded by handle: alice 1, bob 2, carol 3, dave 4,
// erin 5, in a bracket of 8: alice, bob and carol have byes, and round
// 1 is dave against erin alone, two games. They win one each: a tie
// game, dave White, is drawn; the second, erin White, dave wins, and
// goes through. Round 2 then begins for everyone; alice and bob win
// their matches, and alice wins the final. Every player gets each
// round's bracket and the end; only dave and erin get their tie games.
func TestKnockoutByMail(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob", "carol", "dave", "erin")
	w.SendProven("carol", "tournament new knockout days=3 Cup")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "carol"), "Tournament 1: Cup",
		"It is a knockout, matches of 2 games, days=3, rated.")
	for _, p := range []string{"alice", "bob", "dave", "erin"} {
		w.SendProven(p, "join tournament 1")
	}
	w.Deliver()

	w.SendProven("carol", "tournament start 1")
	mails := w.Deliver()
	servertest.WantWords(t, saying(t, mails, "carol", "You started"), "You started tournament 1, Cup: 2 games began.")
	all := []string{"alice", "bob", "carol", "dave", "erin"}
	for _, p := range all {
		news := saying(t, mails, p, "has begun")
		servertest.WantWords(t, news, "Cup has begun: a knockout, matches of 2 games, days=3, rated, 5 players, seeded by rating.",
			"Round 1 of 3 begins.")
		servertest.WantText(t, news, "  1 alice --+\n", "  4 dave  --+", "  5 erin  --+", "    (bye) --+")
	}
	servertest.WantWords(t, tournamentMail(t, mails, "alice", cupSubject), "You have a bye in round 1: you go through to round 2.")
	servertest.WantText(t, tournamentMail(t, mails, "dave", cupSubject), "Your match: against erin, 2 games:\n\n  game 1  dave vs erin  (you have White)\n  game 2  erin vs dave  (you have Black)\n")
	if n := w.Games(); n != 2 {
		t.Fatalf("%d games began, want dave and erin's 2", n)
	}

	// 1-1: a tie game, game 3, dave (the higher seed) White; only dave
	// and erin are told.
	w.SendProven("erin", "resign congo 1")
	w.Deliver()
	w.SendProven("dave", "resign congo 2")
	mails = w.Deliver()
	tie := tournamentMail(t, mails, "dave", cupSubject)
	servertest.WantWords(t, tie, "Your match against erin in round 1 of Cup is level, 1-1: a tie game decides it, game 3, and you have White.",
		"If it is drawn, one more follows, with colors reversed; if that is drawn too, the higher seed, dave, goes through.")
	servertest.WantWords(t, tournamentMail(t, mails, "erin", cupSubject), "game 3, and you have Black")
	for _, p := range []string{"alice", "bob", "carol"} {
		if got := servertest.To(mails, p); len(got) != 0 {
			t.Errorf("%s got the tie game's mail: %q", p, got[0].Subject)
		}
	}
	if g := w.Game(3); g.White != w.Player("dave").ID || g.Round != 1 || g.Status != db.Active {
		t.Fatalf("the tie game: %+v", g)
	}
	// Drawn: the second tie game, erin White; dave wins it.
	w.SendProven("dave", "draw congo 3")
	w.SendProven("erin", "draw congo 3")
	mails = w.Deliver()
	servertest.WantWords(t, tournamentMail(t, mails, "erin", cupSubject), "game 4, and you have White. If it is drawn, the higher seed, dave, goes through.")
	w.SendProven("erin", "resign congo 4")
	mails = w.Deliver()

	// Round 2 begins for everyone: alice v dave (games 5, 6), bob v
	// carol (7, 8).
	for _, p := range all {
		news := tournamentMail(t, mails, p, cupSubject)
		if p == "dave" && testing.Verbose() {
			t.Logf("round 2, to dave:\n%s", news.Text)
		}
		servertest.WantWords(t, news, "Round 2 of Cup begins (of 3).")
		servertest.WantText(t, news, "  4 dave  2.5 --+", "  5 erin  1.5 --+", "+- dave ")
	}
	for _, g := range []struct {
		id           int64
		white, black string
	}{{5, "alice", "dave"}, {6, "dave", "alice"}, {7, "bob", "carol"}, {8, "carol", "bob"}} {
		if got := w.Game(g.id); got.White != w.Player(g.white).ID || got.Black != w.Player(g.black).ID || got.Round != 2 {
			t.Errorf("game %d: %+v, want %s v %s in round 2", g.id, got, g.white, g.black)
		}
	}
	w.SendProven("carol", "tournament 1")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "carol"), "Round 2 of 3 is being played. The bracket:",
		"Round 2:\n\n  alice vs dave: playing; games 5, 6\n  bob vs carol: playing; games 7, 8\n")

	// alice beats dave 2-0, bob carol 1.5-0.5: the final, alice White
	// first.
	w.SendProven("dave", "resign congo 5")
	w.SendProven("dave", "resign congo 6")
	w.SendProven("carol", "resign congo 7")
	w.SendProven("bob", "draw congo 8")
	w.SendProven("carol", "draw congo 8")
	mails = w.Deliver()
	servertest.WantWords(t, tournamentMail(t, mails, "erin", cupSubject), "The final of Cup begins.")
	servertest.WantText(t, tournamentMail(t, mails, "alice", cupSubject), "Your match: against bob, 2 games:\n\n  game 9  alice vs bob  (you have White)\n")

	// alice wins the final 1.5-0.5: everyone gets the winner and the
	// bracket.
	w.SendProven("bob", "resign congo 9")
	w.SendProven("alice", "draw congo 10")
	w.SendProven("bob", "draw congo 10")
	mails = w.Deliver()
	for _, p := range all {
		want := "Cup is over: alice wins."
		if p == "alice" {
			want = "Cup is over: you win."
		}
		m := tournamentMail(t, mails, p, cupSubject)
		if p == "bob" && testing.Verbose() {
			t.Logf("the end, to bob:\n%s", m.Text)
		}
		servertest.WantWords(t, m, want)
		servertest.WantText(t, m, "+- alice 1.5 --+", "+- alice\n")
	}
	var over db.Tournament
	w.InTx(func(ctx context.Context, tx *db.Tx) (err error) {
		over, err = tx.Tournament(ctx, 1)
		return err
	})
	if over.Status != db.TournamentOver || over.Round != 3 {
		t.Errorf("the knockout: %+v, want it over in round 3", over)
	}
}

// saying returns the one mail to the player whose text says what.
func saying(t *testing.T, mails []servertest.Received, handle, what string) servertest.Received {
	t.Helper()
	var got []servertest.Received
	for _, m := range servertest.To(mails, handle) {
		if strings.Contains(m.Text, what) {
			got = append(got, m)
		}
	}
	if len(got) != 1 {
		t.Fatalf("%s got %d mails saying %q, want 1", handle, len(got), what)
	}
	return got[0]
}
