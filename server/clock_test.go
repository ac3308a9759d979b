package server

import (
	"context"
	"errors"
	"fmt"
	"github.com/congobymail/congo/config"
	"testing"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/rules"
)

// tick runs the clock at the harness's time and returns when it is next
// due.
func (h *harness) tick() time.Time {
	h.t.Helper()
	next, err := h.s.Clock().Tick(context.Background())
	if err != nil {
		h.t.Fatalf("Tick: %v", err)
	}
	return next
}

func TestClocksAndReminders(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.deliver()
	h.sendProven("alice", "challenge congo bob days=2")
	challenge := h.deliver()
	wantText(t, only(t, challenge, "bob"), "Time control: days=2, rated.")
	id := gameOf(t, challenge)
	h.sendProven("bob", fmt.Sprintf("accept congo %d", id))
	start := h.deliver()
	for _, who := range []string{"alice", "bob"} {
		wantText(t, only(t, start, who), "Time left (days=2):", "  alice: 2 days left", "  bob: 2 days left")
	}
	began := h.clock.Now()

	// Half the time gone: the first reminder, exact to the minute.
	if next := h.tick(); !next.Equal(began.Add(24 * time.Hour)) {
		t.Errorf("Tick() next = %v, want the half-time reminder at %v", next, began.Add(24*time.Hour))
	}
	h.clock.Advance(24*time.Hour - time.Minute)
	h.tick()
	if got := h.deliver(); len(got) != 0 {
		t.Fatalf("a minute before half time: %d mails, want none", len(got))
	}
	h.clock.Advance(time.Minute)
	h.tick()
	r := only(t, h.deliver(), "alice")
	wantText(t, r, "LAST REMINDER: it is your move in game 1", "you have\n1 day left", "alice: 1 day left")
	h.tick()
	if got := h.deliver(); len(got) != 0 {
		t.Errorf("a second tick sent %d more reminders", len(got))
	}

	// 24 hours left is the same moment here: no second reminder. A move
	// resets the clock (days=2 gives two days for every move).
	h.clock.Advance(3 * time.Hour)
	h.sendProven("alice", "move congo 1 b2-b3")
	m := only(t, h.deliver(), "bob")
	wantText(t, m, "alice: 2 days left", "bob: 2 days left")

	// bob lets his time run out: both are told at the deadline.
	h.clock.Advance(2*24*time.Hour - time.Second)
	h.tick()
	h.deliver() // the reminder
	h.clock.Advance(time.Second)
	h.tick()
	end := h.deliver()
	for _, who := range []string{"alice", "bob"} {
		m := only(t, end, who)
		if m.Subject != "Congo game 1: alice vs bob" {
			t.Errorf("time out mail to %s: Subject %q", who, m.Subject)
		}
		wantText(t, m, map[string]string{"alice": "You win: bob ran out of time.", "bob": "alice wins: you ran out of time."}[who])
	}
	if g := h.game(1); g.Status != db.Finished || g.Reason != rules.OutOfTime || g.Result != db.WhiteWins {
		t.Errorf("game after the time out = %+v", g)
	}
	if next := h.tick(); !next.IsZero() {
		t.Errorf("Tick() with no game = %v, want zero", next)
	}
}

func TestEscalatingReminders(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.startGame("alice", "bob") // days=3
	began := h.clock.Now()
	for _, tt := range []struct {
		at   time.Duration
		want string
	}{
		{36 * time.Hour, "Reminder: it is your move in game 1, and you have\n1 day 12 hours left"},
		{48 * time.Hour, "LAST REMINDER: it is your move in game 1, and you have\n1 day left"},
	} {
		h.clock.Advance(began.Add(tt.at).Sub(h.clock.Now()))
		h.tick()
		wantText(t, only(t, h.deliver(), "alice"), tt.want)
	}
}

func TestBankClock(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.deliver()
	h.sendProven("alice", "challenge congo bob bank=2+1")
	h.deliver()
	h.sendProven("bob", "accept congo 1")
	h.deliver()
	h.clock.Advance(12 * time.Hour)
	h.sendProven("alice", "move congo 1 b2-b3") // 2d - 12h + 1d, capped at 2d
	wantText(t, only(t, h.deliver(), "bob"), "alice: 2 days left", "bob: 2 days left")
	h.clock.Advance(36 * time.Hour)
	h.sendProven("bob", "move congo 1 b6-b5") // 2d - 36h + 1d
	wantText(t, only(t, h.deliver(), "alice"), "bob: 1 day 12 hours left")
}

