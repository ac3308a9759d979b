package game

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/rules"
)

// t0 is when alice and bob registered, and their first game begins.
var t0 = congotest.T0

// world is a database with two players, alice and bob, on a real SQLite
// file (congotest.NewDB).
type world struct {
	t          *testing.T
	db         *db.DB
	alice, bob db.Player
}

func newWorld(t *testing.T) *world {
	t.Helper()
	d := congotest.NewDB(t, "alice", "bob")
	return &world{t: t, db: d, alice: congotest.Player(t, d, "alice"), bob: congotest.Player(t, d, "bob")}
}

func (w *world) tx(fn func(ctx context.Context, tx *db.Tx) error) {
	w.t.Helper()
	congotest.InTx(w.t, w.db, fn)
}

// started starts a game of alice (white) against bob at t0.
func (w *world) started() State {
	w.t.Helper()
	var st State
	w.tx(func(ctx context.Context, tx *db.Tx) (err error) {
		st, _, err = Start(ctx, tx, Terms{White: w.alice, Black: w.bob, Challenger: w.alice}, t0)
		return err
	})
	return st
}

// play plays moves in turn in game id, each an hour after the last, and
// returns the events of the last.
func (w *world) play(id int64, moves ...string) []Event {
	w.t.Helper()
	var evs []Event
	for i, m := range moves {
		w.tx(func(ctx context.Context, tx *db.Tx) error {
			st, err := Load(ctx, tx, id, t0.Add(time.Duration(i+1)*time.Hour))
			if err != nil {
				return err
			}
			evs, err = Move(ctx, tx, &st, st.ToMove(), m, 0, "")
			return err
		})
	}
	return evs
}

func kinds(evs []Event) []Kind {
	var ks []Kind
	for _, e := range evs {
		ks = append(ks, e.Kind)
	}
	return ks
}

// TestChallengeAndAccept: a challenge waits for the challenged player,
// whom alone it lets answer; accepting starts both clocks (R1: white moves
// first).
func TestChallengeAndAccept(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.tx(func(ctx context.Context, tx *db.Tx) error {
		st, evs, err := Challenge(ctx, tx, Terms{White: w.alice, Black: w.bob, Challenger: w.alice}, t0)
		if err != nil {
			return err
		}
		if !slices.Equal(kinds(evs), []Kind{Challenged}) || st.Game.Status != db.Challenged || st.Game.TimeControl != "days=3" {
			t.Errorf("Challenge = %+v, %v", st.Game, kinds(evs))
		}
		var r *Refusal
		if _, err := Accept(ctx, tx, &st, w.alice); !errors.As(err, &r) || r.Problem != OwnChallenge || r.Other != "bob" {
			t.Errorf("Accept by the challenger = %v, want OwnChallenge naming bob", err)
		}
		evs, err = Accept(ctx, tx, &st, w.bob)
		if err != nil {
			return err
		}
		if !slices.Equal(kinds(evs), []Kind{Accepted}) || evs[0].By.ID != w.bob.ID || !st.Active() {
			t.Errorf("Accept = %v by %v, status %v", kinds(evs), evs[0].By.Handle, st.Game.Status)
		}
		if st.Game.WhiteLeft != 3*Day || !st.Game.ClockStart.Equal(t0) || st.ToMove().ID != w.alice.ID {
			t.Errorf("after Accept: white left %v, clock start %v, to move %s", st.Game.WhiteLeft, st.Game.ClockStart, st.ToMove().Handle)
		}
		if _, err := Decline(ctx, tx, &st, w.bob); !errors.As(err, &r) || r.Problem != NotChallenged {
			t.Errorf("Decline of a game begun = %v, want NotChallenged", err)
		}
		return nil
	})
}

// TestMoveRefusals: nothing is changed by a move out of turn, with a
// stale guard (M1), or not legal; the rules say what that piece can do.
func TestMoveRefusals(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	st := w.started()
	tests := []struct {
		by     db.Player
		move   string
		number int
		want   Problem
	}{
		{w.bob, "b6-b5", 0, NotYourTurn},
		{w.alice, "b2-b3", 2, StaleMoveNumber},
		{w.alice, "b2-b5", 0, IllegalMove},
	}
	for _, tt := range tests {
		w.tx(func(ctx context.Context, tx *db.Tx) error {
			s := st
			_, err := Move(ctx, tx, &s, tt.by, tt.move, tt.number, "")
			var r *Refusal
			if !errors.As(err, &r) || r.Problem != tt.want {
				t.Errorf("Move(%s, %s #%d) = %v, want %v", tt.by.Handle, tt.move, tt.number, err, tt.want)
			}
			return nil
		})
	}
	w.tx(func(ctx context.Context, tx *db.Tx) error {
		moves, err := tx.Moves(ctx, st.ID())
		if len(moves) != 0 {
			t.Errorf("refused moves stored: %v", moves)
		}
		return err
	})
}

