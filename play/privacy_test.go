package play_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/congobymail/congo/config"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
	"github.com/congobymail/congo/web"
)

// TestNotesStayPrivate plays a game to its end with notes written by
// both players all along (M68), an observer, messages, conditional
// lines, an analysis asked by all three, the web pages on, and then
// walks everything the game made: every mail sent (its raw bytes, both
// parts), every page, position, record and feed of the web, the stored
// analysis, and the server's log. A note appears in mails to its author
// alone, in their answers and their history, and nowhere else, also
// after the game.
func TestNotesStayPrivate(t *testing.T) {
	t.Parallel()
	var log bytes.Buffer
	w := servertest.New(t, server.Config{Settings: config.Settings{AnalysisNodes: 2000, PublicURL: "https://congo.example.org/"},
		Logger: slog.New(slog.NewTextHandler(&log, nil))})
	w.Register("alice", "bob", "carol")
	id := w.StartGame("alice", "bob")
	var all []servertest.Received // every mail the server sent
	deliver := func() []servertest.Received {
		mails := w.Deliver()
		all = append(all, mails...)
		return mails
	}
	// Each note is a marker of its author's: only mails to them may
	// hold it.
	notes := map[string][]string{"alice": {"AliceNoteOne", "AliceNoteTwo", "AliceNoteAfter"}, "bob": {"BobNoteOne", "BobNoteAfter"}}
	say := func(who, body string) {
		w.SendProven(who, body)
		deliver()
	}
	say("carol", fmt.Sprintf("observe congo %d", id))
	say("alice", fmt.Sprintf("note congo %d AliceNoteOne: the d-file opens", id))
	say("alice", fmt.Sprintf("move congo %d d2-e3\nnote congo %d AliceNoteTwo his lion on d7 is bare\nYour move!", id, id))
	// bob writes a note in a reply, with a conditional line, a message
	// and a move.
	var last servertest.Received
	for _, m := range all {
		if m.To == congotest.Address("bob") && strings.HasPrefix(m.Subject, "Congo game") {
			last = m
		}
	}
	w.Reply(last, "d6-c5 anyway\nnote BobNoteOne: I hope he misses it\nif a2-a3 then a6-a5\nWell played so far.")
	deliver()
	say("alice", fmt.Sprintf("move congo %d d1xd7", id))
	if g := w.Game(id); g.Status != db.Finished {
		t.Fatalf("game %d is %v, want finished", id, g.Status)
	}
	say("alice", fmt.Sprintf("note congo %d AliceNoteAfter: he did miss it\nnotes congo %d\nhistory congo %d", id, id, id))
	say("bob", fmt.Sprintf("note congo %d BobNoteAfter\nhistory congo %d", id, id))
	say("carol", fmt.Sprintf("history congo %d\nboard congo %d", id, id))
	for _, who := range []string{"alice", "bob", "carol"} {
		say(who, fmt.Sprintf("analyze congo %d", id))
	}
	for {
		more, err := w.Server.Analyses().Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !more {
			break
		}
	}
	deliver()

	// The mails: each note to its author alone, who did get them all.
	got := map[string]string{}
	for _, m := range all {
		text := string(m.Raw) + "\n" + m.Text + "\n" + servertest.HTMLOf(t, m.Raw)
		got[m.To] += text
		for author, markers := range notes {
			for _, n := range markers {
				if m.To != congotest.Address(author) && strings.Contains(text, n) {
					t.Errorf("the mail %q to %s holds %s's note %s", m.Subject, m.To, author, n)
				}
			}
		}
	}
	for author, markers := range notes {
		for _, n := range markers {
			if !strings.Contains(got[congotest.Address(author)], n) {
				t.Errorf("%s never read their own note %s", author, n)
			}
		}
	}
	analyses := 0
	for _, m := range all {
		if strings.Contains(m.Text, "The robot's analysis of") {
			analyses++
		}
	}
	if analyses != 3 {
		t.Errorf("%d analysis mails, want one to each of the three", analyses)
	}

	// The web: every page, position, record and feed.
	h, err := web.New(web.Config{DB: w.DB, PublicURL: "https://congo.example.org/", Site: servertest.ServerAddress, Now: w.Clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	targets := []string{"/", "/ratings", fmt.Sprintf("/games/%d.pgn", id)}
	for ply := 0; ply <= 3; ply++ {
		targets = append(targets, fmt.Sprintf("/games/%d?ply=%d", id, ply))
	}
	for _, p := range []string{"alice", "bob", "carol"} {
		targets = append(targets, "/players/"+p, "/players/"+p+".atom")
	}
	link := regexp.MustCompile(`href="(/[^"]*)"`)
	seen := map[string]bool{}
	for len(targets) > 0 {
		target := strings.ReplaceAll(targets[0], "&amp;", "&")
		targets = targets[1:]
		if seen[target] {
			continue
		}
		seen[target] = true
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
		if rec.Code != http.StatusOK {
			t.Errorf("GET %s = %d", target, rec.Code)
		}
		body := rec.Body.String()
		checkNoNotes(t, "GET "+target, body, notes)
		for _, m := range link.FindAllStringSubmatch(body, -1) {
			targets = append(targets, m[1])
		}
	}
	if len(seen) < 12 {
		t.Errorf("read %d pages, want the game's, its positions, record, players and feeds", len(seen))
	}

	// The stored analysis, and the server's log.
	w.InTx(func(ctx context.Context, tx *db.Tx) error {
		a, err := tx.Analysis(ctx, id)
		if err != nil {
			return err
		}
		checkNoNotes(t, "the stored analysis", string(a.Data), notes)
		return nil
	})
	checkNoNotes(t, "the server's log", log.String(), notes)
}

// checkNoNotes fails the test when text, which where names, holds a note.
func checkNoNotes(t *testing.T, where, text string, notes map[string][]string) {
	t.Helper()
	for author, markers := range notes {
		for _, n := range markers {
			if strings.Contains(text, n) {
				t.Errorf("%s holds %s's note %s", where, author, n)
			}
		}
	}
}
