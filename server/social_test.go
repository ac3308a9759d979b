package server

import (
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/mailmsg"
)

func TestHistoryAndPastBoards(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.startGame("alice", "bob")
	h.handle(func() *mailmsg.Incoming {
		m := h.mail("alice", "move congo 1 d2-e3", "Good luck, {bob}!")
		m.HeaderRecipients = []string{h.personal("alice")}
		return m
	}())
	h.sendProven("bob", "move congo 1 d6-c5")
	h.sendProven("alice", "move congo 1 d1xd7")
	h.deliver()

	h.send("bob", "history congo 1")
	want := `[Event "Congo game 1"]
[Site "congo@example.org"]
[Date "2025.03.01"]
[White "alice"]
[Black "bob"]
[Result "1-0"]
[TimeControl "days=3"]
[Termination "lion captured"]

1. d2-e3 {Good luck, (bob)!} d6-c5 2. d1xd7 1-0
`
	wantText(t, only(t, h.deliver(), "bob"), want)

	tests := []struct {
		line, want string
	}{
		{"board congo 1#0", "Position: " + "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1"},
		{"board congo 1#1", "Position: gmelecz/ppp1ppp/2p4/7/4P2/PPP1PPP/GMELECZ w 2"},
		{"board congo 1 #2", "has no move #2 yet"},
	}
	for _, tt := range tests {
		h.sendProven("alice", tt.line)
		wantText(t, only(t, h.deliver(), "alice"), tt.want)
	}
}

func TestRatings(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob", "carol")
	h.send("alice", "ratings")
	wantText(t, only(t, h.deliver(), "alice"), "No rated game has been finished yet.")

	h.startGame("alice", "bob")
	h.sendProven("bob", "resign congo 1") // game 1 is not bob's move: resigning is allowed any time
	end := h.deliver()
	wantText(t, only(t, end, "alice"), "alice (white, 1662) vs bob (black, 1338)")
	if a, b := h.player("alice"), h.player("bob"); a.RatedGames != 1 || b.RatedGames != 1 || a.Rating <= 1500 || b.Rating >= 1500 {
		t.Errorf("after a rated win: alice %+v, bob %+v", a, b)
	}

	h.deliver()
	h.sendProven("carol", "challenge congo alice unrated")
	h.deliver()
	h.sendProven("alice", "accept congo 2")
	h.deliver()
	h.sendProven("carol", "resign congo 2")
	h.deliver()
	if c := h.player("carol"); c.RatedGames != 0 || c.Rating != db.StartRating {
		t.Errorf("after an unrated game: carol %+v", c)
	}
	h.send("carol", "ratings")
	m := only(t, h.deliver(), "carol")
	wantText(t, m, "1. alice", "1662  (1 game)", "2. bob")
	wantNoText(t, m, "carol")

	// A later rated game moves alice's rating; game 1's past boards still
	// show the ratings it ended with.
	h.startGame("bob", "alice")
	h.sendProven("alice", "resign congo 3")
	h.deliver()
	h.sendProven("bob", "board congo 1#0")
	wantText(t, only(t, h.deliver(), "bob"), "alice (white, 1662) vs bob (black, 1338)")
}

func TestObservers(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob", "carol")
	h.startGame("alice", "bob")
	h.sendProven("alice", "observe congo 1")
	wantText(t, only(t, h.deliver(), "alice"), "You play in game 1")
	h.sendProven("carol", "observe congo 1")
	wantText(t, only(t, h.deliver(), "carol"), "You now observe game 1")
	h.sendProven("alice", "move congo 1 b2-b3")
	mails := h.deliver()
	if len(mails) != 3 {
		t.Fatalf("%d mails after a move, want 3 (both players and the observer)", len(mails))
	}
	wantText(t, only(t, mails, "carol"), "alice: b2-b3", "bob (black) to move")
	wantNoText(t, only(t, mails, "carol"), "It is your move")
	h.send("carol", "history congo 1")
	wantText(t, only(t, h.deliver(), "carol"), "1. b2-b3 *")
	h.sendProven("carol", "unobserve congo 1")
	wantText(t, only(t, h.deliver(), "carol"), "You no longer observe game 1")
	h.sendProven("bob", "move congo 1 b6-b5")
	if got := to(h.deliver(), "carol"); len(got) != 0 {
		t.Errorf("carol got %d mails after unobserve", len(got))
	}
}

