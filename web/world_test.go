package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/director"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/pairing"
	"github.com/congobymail/congo/parser"
)

// t0 is when the world's first player registered; now is when its pages
// are read.
var (
	t0  = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	now = t0.Add(30 * time.Hour)
)

// world is a database of every kind of game, played through the game
// and director packages as the server plays them:
//
//  1. alice beat bob: d2-e3 d6-c5 d1xd7, the lion taken; with messages
//  2. carol v dave, being played: b2-b3 b6-b5 c2-c3; carol has
//     conditional moves waiting (a6-a5 then g2-g3)
//  3. alice challenged carol: waiting
//  4. bob challenged alice: declined
//  5. bob resigned to carol, unrated
//  6. aborted: dave v alice, no move
//     7-9. the Spring Cup, a round robin of alice, bob and carol: 7 won by
//     resignation, 8 drawn by agreement, 9 being played
//
// and the Autumn Open, a Swiss open for joining. eve registered by a mail
// that proved nothing. Every player's address and secret are secrets
// the pages must never show (secrets lists them, with the messages and
// the conditional moves).
type world struct {
	db      *db.DB
	players map[string]db.Player
	secrets []string
}

func newWorld(t testing.TB) *world {
	t.Helper()
	w := &world{db: congotest.NewDB(t), players: map[string]db.Player{}}
	congotest.InTx(t, w.db, func(ctx context.Context, tx *db.Tx) error { return w.build(ctx, t, tx) })
	return w
}

// at is the time of the world's n-th event.
func at(n int) time.Time { return t0.Add(time.Duration(n) * time.Hour) }

func (w *world) build(ctx context.Context, t testing.TB, tx *db.Tx) error {
	for _, h := range []string{"alice", "bob", "carol", "dave", "eve"} {
		addr, secret := h+".private@mail.example.net", "qz"+h+"7secret4x"
		p, err := tx.AddPlayer(ctx, h, addr, secret, t0)
		if err != nil {
			return err
		}
		if h != "eve" {
			if err := tx.SetConfirmed(ctx, p.ID); err != nil {
				return err
			}
		}
		w.players[h] = p
		w.secrets = append(w.secrets, addr, secret, "congo+"+secret)
	}
	w.secrets = append(w.secrets, "Meet me at", "call me on 555", "a6-a5", "g2-g3")
	p := func(h string) db.Player { return w.players[h] }
	// Each step reloads the game, as each mail does.
	load := func(id int64, n int) *game.State {
		st, err := game.Load(ctx, tx, id, at(n))
		if err != nil {
			t.Fatalf("load game %d: %v", id, err)
		}
		return &st
	}
	move := func(id int64, n int, by, m, comment string) {
		st := load(id, n)
		if _, err := game.Move(ctx, tx, st, p(by), m, 0, comment); err != nil {
			t.Fatalf("game %d: %s plays %s: %v", id, by, m, err)
		}
	}
	start := func(white, black string, unrated bool, n int) int64 {
		st, _, err := game.Challenge(ctx, tx, game.Terms{White: p(white), Black: p(black), Challenger: p(white), Unrated: unrated}, at(n))
		if err != nil {
			t.Fatal(err)
		}
		return st.ID()
	}
	accept := func(id int64, n int, by string) {
		if _, err := game.Accept(ctx, tx, load(id, n), p(by)); err != nil {
			t.Fatal(err)
		}
	}

	g := start("alice", "bob", false, 1) // 1
	accept(g, 1, "bob")
	move(g, 2, "alice", "d2-e3", "Good luck! Meet me at the club")
	move(g, 3, "bob", "d6-c5", "call me on 555-0100")
	move(g, 4, "alice", "d1xd7", "")

	g = start("carol", "dave", false, 5) // 2
	accept(g, 5, "dave")
	move(g, 6, "carol", "b2-b3", "")
	move(g, 7, "dave", "b6-b5", "")
	move(g, 8, "carol", "c2-c3", "")
	if err := game.AddConditional(ctx, tx, load(g, 8), p("carol"), []string{"a6-a5", "g2-g3"}); err != nil {
		t.Fatal(err)
	}

	start("alice", "carol", false, 9)   // 3, waits
	g = start("bob", "alice", false, 9) // 4
	if _, err := game.Decline(ctx, tx, load(g, 10), p("alice")); err != nil {
		t.Fatal(err)
	}

	g = start("carol", "bob", true, 10) // 5
	accept(g, 10, "bob")
	move(g, 11, "carol", "c2-c3", "")
	if _, err := game.Resign(ctx, tx, load(g, 12), p("bob")); err != nil {
		t.Fatal(err)
	}

	g = start("dave", "alice", false, 12) // 6
	accept(g, 12, "alice")
	if _, err := game.Abort(ctx, tx, load(g, 13), p("dave")); err != nil {
		t.Fatal(err)
	}

	cup, err := director.New(ctx, tx, p("alice"), director.Spec{Name: "Spring Cup", System: pairing.RoundRobin,
		Control: parser.TimeControl{Days: 3}}, at(14))
	if err != nil {
		return err
	}
	for _, h := range []string{"bob", "carol"} {
		if err := director.Join(ctx, tx, &cup, p(h), at(14)); err != nil {
			return err
		}
	}
	if _, err := director.Start(ctx, tx, &cup, at(15)); err != nil {
		return err
	}
	// Games 7, 8 and 9, one a round, each begun at once.
	st := load(7, 16)
	if _, err := game.Resign(ctx, tx, st, st.Black); err != nil {
		t.Fatal(err)
	}
	if _, err := director.GameEnded(ctx, tx, st.Game, at(16)); err != nil {
		t.Fatal(err)
	}
	st = load(8, 17)
	if _, err := game.Draw(ctx, tx, st, st.White); err != nil {
		t.Fatal(err)
	}
	st = load(8, 18)
	if _, err := game.Draw(ctx, tx, st, st.Black); err != nil {
		t.Fatal(err)
	}
	if _, err := director.GameEnded(ctx, tx, st.Game, at(18)); err != nil {
		t.Fatal(err)
	}
	st = load(9, 19)
	if _, err := game.Move(ctx, tx, st, st.White, "e2-e3", 0, "in the cup"); err != nil {
		t.Fatal(err)
	}

	autumn, err := director.New(ctx, tx, p("bob"), director.Spec{Name: "Autumn Open", System: pairing.Swiss}, at(20))
	if err != nil {
		return err
	}
	return director.Join(ctx, tx, &autumn, p("dave"), at(20))
}

// handler is the handler of the world's pages, at http://congo.example/.
func (w *world) handler(t testing.TB) *Handler {
	t.Helper()
	h, err := New(Config{DB: w.db, PublicURL: "http://congo.example/", Site: "congo@example.org",
		Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// get answers a GET of target with the headers (name, value, ...).
func get(h http.Handler, target string, headers ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodGet, target, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		r.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return rec
}

// mustGet answers a GET of target and fails the test unless it is 200.
func mustGet(t testing.TB, h http.Handler, target string) string {
	t.Helper()
	rec := get(h, target)
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s = %d, want 200:\n%s", target, rec.Code, rec.Body)
	}
	return rec.Body.String()
}

// between returns the text of s between the first before and the next
// after, or "".
func between(s, before, after string) string {
	_, s, ok := strings.Cut(s, before)
	if !ok {
		return ""
	}
	s, _, _ = strings.Cut(s, after)
	return s
}
