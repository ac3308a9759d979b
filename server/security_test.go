package server_test

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/config"
	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

// TestForgedFromIsNeverApplied sends every command that changes
// something with a forged From: the player's registered address, but not
// to the personal address. Nothing in the database may change but the
// bookkeeping of mail (processed, outbox, sent, and the counts of mail).
// As a control, the same
// command sent to the personal address must change something.
func TestForgedFromIsNeverApplied(t *testing.T) {
	t.Parallel()
	for _, tt := range forgedCommands {
		for _, proven := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/proven=%v", tt.name, proven), func(t *testing.T) {
				t.Parallel()
				w, dump := newDumpWorld(t)
				w.Register("alice", "bob", "carol")
				if tt.setup != nil {
					tt.setup(t, w)
				}
				w.Deliver()
				before := dump()
				if proven {
					w.SendProven(tt.from, tt.body)
				} else {
					w.Send(tt.from, tt.body)
				}
				mails := w.Deliver()
				after := dump()
				if proven {
					if after == before {
						t.Errorf("%q to the personal address changed nothing: the control fails", tt.body)
					}
					return
				}
				if after != before {
					t.Errorf("%q with a forged From changed the database:\nbefore %s\nafter  %s", tt.body, before, after)
				}
				if len(mails) != 1 || mails[0].To != congotest.Address(tt.from) {
					t.Fatalf("%q with a forged From: %d mails, want 1 answer to %s", tt.body, len(mails), tt.from)
				}
				servertest.WantText(t, mails[0], "did not come to your personal address")
			})
		}
	}
}

// TestForgedTestsCoverEveryChange: every command that needs a proven
// sender is in TestForgedFromIsNeverApplied.
func TestForgedTestsCoverEveryChange(t *testing.T) {
	t.Parallel()
	forged := map[parser.Kind]bool{}
	for _, tt := range forgedCommands {
		for _, c := range parser.Parse("", tt.body, parser.Context{Game: 1}).Commands {
			forged[c.Kind] = true
		}
	}
	for _, k := range server.ProvenKinds() {
		// board, preview and tournament change nothing: they need proof
		// so that no board or standings answer a forged mail (M31),
		// which TestBoard, TestPreviewNeedsProof and TestTournamentShow
		// check.
		if !forged[k] && k != parser.Board && k != parser.Preview && k != parser.Tournament {
			t.Errorf("%v needs a proven sender, but TestForgedFromIsNeverApplied does not send it", k)
		}
	}
}

