package play_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/congobymail/congo/config"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

func TestClocksAndReminders(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.Deliver()
	w.SendProven("alice", "challenge congo bob days=2")
	challenge := w.Deliver()
	servertest.WantText(t, servertest.Only(t, challenge, "bob"), "Time control: days=2, rated.")
	id := servertest.GameOf(t, challenge)
	w.SendProven("bob", fmt.Sprintf("accept congo %d", id))
	start := w.Deliver()
	for _, who := range []string{"alice", "bob"} {
		servertest.WantText(t, servertest.Only(t, start, who), "Time left (days=2):", "  alice: 2 days left", "  bob: 2 days left")
	}
	began := w.Clock.Now()

	// Half the time gone: the first reminder, exact to the minute.
	if next := w.Tick(); !next.Equal(began.Add(24 * time.Hour)) {
		t.Errorf("Tick() next = %v, want the half-time reminder at %v", next, began.Add(24*time.Hour))
	}
	w.Clock.Advance(24*time.Hour - time.Minute)
	w.Tick()
	if got := w.Deliver(); len(got) != 0 {
		t.Fatalf("a minute before half time: %d mails, want none", len(got))
	}
	w.Clock.Advance(time.Minute)
	w.Tick()
	r := servertest.Only(t, w.Deliver(), "alice")
	servertest.WantWords(t, r, "LAST REMINDER: it is your move in game 1", "you have 1 day left", "alice: 1 day left")
	w.Tick()
	if got := w.Deliver(); len(got) != 0 {
		t.Errorf("a second tick sent %d more reminders", len(got))
	}

	// 24 hours left is the same moment here: no second reminder. A move
	// resets the clock (days=2 gives two days for every move).
	w.Clock.Advance(3 * time.Hour)
	w.SendProven("alice", "move congo 1 b2-b3")
	m := servertest.Only(t, w.Deliver(), "bob")
	servertest.WantText(t, m, "alice: 2 days left", "bob: 2 days left")

	// bob lets his time run out: both are told at the deadline.
	w.Clock.Advance(2*24*time.Hour - time.Second)
	w.Tick()
	w.Deliver() // the reminder
	w.Clock.Advance(time.Second)
	w.Tick()
	end := w.Deliver()
	for _, who := range []string{"alice", "bob"} {
		m := servertest.Only(t, end, who)
		if m.Subject != "Congo game 1: alice vs bob" {
			t.Errorf("time out mail to %s: Subject %q", who, m.Subject)
		}
		servertest.WantText(t, m, map[string]string{"alice": "You win: bob ran out of time.", "bob": "alice wins: you ran out of time."}[who])
	}
	if g := w.Game(1); g.Status != db.Finished || g.Reason != rules.OutOfTime || g.Result != db.WhiteWins {
		t.Errorf("game after the time out = %+v", g)
	}
	if next := w.Tick(); !next.IsZero() {
		t.Errorf("Tick() with no game = %v, want zero", next)
	}
}

func TestEscalatingReminders(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob") // days=3
	began := w.Clock.Now()
	for _, tt := range []struct {
		at   time.Duration
		want string
	}{
		{36 * time.Hour, "Reminder: it is your move in game 1, and you have 1 day 12 hours left"},
		{48 * time.Hour, "LAST REMINDER: it is your move in game 1, and you have 1 day left"},
	} {
		w.Clock.Advance(began.Add(tt.at).Sub(w.Clock.Now()))
		w.Tick()
		servertest.WantWords(t, servertest.Only(t, w.Deliver(), "alice"), tt.want)
	}
}

func TestBankClock(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.Deliver()
	w.SendProven("alice", "challenge congo bob bank=2+1")
	w.Deliver()
	w.SendProven("bob", "accept congo 1")
	w.Deliver()
	w.Clock.Advance(12 * time.Hour)
	w.SendProven("alice", "move congo 1 b2-b3") // 2d - 12h + 1d, capped at 2d
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "bob"), "alice: 2 days left", "bob: 2 days left")
	w.Clock.Advance(36 * time.Hour)
	w.SendProven("bob", "move congo 1 b6-b5") // 2d - 36h + 1d
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "bob: 1 day 12 hours left")
}

