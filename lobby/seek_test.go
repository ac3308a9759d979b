package lobby_test

import (
	"context"
	"strings"
	"testing"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

func TestSeek(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob", "carol")
	w.SendProven("alice", "seek congo days=5")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "Your seek (days=5) waits")
	w.SendProven("bob", "seek congo")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "bob"), "Your seek (days=3) waits")
	w.SendProven("bob", "seek off")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "bob"), "Your seek was removed.")

	w.SendProven("carol", "seek congo days=5")
	mails := w.Deliver()
	servertest.WantText(t, servertest.Only(t, servertest.To(mails, "alice"), "alice"), "Your seek was matched: the game begins.", "days=5")
	for _, m := range servertest.To(mails, "carol") {
		if strings.Contains(m.Subject, "Congo game 1") {
			servertest.WantText(t, m, "Your seek was matched")
		} else {
			servertest.WantText(t, m, "was matched: game 1 begins")
		}
	}
	g := w.Game(1)
	if g.Status != db.Active || g.TimeControl != "days=5" || !g.Has(w.Player("alice").ID) || !g.Has(w.Player("carol").ID) {
		t.Errorf("game from the seeks = %+v", g)
	}
	w.SendProven("alice", "seek off")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "You had no seek.")
}

// TestSeekRatingRanges: seeks with rating=LOW-HIGH match both ways
// (M75): each player's rating in the other's range, when it has one.
// alice (1500) seeks players of 1600-1900; carol (1450), with no range,
// is not in it, and dave (1650) wants 1000-1400, which holds neither
// alice nor carol: all three wait. bob (1800) wants 1400-1600: he is in
// alice's range and she in his, and her seek is the oldest: they play,
// and carol and dave wait on.
func TestSeekRatingRanges(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob", "carol", "dave")
	w.InTx(func(ctx context.Context, tx *db.Tx) error {
		for h, r := range map[string]float64{"alice": 1500, "bob": 1800, "carol": 1450, "dave": 1650} {
			p, err := tx.PlayerByHandle(ctx, h)
			if err != nil {
				return err
			}
			p.Rating = r
			if err := tx.SetPlayer(ctx, p); err != nil {
				return err
			}
		}
		return nil
	})
	w.SendProven("alice", "seek congo rating=1600-1900")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "alice"),
		"Your seek (days=3, rating=1600-1900) waits for a player who seeks the same, rated from 1600 to 1900, and whose own range of ratings, if they give one, holds yours (1500).")
	w.SendProven("carol", "seek congo")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "carol"), "Your seek (days=3) waits")
	w.SendProven("dave", "seek congo rating=1000-1400")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "dave"), "Your seek (days=3, rating=1000-1400) waits")
	if n := w.Games(); n != 0 {
		t.Fatalf("%d games from seeks whose ranges do not match", n)
	}

	w.SendProven("bob", "seek congo rating=1400-1600")
	mails := w.Deliver()
	servertest.WantWords(t, servertest.Answer(t, mails, "bob"), "Your seek (days=3, rating=1400-1600) was matched: game 1 begins")
	servertest.WantWords(t, servertest.Only(t, mails, "alice"), "Your seek was matched: the game begins.")
	if g := w.Game(1); !g.Has(w.Player("alice").ID) || !g.Has(w.Player("bob").ID) || g.Status != db.Active {
		t.Errorf("the game of the seeks: %+v, want alice and bob", g)
	}
	for _, p := range []string{"carol", "dave"} {
		if got := servertest.To(mails, p); len(got) != 0 {
			t.Errorf("%s, whose seek does not match, got %q", p, got[0].Subject)
		}
		w.SendProven(p, "seek off")
		servertest.WantText(t, servertest.Only(t, w.Deliver(), p), "Your seek was removed.")
	}
}
