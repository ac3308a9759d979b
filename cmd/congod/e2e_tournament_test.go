package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/congobymail/congo/mailmsg"
)

// TestEndToEndTournaments directs a 5-player, 3-round Swiss and then a
// 4-player round robin by mail through the daemon, over loopback IMAP and
// SMTP, to the end: games won by resignation and drawn by agreement. Every
// pairing, colour, bye, score and tie-break the mails show is checked
// against values worked out by hand below (M33-M39).
func TestEndToEndTournaments(t *testing.T) {
	handles := []string{"alice", "bob", "carol", "dave", "erin"}
	w := startWorldWith(t, handles...)
	const server = "congo@example.org"
	pa := map[string]string{} // personal addresses
	for _, h := range handles {
		w.send(h+"@example.org", server, "", "register "+h, "")
		pa[h] = w.replyTo(w.expect(h, 1)[0])
		w.send(h+"@example.org", pa[h], "", "games", "") // confirms the address (M28)
		w.expect(h, 1)
	}
	// do has a player send a line to their personal address.
	do := func(h, line string) { w.send(h+"@example.org", pa[h], "", line, "") }
	// got waits for the mails each player is due, by Subject, and
	// returns them by player and Subject.
	got := func(want map[string][]string) map[string]map[string]*mailmsg.Incoming {
		t.Helper()
		out := map[string]map[string]*mailmsg.Incoming{}
		for _, h := range handles {
			subjects := want[h]
			if len(subjects) == 0 {
				w.expectNothing(h)
				continue
			}
			out[h] = map[string]*mailmsg.Incoming{}
			var have []string
			for _, m := range w.expect(h, len(subjects)) {
				out[h][m.Subject] = m
				have = append(have, m.Subject)
			}
			slices.Sort(have)
			subjects = slices.Sorted(slices.Values(subjects))
			if !slices.Equal(have, subjects) {
				t.Fatalf("%s received %q, want %q", h, have, subjects)
			}
		}
		return out
	}
	const swiss = "Congo tournament 1: Spring Cup"
	game := func(id int, white, black string, round int) string {
		return fmt.Sprintf("Congo game %d: %s vs %s (Spring Cup, round %d)", id, white, black, round)
	}

	// The Swiss: alice directs it; it needs 3 players to start.
	do("alice", "tournament new swiss rounds=3 unrated days=3 Spring Cup")
	created := got(map[string][]string{"alice": {swiss}})["alice"][swiss]
	wantContains(t, "the creation", created, "Tournament 1: Spring Cup", "a Swiss of 3 rounds, days=3, unrated", "  join tournament 1", "  tournament start 1")
	do("bob", "join tournament 1")
	m := got(map[string][]string{"alice": {swiss}, "bob": {swiss}})
	wantContains(t, "the join", m["bob"][swiss], "You joined tournament 1, Spring Cup", "It has 2 players: alice and bob.")
	wantContains(t, "the director told", m["alice"][swiss], "bob joined Spring Cup: it has 2 players now (alice and bob).")
	do("alice", "tournament start 1")
	wantContains(t, "too few", got(map[string][]string{"alice": {swiss}})["alice"][swiss],
		"Spring Cup needs at least 3 players, it has 2.")
	for _, h := range []string{"carol", "dave", "erin"} {
		do(h, "join tournament 1")
		got(map[string][]string{"alice": {swiss}, h: {swiss}})
	}
	do("bob", "tournament start 1")
	wantContains(t, "not the director", got(map[string][]string{"bob": {swiss}})["bob"][swiss],
		"Only the director, alice, may start it")

	// Round 1 (M36): all rated 1500, so ranked by handle; erin, the
	// lowest, has the bye; alice, bob v carol, dave, the higher White.
	do("alice", "tournament start 1")
	g1, g2 := game(1, "alice", "carol", 1), game(2, "bob", "dave", 1)
	m = got(map[string][]string{
		"alice": {swiss, swiss, g1}, // the answer and the round's mail share the Subject
		"bob":   {swiss, g2}, "carol": {swiss, g1}, "dave": {swiss, g2}, "erin": {swiss},
	})
	pairings1 := "  game 1  alice vs carol\n  game 2  bob vs dave\n  bye: erin\n"
	wantContains(t, "round 1 to erin", m["erin"][swiss], "Spring Cup has begun: a Swiss of 3 rounds, days=3, unrated, 5 players.",
		"Round 1 of 3 begins.", "You have the bye this round: no game, and 1 point.", pairings1)
	wantContains(t, "round 1 to carol", m["carol"][swiss], "Your game: game 1, you have Black against alice.", pairings1)
	wantContains(t, "round 1's board", m["carol"][g1], "Round 1 of Spring Cup: the game begins.")

	// carol resigns game 1; dave wins game 2 when bob resigns, which ends
	// the round. After it: alice 1, dave 1, erin 1 (the bye), bob 0,
	// carol 0. Buchholz: erin's bye is a draw with herself, 1; alice's
	// opponent carol has 0, dave's bob 0; bob's and carol's opponents 1.
	// SB: erin half her own points, 0.5; nobody else beat or drew a
	// player with points.
	do("carol", "resign congo 1")
	got(map[string][]string{"alice": {g1}, "carol": {g1}})
	do("bob", "resign congo 2")
	g3, g4 := game(3, "dave", "alice", 2), game(4, "erin", "bob", 2)
	m = got(map[string][]string{
		"alice": {swiss, g3}, "bob": {g2, swiss, g4}, "carol": {swiss}, "dave": {g2, swiss, g3}, "erin": {swiss, g4},
	})
	// Round 2: score group 1 is alice, dave, erin (by rating, then
	// handle); odd, it floats erin down to bob, the group below; carol,
	// the lowest without a bye, has it. alice had White, dave Black:
	// dave has fewer whites, so White. erin has no White yet, bob one.
	wantContains(t, "round 2", m["carol"][swiss], "Round 2 of Spring Cup begins (of 3).", "You have the bye this round",
		"Standings after round 1:\n\n"+
			"1. erin  1  (Buchholz 1, SB 0.5)\n"+
			"2. alice  1  (Buchholz 0, SB 0)\n"+
			"3. dave  1  (Buchholz 0, SB 0)\n"+
			"4. bob  0  (Buchholz 1, SB 0)\n"+
			"5. carol  0  (Buchholz 1, SB 0)\n",
		"Pairings of round 2:\n\n  game 3  dave vs alice\n  game 4  erin vs bob\n  bye: carol\n")
	wantContains(t, "round 2 to alice", m["alice"][swiss], "Your game: game 3, you have Black against dave.")

	// Game 3 drawn by agreement, game 4 won by erin.
	do("dave", "draw congo 3")
	got(map[string][]string{"alice": {g3}, "dave": {g3}})
	do("alice", "draw congo 3")
	wantContains(t, "the draw", got(map[string][]string{"alice": {g3}, "dave": {g3}})["alice"][g3], "Draw by agreement.")
	do("bob", "resign congo 4")
	g5, g6 := game(5, "alice", "erin", 3), game(6, "carol", "dave", 3)
	m = got(map[string][]string{
		"alice": {swiss, g5}, "bob": {g4, swiss}, "carol": {swiss, g6}, "dave": {swiss, g6}, "erin": {g4, swiss, g5},
	})
	// After round 2: erin 2, alice 1.5, dave 1.5, carol 1 (her bye), bob
	// 0. Buchholz: erin 2 (her bye) + 0 (bob) = 2; alice 1 (carol) + 1.5
	// (dave) = 2.5; dave 0 + 1.5 = 1.5; carol 1.5 + 1 (her bye) = 2.5;
	// bob 1.5 + 2 = 3.5. SB: erin 1 (half her 2) + 0; alice 1 (beat
	// carol) + 0.75 (drew dave); dave 0 + 0.75; carol 0.5; bob 0.
	// Round 3: bob has the bye (lowest, none yet). erin alone at 2
	// floats to alice and dave; that bracket of three floats dave to
	// carol. alice and erin have one White each, alice had Black last:
	// alice White. carol has no White, dave one: carol White.
	wantContains(t, "round 3", m["bob"][swiss], "Round 3 of Spring Cup begins (of 3).", "You have the bye this round",
		"Standings after round 2:\n\n"+
			"1. erin  2  (Buchholz 2, SB 1)\n"+
			"2. alice  1.5  (Buchholz 2.5, SB 1.75)\n"+
			"3. dave  1.5  (Buchholz 1.5, SB 0.75)\n"+
			"4. carol  1  (Buchholz 2.5, SB 0.5)\n"+
			"5. bob  0  (Buchholz 3.5, SB 0)\n",
		"Pairings of round 3:\n\n  game 5  alice vs erin\n  game 6  carol vs dave\n  bye: bob\n")

	// alice resigns game 5; game 6 is drawn: the last game, so every
	// player gets the final standings. erin 3 (bye, bob, alice), dave 2,
	// alice 1.5, carol 1.5, bob 1 (his bye). Buchholz: erin 3 (own) + 1 +
	// 1.5 = 5.5; dave 1 + 1.5 + 1.5 = 4; alice 1.5 + 2 + 3 = 6.5; carol
	// 1.5 + 1.5 (own) + 2 = 5; bob 2 + 3 + 1 (own) = 6. alice and carol
	// tie on points; alice's Buchholz is higher. SB: erin 1.5 + 1 + 1.5
	// = 4; dave 1 + 0.75 + 0.75 = 2.5; alice 1.5 + 1 + 0 = 2.5; carol 0 +
	// 0.75 + 1 = 1.75; bob 0.5.
	do("alice", "resign congo 5")
	got(map[string][]string{"alice": {g5}, "erin": {g5}})
	do("carol", "draw congo 6")
	got(map[string][]string{"carol": {g6}, "dave": {g6}})
	do("dave", "draw congo 6")
	m = got(map[string][]string{"alice": {swiss}, "bob": {swiss}, "carol": {g6, swiss}, "dave": {g6, swiss}, "erin": {swiss}})
	final := "Final standings:\n\n" +
		"1. erin  3  (Buchholz 5.5, SB 4)\n" +
		"2. dave  2  (Buchholz 4, SB 2.5)\n" +
		"3. alice  1.5  (Buchholz 6.5, SB 2.5)\n" +
		"4. carol  1.5  (Buchholz 5, SB 1.75)\n" +
		"5. bob  1  (Buchholz 6, SB 0.5)\n"
	wantContains(t, "the end to erin", m["erin"][swiss], "Spring Cup is over: you win, with 3 points.", final)
	for _, h := range handles {
		wantContains(t, "the end to "+h, m[h][swiss], final)
	}
	// The record carries the event and the round (M39).
	do("alice", "history congo 5")
	wantContains(t, "a record", got(map[string][]string{"alice": {"Re: " + g5}})["alice"]["Re: "+g5],
		`[Event "Spring Cup"]`, `[Round "3"]`, `[White "alice"]`, `[Result "0-1"]`)
	do("bob", "tournament 1")
	show := got(map[string][]string{"bob": {swiss}})["bob"][swiss]
	wantContains(t, "tournament 1", show, "Spring Cup: a Swiss of 3 rounds, days=3, unrated, directed by alice.", "Finished. Final standings:", final[len("Final standings:\n\n"):])
	html := string(w.raw[show.MessageID])
	for _, want := range []string{"<table", "<th", ">Buchholz</th>", ">erin</td>", ">5.5</td>"} {
		if !strings.Contains(html, want) {
			t.Errorf("the HTML part of tournament 1 lacks %q", want)
		}
	}

	// The round robin, rated: dave directs it, erin stays out. Seeded
	// by rating (all 1500 still: the Swiss was unrated), then handle:
	// alice 1, bob 2, carol 3, dave 4. The Berger table of 4: round 1
	// 1-4 2-3, round 2 4-3 1-2, round 3 2-4 3-1 (games 7 to 12).
	const rr = "Congo tournament 2: Club Cup"
	rg := func(id int, white, black string, round int) string {
		return fmt.Sprintf("Congo game %d: %s vs %s (Club Cup, round %d)", id, white, black, round)
	}
	do("dave", "tournament new roundrobin days=5 Club Cup")
	got(map[string][]string{"dave": {rr}})
	for _, h := range []string{"alice", "bob", "carol"} {
		do(h, "join tournament 2")
		got(map[string][]string{"dave": {rr}, h: {rr}})
	}
	do("bob", "tournament kick 2 carol")
	wantContains(t, "kick by another", got(map[string][]string{"bob": {rr}})["bob"][rr], "Only the director, dave, may withdraw a player from it")
	do("erin", "leave tournament 2")
	wantContains(t, "leave by an outsider", got(map[string][]string{"erin": {rr}})["erin"][rr], "You are not a player of Club Cup.")
	do("dave", "tournament start 2")
	g7, g8, g9 := rg(7, "alice", "dave", 1), rg(8, "bob", "carol", 1), rg(9, "dave", "carol", 2)
	g10, g11, g12 := rg(10, "alice", "bob", 2), rg(11, "bob", "dave", 3), rg(12, "carol", "alice", 3)
	m = got(map[string][]string{
		"alice": {rr, g7, g10, g12}, "bob": {rr, g8, g10, g11}, "carol": {rr, g8, g9, g12}, "dave": {rr, rr, g7, g9, g11},
	})
	wantContains(t, "the start to alice", m["alice"][rr], "Club Cup has begun: a round robin, days=5, rated, 4 players.",
		"  round 1  game 7   alice vs dave\n  round 2  game 10  alice vs bob\n  round 3  game 12  carol vs alice\n")
	do("alice", "abort congo 7")
	wantContains(t, "abort", got(map[string][]string{"alice": {"Re: " + g7}})["alice"]["Re: "+g7], "Game 7 is a game of Club Cup: it cannot be aborted")

	// Round 1: dave resigns game 7, game 8 drawn. The round's standings:
	// alice 1, bob and carol 0.5 (SB 0.25: half of the other's 0.5),
	// dave 0.
	do("dave", "resign congo 7")
	got(map[string][]string{"alice": {g7}, "dave": {g7}})
	do("bob", "draw congo 8")
	got(map[string][]string{"bob": {g8}, "carol": {g8}})
	do("carol", "draw congo 8")
	m = got(map[string][]string{"alice": {rr}, "bob": {g8, rr}, "carol": {g8, rr}, "dave": {rr}})
	wantContains(t, "round 1 over", m["dave"][rr], "Every game of round 1 of Club Cup has ended.",
		"1. alice  1  (SB 0)\n2. bob  0.5  (SB 0.25)\n3. carol  0.5  (SB 0.25)\n4. dave  0  (SB 0)\n")

	// Rounds 2 and 3: carol resigns game 9, alice game 10, bob game 11;
	// game 12 drawn. Final: dave 2, alice 1.5, bob 1.5, carol 1. SB:
	// dave beat carol (1) and bob (1.5): 2.5; alice beat dave (2), drew
	// carol (0.5): 2.5; bob drew carol (0.5), beat alice (1.5): 2; carol
	// drew bob and alice (0.75 each): 1.5.
	do("carol", "resign congo 9")
	got(map[string][]string{"carol": {g9}, "dave": {g9}})
	do("alice", "resign congo 10")
	got(map[string][]string{"alice": {g10, rr}, "bob": {g10, rr}, "carol": {rr}, "dave": {rr}})
	do("bob", "resign congo 11")
	got(map[string][]string{"bob": {g11}, "dave": {g11}})
	do("carol", "draw congo 12")
	got(map[string][]string{"alice": {g12}, "carol": {g12}})
	do("alice", "draw congo 12")
	m = got(map[string][]string{"alice": {g12, rr}, "bob": {rr}, "carol": {g12, rr}, "dave": {rr}})
	wantContains(t, "the round robin's end", m["bob"][rr], "Club Cup is over: dave wins, with 2 points.",
		"Final standings:\n\n1. dave  2  (SB 2.5)\n2. alice  1.5  (SB 2.5)\n3. bob  1.5  (SB 2)\n4. carol  1  (SB 1.5)\n",
		"Crosstable:\n\n"+
			"            1  2  3  4  Points\n"+
			"  1. dave   ×  0  1  1  2\n"+
			"  2. alice  1  ×  0  ½  1.5\n"+
			"  3. bob    0  1  ×  ½  1.5\n"+
			"  4. carol  0  ½  ½  ×  1\n")
	// Rated (M39): the players' ratings moved.
	do("erin", "ratings")
	wantContains(t, "ratings", got(map[string][]string{"erin": {"The Congo ratings"}})["erin"]["The Congo ratings"], "dave", "(3 games)")
}
