package tournament_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

// TestTournamentPausesAndNoVacation: a tournament made with the options
// pauses and novacation says so in its mails and lets its games be
// paused by agreement (M63), and a vacation does not stop their clocks
// (M67); one made without pauses refuses a pause. Its games use
// timeout=auto (M66).
func TestTournamentPausesAndNoVacation(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob", "carol", "dave")
	w.SendProven("alice", "tournament new roundrobin pauses novacation Club Cup")
	created := servertest.Only(t, w.Deliver(), "alice")
	servertest.WantWords(t, created, "It is a round robin, days=3, rated, its games may be paused by agreement, and without vacations: a vacation does not stop its clocks.")
	w.SendProven("bob", "join tournament 1")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "bob"), "a vacation does not stop its clocks")
	w.SendProven("carol", "join tournament 1")
	w.SendProven("alice", "tournament start 1")
	w.Deliver()

	// Its games may be paused.
	var game int64
	for _, id := range []int64{1, 2, 3} {
		if g := w.Game(id); g.Has(w.Player("alice").ID) && g.Status == db.Active && !g.TimeoutClaim {
			game = id
		}
	}
	if game == 0 {
		t.Fatal("alice has no game in the tournament")
	}
	g := w.Game(game)
	other := "bob"
	if g.Has(w.Player("carol").ID) {
		other = "carol"
	}
	w.SendProven("alice", "pause congo "+itoa(game))
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), other), "alice asks for a pause")

	// A vacation stops no clock of its games: the player to move of one
	// loses on time as if there were none.
	var toMove string
	var id int64
	for _, i := range []int64{1, 2, 3} {
		if gi := w.Game(i); gi.Status == db.Active && i != game {
			id = i
			toMove = handleOf(w, gi.White)
		}
	}
	w.SendProven(toMove, "vacation 10")
	answer := servertest.Only(t, w.Deliver(), toMove)
	servertest.WantWords(t, answer, "You are on vacation until")
	servertest.WantNoWords(t, answer, "your opponents have been told")
	w.Clock.Advance(3 * 24 * time.Hour)
	w.Tick()
	w.Deliver()
	if gi := w.Game(id); gi.Status != db.Finished || gi.Reason != rules.OutOfTime {
		t.Errorf("game %d of a tournament without vacations, its player to move on vacation: %v %v, want lost on time", id, gi.Status, gi.Reason)
	}

	// A tournament without pauses refuses them.
	w.SendProven("dave", "tournament new roundrobin Other Cup")
	w.SendProven("bob", "join tournament 2")
	w.SendProven("carol", "join tournament 2")
	w.SendProven("dave", "tournament start 2")
	w.Deliver()
	var first int64
	for i := int64(4); i <= 6; i++ {
		if gi := w.Game(i); gi.Has(w.Player("dave").ID) {
			first = i
			break
		}
	}
	w.SendProven("dave", "pause congo "+itoa(first))
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "dave"), "is a game of Other Cup, which was not made with the option pauses: its games cannot be paused.")
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// handleOf is the handle of the player with the id.
func handleOf(w *servertest.World, id int64) string {
	for _, h := range []string{"alice", "bob", "carol", "dave"} {
		if w.Player(h).ID == id {
			return h
		}
	}
	return ""
}