// TestMoveThatEndsTheGame: the move and the end come as two events, the
// end with the result and the rating change (R15, M16).
func TestMoveThatEndsTheGame(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	st := w.started()
	evs := w.play(st.ID(), "d2-e3", "d6-c5", "d1xd7")
	if !slices.Equal(kinds(evs), []Kind{Moved, Ended}) {
		t.Fatalf("the lion's capture gave %v, want moved, ended", kinds(evs))
	}
	end := evs[1].Game
	if end.Game.Result != db.WhiteWins || end.Game.Reason != rules.LionCaptured || end.Rated == nil || end.Rated.White <= 0 || end.Rated.Black >= 0 {
		t.Errorf("the end: result %v, reason %v, rated %+v", end.Game.Result, end.Game.Reason, end.Rated)
	}
	if got, ok := Ends(evs); !ok || got.Game.Status != db.Finished {
		t.Errorf("Ends = %v, %v", got.Game.Status, ok)
	}
	if e := evs[0]; e.By.ID != w.alice.ID || e.Move.Move.String() != "d1xd7" || len(e.Move.Captured) != 1 {
		t.Errorf("the move event: by %s, %v", e.By.Handle, e.Move)
	}
}

// TestConditionalAnswer: a move answered by the opponent's conditional
// moves gives both moves as events, each with the game as it was just
// after it (M14).
func TestConditionalAnswer(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	st := w.started()
	w.tx(func(ctx context.Context, tx *db.Tx) error {
		return AddConditional(ctx, tx, &st, w.bob, []string{"b2-b3", "b6-b5"})
	})
	evs := w.play(st.ID(), "b2-b3")
	if !slices.Equal(kinds(evs), []Kind{Moved, Moved}) || evs[0].Conditional || !evs[1].Conditional || evs[1].By.ID != w.bob.ID {
		t.Fatalf("b2-b3 against a conditional answer gave %v", evs)
	}
	if evs[0].Game.Pos.Turn() != rules.Black || evs[1].Game.Pos.Turn() != rules.White {
		t.Errorf("the events' games are not as they were after each move")
	}
	var r *Refusal
	w.tx(func(ctx context.Context, tx *db.Tx) error {
		st, err := Load(ctx, tx, st.ID(), t0)
		if err != nil {
			return err
		}
		if err := AddConditional(ctx, tx, &st, w.alice, []string{"c6-c5", "a2-a3"}); !errors.As(err, &r) || r.Problem != YourMove {
			t.Errorf("conditional moves on one's own move = %v, want YourMove", err)
		}
		return nil
	})
}

// TestOffers: a draw offered and accepted ends the game drawn (M13); an
// abort after both sides moved is refused.
func TestOffers(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	st := w.started()
	w.play(st.ID(), "b2-b3", "b6-b5")
	w.tx(func(ctx context.Context, tx *db.Tx) error {
		st, err := Load(ctx, tx, st.ID(), t0.Add(3*time.Hour))
		if err != nil {
			return err
		}
		var r *Refusal
		if _, err := Abort(ctx, tx, &st, w.alice); !errors.As(err, &r) || r.Problem != TooLate {
			t.Errorf("Abort after both moved = %v, want TooLate", err)
		}
		if _, err := NoDraw(ctx, tx, &st, w.alice); !errors.As(err, &r) || r.Problem != NoOffer {
			t.Errorf("NoDraw without an offer = %v, want NoOffer", err)
		}
		evs, err := Draw(ctx, tx, &st, w.alice)
		if err != nil || !slices.Equal(kinds(evs), []Kind{DrawOffered}) {
			t.Errorf("Draw = %v, %v; want an offer", kinds(evs), err)
		}
		evs, err = Draw(ctx, tx, &st, w.bob)
		if err != nil || !slices.Equal(kinds(evs), []Kind{Ended}) || st.Game.Result != db.Draw || st.Game.Reason != rules.Agreed {
			t.Errorf("Draw by the other = %v, %v, result %v; want the end, agreed", kinds(evs), err, st.Game.Result)
		}
		return nil
	})
}

