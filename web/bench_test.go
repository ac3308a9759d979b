package web

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/rating"
	"github.com/congobymail/congo/rules"
)

// benchGames is how many games the benchmarks' database holds (M46: every
// page in under 50 ms with 10,000 games).
const benchGames = 10000

// benchDB is the benchmarks' database, made once a run of the tests (it
// takes a while) in a directory removed at the end.
var benchDB struct {
	once sync.Once
	dir  string
	path string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDB.dir != "" {
		os.RemoveAll(benchDB.dir)
	}
	os.Exit(code)
}

// openBench opens the benchmarks' database: 500 players and benchGames
// games of 10 to 120 random legal moves each, seven in ten of them over
// (rated, with the ratings they ended with), the rest being played; the
// players' ratings as those games left them.
func openBench(b *testing.B) *db.DB {
	b.Helper()
	benchDB.once.Do(func() {
		benchDB.dir, benchDB.err = os.MkdirTemp("", "congo-web-bench")
		if benchDB.err != nil {
			return
		}
		benchDB.path = filepath.Join(benchDB.dir, "congo.db")
		benchDB.err = seedBench(benchDB.path)
	})
	if benchDB.err != nil {
		b.Fatal(benchDB.err)
	}
	return congotest.OpenDB(b, benchDB.path)
}

// openBenchCopy opens a copy of the benchmarks' database, to write in.
func openBenchCopy(b *testing.B) *db.DB {
	b.Helper()
	openBench(b).Close()
	data, err := os.ReadFile(benchDB.path)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "congo.db")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	return congotest.OpenDB(b, path)
}

func seedBench(path string) error {
	ctx := context.Background()
	d, err := db.Open(ctx, path)
	if err != nil {
		return err
	}
	defer d.Close()
	r := rand.New(rand.NewPCG(7, 8))
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	return d.Tx(ctx, func(tx *db.Tx) error {
		var ps []db.Player
		for i := range 500 {
			h := fmt.Sprintf("player%03d", i)
			p, err := tx.AddPlayer(ctx, h, h+"@example.org", "secret"+h, start)
			if err != nil {
				return err
			}
			if err := tx.SetConfirmed(ctx, p.ID); err != nil {
				return err
			}
			p.Rating, p.Deviation, p.Volatility = rating.Start.Rating, rating.Start.Deviation, rating.Start.Volatility
			ps = append(ps, p)
		}
		for i := range benchGames {
			a, c := r.IntN(len(ps)), r.IntN(len(ps)-1)
			if c >= a {
				c++
			}
			white, black := &ps[a], &ps[c]
			at := start.Add(time.Duration(i) * 30 * time.Minute)
			g, err := tx.AddGame(ctx, db.Game{White: white.ID, Black: black.ID, Challenger: white.ID, Status: db.Active,
				Position: rules.StartPosition, TimeControl: db.DefaultTimeControl, Rated: true,
				WhiteLeft: 72 * time.Hour, BlackLeft: 72 * time.Hour, ClockStart: at, TurnTime: 72 * time.Hour}, at)
			if err != nil {
				return err
			}
			pos := rules.Start()
			plies := 10 + r.IntN(110)
			for ply := 1; ply <= plies && !pos.Outcome().Over(); ply++ {
				moves := pos.Legal()
				if len(moves) == 0 {
					break
				}
				m := moves[r.IntN(len(moves))]
				pos, _ = pos.Apply(m)
				at = at.Add(time.Duration(1+r.IntN(600)) * time.Minute)
				if err := tx.AddMove(ctx, db.Move{Game: g.ID, Ply: ply, Move: m.String(), Position: pos.String(), At: at}); err != nil {
					return err
				}
			}
			g.Position, g.ClockStart = pos.String(), at
			if r.IntN(10) < 7 || pos.Outcome().Over() {
				g.Status, g.Result, g.Reason = db.Finished, []db.Result{db.WhiteWins, db.BlackWins, db.Draw}[r.IntN(3)], rules.Resigned
				score := map[db.Result]float64{db.WhiteWins: 1, db.Draw: 0.5, db.BlackWins: 0}[g.Result]
				w, bl := rating.Game(rating.Rating{Rating: white.Rating, Deviation: white.Deviation, Volatility: white.Volatility},
					rating.Rating{Rating: black.Rating, Deviation: black.Deviation, Volatility: black.Volatility}, score)
				white.Rating, white.Deviation, white.Volatility = w.Rating, w.Deviation, w.Volatility
				black.Rating, black.Deviation, black.Volatility = bl.Rating, bl.Deviation, bl.Volatility
				white.RatedGames++
				black.RatedGames++
				g.WhiteRating, g.BlackRating = w.Rating, bl.Rating
			}
			if err := tx.SetGame(ctx, g, at); err != nil {
				return err
			}
		}
		for _, p := range ps {
			if err := tx.SetPlayer(ctx, p); err != nil {
				return err
			}
		}
		return nil
	})
}

