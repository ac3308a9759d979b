package director

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/pairing"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// inTx runs fn in a transaction of a fresh database with players alice,
// bob and carol.
func inTx(t *testing.T, fn func(ctx context.Context, tx *db.Tx, ps []db.Player)) {
	t.Helper()
	d := congotest.NewDB(t, "alice", "bob", "carol")
	ps := []db.Player{congotest.Player(t, d, "alice"), congotest.Player(t, d, "bob"), congotest.Player(t, d, "carol")}
	congotest.InTx(t, d, func(ctx context.Context, tx *db.Tx) error {
		fn(ctx, tx, ps)
		return nil
	})
}

func wantProblem(t *testing.T, what string, err error, p Problem) {
	t.Helper()
	var r *Refusal
	if !errors.As(err, &r) || r.Problem != p {
		t.Errorf("%s: %v, want a refusal with problem %d", what, err, p)
	}
}

// TestLife takes a Swiss through what its state allows and refuses, to
// its early end: when its players withdraw until one is left, the
// tournament is over after the round being played.
func TestLife(t *testing.T) {
	t.Parallel()
	inTx(t, func(ctx context.Context, tx *db.Tx, ps []db.Player) {
		alice, bob, carol := ps[0], ps[1], ps[2]
		st, err := New(ctx, tx, alice, Spec{Name: "Cup", System: pairing.Swiss}, t0)
		if err != nil {
			t.Fatal(err)
		}
		if err := Join(ctx, tx, &st, bob, t0); err != nil {
			t.Fatal(err)
		}
		wantProblem(t, "join twice", Join(ctx, tx, &st, bob, t0), Joined)
		_, err = Start(ctx, tx, &st, t0)
		wantProblem(t, "start with 2", err, TooFew)
		_, err = Withdraw(ctx, tx, &st, bob, t0)
		wantProblem(t, "withdraw before the start", err, NotRunning)
		if err := Join(ctx, tx, &st, carol, t0); err != nil {
			t.Fatal(err)
		}

		evs, err := Start(ctx, tx, &st, t0)
		if err != nil {
			t.Fatal(err)
		}
		// 3 players: 3 rounds (2^2 >= 3, plus one); carol, the lowest,
		// has the bye; alice (White) plays bob.
		if len(evs) != 1 || evs[0].Kind != RoundBegun || evs[0].Round != 1 || len(evs[0].Games) != 1 || st.T.Rounds != 3 {
			t.Fatalf("Start = %+v, rounds %d; want round 1 of 3 begun with one game", evs, st.T.Rounds)
		}
		if g := st.Games[0]; g.White != alice.ID || g.Black != bob.ID || st.Byes[1] != carol.ID || g.TimeControl != "days=3" {
			t.Errorf("round 1: game %+v, byes %v; want alice v bob, days=3, carol's bye", g, st.Byes)
		}
		wantProblem(t, "join after the start", Join(ctx, tx, &st, carol, t0), NotOpen)
		wantProblem(t, "leave after the start", Leave(ctx, tx, &st, carol), NotOpen)
		_, err = Cancel(ctx, tx, &st, t0)
		wantProblem(t, "cancel after the start", err, NotOpen)

		// bob withdraws: his game is lost; its end begins round 2,
		// alice v carol, nobody's bye (bob is paired no further).
		gevs, err := Withdraw(ctx, tx, &st, bob, t0)
		if err != nil {
			t.Fatal(err)
		}
		ended, ok := game.Ends(gevs)
		if !ok || ended.Game.Result != db.WhiteWins {
			t.Fatalf("bob's withdrawal: %+v, want his game lost", gevs)
		}
		_, err = Withdraw(ctx, tx, &st, bob, t0)
		wantProblem(t, "withdraw twice", err, NotAPlayer)
		evs, err = GameEnded(ctx, tx, ended.Game, t0)
		if err != nil || len(evs) != 1 || evs[0].Kind != RoundBegun || evs[0].Round != 2 || len(evs[0].Games) != 1 {
			t.Fatalf("GameEnded = %+v, %v; want round 2 begun with one game", evs, err)
		}
		st = evs[0].T
		if _, bye := st.Byes[2]; bye || !st.Games[1].Has(alice.ID) || !st.Games[1].Has(carol.ID) {
			t.Errorf("round 2: %+v, byes %v; want alice v carol and no bye", st.Games[1], st.Byes)
		}
		// A game of round 1 ending again (the operator's adjudication of
		// an old game) moves nothing.
		if evs, err := GameEnded(ctx, tx, ended.Game, t0); err != nil || len(evs) != 0 {
			t.Errorf("GameEnded of round 1 again = %+v, %v; want nothing", evs, err)
		}

		// carol withdraws too: alice is left alone, and the tournament is
		// over after round 2 of 3.
		gevs, err = Withdraw(ctx, tx, &st, carol, t0)
		if err != nil {
			t.Fatal(err)
		}
		ended, _ = game.Ends(gevs)
		evs, err = GameEnded(ctx, tx, ended.Game, t0)
		if err != nil || len(evs) != 1 || evs[0].Kind != Finished || evs[0].T.T.Status != db.TournamentOver {
			t.Fatalf("GameEnded = %+v, %v; want the tournament finished", evs, err)
		}
		standings, err := evs[0].T.Standings()
		if err != nil {
			t.Fatal(err)
		}
		// alice 2 (two forfeits), carol 1 (her bye), bob 0.
		if got := pairing.FormatStandings(pairing.Swiss, standings); got != "1. alice  2  (Buchholz 1, SB 1)\n2. carol  1  (Buchholz 3, SB 0.5)\n3. bob  0  (Buchholz 2, SB 0)\n" {
			t.Errorf("final standings:\n%s", got)
		}
	})
}

// TestCancelAndLeave: before the start a player leaves, and the director
// may leave too and still direct it; a cancelled tournament is closed.
func TestCancelAndLeave(t *testing.T) {
	t.Parallel()
	inTx(t, func(ctx context.Context, tx *db.Tx, ps []db.Player) {
		alice, bob := ps[0], ps[1]
		st, err := New(ctx, tx, alice, Spec{Name: "Club", System: pairing.RoundRobin, Double: true}, t0)
		if err != nil {
			t.Fatal(err)
		}
		if err := Join(ctx, tx, &st, bob, t0); err != nil {
			t.Fatal(err)
		}
		if err := Leave(ctx, tx, &st, alice); err != nil || len(st.Players) != 1 || st.Director.ID != alice.ID {
			t.Errorf("the director leaves: %v, players %+v, director %s", err, st.Players, st.Director.Handle)
		}
		wantProblem(t, "leave twice", Leave(ctx, tx, &st, alice), NotAPlayer)
		evs, err := Cancel(ctx, tx, &st, t0)
		if err != nil || len(evs) != 1 || evs[0].Kind != Cancelled || st.T.Status != db.TournamentCancelled {
			t.Fatalf("Cancel = %+v, %v", evs, err)
		}
		wantProblem(t, "join a cancelled one", Join(ctx, tx, &st, alice, t0), NotOpen)
	})
}
