package db

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestGameColumnsG(t *testing.T) {
	t.Parallel()
	want := "g." + strings.ReplaceAll(gameColumns, ", ", ", g.")
	want = strings.Replace(want, "g.coalesce(tournament, g.0)", "coalesce(g.tournament, 0)", 1)
	if gameColumnsG != want {
		t.Errorf("gameColumnsG = %q, want %q", gameColumnsG, want)
	}
}

// webWorld is a database of games in every state: a challenge waiting
// (1), a declined one (2), a game being played with a message sent with
// its move (3), a rated game won by black (4), an unrated draw (5) and
// an aborted game (6), between alice, bob and carol; dave registered
// by a mail that proved nothing.
func webWorld(t *testing.T) (*DB, map[string]Player) {
	t.Helper()
	d := openTest(t)
	ps := map[string]Player{}
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		for _, h := range []string{"alice", "bob", "carol", "dave"} {
			p, err := tx.AddPlayer(ctx, h, h+"@example.org", "secret"+h, t0)
			if err != nil {
				return err
			}
			if h != "dave" {
				if err := tx.SetConfirmed(ctx, p.ID); err != nil {
					return err
				}
			}
			ps[h] = p
		}
		a, b, c := ps["alice"].ID, ps["bob"].ID, ps["carol"].ID
		games := []struct {
			white, black int64
			status       Status
			result       Result
			rated        bool
		}{
			{a, b, Challenged, NoResult, true},
			{b, a, Declined, NoResult, true},
			{a, c, Active, NoResult, true},
			{a, b, Finished, BlackWins, true},
			{c, a, Finished, Draw, false},
			{b, c, Finished, NoResult, true},
		}
		for i, spec := range games {
			at := t0.Add(time.Duration(i) * time.Hour)
			g, err := tx.AddGame(ctx, Game{White: spec.white, Black: spec.black, Challenger: spec.white,
				Status: spec.status, Position: start, Rated: spec.rated}, at)
			if err != nil {
				return err
			}
			if spec.status == Active {
				if err := tx.AddMove(ctx, Move{Game: g.ID, Ply: 1, Move: "b2-b3", Position: start, At: at, Message: "hello carol"}); err != nil {
					return err
				}
			}
			g.Result = spec.result
			if spec.result == BlackWins {
				g.WhiteRating, g.BlackRating = 1400, 1600
			}
			if err := tx.SetGame(ctx, g, at.Add(10*time.Minute)); err != nil {
				return err
			}
		}
		p := ps["bob"]
		p.Rating, p.RatedGames = 1600, 1
		if err := tx.SetPlayer(ctx, p); err != nil {
			return err
		}
		p = ps["alice"]
		p.Rating, p.RatedGames = 1400, 1
		return tx.SetPlayer(ctx, p)
	})
	return d, ps
}

func gameIDs(gs []ListedGame) []int64 {
	var ids []int64
	for _, g := range gs {
		ids = append(ids, g.ID)
	}
	return ids
}

