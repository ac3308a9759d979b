package server

import (
	"fmt"
	"github.com/congobymail/congo/config"
	"strings"
	"testing"

	"github.com/congobymail/congo/db"
)

// tournamentOf5 has alice create a Swiss that bob, carol, dave and erin
// join, and returns the harness with the mails thrown away.
func tournamentOf5(t *testing.T, spec string) *harness {
	t.Helper()
	h := newHarness(t)
	h.register("alice", "bob", "carol", "dave", "erin")
	h.sendProven("alice", "tournament new "+spec)
	for _, p := range []string{"bob", "carol", "dave", "erin"} {
		h.sendProven(p, "join tournament 1")
	}
	h.deliver()
	return h
}

// TestTournamentWithdrawal: a player who leaves after the start loses
// their game in progress and is paired no further; the one the director
// kicks is told so; both count in the standings as M38 says.
func TestTournamentWithdrawal(t *testing.T) {
	h := tournamentOf5(t, "swiss rounds=3 unrated Spring Cup")
	h.sendProven("alice", "tournament start 1") // 1 alice-carol, 2 bob-dave, erin the bye
	h.deliver()

	// bob withdraws: game 2 is lost, to dave.
	h.sendProven("bob", "leave tournament 1")
	mails := h.deliver()
	var answer received
	for _, m := range to(mails, "bob") {
		if m.Subject == "Congo tournament 1: Spring Cup" {
			answer = m
		}
	}
	wantProse(t, answer, "You withdrew from tournament 1, Spring Cup. Your game in progress (2) is lost. You are paired no further.")
	if g := h.game(2); g.Status != db.Finished || g.Result != db.BlackWins {
		t.Errorf("game 2 after bob left: %v %v, want black (dave) wins", g.Status, g.Result)
	}
	h.sendProven("bob", "leave tournament 1")
	wantProse(t, only(t, h.deliver(), "bob"), "You are not a player of Spring Cup any more: you withdrew already.")

	// alice kicks carol: game 1 lost by carol; the round is over, and
	// round 2 pairs the four left: no bob.
	h.sendProven("alice", "tournament kick 1 carol")
	mails = h.deliver()
	var toCarol []string
	for _, m := range to(mails, "carol") {
		toCarol = append(toCarol, m.Subject)
	}
	if len(toCarol) != 2 { // her game's end, and the withdrawal
		t.Fatalf("carol got %q, want her game's end and the withdrawal", toCarol)
	}
	for _, m := range to(mails, "carol") {
		if m.Subject == "Congo tournament 1: Spring Cup" {
			wantProse(t, m, "alice, the director, withdrew you from Spring Cup. Your game in progress is lost:", "game 1  alice vs carol  1-0")
		}
	}
	var round2 string
	for _, m := range to(mails, "erin") {
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
	if len(to(mails, "bob")) != 0 {
		t.Errorf("bob, who withdrew, got round 2's mail")
	}
}

// TestTournamentCancelAndOperator: the director calls off a tournament
// before it starts and its players are told; the operator may do what a
// director may; nobody may join one that is not open.
func TestTournamentCancelAndOperator(t *testing.T) {
	h := newHarnessWith(t, Config{Settings: config.Settings{Operator: addr("oper")}})
	h.register("oper", "alice", "bob", "carol")
	h.sendProven("alice", "tournament new roundrobin Club Cup")
	h.sendProven("bob", "join tournament 1")
	h.deliver()
	h.sendProven("bob", "tournament cancel 1")
	wantProse(t, only(t, h.deliver(), "bob"), "Only the director, alice, may call it off")
	h.sendProven("alice", "tournament cancel 1")
	mails := h.deliver()
	wantProse(t, only(t, mails, "alice"), "You called off tournament 1, Club Cup. Its players are told.")
	wantProse(t, only(t, mails, "bob"), "alice called off Club Cup before it began: no games were played.")
	h.sendProven("carol", "join tournament 1")
	wantProse(t, only(t, h.deliver(), "carol"), "Club Cup was called off before it began.")

	// The operator starts alice's tournament.
	h.sendProven("alice", "tournament new roundrobin Second Cup")
	h.sendProven("bob", "join tournament 2")
	h.sendProven("carol", "join tournament 2")
	h.deliver()
	h.sendProven("oper", "tournament start 2")
	mails = h.deliver()
	wantProse(t, only(t, to(mails, "oper"), "oper"), "You started tournament 2, Second Cup: 3 games began.")
	h.sendProven("carol", "join tournament 2")
	wantProse(t, only(t, h.deliver(), "carol"), "Second Cup has begun already: players join before the start.")
	h.sendProven("carol", "tournament 9")
	wantText(t, only(t, h.deliver(), "carol"), "There is no tournament 9.")
}

// TestTournamentShow: tournament <t> mails the standings as they are,
// with the crosstable of a round robin, to a proven mail only (M31); and
// tournaments lists those open and running.
func TestTournamentShow(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob", "carol")
	h.sendProven("alice", "tournament new roundrobin double bank=10+1 Club Cup")
	h.sendProven("bob", "join tournament 1")
	h.sendProven("carol", "tournament new swiss Open")
	h.deliver()
	h.sendProven("carol", "tournament 1")
	wantText(t, only(t, h.deliver(), "carol"), "Club Cup: a double round robin, bank=10+1, rated, directed by alice.",
		"Open for joining, with 2 players: alice and bob.", "To join: join tournament 1")
	h.send("carol", "tournament 1")
	wantText(t, only(t, h.deliver(), "carol"), "did not come to your personal address")
	h.sendProven("carol", "join tournament 1")
	h.sendProven("alice", "tournament start 1")
	h.deliver()
	h.sendProven("bob", "tournaments")
	wantText(t, only(t, h.deliver(), "bob"), "Open for joining:\n\n  2. Open: a Swiss, days=3, rated; 1 player, directed by carol\n      join tournament 2",
		"Being played:\n\n  1. Club Cup: a double round robin, bank=10+1, rated; 3 players\n      tournament 1")
	h.sendProven("bob", "resign congo 1")
	h.deliver()
	h.sendProven("bob", "tournament 1")
	m := only(t, h.deliver(), "bob")
	g := h.game(1)
	winner := map[int64]string{h.player("alice").ID: "alice", h.player("carol").ID: "carol"}[g.White+g.Black-h.player("bob").ID]
	wantText(t, m, "Being played: 5 games to go. Standings so far:", fmt.Sprintf("1. %s  1  (SB 0)", winner), "Crosstable:")
	if html := htmlOf(t, m.Raw); !strings.Contains(html, "<table") || !strings.Contains(html, ">Points</th>") {
		t.Errorf("the HTML part has no table of standings:\n%s", html)
	}
}

// wantProse is wantText for words that the mail may wrap.
func wantProse(t *testing.T, m received, want ...string) {
	t.Helper()
	words := strings.Join(strings.Fields(m.Text), " ")
	for _, w := range want {
		if !strings.Contains(words, strings.Join(strings.Fields(w), " ")) {
			t.Errorf("mail to %s %q does not say %q:\n%s", m.To, m.Subject, w, m.Text)
		}
	}
}

// TestTournamentRematch: a Swiss of 3 players and 4 rounds runs out of
// new pairings in round 4; the director is told which game repeats one.
func TestTournamentRematch(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob", "carol")
	h.sendProven("alice", "tournament new swiss rounds=4 unrated Triangle")
	h.sendProven("bob", "join tournament 1")
	h.sendProven("carol", "join tournament 1")
	h.sendProven("alice", "tournament start 1")
	h.deliver()
	for id := int64(1); id <= 3; id++ { // each round's game, White resigns
		g := h.game(id)
		white := map[int64]string{h.player("alice").ID: "alice", h.player("bob").ID: "bob", h.player("carol").ID: "carol"}[g.White]
		h.sendProven(white, fmt.Sprintf("resign congo %d", id))
		mails := h.deliver()
		if id < 3 {
			continue
		}
		told := false
		for _, m := range to(mails, "alice") {
			if m.Subject == "Congo tournament 1: Triangle" {
				told = true
				wantText(t, m, "Round 4 of Triangle begins (of 4).")
				wantProse(t, m, "As its director: no pairing of this round without a rematch was possible, so these players meet again:")
			}
		}
		if !told {
			t.Errorf("alice, the director, got no mail of round 4")
		}
		for _, m := range to(mails, "bob") {
			if strings.Contains(m.Text, "As its director") {
				t.Errorf("bob, no director, is told of the rematch:\n%s", m.Text)
			}
		}
	}
	if g := h.game(4); g.Round != 4 || g.Status != db.Active {
		t.Errorf("game 4 = %+v, want round 4 being played", g)
	}
}