// TestClockDue: a reminder when half the time is gone, the last one a day
// before, and the loss on time at the deadline.
func TestClockDue(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	st := w.started()
	if want := t0.Add(36 * time.Hour); !st.Game.ClockDue.Equal(want) {
		t.Errorf("ClockDue of a new game = %v, want %v (half the time gone)", st.Game.ClockDue, want)
	}
	for _, tt := range []struct {
		after time.Duration
		want  []Kind
		final bool
		next  time.Duration // the ClockDue after it, from t0; 0 for none
	}{
		{36 * time.Hour, []Kind{Reminded}, false, 48 * time.Hour},
		{48 * time.Hour, []Kind{Reminded}, true, 72 * time.Hour},
		{72 * time.Hour, []Kind{Ended}, false, 0},
	} {
		w.tx(func(ctx context.Context, tx *db.Tx) error {
			st, err := Load(ctx, tx, st.ID(), t0.Add(tt.after))
			if err != nil {
				return err
			}
			due, _, _, err := DueClocks(ctx, tx, t0.Add(tt.after))
			if err != nil || !slices.Equal(due, []int64{st.ID()}) {
				t.Errorf("DueClocks after %v = %v, %v, want game %d", tt.after, due, err, st.ID())
			}
			evs, err := ClockDue(ctx, tx, &st)
			if !slices.Equal(kinds(evs), tt.want) || len(evs) > 0 && evs[0].Final != tt.final {
				t.Errorf("ClockDue after %v = %+v, want %v (final %v)", tt.after, evs, tt.want, tt.final)
			}
			g, err := tx.Game(ctx, st.ID())
			if err != nil {
				return err
			}
			if want := t0.Add(tt.next); tt.next == 0 && !g.ClockDue.IsZero() || tt.next != 0 && !g.ClockDue.Equal(want) {
				t.Errorf("ClockDue stored after %v = %v, want %v", tt.after, g.ClockDue, tt.next)
			}
			if due, _, _, err := DueClocks(ctx, tx, t0.Add(tt.after)); err != nil || len(due) != 0 {
				t.Errorf("DueClocks after %v, once done = %v, %v, want none", tt.after, due, err)
			}
			return err
		})
	}
}

// TestDueClocksMendsEarlyTimes: a game whose stored ClockDue is earlier
// than its clock says (as after the migration, or a game written
// without it) is not due then, and gets its true time.
func TestDueClocksMendsEarlyTimes(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	st := w.started()
	w.tx(func(ctx context.Context, tx *db.Tx) error {
		if err := tx.SetClockDue(ctx, st.ID(), t0); err != nil {
			return err
		}
		due, _, _, err := DueClocks(ctx, tx, t0.Add(time.Hour))
		if err != nil || len(due) != 0 {
			t.Errorf("DueClocks an hour in = %v, %v, want none", due, err)
		}
		next, ok, err := tx.NextClockDue(ctx)
		if want := t0.Add(36 * time.Hour); err != nil || !ok || !next.Equal(want) {
			t.Errorf("NextClockDue = %v, %v, %v, want %v", next, ok, err, want)
		}
		return err
	})
}

// TestRecordLines: the record's lines are 72 characters at most, broken
// between tokens, never between a move number and its move, and a long
// comment breaks between its words.
func TestRecordLines(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	st := w.started()
	var moves []db.Move
	for ply := 1; ply <= 40; ply++ {
		m := db.Move{Ply: ply, Move: "b2-b3"}
		if ply == 7 {
			m.Message = strings.Repeat("a rather long comment {with braces} ", 6)
		}
		moves = append(moves, m)
	}
	rec := Record(&st, moves, "congo@example.org")
	_, body, _ := strings.Cut(rec, "\n\n")
	for _, l := range strings.Split(body, "\n") {
		if len(l) > 72 {
			t.Errorf("line of %d characters: %q", len(l), l)
		}
		if f := strings.Fields(l); len(f) > 0 && strings.HasSuffix(f[len(f)-1], ".") {
			t.Errorf("line ends with a move number: %q", l)
		}
	}
	if flat := strings.ReplaceAll(body, "\n", " "); !strings.Contains(flat, "{a rather long comment (with braces)") || !strings.Contains(flat, "4. b2-b3") {
		t.Errorf("record:\n%s", body)
	}
}
