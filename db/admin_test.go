package db

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestBannedAndAdjourned(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	alice, bob := twoPlayers(t, d)
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		g, err := tx.AddGame(ctx, Game{White: alice.ID, Black: bob.ID, Challenger: alice.ID, Status: Active, Position: "start"}, t0)
		if err != nil {
			return err
		}
		steps := []struct {
			name string
			do   func() error
			get  func() (bool, error)
			want bool
		}{
			{"new player", nil, func() (bool, error) { return tx.Banned(ctx, bob.ID) }, false},
			{"ban", func() error { return tx.SetBanned(ctx, bob.ID, t0) }, func() (bool, error) { return tx.Banned(ctx, bob.ID) }, true},
			{"other player", nil, func() (bool, error) { return tx.Banned(ctx, alice.ID) }, false},
			{"unban", func() error { return tx.SetBanned(ctx, bob.ID, time.Time{}) }, func() (bool, error) { return tx.Banned(ctx, bob.ID) }, false},
			{"new game", nil, func() (bool, error) { return tx.Adjourned(ctx, g.ID) }, false},
			{"adjourn", func() error { return tx.SetAdjourned(ctx, g.ID, t0) }, func() (bool, error) { return tx.Adjourned(ctx, g.ID) }, true},
			{"resume", func() error { return tx.SetAdjourned(ctx, g.ID, time.Time{}) }, func() (bool, error) { return tx.Adjourned(ctx, g.ID) }, false},
		}
		for _, s := range steps {
			if s.do != nil {
				if err := s.do(); err != nil {
					t.Fatalf("%s: %v", s.name, err)
				}
			}
			if got, err := s.get(); err != nil || got != s.want {
				t.Errorf("%s: got %v, %v, want %v", s.name, got, err, s.want)
			}
		}
		if _, err := tx.Banned(ctx, 999); !errors.Is(err, ErrNotFound) {
			t.Errorf("Banned(no such player) = %v, want ErrNotFound", err)
		}
		if err := tx.SetAdjourned(ctx, 999, t0); !errors.Is(err, ErrNotFound) {
			t.Errorf("SetAdjourned(no such game) = %v, want ErrNotFound", err)
		}
		return nil
	})
}

// An adjournment is read with the game, by every query for games, and
// UpdateGame, which stores the rest of the game, leaves it alone.
func TestGameReadsAdjourned(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	alice, bob := twoPlayers(t, d)
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		g, err := tx.AddGame(ctx, Game{White: alice.ID, Black: bob.ID, Challenger: alice.ID, Status: Active, Position: "start"}, t0)
		if err != nil {
			return err
		}
		check := func(step string, want time.Time) {
			t.Helper()
			got, err := tx.Game(ctx, g.ID)
			if err != nil {
				t.Fatalf("%s: Game: %v", step, err)
			}
			if !got.Adjourned.Equal(want) || got.IsAdjourned() != !want.IsZero() {
				t.Errorf("%s: Game: Adjourned %v (IsAdjourned %v), want %v", step, got.Adjourned, got.IsAdjourned(), want)
			}
			active, err := tx.ActiveGames(ctx)
			if err != nil || len(active) != 1 || !active[0].Adjourned.Equal(want) {
				t.Errorf("%s: ActiveGames = %+v, %v, want adjourned %v", step, active, err, want)
			}
			of, err := tx.GamesOf(ctx, bob.ID)
			if err != nil || len(of) != 1 || !of[0].Adjourned.Equal(want) {
				t.Errorf("%s: GamesOf = %+v, %v, want adjourned %v", step, of, err, want)
			}
		}
		check("new game", time.Time{})
		if err := tx.SetAdjourned(ctx, g.ID, t0); err != nil {
			return err
		}
		check("adjourned", t0)
		g.Reminders = 1 // g as read before the adjournment
		if err := tx.SetGame(ctx, g, t0.Add(time.Hour)); err != nil {
			return err
		}
		check("updated", t0)
		if err := tx.SetAdjourned(ctx, g.ID, time.Time{}); err != nil {
			return err
		}
		check("resumed", time.Time{})
		return nil
	})
}
