package main

import (
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/congobymail/congo/mailmsg"
)

// TestEndToEndPlaying plays a game from a position (M72) by mail through
// the daemon, with a move played by a one-tap link of the board mail's
// HTML part (M71) as a mail program writes its mail (RFC 6068), a
// private note (M68), a preview (M70) and a conditional resignation
// (M69); the opponent never reads the note.
func TestEndToEndPlaying(t *testing.T) {
	w := startWorld(t)
	const server = "congo@example.org"
	alice, bob := "alice@example.org", "bob@example.org"
	w.send(alice, server, "", "register alice", "")
	alicePA := w.replyTo(w.expect("alice", 1)[0])
	w.send(bob, server, "", "register bob", "")
	bobPA := w.replyTo(w.expect("bob", 1)[0])
	w.send(bob, bobPA, "", "games", "") // confirms the address (M28)
	w.expect("bob", 1)

	const pos = "3l3/2p4/7/7/7/3P3/3L3 w 12"
	w.send(alice, alicePA, "", "challenge congo bob position="+pos, "")
	challenge := w.expect("bob", 1)[0]
	wantContains(t, "challenge", challenge, "The game begins from this position", "Position: "+pos)
	w.expect("alice", 1)
	w.send(bob, bobPA, "Re: "+challenge.Subject, "accept congo 1", challenge.MessageID)
	w.expect("bob", 1)
	board := w.expect("alice", 1)[0]
	wantContains(t, "start", board, "Move 12: alice (white) to move.")

	// bob, not to move, keeps a note and a conditional resignation.
	w.send(bob, bobPA, "", "note congo 1 BobsSecretPlan: c5 then c4\nconditional congo 1\nif d2-d3 then resign", "")
	wantContains(t, "note", w.expect("bob", 1)[0], "Kept as your private note in game 1", "if d2-d3 then resign")
	w.send(bob, bobPA, "", "preview congo 1 d2-d3 c6-c5", "")
	preview := w.expect("bob", 1)[0]
	if first, _, _ := strings.Cut(preview.Text, "\n"); first != "Preview: nothing was played." {
		t.Errorf("preview's first line %q", first)
	}

	// alice taps d2-d3 in her board mail: her mail program writes the
	// link's mail.
	html := string(w.raw[board.MessageID])
	m := regexp.MustCompile(`href=3D"mailto:([^"?]*)\?subject=3D([^&"]*)&amp;body=3D(move%20congo%201%20d2-d3%20%2312)"`).FindStringSubmatch(
		strings.ReplaceAll(html, "=\r\n", ""))
	if m == nil {
		m = regexp.MustCompile(`href="mailto:([^"?]*)\?subject=([^&"]*)&amp;body=(move%20congo%201%20d2-d3%20%2312)"`).FindStringSubmatch(html)
	}
	if m == nil {
		t.Fatalf("alice's board mail has no one-tap link for d2-d3:\n%s", html)
	}
	to, _ := url.PathUnescape(m[1])
	subject, _ := url.PathUnescape(m[2])
	body, _ := url.PathUnescape(m[3])
	if to != alicePA || subject != "Re: Congo game 1: alice vs bob" || body != "move congo 1 d2-d3 #12" {
		t.Errorf("the link writes a mail to %q, Subject %q, body %q", to, subject, body)
	}
	w.send(alice, to, subject, body, "")
	toBob := w.expect("bob", 1)[0]
	wantContains(t, "bob's end", toBob, "alice: d2-d3", "You resigned, as a conditional line of yours said.")
	toAlice := w.expect("alice", 1)[0]
	wantContains(t, "alice's end", toAlice, "bob resigned, by a conditional line sent ahead.", "You win: bob resigned.")

	w.send(alice, alicePA, "", "history congo 1", "")
	hist := w.expect("alice", 1)[0]
	wantContains(t, "history", hist, `[SetUp "1"]`, `[Position "`+pos+`"]`, "12. d2-d3 1-0")
	for _, r := range []*mailmsg.Incoming{board, toAlice, hist} {
		if strings.Contains(string(w.raw[r.MessageID]), "BobsSecretPlan") {
			t.Errorf("alice's mail %q holds bob's note", r.Subject)
		}
	}
}