// benchRequests times requests of targets, one an iteration, and reports
// the median and the 95th percentile of the server's time per request.
func benchRequests(b *testing.B, h http.Handler, targets func(i int) string) {
	b.Helper()
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		r := httptest.NewRequest(http.MethodGet, targets(i), nil)
		r.Header.Set("Accept-Encoding", "gzip")
		rec := httptest.NewRecorder()
		t0 := time.Now()
		h.ServeHTTP(rec, r)
		times = append(times, time.Since(t0))
		if rec.Code != http.StatusOK {
			b.Fatalf("GET %s = %d", r.URL, rec.Code)
		}
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(times[len(times)*95/100].Microseconds())/1000, "ms-p95")
}

// BenchmarkGamePage asks for the pages of random games of 10,000, at
// random positions of them or as they stand.
func BenchmarkGamePage(b *testing.B) {
	d := openBench(b)
	h, err := New(Config{DB: d, PublicURL: "http://congo.example/", Site: "congo@example.org"})
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(9, 10))
	benchRequests(b, h, func(int) string {
		id := 1 + r.IntN(benchGames)
		if r.IntN(2) == 0 {
			return fmt.Sprintf("/games/%d?ply=%d", id, r.IntN(10))
		}
		return fmt.Sprintf("/games/%d", id)
	})
}

// BenchmarkPages asks for each other kind of page of the same database.
func BenchmarkPages(b *testing.B) {
	d := openBench(b)
	h, err := New(Config{DB: d, PublicURL: "http://congo.example/", Site: "congo@example.org"})
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(11, 12))
	player := func() string { return fmt.Sprintf("player%03d", r.IntN(500)) }
	for _, p := range []struct {
		name   string
		target func() string
	}{
		{"home", func() string { return "/" }},
		{"ratings", func() string { return "/ratings" }},
		{"player", func() string { return "/players/" + player() }},
		{"feed", func() string { return "/players/" + player() + ".atom" }},
		{"record", func() string { return fmt.Sprintf("/games/%d.pgn", 1+r.IntN(benchGames)) }},
	} {
		b.Run(p.name, func(b *testing.B) { benchRequests(b, h, func(int) string { return p.target() }) })
	}
	// The first player page after a game ends goes on with the replay of
	// the rated results, for the charts' deviations, from where it was:
	// a game ends (in a copy of the database), then a player's page.
	b.Run("player-after-an-end", func(b *testing.B) {
		ctx := context.Background()
		c := openBenchCopy(b)
		hc, err := New(Config{DB: c, PublicURL: "http://congo.example/", Site: "congo@example.org"})
		if err != nil {
			b.Fatal(err)
		}
		end := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
		benchRequests(b, hc, func(i int) string {
			end = end.Add(time.Minute)
			err := c.Tx(ctx, func(tx *db.Tx) error {
				g, err := tx.AddGame(ctx, db.Game{White: int64(1 + i%500), Black: int64(1 + (i+1)%500), Challenger: int64(1 + i%500),
					Status: db.Active, Position: rules.StartPosition, Rated: true}, end)
				if err != nil {
					return err
				}
				g.Status, g.Result, g.Reason = db.Finished, db.Draw, rules.Agreed
				return tx.SetGame(ctx, g, end)
			})
			if err != nil {
				b.Fatal(err)
			}
			return "/players/" + player()
		})
	})
	// Once at the start (Handler.Warm), or when the games over do not add
	// up, the replay is made of every rated result.
	b.Run("player-replay", func(b *testing.B) {
		benchRequests(b, h, func(int) string {
			h.ratingsMu.Lock()
			h.ratings = nil
			h.ratingsMu.Unlock()
			return "/players/" + player()
		})
	})
}
