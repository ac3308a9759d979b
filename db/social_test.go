package db

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func TestGameClocks(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	alice, bob := twoPlayers(t, d)
	g := Game{White: alice.ID, Black: bob.ID, Challenger: alice.ID, Status: Active, Position: start,
		TimeControl: "bank=10+1", Rated: true, WhiteLeft: 10 * 24 * time.Hour, BlackLeft: 9 * time.Hour,
		ClockStart: t0.Add(time.Minute), TurnTime: time.Hour, Reminders: 2, DrawOffer: alice.ID, Takeback: bob.ID}
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		var err error
		if g, err = tx.AddGame(ctx, g, t0); err != nil {
			return err
		}
		got, err := tx.Game(ctx, g.ID)
		if err != nil {
			return err
		}
		if got != g {
			t.Errorf("Game(%d) = %+v, want %+v", g.ID, got, g)
		}
		g.ClockStart, g.Rated, g.DrawOffer = time.Time{}, false, 0
		if err := tx.SetGame(ctx, g, t0); err != nil {
			return err
		}
		if got, err = tx.Game(ctx, g.ID); err != nil {
			return err
		}
		if got != g {
			t.Errorf("Game(%d) after UpdateGame = %+v, want %+v", g.ID, got, g)
		}
		active, err := tx.ActiveGames(ctx)
		if err != nil || len(active) != 1 || active[0] != g {
			t.Errorf("ActiveGames() = %+v, %v, want [%+v]", active, err, g)
		}
		for ply, m := range []string{"b2-b3", "b6-b5"} {
			if err := tx.AddMove(ctx, Move{Game: g.ID, Ply: ply + 1, Move: m, Position: start, At: t0, Message: "hi"}); err != nil {
				return err
			}
		}
		if err := tx.DeleteLastMove(ctx, g.ID); err != nil {
			return err
		}
		moves, err := tx.Moves(ctx, g.ID)
		if err != nil || len(moves) != 1 || moves[0].Move != "b2-b3" || moves[0].Message != "hi" {
			t.Errorf("Moves() after DeleteLastMove = %+v, %v, want b2-b3 with its comment", moves, err)
		}
		return nil
	})
}

func TestUpdatePlayer(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	alice, bob := twoPlayers(t, d)
	alice.Rating, alice.Deviation, alice.Volatility, alice.RatedGames = 1600, 80, 0.059, 3
	alice.Notify, alice.DigestAt = NotifyDigest, t0.Add(24*time.Hour)
	alice.VacationLeft, alice.VacationUntil = 5*24*time.Hour, t0.Add(48*time.Hour)
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		if err := tx.SetPlayer(ctx, alice); err != nil {
			return err
		}
		got, err := tx.Player(ctx, alice.ID)
		if err != nil || got != alice {
			t.Errorf("Player() after UpdatePlayer = %+v, %v, want %+v", got, err, alice)
		}
		rated, err := tx.RatedPlayers(ctx)
		if err != nil || len(rated) != 1 || rated[0].ID != alice.ID {
			t.Errorf("RatedPlayers() = %+v, %v, want alice only", rated, err)
		}
		for _, tt := range []struct {
			at   time.Time
			want int
		}{{t0, 0}, {t0.Add(24 * time.Hour), 1}} {
			due, err := tx.DigestsDue(ctx, tt.at)
			if err != nil || len(due) != tt.want {
				t.Errorf("DigestsDue(%v) = %d players, %v, want %d", tt.at, len(due), err, tt.want)
			}
		}
		next, ok, err := tx.NextDigest(ctx)
		if err != nil || !ok || !next.Equal(alice.DigestAt) {
			t.Errorf("NextDigest() = %v, %v, %v, want %v", next, ok, err, alice.DigestAt)
		}
		_ = bob
		return nil
	})
}

