package director

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/pairing"
	"github.com/congobymail/congo/parser"
)

// players makes a fresh database with the players of the handles, and
// runs fn in a transaction of it.
func players(t *testing.T, handles string, fn func(ctx context.Context, tx *db.Tx, ps map[string]db.Player)) {
	t.Helper()
	hs := strings.Fields(handles)
	d := congotest.NewDB(t, hs...)
	ps := map[string]db.Player{}
	for _, h := range hs {
		ps[h] = congotest.Player(t, d, h)
	}
	congotest.InTx(t, d, func(ctx context.Context, tx *db.Tx) error {
		fn(ctx, tx, ps)
		return nil
	})
}

// ladderString writes a ladder's order: "alice bob carol".
func ladderString(st State) string {
	var hs []string
	for _, s := range st.Ladder() {
		hs = append(hs, s.Handle)
	}
	return strings.Join(hs, " ")
}

// end ends game g with the result, as a resignation or an agreed draw,
// and returns what the ladder does.
func end(t *testing.T, ctx context.Context, tx *db.Tx, g game.State, r db.Result) []Event {
	t.Helper()
	var evs []game.Event
	var err error
	switch r {
	case db.WhiteWins:
		evs, err = game.Resign(ctx, tx, &g, g.Black)
	case db.BlackWins:
		evs, err = game.Resign(ctx, tx, &g, g.White)
	default:
		if _, err = game.Draw(ctx, tx, &g, g.White); err == nil {
			evs, err = game.Draw(ctx, tx, &g, g.Black)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	ended, ok := game.Ends(evs)
	if !ok || ended.Game.Result != r {
		t.Fatalf("game %d: %+v, want it ended %v", g.ID(), evs, r)
	}
	out, err := GameEnded(ctx, tx, ended.Game, t0)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestLadderLife: a ladder runs from its creation, the director at its
// top; players join at the bottom, challenge up to 3 places above, one
// game at a time each; a challenger who wins takes the place, and those
// between move down; a player who leaves gives up the place; closed, it
// takes no challenges, and is over when its last game ends.
func TestLadderLife(t *testing.T) {
	t.Parallel()
	players(t, "alice bob carol dave erin", func(ctx context.Context, tx *db.Tx, ps map[string]db.Player) {
		alice, bob, carol, dave, erin := ps["alice"], ps["bob"], ps["carol"], ps["dave"], ps["erin"]
		st, err := New(ctx, tx, alice, Spec{Name: "Club Ladder", System: pairing.Ladder}, t0)
		if err != nil {
			t.Fatal(err)
		}
		if st.T.Status != db.TournamentRunning || !st.Continuous() || ladderString(st) != "alice" {
			t.Fatalf("a new ladder: %v, %q; want running with alice", st.T.Status, ladderString(st))
		}
		for _, p := range []db.Player{bob, carol, dave, erin} {
			if err := Join(ctx, tx, &st, p, t0); err != nil {
				t.Fatal(err)
			}
		}
		wantProblem(t, "join twice", Join(ctx, tx, &st, bob, t0), Joined)
		_, err = Start(ctx, tx, &st, t0)
		wantProblem(t, "start a ladder", err, Continuous)
		_, err = Cancel(ctx, tx, &st, t0)
		wantProblem(t, "cancel a ladder", err, Continuous)

		challenge := func(a, b db.Player) (game.State, error) {
			g, _, err := Challenge(ctx, tx, &st, a, b, t0)
			return g, err
		}
		_, err = challenge(erin, alice) // 5 to 1
		wantProblem(t, "4 places up", err, OutOfReach)
		_, err = challenge(bob, carol)
		wantProblem(t, "a place below", err, OutOfReach)
		g1, err := challenge(erin, bob) // 5 to 2
		if err != nil {
			t.Fatal(err)
		}
		if g1.White.ID != erin.ID || g1.Game.Status != db.Active || g1.Game.Tournament != st.T.ID || g1.Game.Round != 0 {
			t.Fatalf("erin's challenge: %+v, want erin White in a game of the ladder begun", g1.Game)
		}
		_, err = challenge(dave, bob)
		wantProblem(t, "bob is busy", err, Busy)
		_, err = challenge(erin, carol)
		wantProblem(t, "erin is busy", err, Busy)

		// dave beats alice: 4 to 1, three move down.
		g2, err := challenge(dave, alice)
		if err != nil {
			t.Fatal(err)
		}
		evs := end(t, ctx, tx, g2, db.WhiteWins)
		if len(evs) != 1 || evs[0].Kind != LadderMoved {
			t.Fatalf("dave's win: %+v, want the places moved", evs)
		}
		var moves []string
		for _, m := range evs[0].Moves {
			moves = append(moves, fmt.Sprintf("%s %d>%d", m.Player.Handle, m.From, m.To))
		}
		if got := strings.Join(moves, ", "); got != "dave 4>1, alice 1>2, bob 2>3, carol 3>4" {
			t.Errorf("moves %q", got)
		}
		if err := reload(ctx, tx, &st); err != nil {
			t.Fatal(err)
		}
		if got := ladderString(st); got != "dave alice bob carol erin" {
			t.Errorf("ladder %q after dave's win", got)
		}
		// erin's game with bob, now 3 places up, is drawn: nothing moves.
		if evs := end(t, ctx, tx, g1, db.Draw); len(evs) != 0 {
			t.Errorf("a draw: %+v, want nothing", evs)
		}
		// carol challenges bob and loses: nothing moves.
		if err := reload(ctx, tx, &st); err != nil {
			t.Fatal(err)
		}
		g3, err := challenge(carol, bob)
		if err != nil {
			t.Fatal(err)
		}
		if evs := end(t, ctx, tx, g3, db.BlackWins); len(evs) != 0 {
			t.Errorf("a loss: %+v, want nothing", evs)
		}

		// erin challenges alice, who leaves the ladder during the game:
		// her game is lost, erin takes her place, and she is gone.
		if err := reload(ctx, tx, &st); err != nil {
			t.Fatal(err)
		}
		if _, err := challenge(erin, alice); err != nil {
			t.Fatal(err)
		}
		gevs, err := Withdraw(ctx, tx, &st, alice, t0)
		if err != nil {
			t.Fatal(err)
		}
		ended, _ := game.Ends(gevs)
		evs, err = GameEnded(ctx, tx, ended.Game, t0)
		if err != nil || len(evs) != 1 || len(evs[0].Moves) != 1 || evs[0].Moves[0].Player.ID != erin.ID || evs[0].Moves[0].To != 2 {
			t.Fatalf("alice's withdrawal: %+v, %v; want erin to place 2", evs, err)
		}
		if err := reload(ctx, tx, &st); err != nil {
			t.Fatal(err)
		}
		if got := ladderString(st); got != "dave erin bob carol" {
			t.Errorf("ladder %q after alice left", got)
		}
		// bob leaves with no game: carol moves up; alice comes back at
		// the bottom.
		if _, err := Withdraw(ctx, tx, &st, bob, t0); err != nil {
			t.Fatal(err)
		}
		if err := Join(ctx, tx, &st, alice, t0); err != nil {
			t.Fatal(err)
		}
		if got := ladderString(st); got != "dave erin carol alice" {
			t.Errorf("ladder %q, want bob gone and alice back at the bottom", got)
		}
		if w := st.Ladder()[0]; w.Format() != "1. dave  (1-0-0)" {
			t.Errorf("the top: %q", w.Format())
		}

		// Closed with a game in progress: no challenges, no joins; over
		// when the game ends.
		g4, err := challenge(alice, erin)
		if err != nil {
			t.Fatal(err)
		}
		evs, err = Close(ctx, tx, &st, t0)
		if err != nil || len(evs) != 1 || evs[0].Kind != LadderClosing {
			t.Fatalf("Close = %+v, %v; want closing", evs, err)
		}
		_, err = challenge(carol, dave)
		wantProblem(t, "challenge when closed", err, Closed)
		wantProblem(t, "join when closed", Join(ctx, tx, &st, bob, t0), Closed)
		_, err = Close(ctx, tx, &st, t0)
		wantProblem(t, "close twice", err, Closed)
		evs = end(t, ctx, tx, g4, db.WhiteWins)
		if len(evs) != 2 || evs[0].Kind != LadderMoved || evs[1].Kind != Finished || evs[1].T.T.Status != db.TournamentOver {
			t.Fatalf("the last game's end: %+v, want the places moved and the ladder over", evs)
		}
		if got := ladderString(evs[1].T); got != "dave alice erin carol" {
			t.Errorf("final ladder %q", got)
		}
	})
}

// TestNotALadder: a ladder's commands in another system are refused.
func TestNotALadder(t *testing.T) {
	t.Parallel()
	inTx(t, func(ctx context.Context, tx *db.Tx, ps []db.Player) {
		st, err := New(ctx, tx, ps[0], Spec{Name: "Cup", System: pairing.RoundRobin}, t0)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = Challenge(ctx, tx, &st, ps[1], ps[0], t0)
		wantProblem(t, "challenge in a round robin", err, NotLadder)
		_, err = Close(ctx, tx, &st, t0)
		wantProblem(t, "close a round robin", err, NotLadder)
	})
}

// BenchmarkLadderGameEnded applies a result to a ladder of 10,000
// players through the store, as a game's end does in its transaction:
// the player at place 5,003 beats the one at 5,000 and takes the place.
// (The game itself is made and ended outside the time measured.)
func BenchmarkLadderGameEnded(b *testing.B) {
	d := congotest.NewDB(b)
	var st State
	congotest.InTx(b, d, func(ctx context.Context, tx *db.Tx) error {
		var ps []db.Player
		for i := range 10000 {
			p, err := tx.AddPlayer(ctx, fmt.Sprintf("player%05d", i), fmt.Sprintf("p%05d@example.org", i), fmt.Sprintf("s%05d", i), t0)
			if err != nil {
				return err
			}
			ps = append(ps, p)
		}
		var err error
		if st, err = New(ctx, tx, ps[0], Spec{Name: "Big Ladder", System: pairing.Ladder}, t0); err != nil {
			return err
		}
		for _, p := range ps[1:] {
			if _, err := tx.AddLadderPlayer(ctx, st.T.ID, p.ID, t0); err != nil {
				return err
			}
		}
		return nil
	})
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		var ended db.Game
		congotest.InTx(b, d, func(ctx context.Context, tx *db.Tx) error {
			run, err := tx.LadderRun(ctx, st.T.ID, 5000, 5003)
			if err != nil {
				return err
			}
			tc, _ := parser.ParseTimeControl("days=3")
			g, _, err := game.Start(ctx, tx, game.Terms{White: run[3].Player, Black: run[0].Player, Challenger: run[3].Player,
				Control: tc, Tournament: st.T.ID}, t0)
			if err != nil {
				return err
			}
			evs, err := game.Resign(ctx, tx, &g, run[0].Player)
			if e, ok := game.Ends(evs); ok {
				ended = e.Game
			}
			return err
		})
		b.StartTimer()
		err := d.Tx(ctx, func(tx *db.Tx) error {
			evs, err := GameEnded(ctx, tx, ended, t0)
			if err == nil && (len(evs) != 1 || len(evs[0].Moves) != 4) {
				err = fmt.Errorf("GameEnded = %+v, want four players moved", evs)
			}
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
