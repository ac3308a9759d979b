package db

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/congobymail/congo/rules"
)

// twoPlayers registers alice and bob.
func twoPlayers(t *testing.T, d *DB) (alice, bob Player) {
	t.Helper()
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		var err error
		if alice, err = tx.AddPlayer(ctx, "alice", "alice@example.org", "s1", t0); err != nil {
			return err
		}
		bob, err = tx.AddPlayer(ctx, "bob", "bob@example.org", "s2", t0)
		return err
	})
	return alice, bob
}

const start = "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1"

func TestGameLifeCycle(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	alice, bob := twoPlayers(t, d)
	var g Game
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		var err error
		g, err = tx.AddGame(ctx, Game{White: bob.ID, Black: alice.ID, Challenger: alice.ID, Status: Challenged, Position: start}, t0)
		return err
	})
	if g.ID != 1 {
		t.Errorf("first game id = %d, want 1", g.ID)
	}
	if g.Challenged() != bob.ID || g.Opponent(alice.ID) != bob.ID || g.Opponent(bob.ID) != alice.ID {
		t.Errorf("Challenged() = %d, Opponent(alice) = %d, Opponent(bob) = %d; want bob, bob, alice",
			g.Challenged(), g.Opponent(alice.ID), g.Opponent(bob.ID))
	}
	if !g.Has(alice.ID) || !g.Has(bob.ID) || g.Has(bob.ID+1) {
		t.Errorf("Has() is wrong for game %+v", g)
	}

	t1 := t0.Add(time.Hour)
	g.Status, g.Result, g.Reason, g.ThreadRoot = Finished, BlackWins, rules.Resigned, "root@example.org"
	g.Position = "gmelecz/ppppppp/7/7/7/1PPPPPP/GMELECZ b 1"
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		if err := tx.SetGame(ctx, g, t1); err != nil {
			return err
		}
		got, err := tx.Game(ctx, g.ID)
		if err != nil {
			return err
		}
		want := g
		want.Updated = t1
		if got != want {
			t.Errorf("Game(%d) after UpdateGame = %+v, want %+v", g.ID, got, want)
		}
		if _, err := tx.Game(ctx, g.ID+1); !errors.Is(err, ErrNotFound) {
			t.Errorf("Game(unknown) error = %v, want ErrNotFound", err)
		}
		if err := tx.SetGame(ctx, Game{ID: g.ID + 1, Status: Active}, t1); !errors.Is(err, ErrNotFound) {
			t.Errorf("UpdateGame(unknown) error = %v, want ErrNotFound", err)
		}
		return nil
	})
}

func TestCreateGameChecks(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	alice, bob := twoPlayers(t, d)
	bad := []Game{
		{White: alice.ID, Black: alice.ID, Challenger: alice.ID, Status: Challenged, Position: start},
		{White: alice.ID, Black: bob.ID, Challenger: bob.ID + 1, Status: Challenged, Position: start},
		{White: alice.ID, Black: bob.ID + 5, Challenger: alice.ID, Status: Challenged, Position: start},
		{White: alice.ID, Black: bob.ID, Challenger: alice.ID, Position: start},
	}
	for _, g := range bad {
		err := d.Tx(context.Background(), func(tx *Tx) error {
			_, err := tx.AddGame(context.Background(), g, t0)
			return err
		})
		if err == nil {
			t.Errorf("CreateGame(%+v) succeeded, want an error", g)
		}
	}
}

func TestGamesOf(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	alice, bob := twoPlayers(t, d)
	var carol Player
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		var err error
		if carol, err = tx.AddPlayer(ctx, "carol", "carol@example.org", "s3", t0); err != nil {
			return err
		}
		pairs := [][2]int64{{alice.ID, bob.ID}, {bob.ID, carol.ID}, {carol.ID, alice.ID}}
		for _, p := range pairs {
			if _, err := tx.AddGame(ctx, Game{White: p[0], Black: p[1], Challenger: p[0], Status: Active, Position: start}, t0); err != nil {
				return err
			}
		}
		return nil
	})
	tests := []struct {
		player Player
		want   []int64
	}{
		{alice, []int64{1, 3}},
		{bob, []int64{1, 2}},
		{carol, []int64{2, 3}},
	}
	for _, tt := range tests {
		inTx(t, d, func(ctx context.Context, tx *Tx) error {
			games, err := tx.GamesOf(ctx, tt.player.ID)
			if err != nil {
				return err
			}
			var got []int64
			for _, g := range games {
				got = append(got, g.ID)
			}
			if len(got) != len(tt.want) || got[0] != tt.want[0] || got[1] != tt.want[1] {
				t.Errorf("GamesOf(%s) = %v, want %v", tt.player.Handle, got, tt.want)
			}
			return nil
		})
	}
}

func TestMoves(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	alice, bob := twoPlayers(t, d)
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		g, err := tx.AddGame(ctx, Game{White: alice.ID, Black: bob.ID, Challenger: alice.ID, Status: Active, Position: start}, t0)
		if err != nil {
			return err
		}
		want := []Move{
			{Game: g.ID, Ply: 1, Move: "b2-b3", Position: "p1", At: t0},
			{Game: g.ID, Ply: 2, Move: "b6-b5", Position: "p2", At: t0.Add(time.Minute)},
		}
		for _, m := range want {
			if err := tx.AddMove(ctx, m); err != nil {
				return err
			}
		}
		// In a savepoint, as the server's work is: after an error
		// PostgreSQL takes no more of the transaction until it is undone.
		if err := tx.Savepoint(ctx, func() error { return tx.AddMove(ctx, want[1]) }); err == nil {
			t.Errorf("AddMove(ply %d again) succeeded, want an error", want[1].Ply)
		}
		got, err := tx.Moves(ctx, g.ID)
		if err != nil {
			return err
		}
		if len(got) != len(want) {
			t.Fatalf("Moves() = %+v, want %+v", got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("Moves()[%d] = %+v, want %+v", i, got[i], want[i])
			}
		}
		return nil
	})
}

func TestStatusAndResultNames(t *testing.T) {
	t.Parallel()
	for s := Challenged; s <= Finished; s++ {
		if got, err := parseStatus(s.String()); err != nil || got != s {
			t.Errorf("parseStatus(%q) = %v, %v, want %v", s.String(), got, err, s)
		}
	}
	for r := NoResult; r <= Draw; r++ {
		if got, err := parseResult(r.String()); err != nil || got != r {
			t.Errorf("parseResult(%q) = %v, %v, want %v", r.String(), got, err, r)
		}
	}
	if _, err := parseStatus(""); err == nil {
		t.Errorf("parseStatus(\"\") succeeded, want an error")
	}
}
