package robot_test

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/congobymail/congo/config"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

// fairWorld is a World with the robot, alice holding games games against
// it at level level, and bob one at level 1; every game waits for the
// robot's first move (each player moved first).
func fairWorld(tb testing.TB, games, level int) (w *servertest.World, alice []int64, bob int64) {
	tb.Helper()
	w = servertest.New(tb, server.Config{Settings: config.Settings{Robot: config.DefaultRobot, RobotGames: -1}})
	if err := w.Server.EnsureRobot(context.Background()); err != nil {
		tb.Fatalf("EnsureRobot: %v", err)
	}
	w.Register("alice", "bob")
	for range games {
		w.SendProven("alice", fmt.Sprintf("challenge congo robot level=%d", level))
		alice = append(alice, servertest.GameOf(tb, w.Deliver()))
	}
	w.SendProven("bob", "challenge congo robot level=1")
	bob = servertest.GameOf(tb, w.Deliver())
	for _, id := range alice {
		moveIfTurn(tb, w, "alice", id)
	}
	moveIfTurn(tb, w, "bob", bob)
	w.Deliver()
	return w, alice, bob
}

// moveIfTurn has the player of game id move when it is their turn, and
// reports whether they did: the first legal move that does not give the
// robot the lion at once.
func moveIfTurn(tb testing.TB, w *servertest.World, handle string, id int64) bool {
	tb.Helper()
	g := w.Game(id)
	if g.Status != db.Active {
		return false
	}
	p, err := rules.ParsePosition(g.Position)
	if err != nil {
		tb.Fatal(err)
	}
	me := w.Player(handle)
	if (p.Turn() == rules.White) != (g.White == me.ID) {
		return false
	}
	legal := p.Legal()
	m := legal[0]
	for _, c := range legal {
		if next := p.After(c); !next.Outcome().Over() && !slices.ContainsFunc(next.Legal(), func(r rules.Move) bool {
			return next.After(r).Outcome().Over()
		}) {
			m = c
			break
		}
	}
	w.SendProven(handle, fmt.Sprintf("move congo %d %s", id, m))
	return true
}

// TestRobotTakesPlayersInTurn (M54): with alice's ten games waiting for
// the robot and then bob's one, the robot plays bob's second, not after
// all of alice's.
func TestRobotTakesPlayersInTurn(t *testing.T) {
	t.Parallel()
	w, alice, bob := fairWorld(t, 10, 1)
	// Every game was the robot's to answer at once: the robot plays
	// them, one a step, in the order the players' turns come.
	var order []int64
	for servertest.RobotStep(t, w.Server) {
		for _, id := range append(slices.Clone(alice), bob) {
			if g := w.Game(id); g.Position != "" && !slices.Contains(order, id) && robotMoved(t, w, id) {
				order = append(order, id)
			}
		}
	}
	if len(order) != 11 {
		t.Fatalf("the robot played in %d games, want 11: %v", len(order), order)
	}
	if i := slices.Index(order, bob); i > 1 {
		t.Errorf("the robot answered bob's game %d-th, after %d of alice's; want it within the first two (one think per other player waiting)", i+1, i)
	}
}

// robotMoved reports whether the robot has moved in game id.
func robotMoved(t testing.TB, w *servertest.World, id int64) bool {
	t.Helper()
	var n int
	w.InTx(func(ctx context.Context, tx *db.Tx) error {
		scores, err := tx.RobotScores(ctx, id)
		n = len(scores)
		return err
	})
	return n > 0
}

// fairLevel is the level of alice's games in BenchmarkRobotFairness.
var fairLevel = flag.Int("fair.level", 4, "BenchmarkRobotFairness: the level of the robot in alice's ten games")

// BenchmarkRobotFairness (M54): alice holds 10 games against the robot
// at level -fair.level (4) and moves in each as soon as the robot has answered, so
// that her turns never run out; bob plays one game at level 1 and
// measures how long the robot takes to answer each of his moves. It
// reports the median and the longest wait, in milliseconds.
func BenchmarkRobotFairness(b *testing.B) {
	w, alice, bob := fairWorld(b, 10, *fairLevel)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Server.Robot().Run(ctx) }()
	defer func() { cancel(); <-done }()
	const giveUp = 30 * time.Second
	var waits []time.Duration
	b.ResetTimer()
	for range b.N {
		// bob's turn comes once the robot answered his last move.
		for start := time.Now(); !moveIfTurn(b, w, "bob", bob); {
			if w.Game(bob).Status != db.Active {
				b.Fatalf("bob's game ended")
			}
			if time.Since(start) > giveUp {
				b.Fatalf("the robot did not answer bob within %v", giveUp)
			}
			keepMoving(b, w, alice)
			time.Sleep(time.Millisecond)
		}
		began := time.Now()
		for !robotAnswered(b, w, bob) {
			keepMoving(b, w, alice)
			if time.Since(began) > giveUp {
				break
			}
			time.Sleep(time.Millisecond)
		}
		waits = append(waits, time.Since(began))
		w.Deliver() // the mails, so that the outbox does not grow
	}
	b.StopTimer()
	sort.Slice(waits, func(i, j int) bool { return waits[i] < waits[j] })
	b.ReportMetric(float64(waits[len(waits)/2].Milliseconds()), "median-ms")
	b.ReportMetric(float64(waits[len(waits)-1].Milliseconds()), "max-ms")
}

// keepMoving has alice move in every game of hers where it is her turn.
func keepMoving(tb testing.TB, w *servertest.World, games []int64) {
	for _, id := range games {
		moveIfTurn(tb, w, "alice", id)
	}
}

// robotAnswered reports whether it is bob's turn in his game again.
func robotAnswered(tb testing.TB, w *servertest.World, id int64) bool {
	g := w.Game(id)
	p, err := rules.ParsePosition(g.Position)
	if err != nil {
		tb.Fatal(err)
	}
	return g.Status != db.Active || (p.Turn() == rules.White) == (g.White == w.Player("bob").ID)
}
