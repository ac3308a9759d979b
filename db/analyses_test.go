package db

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestAnalysisQueue follows requests through the queue: oldest first, the
// games ahead of each, a game's requests done together, the count of a
// player's requests in the last day.
func TestAnalysisQueue(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	alice, bob := twoPlayers(t, d)
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		var games []int64
		for range 3 {
			g, err := tx.AddGame(ctx, Game{White: alice.ID, Black: bob.ID, Challenger: alice.ID, Status: Finished, Position: start}, t0)
			if err != nil {
				return err
			}
			games = append(games, g.ID)
		}
		if _, err := tx.NextAnalysisRequest(ctx); !errors.Is(err, ErrNotFound) {
			t.Errorf("NextAnalysisRequest of an empty queue = %v, want ErrNotFound", err)
		}
		if n, err := tx.CountAnalysesAhead(ctx, games[0]); err != nil || n != 0 {
			t.Errorf("AnalysesAhead of an empty queue = %d, %v, want 0", n, err)
		}
		// alice asks for games 2 and 1, bob for game 1 too and then 3.
		asks := []AnalysisRequest{
			{Game: games[1], Player: alice.ID, MessageID: "a1@x", Requested: t0},
			{Game: games[0], Player: alice.ID, MessageID: "a2@x", Requested: t0.Add(time.Hour)},
			{Game: games[0], Player: bob.ID, Requested: t0.Add(2 * time.Hour)},
			{Game: games[2], Player: bob.ID, Requested: t0.Add(3 * time.Hour)},
		}
		var reqs []AnalysisRequest
		for _, r := range asks {
			got, err := tx.AddAnalysisRequest(ctx, r)
			if err != nil {
				return err
			}
			reqs = append(reqs, got)
		}
		next, err := tx.NextAnalysisRequest(ctx)
		if err != nil || next != reqs[0] {
			t.Errorf("NextAnalysisRequest = %+v, %v, want %+v", next, err, reqs[0])
		}
		for i, want := range []int{1, 0, 2} {
			if n, err := tx.CountAnalysesAhead(ctx, games[i]); err != nil || n != want {
				t.Errorf("AnalysesAhead(game %d) = %d, %v, want %d", games[i], n, err, want)
			}
		}
		if n, err := d.waitingIn(ctx, tx); err != nil || n != 3 {
			t.Errorf("waiting games = %d, %v, want 3", n, err)
		}
		waiting, err := tx.WaitingAnalysisRequests(ctx, games[0])
		if err != nil || len(waiting) != 2 || waiting[0] != reqs[1] || waiting[1] != reqs[2] {
			t.Errorf("WaitingAnalysisRequests(game %d) = %+v, %v, want alice's and bob's", games[0], waiting, err)
		}
		// The first game's analysis is done: the second is next, and
		// the first has none ahead of it any more.
		for _, r := range waiting {
			if err := tx.SetAnalysisRequestDone(ctx, r.ID, t0.Add(4*time.Hour)); err != nil {
				return err
			}
		}
		if err := tx.SetAnalysisRequestDone(ctx, reqs[1].ID, t0.Add(5*time.Hour)); !errors.Is(err, ErrNotFound) {
			t.Errorf("FinishAnalysisRequest of a request done = %v, want ErrNotFound", err)
		}
		if waiting, err := tx.WaitingAnalysisRequests(ctx, games[0]); err != nil || len(waiting) != 0 {
			t.Errorf("WaitingAnalysisRequests after they were done = %+v, %v, want none", waiting, err)
		}
		if n, err := tx.CountAnalysesAhead(ctx, games[2]); err != nil || n != 1 {
			t.Errorf("AnalysesAhead(game %d) = %d, %v, want 1", games[2], n, err)
		}
		// Requests count for the day they were made, done or not.
		for _, c := range []struct {
			player int64
			since  time.Time
			n      int
			oldest time.Time
		}{
			{alice.ID, t0.Add(-time.Minute), 2, t0},
			{alice.ID, t0, 1, t0.Add(time.Hour)},
			{bob.ID, t0, 2, t0.Add(2 * time.Hour)},
			{bob.ID, t0.Add(3 * time.Hour), 0, time.Time{}},
		} {
			n, oldest, err := tx.CountAnalysisRequestsSince(ctx, c.player, c.since)
			if err != nil || n != c.n || !oldest.Equal(c.oldest) {
				t.Errorf("AnalysisRequestsSince(%d, %v) = %d, %v, %v; want %d, %v", c.player, c.since, n, oldest, err, c.n, c.oldest)
			}
		}
		return nil
	})
}

// waitingIn is DB.WaitingAnalyses, read in the transaction that wrote
// what it counts.
func (d *DB) waitingIn(ctx context.Context, tx *Tx) (int, error) {
	var n int
	err := tx.queryRow(ctx, "SELECT count(DISTINCT game) FROM analysis_requests WHERE done = ''").Scan(&n)
	return n, err
}

// TestStoredAnalysis: a game's analysis is stored once.
func TestStoredAnalysis(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	alice, bob := twoPlayers(t, d)
	var game int64
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		g, err := tx.AddGame(ctx, Game{White: alice.ID, Black: bob.ID, Challenger: alice.ID, Status: Finished, Position: start}, t0)
		if err != nil {
			return err
		}
		game = g.ID
		if _, err := tx.Analysis(ctx, game); !errors.Is(err, ErrNotFound) {
			t.Errorf("Analysis of a game without one = %v, want ErrNotFound", err)
		}
		first := StoredAnalysis{Game: game, Nodes: 200000, Data: []byte(`{"v":1}`), Created: t0}
		if ok, err := tx.SetAnalysis(ctx, first); err != nil || !ok {
			t.Errorf("SetAnalysis = %v, %v, want stored", ok, err)
		}
		if ok, err := tx.SetAnalysis(ctx, StoredAnalysis{Game: game, Nodes: 5, Data: []byte("{}"), Created: t0.Add(time.Hour)}); err != nil || ok {
			t.Errorf("SetAnalysis a second time = %v, %v, want not stored", ok, err)
		}
		got, err := tx.Analysis(ctx, game)
		if err != nil || got.Game != game || got.Nodes != first.Nodes || string(got.Data) != string(first.Data) || !got.Created.Equal(t0) {
			t.Errorf("Analysis = %+v, %v, want %+v", got, err, first)
		}
		return nil
	})
	if n, err := d.WaitingAnalyses(context.Background()); err != nil || n != 0 {
		t.Errorf("WaitingAnalyses = %d, %v, want 0", n, err)
	}
}
