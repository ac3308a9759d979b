package tournament_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/congobymail/congo/config"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

// tournamentOf5 has alice create a Swiss that bob, carol, dave and erin
// join, and returns the World with the mails thrown away.
func tournamentOf5(t *testing.T, spec string) *servertest.World {
	t.Helper()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob", "carol", "dave", "erin")
	w.SendProven("alice", "tournament new "+spec)
	for _, p := range []string{"bob", "carol", "dave", "erin"} {
		w.SendProven(p, "join tournament 1")
	}
	w.Deliver()
	return w
}

// TestTournamentWithdrawal: a player who leaves after the start loses
// their game in progress and is paired no further; the one the director
// kicks is told so; both count in the standings as M38 says.
func TestTournamentWithdrawal(t *testing.T) {
	t.Parallel()
	w := tournamentOf5(t, "swiss rounds=3 unrated Spring Cup")
	w.SendProven("alice", "tournament start 1") // 1 alice-carol, 2 bob-dave, erin the bye
	w.Deliver()

	// bob withdraws: game 2 is lost, to dave.
	w.SendProven("bob", "leave tournament 1")
	mails := w.Deliver()
	var answer servertest.Received
	for _, m := range servertest.To(mails, "bob") {
		if m.Subject == "Congo tournament 1: Spring Cup" {
			answer = m
		}
	}
	servertest.WantWords(t, answer, "You withdrew from tournament 1, Spring Cup. Your game in progress (2) is lost. You are paired no further.")
	if g := w.Game(2); g.Status != db.Finished || g.Result != db.BlackWins {
		t.Errorf("game 2 after bob left: %v %v, want black (dave) wins", g.Status, g.Result)
	}
	w.SendProven("bob", "leave tournament 1")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "bob"), "You are not a player of Spring Cup any more: you withdrew already.")

	// alice kicks carol: game 1 lost by carol; the round is over, and
	// round 2 pairs the four left: no bob.
	w.SendProven("alice", "tournament kick 1 carol")
	mails = w.Deliver()
	var toCarol []string
	for _, m := range servertest.To(mails, "carol") {
		toCarol = append(toCarol, m.Subject)
	}
	if len(toCarol) != 2 { // her game's end, and the withdrawal
		t.Fatalf("carol got %q, want her game's end and the withdrawal", toCarol)
	}
	for _, m := range servertest.To(mails, "carol") {
		if m.Subject == "Congo tournament 1: Spring Cup" {
			servertest.WantWords(t, m, "alice, the director, withdrew you from Spring Cup. Your game in progress is lost:", "game 1  alice vs carol  1-0")
		}
	}
	var round2 string
	for _, m := range servertest.To(mails, "erin") {
		if m.Subject == "Congo tournament 1: Spring Cup" {
			round2 = m.Text
		}
	}
	// Round 2 pairs the three left, alice, dave and erin, all on 1 point
	// (carol's and bob's forfeits, erin's bye): the lowest-ranked without
	// a bye, dave, has it; erin has had no White, alice one.
	for _, want := range []string{"Round 2 of Spring Cup begins (of 3).", "4. bob  0", "5. carol  0",
		"Pairings of round 2:\n\n  game 3  erin vs alice\n  bye: dave\n"} {
		if !strings.Contains(round2, want) {
			t.Errorf("round 2 to erin lacks %q:\n%s", want, round2)
		}
	}
	if len(servertest.To(mails, "bob")) != 0 {
		t.Errorf("bob, who withdrew, got round 2's mail")
	}
}

// TestTournamentCancelAndOperator: the director calls off a tournament
// before it starts and its players are told; the operator may do what a
// director may; nobody may join one that is not open.
func TestTournamentCancelAndOperator(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{Settings: config.Settings{Operator: congotest.Address("oper")}})
	w.Register("oper", "alice", "bob", "carol")
	w.SendProven("alice", "tournament new roundrobin Club Cup")
	w.SendProven("bob", "join tournament 1")
	w.Deliver()
	w.SendProven("bob", "tournament cancel 1")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "bob"), "Only the director, alice, may call it off")
	w.SendProven("alice", "tournament cancel 1")
	mails := w.Deliver()
	servertest.WantWords(t, servertest.Only(t, mails, "alice"), "You called off tournament 1, Club Cup. Its players are told.")
	servertest.WantWords(t, servertest.Only(t, mails, "bob"), "alice called off Club Cup before it began: no games were played.")
	w.SendProven("carol", "join tournament 1")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "carol"), "Club Cup was called off before it began.")

	// The operator starts alice's tournament.
	w.SendProven("alice", "tournament new roundrobin Second Cup")
	w.SendProven("bob", "join tournament 2")
	w.SendProven("carol", "join tournament 2")
	w.Deliver()
	w.SendProven("oper", "tournament start 2")
	mails = w.Deliver()
	servertest.WantWords(t, servertest.Only(t, servertest.To(mails, "oper"), "oper"), "You started tournament 2, Second Cup: 3 games began.")
	w.SendProven("carol", "join tournament 2")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "carol"), "Second Cup has begun already: players join before the start.")
	w.SendProven("carol", "tournament 9")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "carol"), "There is no tournament 9.")
}

