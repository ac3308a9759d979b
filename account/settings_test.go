package account_test

import (
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

func TestNotifyDigest(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	w.SendProven("bob", "notify digest")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "bob"), "one mail a day")
	w.SendProven("alice", "move congo 1 b2-b3")
	if got := servertest.To(w.Deliver(), "bob"); len(got) != 0 {
		t.Fatalf("bob got %d mails after a move, want none with notify digest", len(got))
	}
	w.Clock.Advance(24 * time.Hour)
	w.Tick()
	d := servertest.Only(t, w.Deliver(), "bob")
	if d.Subject != "Congo: your move in 1 game" {
		t.Errorf("digest Subject = %q", d.Subject)
	}
	servertest.WantText(t, d, "Game 1: alice", "Position: gmelecz/ppppppp/7/7/1P5/P1PPPPP/GMELECZ b 1")
	w.Tick()
	if got := w.Deliver(); len(got) != 0 {
		t.Errorf("a second digest within the day: %d mails", len(got))
	}

	// Results still come at once; notify off stops digests.
	w.SendProven("bob", "notify off")
	w.Deliver()
	w.Clock.Advance(24 * time.Hour)
	w.Tick()
	for _, m := range servertest.To(w.Deliver(), "bob") {
		if strings.HasPrefix(m.Subject, "Congo: your move") {
			t.Errorf("bob got a digest with notify off")
		}
	}
	w.SendProven("alice", "resign congo 1")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "bob"), "You win")
}

func TestVacation(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	w.SendProven("alice", "move congo 1 b2-b3")
	w.Deliver()
	w.Clock.Advance(24 * time.Hour) // bob has 2 days left

	w.SendProven("bob", "vacation 11")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "bob"), "You have 10 days 1 hour of vacation left")
	w.SendProven("bob", "vacation 5")
	mails := w.Deliver()
	servertest.WantText(t, servertest.Only(t, mails, "bob"), "You are on vacation until 2025-03-07 12:00 UTC", "Vacation left after this one: 5 days")
	servertest.WantText(t, servertest.Only(t, mails, "alice"), "bob is on vacation until 2025-03-07 12:00 UTC", "bob: 2 days left (on vacation")
	w.SendProven("bob", "vacation 2")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "bob"), "You are on vacation already")

	// No reminder and no time out during the vacation.
	w.Clock.Advance(5 * 24 * time.Hour)
	w.Tick()
	if got := w.Deliver(); len(got) != 0 {
		t.Fatalf("%d mails during the vacation, want none", len(got))
	}
	// After it, bob's clock runs with the 2 days he had.
	w.Clock.Advance(24 * time.Hour)
	w.Tick()
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "bob"), "REMINDER", "you have 1 day left")
	w.SendProven("bob", "vacation off")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "bob"), "You are not on vacation")
}

func TestVacationOffAndAccrual(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	w.SendProven("alice", "vacation 4")
	w.Deliver()
	w.Clock.Advance(24 * time.Hour)
	w.SendProven("alice", "vacation off")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "Your vacation is over", "Vacation left: 9 days")
	if g := w.Game(1); !g.ClockStart.Equal(w.Clock.Now()) || g.WhiteLeft != 3*game.Day {
		t.Errorf("after vacation off: clock start %v, white left %v; want now and 3 days", g.ClockStart, g.WhiteLeft)
	}

}

func TestMoveToPlayerOnVacation(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	w.SendProven("alice", "move congo 1 b2-b3")
	w.SendProven("alice", "vacation 3") // bob is to move: his clock runs on
	w.Deliver()
	w.Clock.Advance(game.Day)
	w.SendProven("bob", "move congo 1 b6-b5")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "alice: 3 days left (on vacation until 2025-03-04 12:00 UTC)")
	until := w.Clock.Now().Add(2 * game.Day)
	if g := w.Game(1); !g.ClockStart.Equal(until) {
		t.Errorf("alice's clock starts at %v, want the end of her vacation %v", g.ClockStart, until)
	}
	// Her time runs out three days after the vacation, not before.
	w.Clock.Advance(2*game.Day + 3*game.Day - time.Minute)
	w.Tick()
	for _, m := range w.Deliver() {
		servertest.WantNoText(t, m, "ran out of time")
	}
	w.Clock.Advance(time.Minute)
	w.Tick()
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "bob wins: you ran out of time.")
}

func TestVacationAfterTimeRanOut(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	w.SendProven("alice", "move congo 1 b2-b3")
	w.Deliver()
	// bob's 3 days run out before the clock loop looks; then he leaves.
	w.Clock.Advance(3*game.Day + time.Hour)
	w.SendProven("bob", "vacation 5")
	if g := w.Game(1); g.Status == db.Active {
		t.Fatalf("game still active after vacation with time run out: clock start %v, black left %v", g.ClockStart, g.BlackLeft)
	}
	mails := w.Deliver()
	servertest.WantText(t, servertest.Only(t, servertest.To(mails, "alice"), "alice"), "ran out of time")
}
