package db

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestPlayerColumnsP(t *testing.T) {
	t.Parallel()
	if want := "p." + strings.ReplaceAll(playerColumns, ", ", ", p."); playerColumnsP != want {
		t.Errorf("playerColumnsP = %q, want %q", playerColumnsP, want)
	}
}

// TestTournamentLife stores a tournament through its life: created,
// joined, left before the start, started with its games and a bye, a
// withdrawal, finished.
func TestTournamentLife(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	alice, bob := twoPlayers(t, d)
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		carol, err := tx.AddPlayer(ctx, "carol", "carol@example.org", "s3", t0)
		if err != nil {
			return err
		}
		tt, err := tx.AddTournament(ctx, Tournament{Name: "Spring Cup", System: "swiss", Director: alice.ID,
			TimeControl: "days=3", Rated: true}, t0)
		if err != nil {
			return err
		}
		if tt.ID == 0 || tt.Status != TournamentOpen || !tt.Created.Equal(t0) {
			t.Errorf("CreateTournament = %+v, want an id, open, created at t0", tt)
		}
		for i, p := range []Player{alice, bob, carol} {
			if err := tx.AddTournamentPlayer(ctx, tt.ID, p.ID, t0.Add(time.Duration(i)*time.Minute)); err != nil {
				return err
			}
		}
		if err := tx.AddTournamentPlayer(ctx, tt.ID, bob.ID, t0); !errors.Is(err, ErrJoined) {
			t.Errorf("JoinTournament twice = %v, want ErrJoined", err)
		}
		if left, err := tx.DeleteTournamentPlayer(ctx, tt.ID, carol.ID); err != nil || !left {
			t.Errorf("LeaveTournament(carol) = %v, %v, want true", left, err)
		}
		if left, err := tx.DeleteTournamentPlayer(ctx, tt.ID, carol.ID); err != nil || left {
			t.Errorf("LeaveTournament(carol) again = %v, %v, want false", left, err)
		}
		if err := tx.AddTournamentPlayer(ctx, tt.ID, carol.ID, t0.Add(time.Hour)); err != nil {
			return err
		}
		ps, err := tx.TournamentPlayers(ctx, tt.ID)
		if err != nil {
			return err
		}
		var handles []string
		for _, p := range ps {
			handles = append(handles, p.Handle)
		}
		if strings.Join(handles, " ") != "alice bob carol" || ps[0].Address != "alice@example.org" || !ps[2].Joined.Equal(t0.Add(time.Hour)) {
			t.Errorf("TournamentPlayers = %+v, want alice, bob, carol in the order they joined", ps)
		}

		tt.Status, tt.Rounds, tt.Round = TournamentRunning, 3, 1
		if err := tx.SetTournament(ctx, tt, t0.Add(2*time.Hour)); err != nil {
			return err
		}
		g, err := tx.AddGame(ctx, Game{White: alice.ID, Black: bob.ID, Challenger: alice.ID, Status: Active,
			Position: start, TimeControl: "days=3", Rated: true, Tournament: tt.ID, Round: 1}, t0)
		if err != nil {
			return err
		}
		if _, err := tx.AddGame(ctx, Game{White: alice.ID, Black: carol.ID, Challenger: alice.ID, Status: Active,
			Position: start, TimeControl: "days=3"}, t0); err != nil {
			return err
		}
		if err := tx.SetBye(ctx, tt.ID, 1, carol.ID); err != nil {
			return err
		}
		games, err := tx.TournamentGames(ctx, tt.ID)
		if err != nil || len(games) != 1 || games[0] != g {
			t.Errorf("TournamentGames = %+v, %v, want [%+v] (the other game is no tournament's)", games, err, g)
		}
		if got, err := tx.Game(ctx, g.ID); err != nil || got.Tournament != tt.ID || got.Round != 1 {
			t.Errorf("Game(%d) = %+v, %v, want tournament %d, round 1", g.ID, got, err, tt.ID)
		}
		byes, err := tx.Byes(ctx, tt.ID)
		if err != nil || len(byes) != 1 || byes[1] != carol.ID {
			t.Errorf("Byes = %v, %v, want round 1: carol", byes, err)
		}
		if err := tx.SetWithdrawn(ctx, tt.ID, bob.ID, t0.Add(3*time.Hour)); err != nil {
			return err
		}
		if ps, err = tx.TournamentPlayers(ctx, tt.ID); err != nil || !ps[1].Withdrawn.Equal(t0.Add(3*time.Hour)) || !ps[0].Withdrawn.IsZero() {
			t.Errorf("after WithdrawFromTournament(bob): %+v, %v", ps, err)
		}
		if err := tx.SetWithdrawn(ctx, tt.ID+1, bob.ID, t0); !errors.Is(err, ErrNotFound) {
			t.Errorf("WithdrawFromTournament of another tournament = %v, want ErrNotFound", err)
		}

		got, err := tx.Tournament(ctx, tt.ID)
		if err != nil || got.Status != TournamentRunning || got.Rounds != 3 || got.Round != 1 || !got.Updated.Equal(t0.Add(2*time.Hour)) {
			t.Errorf("Tournament(%d) = %+v, %v, want running, round 1 of 3", tt.ID, got, err)
		}
		if _, err := tx.Tournament(ctx, tt.ID+1); !errors.Is(err, ErrNotFound) {
			t.Errorf("Tournament(missing) = %v, want ErrNotFound", err)
		}
		running, err := tx.TournamentsIn(ctx, TournamentRunning)
		if err != nil || len(running) != 1 || running[0].ID != tt.ID {
			t.Errorf("TournamentsIn(running) = %+v, %v", running, err)
		}
		if open, err := tx.TournamentsIn(ctx, TournamentOpen); err != nil || len(open) != 0 {
			t.Errorf("TournamentsIn(open) = %+v, %v, want none", open, err)
		}
		if ids, err := tx.TournamentsOf(ctx, carol.ID); err != nil || len(ids) != 1 || ids[0] != tt.ID {
			t.Errorf("TournamentsOf(carol) = %v, %v", ids, err)
		}
		return nil
	})
}