func TestMoveAfterTheDeadline(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	w.Clock.Advance(3 * 24 * time.Hour)
	w.SendProven("alice", "move congo 1 b2-b3") // the clock loop has not run yet
	mails := w.Deliver()
	// One mail: the result, and the answer to the move (M23).
	servertest.WantText(t, servertest.Only(t, mails, "alice"), "bob wins: you ran out of time.", "> move congo 1 b2-b3", "not being played")
	servertest.WantText(t, servertest.Only(t, mails, "bob"), "You win: alice ran out of time.")
	if g := w.Game(1); g.Result != db.BlackWins {
		t.Errorf("result = %v, want black wins", g.Result)
	}
}

func TestClockSurvivesRestart(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	// The server stops; when a new one starts on the same database after
	// the deadline, its first tick ends the game.
	w.Clock.Advance(4 * 24 * time.Hour)
	s, err := server.New(server.Config{DB: w.DB, Now: w.Clock.Now, Logger: w.Logger, Settings: config.Settings{Address: servertest.ServerAddress}})
	if err != nil {
		t.Fatal(err)
	}
	w.Server = s
	w.Tick()
	for _, m := range w.Deliver() {
		servertest.WantText(t, m, "ran out of time.")
		servertest.WantText(t, m, map[string]string{"alice@players.example": "bob wins: you ran out of time.", "bob@players.example": "You win: alice ran out of time."}[m.To])
	}
	if g := w.Game(1); g.Status != db.Finished {
		t.Errorf("game after the restart's tick = %+v", g)
	}
}

func TestRunClock(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	w.Clock.Advance(4 * 24 * time.Hour)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Server.Clock().Run(ctx) }()
	deadline := time.Now().Add(30 * time.Second)
	for w.Game(1).Status != db.Finished && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != context.Canceled {
		t.Errorf("RunClock() = %v, want context.Canceled", err)
	}
	if g := w.Game(1); g.Status != db.Finished || g.Reason != rules.OutOfTime {
		t.Errorf("game after RunClock = %+v, want lost on time", g)
	}
}

func TestTickSkipsBrokenGame(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob", "carol")
	broken := w.StartGame("alice", "bob")
	fine := w.StartGame("alice", "carol")
	w.InTx(func(ctx context.Context, tx *db.Tx) error {
		g, err := tx.Game(ctx, broken)
		if err != nil {
			return err
		}
		g.Position = "not a position"
		return tx.SetGame(ctx, g, w.Clock.Now())
	})
	w.Clock.Advance(3*game.Day + time.Minute)
	next, err := w.Server.Clock().Tick(context.Background())
	if err != nil {
		t.Fatalf("Tick: %v", err)
	}
	if g := w.Game(fine); g.Status == db.Active {
		t.Errorf("game %d not timed out: one broken game blocked the others", fine)
	}
	if want := w.Clock.Now().Add(time.Minute); next.IsZero() || next.After(want) {
		t.Errorf("next = %v, want the broken game tried again by %v", next, want)
	}
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "carol"), "ran out of time")
}

// TestTickPrunesOldMail: the clock deletes mail sent more than KeepSent
// ago, and keeps mail still waiting to be sent.
func TestTickPrunesOldMail(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Send("alice", "help") // outbox mail 1, sent below
	w.Deliver()
	w.Send("bob", "help") // 2, not sent
	w.Clock.Advance(outbox.KeepSent + time.Hour)
	w.Tick()
	w.InTx(func(ctx context.Context, tx *db.Tx) error {
		if _, err := tx.Mail(ctx, 1); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("mail 1, sent %v ago: err %v, want it pruned", outbox.KeepSent+time.Hour, err)
		}
		if _, err := tx.Mail(ctx, 2); err != nil {
			t.Errorf("mail 2, waiting: %v, want it kept", err)
		}
		return nil
	})
}