// TestTournamentShow: tournament <t> mails the standings as they are,
// with the crosstable of a round robin, to a proven mail only (M31); and
// tournaments lists those open and running.
func TestTournamentShow(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob", "carol")
	w.SendProven("alice", "tournament new roundrobin double bank=10+1 Club Cup")
	w.SendProven("bob", "join tournament 1")
	w.SendProven("carol", "tournament new swiss Open")
	w.Deliver()
	w.SendProven("carol", "tournament 1")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "carol"), "Club Cup: a double round robin, bank=10+1, rated, directed by alice.",
		"Open for joining, with 2 players: alice and bob.", "To join: join tournament 1")
	w.Send("carol", "tournament 1")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "carol"), "did not come to your personal address")
	w.SendProven("carol", "join tournament 1")
	w.SendProven("alice", "tournament start 1")
	w.Deliver()
	w.SendProven("bob", "tournaments")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "bob"), "Open for joining:\n\n  2. Open: a Swiss, days=3, rated; 1 player, directed by carol\n      join tournament 2",
		"Being played:\n\n  1. Club Cup: a double round robin, bank=10+1, rated; 3 players\n      tournament 1")
	w.SendProven("bob", "resign congo 1")
	w.Deliver()
	w.SendProven("bob", "tournament 1")
	m := servertest.Only(t, w.Deliver(), "bob")
	g := w.Game(1)
	winner := map[int64]string{w.Player("alice").ID: "alice", w.Player("carol").ID: "carol"}[g.White+g.Black-w.Player("bob").ID]
	servertest.WantText(t, m, "Being played: 5 games to go. Standings so far:", fmt.Sprintf("1. %s  1  (SB 0)", winner), "Crosstable:")
	if html := servertest.HTMLOf(t, m.Raw); !strings.Contains(html, "<table") || !strings.Contains(html, ">Points</th>") {
		t.Errorf("the HTML part has no table of standings:\n%s", html)
	}
}

// TestTournamentRematch: a Swiss of 3 players and 4 rounds runs out of
// new pairings in round 4; the director is told which game repeats one.
func TestTournamentRematch(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob", "carol")
	w.SendProven("alice", "tournament new swiss rounds=4 unrated Triangle")
	w.SendProven("bob", "join tournament 1")
	w.SendProven("carol", "join tournament 1")
	w.SendProven("alice", "tournament start 1")
	w.Deliver()
	for id := int64(1); id <= 3; id++ { // each round's game, White resigns
		g := w.Game(id)
		white := map[int64]string{w.Player("alice").ID: "alice", w.Player("bob").ID: "bob", w.Player("carol").ID: "carol"}[g.White]
		w.SendProven(white, fmt.Sprintf("resign congo %d", id))
		mails := w.Deliver()
		if id < 3 {
			continue
		}
		told := false
		for _, m := range servertest.To(mails, "alice") {
			if m.Subject == "Congo tournament 1: Triangle" {
				told = true
				servertest.WantText(t, m, "Round 4 of Triangle begins (of 4).")
				servertest.WantWords(t, m, "As its director: no pairing of this round without a rematch was possible, so these players meet again:")
			}
		}
		if !told {
			t.Errorf("alice, the director, got no mail of round 4")
		}
		for _, m := range servertest.To(mails, "bob") {
			if strings.Contains(m.Text, "As its director") {
				t.Errorf("bob, no director, is told of the rematch:\n%s", m.Text)
			}
		}
	}
	if g := w.Game(4); g.Round != 4 || g.Status != db.Active {
		t.Errorf("game 4 = %+v, want round 4 being played", g)
	}
}
