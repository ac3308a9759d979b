package db

import (
	"context"
	"testing"
	"time"
)

// TestTimeFields: what players ask of time (M63-M67) is stored and read
// back: a player's time zone and weekends, a game's pause, time given
// and timeout=claim, a tournament's pauses and novacation.
func TestTimeFields(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	alice, bob := twoPlayers(t, d)
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		if err := tx.SetTime(ctx, alice.ID, "Europe/Prague", t0); err != nil {
			return err
		}
		p, err := tx.Player(ctx, alice.ID)
		if err != nil {
			return err
		}
		if p.TimeZone != "Europe/Prague" || !p.WeekendsFrom.Equal(t0) || !p.PausesWeekends() {
			t.Errorf("after SetTime: TimeZone %q, WeekendsFrom %v, PausesWeekends %v", p.TimeZone, p.WeekendsFrom, p.PausesWeekends())
		}
		if err := tx.SetTime(ctx, alice.ID, "", time.Time{}); err != nil {
			return err
		}
		if p, err = tx.PlayerByHandle(ctx, "alice"); err != nil {
			return err
		}
		if p.TimeZone != "" || p.PausesWeekends() {
			t.Errorf("after SetTime back: TimeZone %q, WeekendsFrom %v", p.TimeZone, p.WeekendsFrom)
		}

		g, err := tx.AddGame(ctx, Game{White: alice.ID, Black: bob.ID, Challenger: alice.ID, Status: Active,
			Position: start, TimeoutClaim: true}, t0)
		if err != nil {
			return err
		}
		g.PauseAsked, g.Paused, g.PausedFor, g.Given = bob.ID, t0.Add(time.Hour), 3*24*time.Hour, 36*time.Hour
		if err := tx.SetGame(ctx, g, t0.Add(time.Hour)); err != nil {
			return err
		}
		got, err := tx.Game(ctx, g.ID)
		if err != nil {
			return err
		}
		if got.PauseAsked != bob.ID || !got.Paused.Equal(g.Paused) || !got.IsPaused() || got.PausedFor != g.PausedFor ||
			got.Given != g.Given || !got.TimeoutClaim {
			t.Errorf("Game after UpdateGame = %+v, want the pause, time given and timeout=claim of %+v", got, g)
		}

		tn, err := tx.AddTournament(ctx, Tournament{Name: "Cup", System: "swiss", Director: alice.ID,
			TimeControl: "days=3", Rated: true, Pauses: true, NoVacation: true}, t0)
		if err != nil {
			return err
		}
		if tn, err = tx.Tournament(ctx, tn.ID); err != nil {
			return err
		}
		if !tn.Pauses || !tn.NoVacation {
			t.Errorf("Tournament() = %+v, want pauses and novacation", tn)
		}
		return nil
	})
}
