package play_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/mailmsg"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

func TestBoard(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob", "carol")
	w.StartGame("alice", "bob")
	w.SendProven("alice", "move congo 1 b2-b3")
	w.Deliver()

	w.Send("bob", "board congo 1") // a board needs proof (M31): no board answers a forged mail
	m := servertest.Only(t, w.Deliver(), "bob")
	servertest.WantText(t, m, "did not come to your personal address")
	servertest.WantNoText(t, m, "Position:")
	w.SendProven("bob", "board congo 1")
	m = servertest.Only(t, w.Deliver(), "bob")
	if m.Subject != "Congo game 1: alice vs bob" {
		t.Errorf("board Subject = %q", m.Subject)
	}
	pos := w.Game(1).Position
	servertest.WantText(t, m, "Position: "+pos, "It is your move")
	if !slices.Contains(m.References, w.Game(1).ThreadRoot) {
		t.Errorf("board mail References %q lack the thread root", m.References)
	}

	w.SendProven("carol", "board congo 1")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "carol"), "not one of your games")
}

func TestGames(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob", "carol", "dave")
	w.StartGame("alice", "bob") // 1: alice to move
	w.StartGame("carol", "alice")
	w.SendProven("carol", "move congo 2 b2-b3") // 2: alice to move
	w.StartGame("alice", "dave")
	w.SendProven("alice", "move congo 3 b2-b3")    // 3: dave to move
	w.SendProven("bob", "challenge congo alice")   // 4: alice to answer
	w.SendProven("alice", "challenge congo carol") // 5: sent by alice
	w.StartGame("dave", "alice")
	w.SendProven("alice", "resign congo 6")      // 6: finished
	w.SendProven("bob", "challenge congo carol") // 7: not alice's
	w.Deliver()

	w.Send("alice", "games")
	text := servertest.Only(t, w.Deliver(), "alice").Text
	order := []string{
		"Your move:", "game 1: alice vs bob - alice to move", "game 2: carol vs alice - alice to move",
		"Challenges to you", "game 4: bob vs alice - challenge",
		"Your opponent's move:", "game 3: alice vs dave - dave to move",
		"Your challenges", "game 5: alice vs carol - challenge",
		"Recent results:", "game 6: dave vs alice - dave wins",
	}
	last := -1
	for _, s := range order {
		i := strings.Index(text, s)
		if i < 0 || i < last {
			t.Fatalf("games answer does not list %q in order (at %d, after %d):\n%s", s, i, last, text)
		}
		last = i
	}
	if strings.Contains(text, "game 7") {
		t.Errorf("games lists another players' game 7:\n%s", text)
	}
}

func TestHistoryAndPastBoards(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	w.Process(func() *mailmsg.Incoming {
		m := w.Mail("alice", "move congo 1 d2-e3", "Good luck, {bob}!")
		m.HeaderRecipients = []string{w.Personal("alice")}
		return m
	}())
	w.SendProven("bob", "move congo 1 d6-c5 anyway")
	w.SendProven("alice", "move congo 1 d1xd7")
	w.Deliver()

	w.Send("bob", "history congo 1")
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
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "bob"), want)

	tests := []struct {
		line, want string
	}{
		{"board congo 1#0", "Position: " + "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1"},
		{"board congo 1#1", "Position: gmelecz/ppp1ppp/2p4/7/4P2/PPP1PPP/GMELECZ w 2"},
		{"board congo 1 #2", "has no move #2 yet"},
	}
	for _, tt := range tests {
		w.SendProven("alice", tt.line)
		servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), tt.want)
	}
}

func TestRatings(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob", "carol")
	w.Send("alice", "ratings")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "No rated game has been finished yet.")

	w.StartGame("alice", "bob")
	w.SendProven("bob", "resign congo 1") // game 1 is not bob's move: resigning is allowed any time
	end := w.Deliver()
	servertest.WantText(t, servertest.Only(t, end, "alice"), "alice (white, 1662) vs bob (black, 1338)")
	if a, b := w.Player("alice"), w.Player("bob"); a.RatedGames != 1 || b.RatedGames != 1 || a.Rating <= 1500 || b.Rating >= 1500 {
		t.Errorf("after a rated win: alice %+v, bob %+v", a, b)
	}

	w.Deliver()
	w.SendProven("carol", "challenge congo alice unrated")
	w.Deliver()
	w.SendProven("alice", "accept congo 2")
	w.Deliver()
	w.SendProven("carol", "resign congo 2")
	w.Deliver()
	if c := w.Player("carol"); c.RatedGames != 0 || c.Rating != db.StartRating {
		t.Errorf("after an unrated game: carol %+v", c)
	}
	w.Send("carol", "ratings")
	m := servertest.Only(t, w.Deliver(), "carol")
	servertest.WantText(t, m, "1. alice", "1662  (1 game)", "2. bob")
	servertest.WantNoText(t, m, "carol")

	// A later rated game moves alice's rating; game 1's past boards still
	// show the ratings it ended with.
	w.StartGame("bob", "alice")
	w.SendProven("alice", "resign congo 3")
	w.Deliver()
	w.SendProven("bob", "board congo 1#0")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "bob"), "alice (white, 1662) vs bob (black, 1338)")
}

func TestObservers(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob", "carol")
	w.StartGame("alice", "bob")
	w.SendProven("alice", "observe congo 1")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "You play in game 1")
	w.SendProven("carol", "observe congo 1")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "carol"), "You now observe game 1")
	w.SendProven("alice", "move congo 1 b2-b3")
	mails := w.Deliver()
	if len(mails) != 3 {
		t.Fatalf("%d mails after a move, want 3 (both players and the observer)", len(mails))
	}
	servertest.WantText(t, servertest.Only(t, mails, "carol"), "alice: b2-b3", "bob (black) to move")
	servertest.WantNoText(t, servertest.Only(t, mails, "carol"), "It is your move")
	w.Send("carol", "history congo 1")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "carol"), "1. b2-b3 *")
	w.SendProven("carol", "unobserve congo 1")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "carol"), "You no longer observe game 1")
	w.SendProven("bob", "move congo 1 b6-b5")
	if got := servertest.To(w.Deliver(), "carol"); len(got) != 0 {
		t.Errorf("carol got %d mails after unobserve", len(got))
	}
}

func TestGamesByUrgency(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob", "carol")
	w.StartGame("alice", "bob") // 1
	w.Clock.Advance(time.Hour)
	w.StartGame("alice", "carol") // 2: less urgent than 1
	w.SendProven("alice", "move congo 2 b2-b3")
	w.SendProven("carol", "move congo 2 b6-b5") // 2: alice to move again, 3 days left
	w.Deliver()
	w.Send("alice", "games")
	text := servertest.Only(t, w.Deliver(), "alice").Text
	if i, j := strings.Index(text, "game 1:"), strings.Index(text, "game 2:"); i < 0 || j < i {
		t.Errorf("games: game 1 (less time left) is not before game 2:\n%s", text)
	}
	w.Send("carol", "games alice")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "carol"), "alice's games", "alice's move:", "game 1: alice vs bob - alice to move (move 1, 2 days 23 hours left)")
	w.Send("carol", "games zed")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "carol"), "No player has the handle zed")
}
