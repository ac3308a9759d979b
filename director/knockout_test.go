package director

import (
	"context"
	"fmt"
	"testing"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/pairing"
)

// TestKnockoutLife: a knockout of five, seeded by rating, three byes;
// dave and erin's match ends level, a tie game decides it; the rounds
// begin as they are decided, and the final's end is the knockout's.
func TestKnockoutLife(t *testing.T) {
	t.Parallel()
	players(t, "alice bob carol dave erin", func(ctx context.Context, tx *db.Tx, ps map[string]db.Player) {
		// Ratings: alice highest, erin lowest.
		for i, h := range []string{"alice", "bob", "carol", "dave", "erin"} {
			p := ps[h]
			p.Rating = 1900 - 100*float64(i)
			if err := tx.SetPlayer(ctx, p); err != nil {
				t.Fatal(err)
			}
		}
		st, err := New(ctx, tx, ps["carol"], Spec{Name: "Cup", System: pairing.Knockout}, t0)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range []string{"erin", "alice", "dave", "bob"} {
			if err := Join(ctx, tx, &st, ps[h], t0); err != nil {
				t.Fatal(err)
			}
		}
		evs, err := Start(ctx, tx, &st, t0)
		if err != nil || len(evs) != 1 || evs[0].Kind != RoundBegun || evs[0].Round != 1 || len(evs[0].Games) != 2 {
			t.Fatalf("Start = %+v, %v; want round 1 begun with dave and erin's two games", evs, err)
		}
		st = evs[0].T
		if st.T.Games != 2 || st.T.Rounds != 3 || st.T.Round != 1 {
			t.Errorf("the knockout: %+v, want matches of 2, 3 rounds, round 1", st.T)
		}
		seeds := map[string]int{}
		for _, p := range st.Players {
			seeds[p.Handle] = p.Seed
		}
		if fmt.Sprint(seeds) != "map[alice:1 bob:2 carol:3 dave:4 erin:5]" {
			t.Errorf("seeds %v", seeds)
		}
		games := func() []game.State {
			var out []game.State
			for _, g := range st.Games {
				if g.Status == db.Active {
					gs, err := game.Of(ctx, tx, g, t0)
					if err != nil {
						t.Fatal(err)
					}
					out = append(out, gs)
				}
			}
			return out
		}
		// Game 1 dave White wins, game 2 erin White wins: 1-1.
		r1 := games()
		if len(r1) != 2 || r1[0].White.Handle != "dave" || r1[1].White.Handle != "erin" {
			t.Fatalf("round 1's games: %v v %v, %v v %v", r1[0].White.Handle, r1[0].Black.Handle, r1[1].White.Handle, r1[1].Black.Handle)
		}
		if evs := end(t, ctx, tx, r1[0], db.WhiteWins); len(evs) != 0 {
			t.Errorf("the match's first game: %+v", evs)
		}
		evs = end(t, ctx, tx, r1[1], db.WhiteWins)
		if len(evs) != 1 || evs[0].Kind != TieBegun || len(evs[0].Games) != 1 || evs[0].Games[0].Game.White.Handle != "dave" {
			t.Fatalf("1-1: %+v, want a tie game, dave White", evs)
		}
		st = evs[0].T
		tie := games()[0]
		evs = end(t, ctx, tx, tie, db.WhiteWins)
		if len(evs) != 1 || evs[0].Kind != RoundBegun || evs[0].Round != 2 || len(evs[0].Games) != 4 {
			t.Fatalf("dave's tie game won: %+v, want round 2 begun, four games", evs)
		}
		st = evs[0].T
		// Round 2: alice beats dave, bob beats carol: the final.
		for _, g := range games() {
			r := db.WhiteWins
			if g.Black.Handle == "alice" || g.Black.Handle == "bob" {
				r = db.BlackWins
			}
			evs = end(t, ctx, tx, g, r)
		}
		if len(evs) != 1 || evs[0].Kind != RoundBegun || evs[0].Round != 3 {
			t.Fatalf("round 2 over: %+v, want the final begun", evs)
		}
		st = evs[0].T
		for _, g := range games() {
			r := db.WhiteWins
			if g.Black.Handle == "alice" {
				r = db.BlackWins
			}
			evs = end(t, ctx, tx, g, r)
		}
		if len(evs) != 1 || evs[0].Kind != Finished || evs[0].T.T.Status != db.TournamentOver {
			t.Fatalf("the final over: %+v", evs)
		}
		b, err := evs[0].T.Bracket()
		if err != nil || b.Winner != "alice" {
			t.Errorf("winner %q, %v; want alice", b.Winner, err)
		}
	})
}