func TestWebQueries(t *testing.T) {
	t.Parallel()
	d, ps := webWorld(t)
	ctx := context.Background()
	err := d.ReadTx(ctx, func(tx *Tx) error {
		if p, err := tx.ProfileByHandle(ctx, "ALICE"); err != nil || p.ID != ps["alice"].ID || p.Handle != "alice" || p.Rating != 1400 {
			t.Errorf("ProfileByHandle(ALICE) = %+v, %v, want alice rated 1400", p, err)
		}
		if _, err := tx.ProfileByHandle(ctx, "dave"); !errors.Is(err, ErrNotFound) {
			t.Errorf("ProfileByHandle(dave), not confirmed = %v, want ErrNotFound", err)
		}
		if p, err := tx.Profile(ctx, ps["bob"].ID); err != nil || p.Handle != "bob" {
			t.Errorf("Profile(bob) = %+v, %v", p, err)
		}
		if rated, err := tx.RatedProfiles(ctx, 10); err != nil || len(rated) != 2 || rated[0].Handle != "bob" || rated[1].Handle != "alice" {
			t.Errorf("RatedProfiles(10) = %+v, %v, want bob then alice", rated, err)
		}
		if rated, err := tx.RatedProfiles(ctx, 1); err != nil || len(rated) != 1 {
			t.Errorf("RatedProfiles(1) = %+v, %v, want one", rated, err)
		}
		active, err := tx.RecentGames(ctx, Active, 10)
		if err != nil || len(active) != 1 || active[0].ID != 3 || active[0].WhiteHandle != "alice" || active[0].BlackHandle != "carol" {
			t.Errorf("RecentGames(active) = %+v, %v, want game 3, alice vs carol", active, err)
		}
		finished, err := tx.RecentGames(ctx, Finished, 10)
		if got := gameIDs(finished); err != nil || len(got) != 3 || got[0] != 6 || got[1] != 5 || got[2] != 4 {
			t.Errorf("RecentGames(finished) = %v, %v, want 6, 5, 4", got, err)
		}
		if got, err := tx.RecentGames(ctx, Finished, 2); err != nil || len(got) != 2 {
			t.Errorf("RecentGames(finished, 2) = %v, %v, want two", gameIDs(got), err)
		}
		mine, err := tx.PlayerGames(ctx, ps["alice"].ID, 10)
		if got := gameIDs(mine); err != nil || len(got) != 3 || got[0] != 5 || got[1] != 4 || got[2] != 3 {
			t.Errorf("PlayerGames(alice) = %v, %v, want 5, 4, 3 (no challenge, nothing declined)", got, err)
		}
		if n, err := tx.CountActive(ctx); err != nil || n != 1 {
			t.Errorf("CountActive() = %d, %v, want 1", n, err)
		}
		if _, err := tx.RecentGames(ctx, Challenged, 10); err == nil {
			t.Errorf("RecentGames(challenged) = nil error, want one: challenges are not listed")
		}
		for h, want := range map[string]Score{
			"alice": {Lost: 1, Drawn: 1},
			"bob":   {Won: 1, Aborted: 1},
			"carol": {Drawn: 1, Aborted: 1},
		} {
			if s, err := tx.ScoreOf(ctx, ps[h].ID); err != nil || s != want {
				t.Errorf("ScoreOf(%s) = %+v, %v, want %+v", h, s, err, want)
			}
		}
		moves, err := tx.PublicMoves(ctx, 3)
		if err != nil || len(moves) != 1 || moves[0].Move != "b2-b3" || moves[0].Message != "" || !moves[0].At.Equal(t0.Add(2*time.Hour)) {
			t.Errorf("PublicMoves(3) = %+v, %v, want b2-b3 without its message", moves, err)
		}
		ended, err := tx.EndedSince(ctx, time.Time{})
		if err != nil || len(ended) != 3 || ended[0].Game != 4 || !ended[0].Rates() || ended[0].Result != BlackWins ||
			ended[0].WhiteRating != 1400 || ended[0].BlackRating != 1600 || ended[1].Rates() || ended[2].Rates() {
			t.Errorf("EndedSince(zero) = %+v, %v, want games 4 (rated), 5 and 6 (not)", ended, err)
		}
		if got, err := tx.EndedSince(ctx, ended[1].At); err != nil || len(got) != 2 || got[0].Game != 5 {
			t.Errorf("EndedSince(game 5's end) = %+v, %v, want games 5 and 6", got, err)
		}
		if n, last, err := tx.FinishedVersion(ctx); err != nil || n != 3 || !last.Equal(ended[2].At) {
			t.Errorf("FinishedVersion() = %d, %v, %v, want 3 games, the last at %v", n, last, err, ended[2].At)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	before := finishedVersion(t, d)
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		g, err := tx.Game(ctx, 3)
		if err != nil {
			return err
		}
		g.Status, g.Result = Finished, WhiteWins
		return tx.SetGame(ctx, g, t0.Add(24*time.Hour))
	})
	if after := finishedVersion(t, d); after == before {
		t.Errorf("FinishedVersion() = %q before and after a game ended", after)
	}
}

func finishedVersion(t *testing.T, d *DB) string {
	t.Helper()
	var v string
	err := d.ReadTx(context.Background(), func(tx *Tx) error {
		n, last, err := tx.FinishedVersion(context.Background())
		v = fmt.Sprint(n, last)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return v
}
