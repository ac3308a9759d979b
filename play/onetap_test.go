package play_test

import (
	stdhtml "html"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

// mailtoLinks are the one-tap moves of an HTML part (M71), as a mail
// program reads their mailto: URIs (RFC 6068): the address, the Subject
// and the body, percent-decoded (a "+" is a plus, not a space).
func mailtoLinks(t *testing.T, html string) []struct{ to, subject, body string } {
	t.Helper()
	var out []struct{ to, subject, body string }
	for _, m := range regexp.MustCompile(`href="mailto:([^"?]*)\?([^"]*)"`).FindAllStringSubmatch(html, -1) {
		link := struct{ to, subject, body string }{to: m[1]}
		for _, f := range strings.Split(strings.ReplaceAll(m[2], "&amp;", "&"), "&") {
			k, v, _ := strings.Cut(f, "=")
			d, err := url.PathUnescape(v)
			if err != nil {
				t.Fatalf("link field %q: %v", f, err)
			}
			switch k {
			case "subject":
				link.subject = d
			case "body":
				link.body = d
			}
		}
		out = append(out, link)
	}
	return out
}

// TestOneTapMoves: the board mail to the player to move has their legal
// moves as mailto: links in its HTML part (M71), and no other mail has:
// not the mover's, not the observer's, no text part. A link's mail, as
// the player's mail program writes it, plays the move.
func TestOneTapMoves(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob", "carol")
	w.StartGame("alice", "bob")
	w.SendProven("carol", "observe congo 1")
	w.Deliver()
	w.SendProven("alice", "move congo 1 b2-b3")
	mails := w.Deliver()
	toBob := servertest.Only(t, mails, "bob")
	for _, m := range mails {
		if strings.Contains(m.Text, "mailto:") {
			t.Errorf("the text part of the mail to %s has a one-tap move", m.To)
		}
		if m.To != congotest.Address("bob") && strings.Contains(servertest.HTMLOf(t, m.Raw), "mailto:") {
			t.Errorf("the mail to %s, not to move, has one-tap moves", m.To)
		}
	}
	links := mailtoLinks(t, servertest.HTMLOf(t, toBob.Raw))
	pos, err := rules.ParsePosition(w.Game(1).Position)
	if err != nil {
		t.Fatal(err)
	}
	if len(links) != len(pos.Legal()) {
		t.Fatalf("%d one-tap moves, want bob's %d legal ones", len(links), len(pos.Legal()))
	}
	var tap struct{ to, subject, body string }
	for _, l := range links {
		if l.to != w.Personal("bob") || l.subject != "Re: Congo game 1: alice vs bob" || !strings.HasPrefix(l.body, "move congo 1 ") || !strings.HasSuffix(l.body, " #1") {
			t.Errorf("one-tap move to %q, Subject %q, body %q", l.to, l.subject, l.body)
		}
		if l.body == "move congo 1 c6-c5 #1" {
			tap = l
		}
	}
	// bob taps c6-c5: his mail program writes the mail.
	m := w.Mail("bob", tap.subject, tap.body)
	m.HeaderRecipients = []string{tap.to}
	w.Process(m)
	mails = w.Deliver()
	servertest.WantText(t, servertest.Only(t, mails, "alice"), "bob: c6-c5")
	if html := servertest.HTMLOf(t, servertest.Only(t, mails, "alice").Raw); !strings.Contains(html, "move%20congo%201%20") {
		t.Errorf("alice, to move now, has no one-tap moves")
	}
	// board: the board now has them for the player to move; a past one
	// has none.
	w.SendProven("alice", "board congo 1\nboard congo 1#0")
	for _, b := range servertest.To(w.Deliver(), "alice") {
		has := strings.Contains(servertest.HTMLOf(t, b.Raw), "mailto:")
		if past := strings.Contains(b.Text, "The position after"); has == past {
			t.Errorf("board mail (past %v) has one-tap moves: %v", past, has)
		}
	}
}

// TestOneTapMovesJapanese: a one-tap move's Subject is the game's in the
// player's words, UTF-8 percent-encoded, and its mail plays the move.
func TestOneTapMovesJapanese(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("hanako", "jan")
	w.SendProven("hanako", "language ja")
	w.SendProven("jan", "challenge congo hanako")
	w.SendProven("hanako", "accept congo 1")
	w.Deliver()
	w.SendProven("jan", "move congo 1 b2-b3")
	html := servertest.HTMLOf(t, servertest.Only(t, w.Deliver(), "hanako").Raw)
	if !strings.Contains(html, "subject=Re%3A%20Congo%20%E5%AF%BE%E5%B1%80%201%3A%20jan%20%E5%AF%BE%20hanako") {
		t.Errorf("the one-tap moves' Subject is not the Japanese one, percent-encoded:\n%.3000s", html)
	}
	if !strings.Contains(stdhtml.UnescapeString(html), "シマウマ g7：") {
		t.Errorf("the one-tap moves are not grouped under the pieces' Japanese names")
	}
	l := mailtoLinks(t, html)[0]
	m := w.Mail("hanako", l.subject, l.body)
	m.HeaderRecipients = []string{l.to}
	w.Process(m)
	w.Deliver()
	if g := w.Game(1); g.Position == "gmelecz/ppppppp/7/7/7/1P5/P1PPPPP/GMELECZ b 1" {
		t.Errorf("the Japanese one-tap move %q was not played", l.body)
	}
}