func TestObserversSeeksConditionals(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	alice, bob := twoPlayers(t, d)
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		carol, err := tx.AddPlayer(ctx, "carol", "carol@example.org", "s3", t0)
		if err != nil {
			return err
		}
		g, err := tx.AddGame(ctx, Game{White: alice.ID, Black: bob.ID, Challenger: alice.ID, Status: Active, Position: start}, t0)
		if err != nil {
			return err
		}
		if g.TimeControl != DefaultTimeControl {
			t.Errorf("CreateGame time control = %q, want %q", g.TimeControl, DefaultTimeControl)
		}
		for _, want := range []bool{true, false} {
			if added, err := tx.AddObserver(ctx, g.ID, carol.ID); err != nil || added != want {
				t.Errorf("AddObserver() = %v, %v, want %v", added, err, want)
			}
		}
		obs, err := tx.Observers(ctx, g.ID)
		if err != nil || len(obs) != 1 || obs[0].ID != carol.ID {
			t.Errorf("Observers() = %+v, %v, want carol", obs, err)
		}
		if removed, err := tx.DeleteObserver(ctx, g.ID, carol.ID); err != nil || !removed {
			t.Errorf("RemoveObserver() = %v, %v, want true", removed, err)
		}

		seek := Seek{Player: alice.ID, TimeControl: "days=3", Rated: true, Created: t0}
		if err := tx.SetSeek(ctx, seek); err != nil {
			return err
		}
		if _, err := tx.MatchSeek(ctx, seek); !errors.Is(err, ErrNotFound) {
			t.Errorf("MatchSeek(own seek) error = %v, want ErrNotFound", err)
		}
		other := Seek{Player: bob.ID, TimeControl: "days=3", Rated: false, Created: t0}
		if _, err := tx.MatchSeek(ctx, other); !errors.Is(err, ErrNotFound) {
			t.Errorf("MatchSeek(unrated) error = %v, want ErrNotFound", err)
		}
		other.Rated = true
		if m, err := tx.MatchSeek(ctx, other); err != nil || m != seek {
			t.Errorf("MatchSeek() = %+v, %v, want %+v", m, err, seek)
		}
		if deleted, err := tx.DeleteSeek(ctx, alice.ID); err != nil || !deleted {
			t.Errorf("DeleteSeek() = %v, %v, want true", deleted, err)
		}

		branches := [][]string{{"b6-b5", "c2-c3"}, {"a6-a5", "b2-b3", "c6-c5", "c2-c3"}}
		for _, b := range branches {
			if err := tx.AddConditional(ctx, g.ID, alice.ID, b); err != nil {
				return err
			}
		}
		got, err := tx.Conditionals(ctx, g.ID, alice.ID)
		if err != nil || !reflect.DeepEqual(got, branches) {
			t.Errorf("Conditionals() = %q, %v, want %q", got, err, branches)
		}
		if n, err := tx.DeleteConditionals(ctx, g.ID, alice.ID); err != nil || n != 2 {
			t.Errorf("ClearConditionals() = %d, %v, want 2", n, err)
		}
		return nil
	})
}

func TestMigrateCorrespondence(t *testing.T) {
	t.Parallel()
	// A database of schema version 1 with players and a game being
	// played, as a server before the correspondence features left it.
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "congo.db")
	s, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		t.Fatal(err)
	}
	script, err := migrationFiles.ReadFile("migrations/001_init.sql")
	if err != nil {
		t.Fatal(err)
	}
	created := formatTime(t0)
	for _, q := range []string{
		string(script),
		"INSERT INTO players (handle, address, secret, created) VALUES ('alice', 'a@x', 's1', '" + created + "'), ('bob', 'b@x', 's2', '" + created + "')",
		"INSERT INTO games (white, black, challenger, status, position, created, updated) VALUES (1, 2, 1, 'active', '" + start + "', '" + created + "', '" + created + "')",
		"PRAGMA user_version = 1",
	} {
		if _, err := s.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	s.Close()

	d, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer d.Close()
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		g, err := tx.Game(ctx, 1)
		if err != nil {
			return err
		}
		if g.TimeControl != DefaultTimeControl || !g.Rated || !g.ClockStart.Equal(t0) || g.WhiteLeft != 3*24*time.Hour {
			t.Errorf("game after the migration = %+v, want days=3, rated, its clock started at %v", g, t0)
		}
		p, err := tx.Player(ctx, 1)
		if err != nil {
			return err
		}
		if p.Rating != StartRating || p.Notify != NotifyEach || p.VacationLeft != StartVacation || !p.VacationAccrued.Equal(t0) {
			t.Errorf("player after the migration = %+v", p)
		}
		return nil
	})
}
