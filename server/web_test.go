package server

import (
	"fmt"
	"github.com/congobymail/congo/config"
	"strings"
	"testing"
	"time"
)

// TestBoardMailsNameTheirPage (M43): with the web on, every board mail
// names its game's page, in the text part and as a link in the HTML
// part: the boards of a move, the answer to board, a reminder and a
// digest; without it, none does.
func TestBoardMailsNameTheirPage(t *testing.T) {
	h := newHarnessWith(t, Config{Settings: config.Settings{PublicURL: "https://congo.example.org/web"}})
	h.register("alice", "bob", "carol")
	h.startGame("alice", "bob")
	const page = "See the game on the web: https://congo.example.org/web/games/1"
	const link = `<a href="https://congo.example.org/web/games/1">https://congo.example.org/web/games/1</a>`
	check := func(what string, mails []received) {
		t.Helper()
		if len(mails) == 0 {
			t.Fatalf("%s: no mail", what)
		}
		for _, m := range mails {
			wantText(t, m, page)
			if !strings.Contains(htmlOf(t, m.Raw), link) {
				t.Errorf("%s: the HTML part to %s does not link the page", what, m.To)
			}
		}
	}
	h.sendProven("alice", "move congo 1 b2-b3")
	check("a move", h.deliver())
	h.sendProven("carol", "observe congo 1")
	h.deliver()
	h.sendProven("bob", "move congo 1 b6-b5")
	check("a move with an observer", h.deliver())
	h.sendProven("carol", "board congo 1")
	check("board", to(h.deliver(), "carol"))
	h.clock.Advance(37 * time.Hour)
	h.tick()
	check("a reminder", to(h.deliver(), "alice"))
	h.sendProven("alice", "notify digest")
	h.deliver()
	h.sendProven("bob", "resign congo 1")
	h.deliver()
	other := h.startGame("bob", "alice")
	h.sendProven("bob", "move congo 2 b2-b3")
	h.deliver()
	h.clock.Advance(25 * time.Hour)
	h.tick()
	digest := only(t, h.deliver(), "alice")
	wantText(t, digest, fmt.Sprintf("See the game on the web: https://congo.example.org/web/games/%d", other))
	if !strings.Contains(htmlOf(t, digest.Raw), fmt.Sprintf(`<a href="https://congo.example.org/web/games/%d">`, other)) {
		t.Errorf("the digest's HTML part does not link the page")
	}

	plain := newHarness(t)
	plain.register("alice", "bob")
	plain.startGame("alice", "bob")
	plain.sendProven("alice", "move congo 1 b2-b3")
	for _, m := range plain.deliver() {
		wantNoText(t, m, "See the game on the web")
	}
}
