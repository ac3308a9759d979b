package tell_test

import (
	"bytes"
	"fmt"
	"mime"
	"mime/multipart"
	"net/mail"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/config"
	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

// partsOf returns the content types of a mail's parts, or of the mail
// itself when it has one part.
func partsOf(t *testing.T, raw []byte) []string {
	t.Helper()
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	kind, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil {
		t.Fatal(err)
	}
	if kind != "multipart/alternative" {
		return []string{kind}
	}
	var kinds []string
	r := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := r.NextPart()
		if err != nil {
			break
		}
		k, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		kinds = append(kinds, k)
	}
	return kinds
}

func TestBoardMailsHaveHTML(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.SendProven("alice", "challenge congo bob")
	for _, m := range w.SendRaw() { // the challenge shows no board
		if got := partsOf(t, m.Raw); !slices.Equal(got, []string{"text/plain"}) {
			t.Errorf("challenge mail to %s: parts %q, want text/plain only", m.To, got)
		}
	}
	w.SendProven("bob", "accept congo 1")
	w.SendProven("alice", "move congo 1 b2-b3")
	w.SendProven("bob", "board congo 1")
	mails := w.SendRaw()
	if len(mails) != 5 {
		t.Fatalf("%d mails, want 5 (the start and the move to both, the board to bob)", len(mails))
	}
	for _, m := range mails {
		if got := partsOf(t, m.Raw); !slices.Equal(got, []string{"text/plain", "text/html"}) {
			t.Errorf("board mail to %s: parts %q, want text/plain then text/html (M12)", m.To, got)
		}
	}
	w.Send("bob", "games")
	for _, m := range w.SendRaw() { // an answer shows no board table
		if got := partsOf(t, m.Raw); !slices.Equal(got, []string{"text/plain"}) {
			t.Errorf("games answer to %s: parts %q, want text/plain only", m.To, got)
		}
	}
}

// TestBoardMailsNameTheirPage (M43): with the web on, every board mail
// names its game's page, in the text part and as a link in the HTML
// part: the boards of a move, the answer to board, a reminder and a
// digest; without it, none does.
func TestBoardMailsNameTheirPage(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{Settings: config.Settings{PublicURL: "https://congo.example.org/web"}})
	w.Register("alice", "bob", "carol")
	w.StartGame("alice", "bob")
	// The page, from Black's side in the mails to bob, who plays black.
	check := func(what string, mails []servertest.Received) {
		t.Helper()
		if len(mails) == 0 {
			t.Fatalf("%s: no mail", what)
		}
		for _, m := range mails {
			url := "https://congo.example.org/web/games/1"
			if m.To == congotest.Address("bob") {
				url += "?side=black"
			}
			servertest.WantWords(t, m, "See the game on the web: "+url) // a long one on a line of its own
			if link := fmt.Sprintf(`<a href="%s">%s</a>`, url, url); !strings.Contains(servertest.HTMLOf(t, m.Raw), link) {
				t.Errorf("%s: the HTML part to %s does not link the page %s", what, m.To, url)
			}
		}
	}
	w.SendProven("alice", "move congo 1 b2-b3")
	check("a move", w.Deliver())
	w.SendProven("carol", "observe congo 1")
	w.Deliver()
	w.SendProven("bob", "move congo 1 b6-b5")
	check("a move with an observer", w.Deliver())
	w.SendProven("carol", "board congo 1")
	check("board", servertest.To(w.Deliver(), "carol"))
	w.Clock.Advance(37 * time.Hour)
	w.Tick()
	check("a reminder", servertest.To(w.Deliver(), "alice"))
	w.SendProven("alice", "notify digest")
	w.Deliver()
	w.SendProven("bob", "resign congo 1")
	w.Deliver()
	other := w.StartGame("bob", "alice")
	w.SendProven("bob", "move congo 2 b2-b3")
	w.Deliver()
	w.Clock.Advance(25 * time.Hour)
	w.Tick()
	digest := servertest.Only(t, w.Deliver(), "alice")
	// alice plays black in it.
	servertest.WantWords(t, digest, fmt.Sprintf("See the game on the web: https://congo.example.org/web/games/%d?side=black", other))
	if !strings.Contains(servertest.HTMLOf(t, digest.Raw), fmt.Sprintf(`<a href="https://congo.example.org/web/games/%d?side=black">`, other)) {
		t.Errorf("the digest's HTML part does not link the page")
	}

	plain := servertest.New(t, server.Config{})
	plain.Register("alice", "bob")
	plain.StartGame("alice", "bob")
	plain.SendProven("alice", "move congo 1 b2-b3")
	for _, m := range plain.Deliver() {
		servertest.WantNoText(t, m, "See the game on the web")
	}
}
