package lobby_test

import (
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
