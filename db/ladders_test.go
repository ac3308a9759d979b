package db

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestLadderPlaces stores a ladder's places (M73): each player who joins
// goes to the bottom, places are set as results move them, one who leaves
// gives up their place and those below move up, and one who comes back
// is at the bottom again; the systems of M73-M74 are stored, an unknown
// one is not.
func TestLadderPlaces(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	alice, bob := twoPlayers(t, d)
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		carol, err := tx.AddPlayer(ctx, "carol", "carol@example.org", "s3", t0)
		if err != nil {
			return err
		}
		dave, err := tx.AddPlayer(ctx, "dave", "dave@example.org", "s4", t0)
		if err != nil {
			return err
		}
		lt, err := tx.AddTournament(ctx, Tournament{Name: "Club Ladder", System: "ladder", Director: alice.ID,
			Status: TournamentRunning, TimeControl: "days=3", Rated: true}, t0)
		if err != nil {
			return err
		}
		if lt.Status != TournamentRunning {
			t.Errorf("CreateTournament(ladder) status = %v, want running", lt.Status)
		}
		for i, p := range []Player{alice, bob, carol, dave} {
			place, err := tx.AddLadderPlayer(ctx, lt.ID, p.ID, t0.Add(time.Duration(i)*time.Minute))
			if err != nil || place != i+1 {
				t.Errorf("AddLadderPlayer(%s) = %d, %v, want %d", p.Handle, place, err, i+1)
			}
		}
		if _, err := tx.AddLadderPlayer(ctx, lt.ID, bob.ID, t0); !errors.Is(err, ErrJoined) {
			t.Errorf("AddLadderPlayer(bob) twice = %v, want ErrJoined", err)
		}
		order := func(from, to int) string {
			t.Helper()
			ps, err := tx.LadderRun(ctx, lt.ID, from, to)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, p := range ps {
				out = append(out, fmt.Sprintf("%d %s", p.Place, p.Handle))
			}
			return strings.Join(out, ", ")
		}
		if got, want := order(1, 4), "1 alice, 2 bob, 3 carol, 4 dave"; got != want {
			t.Errorf("LadderRun(1, 4) = %q, want %q", got, want)
		}
		// dave beats bob: he takes place 2; bob and carol move down one.
		for p, place := range map[int64]int{dave.ID: 2, bob.ID: 3, carol.ID: 4} {
			if err := tx.SetPlace(ctx, lt.ID, p, place); err != nil {
				return err
			}
		}
		if got, want := order(2, 3), "2 dave, 3 bob"; got != want {
			t.Errorf("LadderRun(2, 3) = %q, want %q", got, want)
		}
		// bob leaves: carol moves up to 3; he comes back at the bottom.
		if err := tx.SetWithdrawn(ctx, lt.ID, bob.ID, t0.Add(time.Hour)); err != nil {
			return err
		}
		if err := tx.DeleteLadderPlayer(ctx, lt.ID, bob.ID); err != nil {
			return err
		}
		if got, want := order(1, 9), "1 alice, 2 dave, 3 carol"; got != want {
			t.Errorf("after bob left, LadderRun = %q, want %q", got, want)
		}
		if tp, err := tx.TournamentPlayer(ctx, lt.ID, bob.ID); err != nil || tp.Place != 0 || tp.Withdrawn.IsZero() {
			t.Errorf("TournamentPlayer(bob) = %+v, %v, want no place, withdrawn", tp, err)
		}
		if place, err := tx.AddLadderPlayer(ctx, lt.ID, bob.ID, t0.Add(2*time.Hour)); err != nil || place != 4 {
			t.Errorf("AddLadderPlayer(bob) again = %d, %v, want 4", place, err)
		}
		if tp, err := tx.TournamentPlayer(ctx, lt.ID, bob.ID); err != nil || tp.Place != 4 || !tp.Withdrawn.IsZero() {
			t.Errorf("TournamentPlayer(bob) back = %+v, %v, want place 4, not withdrawn", tp, err)
		}
		if _, err := tx.TournamentPlayer(ctx, lt.ID, 999); !errors.Is(err, ErrNotFound) {
			t.Errorf("TournamentPlayer(999) = %v, want ErrNotFound", err)
		}

		// A ladder game in progress, and the closing.
		g, err := tx.AddGame(ctx, Game{White: carol.ID, Black: alice.ID, Challenger: carol.ID, Status: Active,
			Position: start, TimeControl: "days=3", Rated: true, Tournament: lt.ID}, t0)
		if err != nil {
			return err
		}
		for _, p := range []Player{carol, alice, dave} {
			gs, err := tx.ActiveTournamentGames(ctx, lt.ID, p.ID)
			if err != nil || (len(gs) == 1) != (p.ID != dave.ID) || len(gs) == 1 && gs[0].ID != g.ID {
				t.Errorf("ActiveTournamentGames(%s) = %+v, %v", p.Handle, gs, err)
			}
		}
		lt.Closed = t0.Add(3 * time.Hour)
		if err := tx.SetTournament(ctx, lt, lt.Closed); err != nil {
			return err
		}
		if got, err := tx.Tournament(ctx, lt.ID); err != nil || !got.Closed.Equal(lt.Closed) || got.System != "ladder" {
			t.Errorf("Tournament(ladder) = %+v, %v, want closed at %v", got, err, lt.Closed)
		}

		ko, err := tx.AddTournament(ctx, Tournament{Name: "Cup", System: "knockout", Director: alice.ID, Games: 2,
			TimeControl: "days=3", Rated: true}, t0)
		if err != nil {
			return err
		}
		if err := tx.AddTournamentPlayer(ctx, ko.ID, alice.ID, t0); err != nil {
			return err
		}
		if err := tx.SetSeed(ctx, ko.ID, alice.ID, 1); err != nil {
			return err
		}
		if err := tx.SetSeed(ctx, ko.ID, bob.ID, 2); err == nil {
			t.Errorf("SetSeed of a player not in it: no error")
		}
		if got, err := tx.Tournament(ctx, ko.ID); err != nil || got.Games != 2 || got.Status != TournamentOpen {
			t.Errorf("Tournament(knockout) = %+v, %v, want 2 games a match, open", got, err)
		}
		if ps, err := tx.TournamentPlayers(ctx, ko.ID); err != nil || len(ps) != 1 || ps[0].Seed != 1 {
			t.Errorf("TournamentPlayers(knockout) = %+v, %v, want alice seeded 1", ps, err)
		}
		return nil
	})
	err := d.Tx(context.Background(), func(tx *Tx) error {
		_, err := tx.AddTournament(context.Background(), Tournament{Name: "X", System: "arena", Director: alice.ID, TimeControl: "days=3"}, t0)
		return err
	})
	if err == nil {
		t.Errorf("CreateTournament(arena): no error, want the schema's check to refuse it")
	}
	_ = bob
}