func TestMoveAfterTheDeadline(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.startGame("alice", "bob")
	h.clock.Advance(3 * 24 * time.Hour)
	h.sendProven("alice", "move congo 1 b2-b3") // the clock loop has not run yet
	mails := h.deliver()
	// One mail: the result, and the answer to the move (M23).
	wantText(t, only(t, mails, "alice"), "bob wins: you ran out of time.", "> move congo 1 b2-b3", "not being played")
	wantText(t, only(t, mails, "bob"), "You win: alice ran out of time.")
	if g := h.game(1); g.Result != db.BlackWins {
		t.Errorf("result = %v, want black wins", g.Result)
	}
}

func TestClockSurvivesRestart(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.startGame("alice", "bob")
	// The server stops; when a new one starts on the same database after
	// the deadline, its first tick ends the game.
	h.clock.Advance(4 * 24 * time.Hour)
	s, err := New(Config{DB: h.db, Now: h.clock.Now, Logger: h.s.log, Settings: config.Settings{Address: ourAddress}})
	if err != nil {
		t.Fatal(err)
	}
	h.s = s
	h.tick()
	for _, m := range h.deliver() {
		wantText(t, m, "ran out of time.")
		wantText(t, m, map[string]string{"alice@players.example": "bob wins: you ran out of time.", "bob@players.example": "You win: alice ran out of time."}[m.To])
	}
	if g := h.game(1); g.Status != db.Finished {
		t.Errorf("game after the restart's tick = %+v", g)
	}
}

func TestRunClock(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.startGame("alice", "bob")
	h.clock.Advance(4 * 24 * time.Hour)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.s.Clock().Run(ctx) }()
	deadline := time.Now().Add(30 * time.Second)
	for h.game(1).Status != db.Finished && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != context.Canceled {
		t.Errorf("RunClock() = %v, want context.Canceled", err)
	}
	if g := h.game(1); g.Status != db.Finished || g.Reason != rules.OutOfTime {
		t.Errorf("game after RunClock = %+v, want lost on time", g)
	}
}

func TestTickSkipsBrokenGame(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob", "carol")
	broken := h.startGame("alice", "bob")
	fine := h.startGame("alice", "carol")
	h.inTx(func(ctx context.Context, tx *db.Tx) error {
		g, err := tx.Game(ctx, broken)
		if err != nil {
			return err
		}
		g.Position = "not a position"
		return tx.UpdateGame(ctx, g, h.clock.Now())
	})
	h.clock.Advance(3*game.Day + time.Minute)
	next, err := h.s.Clock().Tick(context.Background())
	if err != nil {
		t.Fatalf("Tick: %v", err)
	}
	if g := h.game(fine); g.Status == db.Active {
		t.Errorf("game %d not timed out: one broken game blocked the others", fine)
	}
	if want := h.clock.Now().Add(time.Minute); next.IsZero() || next.After(want) {
		t.Errorf("next = %v, want the broken game tried again by %v", next, want)
	}
	wantText(t, only(t, h.deliver(), "carol"), "ran out of time")
}

// TestTickPrunesOldMail: the clock deletes mail sent more than KeepSent
// ago, and keeps mail still waiting to be sent.
func TestTickPrunesOldMail(t *testing.T) {
	h := newHarness(t)
	h.send("alice", "help") // outbox mail 1, sent below
	h.deliver()
	h.send("bob", "help") // 2, not sent
	h.clock.Advance(outbox.KeepSent + time.Hour)
	h.tick()
	h.inTx(func(ctx context.Context, tx *db.Tx) error {
		if _, err := tx.Mail(ctx, 1); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("mail 1, sent %v ago: err %v, want it pruned", outbox.KeepSent+time.Hour, err)
		}
		if _, err := tx.Mail(ctx, 2); err != nil {
			t.Errorf("mail 2, waiting: %v, want it kept", err)
		}
		return nil
	})
}