func TestSeek(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob", "carol")
	h.sendProven("alice", "seek congo days=5")
	wantText(t, only(t, h.deliver(), "alice"), "Your seek (days=5) waits")
	h.sendProven("bob", "seek congo")
	wantText(t, only(t, h.deliver(), "bob"), "Your seek (days=3) waits")
	h.sendProven("bob", "seek off")
	wantText(t, only(t, h.deliver(), "bob"), "Your seek was removed.")

	h.sendProven("carol", "seek congo days=5")
	mails := h.deliver()
	wantText(t, only(t, to(mails, "alice"), "alice"), "Your seek was matched: the game begins.", "days=5")
	for _, m := range to(mails, "carol") {
		if strings.Contains(m.Subject, "Congo game 1") {
			wantText(t, m, "Your seek was matched")
		} else {
			wantText(t, m, "was matched: game 1 begins")
		}
	}
	g := h.game(1)
	if g.Status != db.Active || g.TimeControl != "days=5" || !g.Has(h.player("alice").ID) || !g.Has(h.player("carol").ID) {
		t.Errorf("game from the seeks = %+v", g)
	}
	h.sendProven("alice", "seek off")
	wantText(t, only(t, h.deliver(), "alice"), "You had no seek.")
}

func TestNotifyDigest(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.startGame("alice", "bob")
	h.sendProven("bob", "notify digest")
	wantText(t, only(t, h.deliver(), "bob"), "one mail a day")
	h.sendProven("alice", "move congo 1 b2-b3")
	if got := to(h.deliver(), "bob"); len(got) != 0 {
		t.Fatalf("bob got %d mails after a move, want none with notify digest", len(got))
	}
	h.clock.Advance(24 * time.Hour)
	h.tick()
	d := only(t, h.deliver(), "bob")
	if d.Subject != "Congo: your move in 1 game" {
		t.Errorf("digest Subject = %q", d.Subject)
	}
	wantText(t, d, "Game 1: alice", "Position: gmelecz/ppppppp/7/7/1P5/P1PPPPP/GMELECZ b 1")
	h.tick()
	if got := h.deliver(); len(got) != 0 {
		t.Errorf("a second digest within the day: %d mails", len(got))
	}

	// Results still come at once; notify off stops digests.
	h.sendProven("bob", "notify off")
	h.deliver()
	h.clock.Advance(24 * time.Hour)
	h.tick()
	for _, m := range to(h.deliver(), "bob") {
		if strings.HasPrefix(m.Subject, "Congo: your move") {
			t.Errorf("bob got a digest with notify off")
		}
	}
	h.sendProven("alice", "resign congo 1")
	wantText(t, only(t, h.deliver(), "bob"), "You win")
}

func TestVacation(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.startGame("alice", "bob")
	h.sendProven("alice", "move congo 1 b2-b3")
	h.deliver()
	h.clock.Advance(24 * time.Hour) // bob has 2 days left

	h.sendProven("bob", "vacation 11")
	wantText(t, only(t, h.deliver(), "bob"), "You have 10 days 1 hour of vacation left")
	h.sendProven("bob", "vacation 5")
	mails := h.deliver()
	wantText(t, only(t, mails, "bob"), "You are on vacation until 2025-03-07 12:00 UTC", "Vacation left after this one: 5 days")
	wantText(t, only(t, mails, "alice"), "bob is on vacation until 2025-03-07 12:00 UTC", "bob: 2 days left (on vacation")
	h.sendProven("bob", "vacation 2")
	wantText(t, only(t, h.deliver(), "bob"), "You are on vacation already")

	// No reminder and no time out during the vacation.
	h.clock.Advance(5 * 24 * time.Hour)
	h.tick()
	if got := h.deliver(); len(got) != 0 {
		t.Fatalf("%d mails during the vacation, want none", len(got))
	}
	// After it, bob's clock runs with the 2 days he had.
	h.clock.Advance(24 * time.Hour)
	h.tick()
	wantText(t, only(t, h.deliver(), "bob"), "REMINDER", "you have\n1 day left")
	h.sendProven("bob", "vacation off")
	wantText(t, only(t, h.deliver(), "bob"), "You are not on vacation")
}