// TestSeekRanges matches seeks with rating ranges both ways (M75): a
// seek matches another only when each player's rating is in the other's
// range, if it has one, rounded as mails show it.
func TestSeekRanges(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	alice, bob := twoPlayers(t, d)
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		alice.Rating, bob.Rating = 1500, 1749.6 // bob reads 1750
		for _, p := range []Player{alice, bob} {
			if err := tx.SetPlayer(ctx, p); err != nil {
				return err
			}
		}
		tests := []struct {
			name                string
			aliceLow, aliceHigh int // alice's seek, waiting
			bobLow, bobHigh     int // bob's, looking for hers
			match               bool
		}{
			{"no ranges", 0, 0, 0, 0, true},
			{"bob in alice's range", 1700, 1800, 0, 0, true},
			{"bob at the top of it, rounded", 1400, 1750, 0, 0, true},
			{"bob above alice's range", 1400, 1749, 0, 0, false},
			{"alice in bob's range", 0, 0, 1450, 1550, true},
			{"alice below bob's range", 0, 0, 1501, 1900, false},
			{"both in range", 1700, 1800, 1500, 1500, true},
			{"bob's range holds alice, hers not him", 1000, 1200, 1000, 2000, false},
		}
		for _, tt := range tests {
			mine := Seek{Player: alice.ID, TimeControl: "days=3", Rated: true, RatingLow: tt.aliceLow, RatingHigh: tt.aliceHigh, Created: t0}
			if err := tx.SetSeek(ctx, mine); err != nil {
				return err
			}
			m, err := tx.MatchSeek(ctx, Seek{Player: bob.ID, TimeControl: "days=3", Rated: true, RatingLow: tt.bobLow, RatingHigh: tt.bobHigh, Created: t0})
			switch {
			case tt.match && (err != nil || m != mine):
				t.Errorf("%s: MatchSeek = %+v, %v, want alice's seek %+v", tt.name, m, err, mine)
			case !tt.match && !errors.Is(err, ErrNotFound):
				t.Errorf("%s: MatchSeek = %+v, %v, want ErrNotFound", tt.name, m, err)
			}
		}
		return nil
	})
}
