package main

import (
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/mailmsg"
)

// TestEndToEndFeatures plays correspondence games by mail through the
// daemon: a time control, an observer, a comment with a move, a
// conditional move, a draw offer declined, a takeback, a past board,
// vacation, seeks, an abort, a daily digest and a reminder, a loss on time
// found by the clock loop, ratings, the record, and the HTML alternative
// of board mails.
func TestEndToEndFeatures(t *testing.T) {
	clock := congotest.NewClock()
	clock.Set(time.Now().UTC())
	serverClock = clock.Now
	t.Cleanup(func() { serverClock = nil })
	w := startWorldWith(t, "alice", "bob", "carol")
	const server = "congo@example.org"
	alice, bob, carol := "alice@example.org", "bob@example.org", "carol@example.org"

	w.send(alice, server, "", "register alice", "")
	alicePA := w.replyTo(w.expect("alice", 1)[0])
	w.send(bob, server, "", "register bob", "")
	bobPA := w.replyTo(w.expect("bob", 1)[0])
	w.send(carol, server, "", "register carol", "")
	carolPA := w.replyTo(w.expect("carol", 1)[0])
	for _, p := range []struct{ name, addr, personal string }{{"bob", bob, bobPA}, {"carol", carol, carolPA}} {
		w.send(p.addr, p.personal, "", "games", "") // confirms the address (M28)
		w.expect(p.name, 1)
	}

	w.send(alice, alicePA, "", "help", "")
	wantContains(t, "help", w.expect("alice", 1)[0], "challenge congo bob days=5", "draw congo 42", "takeback congo 42",
		"abort congo 42", "if c6-c5 then b2-b3", "observe congo 42", "seek congo", "games bob", "history congo 42",
		"ratings", "notify digest", "vacation 7", "board congo 42#3")

	// A challenge with a time control; every board shows both clocks.
	w.send(alice, alicePA, "", "challenge congo bob days=2", "")
	challenge := w.expect("bob", 1)[0]
	w.expect("alice", 1)
	w.send(bob, bobPA, "Re: "+challenge.Subject, "accept congo 1", challenge.MessageID)
	start := w.expect("bob", 1)[0]
	wantContains(t, "start", start, "Time left (days=2):", "alice: 2 days left", "bob: 2 days left", "alice (white, 1500)")
	aliceBoard := w.expect("alice", 1)[0]
	// Board mails carry an HTML alternative after the text (M12).
	raw := string(w.raw[start.MessageID])
	plain, html := strings.Index(raw, "Content-Type: text/plain"), strings.Index(raw, "Content-Type: text/html")
	if !strings.Contains(raw, "multipart/alternative") || plain < 0 || html < plain {
		t.Errorf("the board mail is not multipart/alternative with text/plain first:\n%s", raw)
	}

	// carol observes game 1: she gets every board from now on.
	w.send(carol, carolPA, "", "observe congo 1", "")
	wantContains(t, "observe", w.expect("carol", 1)[0], "You now observe game 1")

	// A move sent in the Subject carries its comment to bob.
	w.send(alice, alicePA, "move congo 1 b2-b3", "Good luck!", "")
	b1 := w.expect("bob", 1)[0]
	wantContains(t, "move with comment", b1, "alice writes:", "Good luck!", "b2-b3")
	w.expect("alice", 1)
	wantContains(t, "observer's board", w.expect("carol", 1)[0], "alice: b2-b3", "bob (black) to move")

	// alice leaves a conditional move, seen only by her.
	w.send(alice, alicePA, "Re: "+aliceBoard.Subject, "conditional congo 1\nif b6-b5 then c2-c3", aliceBoard.MessageID)
	wantContains(t, "conditional", w.expect("alice", 1)[0], "if b6-b5 then c2-c3")

	// bob's move matches: alice's answer is played at once.
	w.send(bob, bobPA, "Re: "+b1.Subject, "b6-b5", b1.MessageID)
	// One mail each, with both moves (M23).
	wantContains(t, "conditional answer", w.expect("bob", 1)[0], "You: b6-b5", "alice: c2-c3", "Played from alice's conditional")
	w.expect("alice", 1)
	w.expect("carol", 1)

	// A draw offer, declined.
	w.send(bob, bobPA, "", "draw congo 1", "")
	wantContains(t, "draw offer", w.expect("alice", 1)[0], "bob offers a draw", "nodraw congo 1")
	w.expect("bob", 1)
	w.send(alice, alicePA, "", "nodraw congo 1", "")
	wantContains(t, "nodraw", w.expect("bob", 1)[0], "alice declined the draw offer")
	w.expect("alice", 1)
	w.expect("carol", 2)

	// A move taken back when both ask.
	w.send(bob, bobPA, "", "move congo 1 a6-a5#2", "")
	w.expect("bob", 1)
	w.expect("alice", 1)
	w.send(bob, bobPA, "", "takeback congo 1", "")
	wantContains(t, "takeback asked", w.expect("alice", 1)[0], "bob asks to take back the last move")
	w.expect("bob", 1)
	w.send(alice, alicePA, "", "takeback congo 1", "")
	wantContains(t, "takeback done", w.expect("bob", 1)[0], "The last move was taken back",
		"Position: gmelecz/p1ppppp/1p5/7/1PP4/P2PPPP/GMELECZ b 2")
	w.expect("alice", 1)
	w.expect("carol", 3)

	// The position after black's first move.
	w.send(alice, alicePA, "", "board congo 1#1", "")
	wantContains(t, "past board", w.expect("alice", 1)[0], "black's move 1", "Position: gmelecz/p1ppppp/1p5/7/1P5/P1PPPPP/GMELECZ w 2")

	// Vacation: alice is told, and bob comes back early.
	w.send(bob, bobPA, "", "vacation 2", "")
	wantContains(t, "vacation", w.expect("bob", 1)[0], "You are on vacation until")
	wantContains(t, "vacation to opponent", w.expect("alice", 1)[0], "bob is on vacation until", "(on vacation until")
	w.send(bob, bobPA, "", "vacation off", "")
	wantContains(t, "vacation off", w.expect("bob", 1)[0], "Your vacation is over")

	// Seeks with the same time control start a game; it is aborted.
	w.send(alice, alicePA, "", "seek congo days=1 unrated", "")
	wantContains(t, "seek", w.expect("alice", 1)[0], "waits for a player")
	w.send(bob, bobPA, "", "seek congo unrated days=1", "")
	var seekReply, seekBoard *mailmsg.Incoming
	for _, m := range w.expect("bob", 2) {
		if strings.HasPrefix(m.Subject, "Congo game 2") {
			seekBoard = m
		} else {
			seekReply = m
		}
	}
	if seekReply == nil || seekBoard == nil {
		t.Fatalf("bob did not get both the seek answer and the board of game 2")
	}
	wantContains(t, "seek matched", seekReply, "game 2 begins")
	wantContains(t, "seek board", seekBoard, "Your seek was matched", "days=1, unrated")
	w.expect("alice", 1)
	w.send(alice, alicePA, "", "abort congo 2", "")
	for _, who := range []string{"alice", "bob"} {
		m := w.expect(who, 1)[0]
		// The same Subject to the end (M22); the seek drew the colours.
		if m.Subject != "Congo game 2: alice vs bob" && m.Subject != "Congo game 2: bob vs alice" {
			t.Errorf("abort to %s: Subject %q", who, m.Subject)
		}
		wantContains(t, "abort to "+who, m, "The game was aborted")
	}

	// bob asks for a daily digest. A day later the clock loop sends it,
	// with the last reminder: bob has less than a day left in game 1.
	w.send(bob, bobPA, "", "notify digest", "")
	wantContains(t, "notify digest", w.expect("bob", 1)[0], "one mail a day")
	clock.Advance(25 * time.Hour)
	w.send(alice, alicePA, "", "games", "") // a handled mail wakes the clock loop
	wantContains(t, "games by urgency", w.expect("alice", 1)[0], "Your opponent's move:", "game 1: alice vs bob - bob to move")
	var gotDigest, gotReminder bool
	for _, m := range w.expect("bob", 2) {
		gotDigest = gotDigest || m.Subject == "Congo: your move in 1 game" && strings.Contains(m.Text, "Game 1: alice")
		gotReminder = gotReminder || strings.Contains(m.Text, "LAST REMINDER: it is your move in game 1")
	}
	if !gotDigest || !gotReminder {
		t.Errorf("bob got the digest %v and the last reminder %v, want both", gotDigest, gotReminder)
	}

	// Time runs out for bob in game 1: the clock loop ends it when it
	// looks next (a handled mail wakes it).
	clock.Advance(3 * 24 * time.Hour)
	w.send(alice, alicePA, "", "games", "")
	var gotGames, gotResult bool
	for _, m := range w.expect("alice", 2) {
		switch {
		case strings.Contains(m.Text, "Your games"):
			gotGames = true
		case strings.Contains(m.Text, "You win: bob ran out of time."):
			gotResult = true
		}
	}
	if !gotGames || !gotResult {
		t.Errorf("alice got the games answer %v and the time-out result %v, want both", gotGames, gotResult)
	}
	wantContains(t, "time out to bob", w.expect("bob", 1)[0], "alice wins: you ran out of time.")
	wantContains(t, "time out to carol", w.expect("carol", 1)[0], "alice wins: bob ran out of time.")

	// Ratings and the record, for the observer.
	w.send(carol, carolPA, "", "ratings\nhistory congo 1", "")
	r := w.expect("carol", 1)[0]
	wantContains(t, "ratings and history", r, "1. alice", "2. bob", "[Result \"1-0\"]", "[TimeControl \"days=2\"]",
		"[Termination \"time\"]", "1. b2-b3 {Good luck!} b6-b5 2. c2-c3 1-0")
	if i, j := strings.Index(r.Text, "1. alice"), strings.Index(r.Text, "2. bob"); i > j {
		t.Errorf("ratings are not highest first:\n%s", r.Text)
	}

	// Settings and lists, answered in one mail.
	w.send(carol, carolPA, "", "unobserve congo 1\ngames bob\nnotify digest\nseek congo\nseek off\nconditional congo 1", "")
	wantContains(t, "settings", w.expect("carol", 1)[0], "You no longer observe game 1", "bob's games", "Recent results:",
		"game 1: alice vs bob - alice wins", "one mail a day", "Your seek (days=3) waits", "Your seek was removed.",
		"Game 1 is not one of your games")
}