func TestVacationOffAndAccrual(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.startGame("alice", "bob")
	h.sendProven("alice", "vacation 4")
	h.deliver()
	h.clock.Advance(24 * time.Hour)
	h.sendProven("alice", "vacation off")
	wantText(t, only(t, h.deliver(), "alice"), "Your vacation is over", "Vacation left: 9 days")
	if g := h.game(1); !g.ClockStart.Equal(h.clock.Now()) || g.WhiteLeft != 3*game.Day {
		t.Errorf("after vacation off: clock start %v, white left %v; want now and 3 days", g.ClockStart, g.WhiteLeft)
	}

}

func TestGamesByUrgency(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob", "carol")
	h.startGame("alice", "bob") // 1
	h.clock.Advance(time.Hour)
	h.startGame("alice", "carol") // 2: less urgent than 1
	h.sendProven("alice", "move congo 2 b2-b3")
	h.sendProven("carol", "move congo 2 b6-b5") // 2: alice to move again, 3 days left
	h.deliver()
	h.send("alice", "games")
	text := only(t, h.deliver(), "alice").Text
	if i, j := strings.Index(text, "game 1:"), strings.Index(text, "game 2:"); i < 0 || j < i {
		t.Errorf("games: game 1 (less time left) is not before game 2:\n%s", text)
	}
	h.send("carol", "games alice")
	wantText(t, only(t, h.deliver(), "carol"), "alice's games", "alice's move:", "game 1: alice vs bob - alice to move (move 1, 2 days 23 hours left)")
	h.send("carol", "games zed")
	wantText(t, only(t, h.deliver(), "carol"), "No player has the handle zed")
}

func TestMoveToPlayerOnVacation(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.startGame("alice", "bob")
	h.sendProven("alice", "move congo 1 b2-b3")
	h.sendProven("alice", "vacation 3") // bob is to move: his clock runs on
	h.deliver()
	h.clock.Advance(game.Day)
	h.sendProven("bob", "move congo 1 b6-b5")
	wantText(t, only(t, h.deliver(), "alice"), "alice: 3 days left (on vacation until 2025-03-04 12:00 UTC)")
	until := h.clock.Now().Add(2 * game.Day)
	if g := h.game(1); !g.ClockStart.Equal(until) {
		t.Errorf("alice's clock starts at %v, want the end of her vacation %v", g.ClockStart, until)
	}
	// Her time runs out three days after the vacation, not before.
	h.clock.Advance(2*game.Day + 3*game.Day - time.Minute)
	h.tick()
	for _, m := range h.deliver() {
		wantNoText(t, m, "ran out of time")
	}
	h.clock.Advance(time.Minute)
	h.tick()
	wantText(t, only(t, h.deliver(), "alice"), "bob wins: you ran out of time.")
}

func TestVacationAfterTimeRanOut(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.startGame("alice", "bob")
	h.sendProven("alice", "move congo 1 b2-b3")
	h.deliver()
	// bob's 3 days run out before the clock loop looks; then he leaves.
	h.clock.Advance(3*game.Day + time.Hour)
	h.sendProven("bob", "vacation 5")
	if g := h.game(1); g.Status == db.Active {
		t.Fatalf("game still active after vacation with time run out: clock start %v, black left %v", g.ClockStart, g.BlackLeft)
	}
	mails := h.deliver()
	wantText(t, only(t, to(mails, "alice"), "alice"), "ran out of time")
}

// TestRulesAndDrowning (M25): rules answers with the rules in plain
// words; the board mail to the player to move warns of a piece that
// drowns unless it leaves the river.
func TestRulesAndDrowning(t *testing.T) {
	h := newHarness(t)
	h.send("stranger", "rules")
	wantText(t, only(t, h.deliver(), "stranger"), "river")
	h.register("alice", "bob")
	h.startGame("alice", "bob")
	for _, m := range []struct{ by, move string }{{"alice", "b2-b3"}, {"bob", "b6-b5"}, {"alice", "b3-b4"}} {
		h.sendProven(m.by, "move congo 1 "+m.move)
	}
	h.deliver()
	h.sendProven("bob", "move congo 1 a6-a5")
	mails := h.deliver()
	wantText(t, only(t, mails, "alice"), "Careful: your pawn on b4 is in the river")
	wantNoText(t, only(t, mails, "bob"), "Careful")
}
