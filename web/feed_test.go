package web

import (
	"context"
	"encoding/xml"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/internal/congotest"
)

// TestFeed reads alice's feed as a feed reader does: an entry for each
// of her games' start, each move after which it was her move, and each
// result, the newest first (M44); nothing of the challenges.
func TestFeed(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := w.handler(t)
	var f struct {
		ID      string `xml:"id"`
		Updated string `xml:"updated"`
		Entries []struct {
			ID      string `xml:"id"`
			Title   string `xml:"title"`
			Updated string `xml:"updated"`
			Link    struct {
				Href string `xml:"href,attr"`
			} `xml:"link"`
		} `xml:"entry"`
	}
	body := mustGet(t, h, "/players/alice.atom")
	if err := xml.Unmarshal([]byte(body), &f); err != nil {
		t.Fatalf("the feed is not XML: %v\n%s", err, body)
	}
	want := []string{
		"Game 9: bob played 1. e2-e3; alice to move",
		"Game 8 is over: Drawn by agreement.",
		"Game 9 begins: bob vs alice",
		"Game 8 begins: alice vs carol",
		"Game 6 is over: Aborted before both sides had moved.",
		"Game 6 begins: dave vs alice",
		"Game 1 is over: alice won: bob's lion was captured.",
		"Game 1: bob played 1... d6-c5; alice to move",
		"Game 1 begins: alice vs bob",
	}
	var got []string
	for _, e := range f.Entries {
		got = append(got, e.Title)
	}
	if !slices.Equal(got, want) {
		t.Errorf("alice's feed:\n%q\nwant\n%q", got, want)
	}
	if f.ID != "http://congo.example/players/alice" || f.Updated != f.Entries[0].Updated {
		t.Errorf("feed id %q, updated %q (newest entry %q)", f.ID, f.Updated, f.Entries[0].Updated)
	}
	if e := f.Entries[0]; e.ID != "http://congo.example/games/9?ply=1" || e.Link.Href != e.ID || e.Updated != "2026-03-02T07:00:00Z" {
		t.Errorf("the newest entry: %+v", e)
	}
	ids := map[string]bool{}
	for _, e := range f.Entries {
		if ids[e.ID] {
			t.Errorf("two entries have the id %s", e.ID)
		}
		ids[e.ID] = true
	}
	// dave's feed: the game where carol is waiting for him, and no
	// entry for carol's moves that left it carol's move.
	mustGet(t, h, "/players/dave.atom")
	if feed := mustGet(t, h, "/players/carol.atom"); !strings.Contains(feed, "Game 2: dave played 1... b6-b5; carol to move") ||
		strings.Contains(feed, "Game 2: carol played") {
		t.Errorf("carol's feed:\n%s", feed)
	}
}

// playersDB opens a fresh database with n players, p0, p1, ..., who
// confirmed their addresses.
func playersDB(t *testing.T, n int) (*db.DB, []db.Player) {
	t.Helper()
	var handles []string
	for i := range n {
		handles = append(handles, fmt.Sprintf("p%d", i))
	}
	d := congotest.NewDB(t, handles...)
	var ps []db.Player
	for _, h := range handles {
		ps = append(ps, congotest.Player(t, d, h))
	}
	return d, ps
}