// forgedCommands are the commands that change something, each with what
// must be done before it (by proven mail) and its sender.
var forgedCommands = []struct {
	name  string
	setup func(t *testing.T, w *servertest.World) // proven commands before
	from  string
	body  string
}{
	{"newkey", nil, "alice", "newkey"},
	{"rename", nil, "alice", "rename alicia"},
	{"challenge", nil, "alice", "challenge congo bob"},
	{"accept", func(t *testing.T, w *servertest.World) { w.SendProven("alice", "challenge congo bob") }, "bob", "accept congo 1"},
	{"decline", func(t *testing.T, w *servertest.World) { w.SendProven("alice", "challenge congo bob") }, "bob", "decline congo 1"},
	{"move", startGame1, "alice", "move congo 1 b2-b3"},
	{"resign", startGame1, "alice", "resign congo 1"},
	{"draw", startGame1, "alice", "draw congo 1"},
	{"nodraw", func(t *testing.T, w *servertest.World) { startGame1(t, w); w.SendProven("bob", "draw congo 1") }, "alice", "nodraw congo 1"},
	{"takeback", func(t *testing.T, w *servertest.World) { startGame1(t, w); w.SendProven("alice", "move congo 1 b2-b3") }, "alice", "takeback congo 1"},
	{"abort", startGame1, "alice", "abort congo 1"},
	{"conditional", startGame1, "bob", "conditional congo 1\nif b2-b3 then b6-b5"},
	{"conditional resign", startGame1, "bob", "conditional congo 1\nif b2-b3 then resign"},
	{"note", startGame1, "alice", "note congo 1 his lion is weak on d7"},
	{"conditional clear", func(t *testing.T, w *servertest.World) {
		startGame1(t, w)
		w.SendProven("bob", "conditional congo 1\nif b2-b3 then b6-b5")
	}, "bob", "conditional congo 1 clear"},
	{"observe", startGame1, "carol", "observe congo 1"},
	{"unobserve", func(t *testing.T, w *servertest.World) { startGame1(t, w); w.SendProven("carol", "observe congo 1") }, "carol", "unobserve congo 1"},
	{"seek", nil, "alice", "seek congo"},
	{"notify", nil, "alice", "notify digest"},
	{"vacation", nil, "alice", "vacation 3"},
	{"language", nil, "alice", "language ja"},
	{"guard", nil, "alice", "guard off"},
	{"tournament new", nil, "alice", "tournament new swiss Spring Cup"},
	{"join", newTournament1, "bob", "join tournament 1"},
	{"leave", func(t *testing.T, w *servertest.World) {
		newTournament1(t, w)
		w.SendProven("bob", "join tournament 1")
	}, "bob", "leave tournament 1"},
	{"tournament kick", func(t *testing.T, w *servertest.World) {
		newTournament1(t, w)
		w.SendProven("bob", "join tournament 1")
	}, "alice", "tournament kick 1 bob"},
	{"tournament start", func(t *testing.T, w *servertest.World) {
		newTournament1(t, w)
		w.SendProven("bob", "join tournament 1")
		w.SendProven("carol", "join tournament 1")
	}, "alice", "tournament start 1"},
	{"tournament cancel", newTournament1, "alice", "tournament cancel 1"},
	{"timezone", nil, "alice", "timezone Europe/Prague"},
	{"weekends", nil, "alice", "weekends pause"},
	{"pause", startGame1, "alice", "pause congo 1"},
	{"resume", func(t *testing.T, w *servertest.World) {
		startGame1(t, w)
		w.SendProven("alice", "pause congo 1")
		w.SendProven("bob", "pause congo 1")
	}, "alice", "resume congo 1"},
	{"give", startGame1, "bob", "give congo 1 2d"},
	{"claim", func(t *testing.T, w *servertest.World) {
		w.SendProven("alice", "challenge congo bob timeout=claim")
		w.SendProven("bob", "accept congo 1")
		w.Clock.Advance(4 * 24 * time.Hour)
	}, "bob", "claim congo 1"},
	{"tournament add", newTournament1, "alice", "tournament 1 add robot"},
	{"tournament close", newLadder1, "alice", "tournament close 1"},
	{"challenge ladder", func(t *testing.T, w *servertest.World) {
		newLadder1(t, w)
		w.SendProven("bob", "join tournament 1")
	}, "bob", "challenge ladder 1 alice"},
	{"seek with a range", nil, "alice", "seek congo rating=1000-2000"},
	{"analyze", func(t *testing.T, w *servertest.World) {
		startGame1(t, w)
		w.SendProven("alice", "move congo 1 d2-e3")
		w.SendProven("bob", "resign congo 1")
	}, "carol", "analyze congo 1"},
}

// newTournament1 creates tournament 1, a round robin alice directs.
func newTournament1(t *testing.T, w *servertest.World) {
	t.Helper()
	w.SendProven("alice", "tournament new roundrobin Club Cup")
}

// newLadder1 creates tournament 1, a ladder alice directs.
func newLadder1(t *testing.T, w *servertest.World) {
	t.Helper()
	w.SendProven("alice", "tournament new ladder Club Ladder")
}

// startGame1 starts game 1, alice (white) against bob.
func startGame1(t *testing.T, w *servertest.World) {
	t.Helper()
	if id := w.StartGame("alice", "bob"); id != 1 {
		t.Fatalf("the game is %d, want 1", id)
	}
}

// newDumpWorld is servertest.New, with the robot, and a function that
// dumps every table but the bookkeeping of mail, read through a
// connection of its own.
func newDumpWorld(t *testing.T) (*servertest.World, func() string) {
	t.Helper()
	w := servertest.New(t, server.Config{Settings: config.Settings{Robot: config.DefaultRobot}})
	if err := w.Server.EnsureRobot(context.Background()); err != nil {
		t.Fatalf("EnsureRobot: %v", err)
	}
	raw, err := sql.Open("sqlite", "file:"+w.DBPath+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Close() })
	dump := func() string {
		t.Helper()
		tables, err := column[string](raw, "SELECT name FROM sqlite_master WHERE type = 'table'"+
			" AND name NOT IN ('processed', 'outbox', 'outbox_text', 'sent', 'sent_games', 'mail_counts', 'cap_notices', 'strangers')"+
			" AND name NOT LIKE 'sqlite_%' ORDER BY name")
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, table := range tables {
			rows, err := raw.Query("SELECT * FROM " + table) // names from sqlite_master
			if err != nil {
				t.Fatal(err)
			}
			cols, _ := rows.Columns()
			for rows.Next() {
				vals := make([]any, len(cols))
				ptrs := make([]any, len(cols))
				for i := range vals {
					ptrs[i] = &vals[i]
				}
				if err := rows.Scan(ptrs...); err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&b, "%s%v; ", table, vals)
			}
			rows.Close()
		}
		return b.String()
	}
	return w, dump
}

func column[T any](d *sql.DB, query string) ([]T, error) {
	rows, err := d.Query(query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var v T
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
