package play_test

import (
	"strings"
	"testing"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

// TestPreview: preview answers with the board after the moves, played in
// turn from the position now (M70), in a board mail of its own whose
// first line says nothing was played; nothing is, and nobody else hears
// of it. The moves are checked as moves are.
func TestPreview(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob", "carol", "dave")
	w.StartGame("alice", "bob")
	w.SendProven("carol", "observe congo 1")
	w.Deliver()

	w.SendProven("alice", "preview congo 1 b2-b3 b6-b5 c2-c3")
	mails := w.Deliver()
	var err error
	m := servertest.Only(t, mails, "alice")
	after := rules.Start()
	for _, mv := range []string{"b2-b3", "b6-b5", "c2-c3"} {
		if after, _, err = after.Play(mv); err != nil {
			t.Fatal(err)
		}
	}
	if first, _, _ := strings.Cut(m.Text, "\n"); first != "Preview: nothing was played." {
		t.Errorf("the preview's first line is %q", first)
	}
	servertest.WantText(t, m, "You: b2-b3", "bob: b6-b5", "You: c2-c3", "Position: "+after.String(), after.Diagram(rules.White),
		"After them: move 2, bob (black) to move.", "To play the first of them, send: move congo 1 b2-b3 #1")
	servertest.WantNoText(t, m, "It is your move")
	if m.Subject != "Congo game 1: alice vs bob" {
		t.Errorf("preview Subject %q, want the game's", m.Subject)
	}
	if html := servertest.HTMLOf(t, m.Raw); !strings.Contains(html, "<table") || strings.Contains(html, "mailto:") {
		t.Errorf("the preview's HTML part has no board, or one-tap moves")
	}
	if len(mails) != 1 {
		t.Errorf("a preview caused %d mails, want the one to its sender", len(mails))
	}
	if g := w.Game(1); g.Position != rules.StartPosition {
		t.Errorf("a preview played: game 1 at %s", g.Position)
	}

	// In a reply, the moves of the game of the mail; the observer too;
	// checked as moves are, and refused saying why.
	w.SendProven("alice", "board congo 1")
	w.Reply(servertest.Only(t, w.Deliver(), "alice"), "preview c2-c3")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "Preview: nothing was played.", "You: c2-c3")
	w.SendProven("carol", "preview congo 1 b2-b3")
	cm := servertest.Only(t, w.Deliver(), "carol")
	servertest.WantText(t, cm, "alice: b2-b3", "The game is as it was.")
	servertest.WantNoText(t, cm, "To play")
	w.SendProven("alice", "preview congo 1 b2-b3 b6-b5 b3-b1")
	bad := servertest.Only(t, w.Deliver(), "alice")
	servertest.WantWords(t, bad, "> preview congo 1 b2-b3 b6-b5 b3-b1", "Preview: nothing was played, and the moves cannot be played in game 1:", "b3-b1")
	w.SendProven("dave", "preview congo 1 b2-b3")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "dave"), "not one of your games")
	// A mail that proves nothing gets no board (M31).
	w.Send("alice", "preview congo 1 b2-b3")
	pm := servertest.Only(t, w.Deliver(), "alice")
	servertest.WantText(t, pm, "did not come to your personal address")
	servertest.WantNoText(t, pm, "Position:")
	// A game over has nothing to preview.
	w.SendProven("bob", "resign congo 1")
	w.Deliver()
	w.SendProven("alice", "preview congo 1 b2-b3")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "Game 1 is over: there is nothing to preview.")
}

// TestPreviewJapanese: a preview in Japanese, to the end of the game.
func TestPreviewJapanese(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("hanako", "jan")
	w.StartGame("hanako", "jan")
	w.SendProven("hanako", "language ja\nmove congo 1 d2-e3")
	w.SendProven("jan", "move congo 1 d6-c5 anyway")
	w.Deliver()
	w.SendProven("hanako", "ｐｒｅｖｉｅｗ　ｃｏｎｇｏ　１　ｄ１ｘｄ７")
	m := servertest.Only(t, w.Deliver(), "hanako")
	servertest.WantText(t, m, "プレビュー：手は指されていません。", "あなた：d1xd7", "あなたの勝ちです", "最初の手を指すには、次を送ってください：move congo 1 d1xd7 #2")
	if g := w.Game(1); g.Status != db.Active {
		t.Errorf("a preview ended the game")
	}
}
