package db

import (
	"context"
	"errors"
	"testing"
)

func TestCreatePlayer(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		_, err := tx.AddPlayer(ctx, "Alice", "Alice@Example.org", "secret", t0)
		return err
	})
	tests := []struct {
		handle, address string
		want            error
	}{
		{"bob", "bob@example.org", nil},
		{"alice", "carol@example.org", ErrHandleTaken},
		{"ALICE", "carol@example.org", ErrHandleTaken},
		{"carol", "alice@example.org", ErrAddressTaken},
		{"carol", "ALICE@EXAMPLE.ORG", ErrAddressTaken},
	}
	for _, tt := range tests {
		inTx(t, d, func(ctx context.Context, tx *Tx) error {
			_, err := tx.AddPlayer(ctx, tt.handle, tt.address, "s", t0)
			if !errors.Is(err, tt.want) && !(err == nil && tt.want == nil) {
				t.Errorf("CreatePlayer(%q, %q) error = %v, want %v", tt.handle, tt.address, err, tt.want)
			}
			return nil
		})
	}
}

func TestPlayerLookups(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	var alice Player
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		var err error
		alice, err = tx.AddPlayer(ctx, "Alice", "Alice@Example.org", "secret1", t0)
		return err
	})
	want := Player{ID: alice.ID, Handle: "Alice", Address: "alice@example.org", Secret: "secret1", Created: t0,
		Rating: StartRating, Deviation: StartDeviation, Volatility: StartVolatility, Notify: NotifyEach,
		VacationLeft: StartVacation, VacationAccrued: t0}
	if alice != want {
		t.Fatalf("CreatePlayer() = %+v, want %+v", alice, want)
	}
	lookups := []struct {
		name string
		find func(ctx context.Context, tx *Tx) (Player, error)
		ok   bool
	}{
		{"Player(id)", func(ctx context.Context, tx *Tx) (Player, error) { return tx.Player(ctx, alice.ID) }, true},
		{"Player(other id)", func(ctx context.Context, tx *Tx) (Player, error) { return tx.Player(ctx, alice.ID+1) }, false},
		{"PlayerByHandle(aLiCe)", func(ctx context.Context, tx *Tx) (Player, error) { return tx.PlayerByHandle(ctx, "aLiCe") }, true},
		{"PlayerByHandle(bob)", func(ctx context.Context, tx *Tx) (Player, error) { return tx.PlayerByHandle(ctx, "bob") }, false},
		{"PlayerByAddress(ALICE@example.ORG)", func(ctx context.Context, tx *Tx) (Player, error) {
			return tx.PlayerByAddress(ctx, "ALICE@example.ORG")
		}, true},
		{"PlayerByAddress(alice@example.com)", func(ctx context.Context, tx *Tx) (Player, error) {
			return tx.PlayerByAddress(ctx, "alice@example.com")
		}, false},
	}
	for _, l := range lookups {
		inTx(t, d, func(ctx context.Context, tx *Tx) error {
			got, err := l.find(ctx, tx)
			switch {
			case l.ok && (err != nil || got != want):
				t.Errorf("%s = %+v, %v, want %+v", l.name, got, err, want)
			case !l.ok && !errors.Is(err, ErrNotFound):
				t.Errorf("%s error = %v, want ErrNotFound", l.name, err)
			}
			return nil
		})
	}
}

func TestSetSecret(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		p, err := tx.AddPlayer(ctx, "alice", "alice@example.org", "old", t0)
		if err != nil {
			return err
		}
		if err := tx.SetSecret(ctx, p.ID, "new"); err != nil {
			return err
		}
		got, err := tx.Player(ctx, p.ID)
		if err != nil {
			return err
		}
		if got.Secret != "new" {
			t.Errorf("Secret after SetSecret(new) = %q, want %q", got.Secret, "new")
		}
		if err := tx.SetSecret(ctx, p.ID+1, "x"); !errors.Is(err, ErrNotFound) {
			t.Errorf("SetSecret(unknown player) error = %v, want ErrNotFound", err)
		}
		return nil
	})
}

// TestLanguages: a player's language is kept (M40), and the language of
// a game's Subject for a player is the one of their first mail about it
// (M22).
func TestLanguages(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		alice, err := tx.AddPlayer(ctx, "alice", "alice@example.org", "s1", t0)
		if err != nil {
			return err
		}
		if alice.Language != "" {
			t.Errorf("a new player's language = %q, want none", alice.Language)
		}
		if err := tx.SetLanguage(ctx, alice.ID, "ja"); err != nil {
			return err
		}
		if p, err := tx.Player(ctx, alice.ID); err != nil || p.Language != "ja" {
			t.Errorf("after SetLanguage(ja): %+v, %v", p, err)
		}
		if err := tx.SetLanguage(ctx, alice.ID+1, "cs"); !errors.Is(err, ErrNotFound) {
			t.Errorf("SetLanguage of no player = %v, want ErrNotFound", err)
		}
		bob, err := tx.AddPlayer(ctx, "bob", "bob@example.org", "s2", t0)
		if err != nil {
			return err
		}
		g, err := tx.AddGame(ctx, Game{White: alice.ID, Black: bob.ID, Challenger: alice.ID, Status: Active, Position: "start"}, t0)
		if err != nil {
			return err
		}
		for _, tt := range []struct {
			player      int64
			asked, want string
		}{
			{alice.ID, "ja", "ja"},
			{alice.ID, "cs", "ja"}, // the first stays
			{bob.ID, "cs", "cs"},
			{bob.ID, "en", "cs"},
		} {
			got, err := tx.SubjectLanguage(ctx, g.ID, tt.player, tt.asked)
			if err != nil || got != tt.want {
				t.Errorf("SubjectLanguage(%d, %d, %q) = %q, %v, want %q", g.ID, tt.player, tt.asked, got, err, tt.want)
			}
		}
		return nil
	})
}