// TestFeedNewest checks that a feed of a player with many games holds
// the newest feedEntries entries of all of them, read from the games
// that changed last.
func TestFeedNewest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d, ps := playersDB(t, 4)
	r := rand.New(rand.NewPCG(3, 4))
	err := d.Tx(ctx, func(tx *db.Tx) error {
		// 40 games of p0, begun an hour apart, each moved at random
		// times later.
		for i := range 40 {
			opp := ps[1+i%3]
			white, black := ps[0], opp
			if i%2 == 1 {
				white, black = opp, ps[0]
			}
			begun := t0.Add(time.Duration(i) * time.Hour)
			st, _, err := game.Start(ctx, tx, game.Terms{White: white, Black: black, Challenger: white}, begun)
			if err != nil {
				return err
			}
			when := begun
			for _, m := range []string{"b2-b3", "b6-b5", "c2-c3", "c6-c5", "d2-d3", "d6-d5"}[:1+r.IntN(6)] {
				when = when.Add(time.Duration(1+r.IntN(300)) * time.Minute)
				st, err = game.Load(ctx, tx, st.ID(), when)
				if err != nil {
					return err
				}
				if _, err := game.Move(ctx, tx, &st, st.ToMove(), m, 0, ""); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	h, err := New(Config{DB: d, PublicURL: "http://congo.example/"})
	if err != nil {
		t.Fatal(err)
	}
	err = d.ReadTx(ctx, func(tx *db.Tx) error {
		p, err := tx.ProfileByHandle(ctx, "p0")
		if err != nil {
			return err
		}
		got, err := h.entries(ctx, tx, p)
		if err != nil {
			return err
		}
		games, err := tx.PlayerGames(ctx, p.ID, 1000)
		if err != nil {
			return err
		}
		var all []atomEntry
		for _, g := range games {
			moves, err := tx.PublicMoves(ctx, g.ID)
			if err != nil {
				return err
			}
			all = append(all, h.gameEntries(g, p.ID, moves)...)
		}
		sortEntries(all)
		if len(all) <= feedEntries {
			t.Fatalf("the games have %d entries, want more than %d", len(all), feedEntries)
		}
		if len(got) != feedEntries {
			t.Fatalf("entries() = %d entries, want %d", len(got), feedEntries)
		}
		for i := range got {
			if got[i].ID != all[i].ID {
				t.Fatalf("entry %d = %s (%s), want %s (%s)", i, got[i].ID, got[i].Updated, all[i].ID, all[i].Updated)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRatingReplay checks the replay behind the rating charts: after
// rated games played as the server plays them, each player's last point
// is their rating and deviation as stored, to the last bit; and so it
// stays as more games end, read on from where the replay was, also when
// one of them ended at a time before the last it had seen.
func TestRatingReplay(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d, ps := playersDB(t, 6)
	r := rand.New(rand.NewPCG(5, 6))
	// play has n random games end, the i-th at hour from+i.
	play := func(n, from int) {
		t.Helper()
		err := d.Tx(ctx, func(tx *db.Tx) error {
			for i := range n {
				a, b := r.IntN(6), r.IntN(5)
				if b >= a {
					b++
				}
				at := t0.Add(time.Duration(from+i) * time.Hour)
				white, err := tx.Player(ctx, ps[a].ID)
				if err != nil {
					return err
				}
				black, err := tx.Player(ctx, ps[b].ID)
				if err != nil {
					return err
				}
				st, _, err := game.Start(ctx, tx, game.Terms{White: white, Black: black, Challenger: white, Unrated: i%7 == 3}, at)
				if err != nil {
					return err
				}
				switch r.IntN(3) {
				case 0:
					_, err = game.Resign(ctx, tx, &st, st.White)
				case 1:
					_, err = game.Resign(ctx, tx, &st, st.Black)
				default:
					if _, err = game.Draw(ctx, tx, &st, st.White); err == nil {
						_, err = game.Draw(ctx, tx, &st, st.Black)
					}
				}
				if err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	h, err := New(Config{DB: d, PublicURL: "http://congo.example/"})
	if err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		err := d.ReadTx(ctx, func(tx *db.Tx) error {
			for _, p := range ps {
				stored, err := tx.Player(ctx, p.ID)
				if err != nil {
					return err
				}
				points, err := h.ratingsOf(ctx, tx, p.ID)
				if err != nil {
					return err
				}
				if len(points) != stored.RatedGames {
					t.Errorf("%s: %s: %d points, want one for each of %d rated games", when, p.Handle, len(points), stored.RatedGames)
					continue
				}
				if len(points) == 0 {
					continue
				}
				last := points[len(points)-1]
				if last.Rating != stored.Rating || math.Abs(last.Deviation-stored.Deviation) > 1e-9 {
					t.Errorf("%s: %s: the replay ends at %v ± %v, stored %v ± %v", when, p.Handle, last.Rating, last.Deviation, stored.Rating, stored.Deviation)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	play(40, 0)
	check("after 40 games")
	first := h.ratings
	play(20, 40)
	check("after 20 more")
	if h.ratings != first {
		t.Errorf("the replay started again for games that ended after it")
	}
	if h.ratings.count != 60 {
		t.Errorf("the replay has seen %d games, want 60", h.ratings.count)
	}
	// A game that ended at a time before the last seen (the clock went
	// back): the replay starts again, in the order of the ends, which is
	// then not the order the ratings changed in, so only the counts
	// hold.
	second := h.ratings
	play(1, 30)
	err = d.ReadTx(ctx, func(tx *db.Tx) error {
		for _, p := range ps {
			stored, err := tx.Player(ctx, p.ID)
			if err != nil {
				return err
			}
			points, err := h.ratingsOf(ctx, tx, p.ID)
			if err != nil {
				return err
			}
			if len(points) != stored.RatedGames {
				t.Errorf("%s: %d points, want one for each of %d rated games", p.Handle, len(points), stored.RatedGames)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if h.ratings == second || h.ratings.count != 61 {
		t.Errorf("after a game ended earlier than the last, the replay was not made again of all 61 games")
	}
}
