package main

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestEndToEndProse plays by mail through the daemon, over loopback IMAP
// and SMTP, as people write and as attackers abuse it: chat beside a
// move relayed, the Subject the same from the challenge to the end, one
// mail a recipient for a move and an offer, a forged register bringing
// one mail, another's personal address removed from relayed words, and a
// mail 5,000 MIME levels deep that holds up nobody.
func TestEndToEndProse(t *testing.T) {
	w := startWorldWith(t, "alice", "bob", "victim")
	const server = "congo@example.org"
	alice, bob := "alice@example.org", "bob@example.org"

	w.send(alice, server, "", "register alice", "")
	aliceWelcome := w.expect("alice", 1)[0]
	alicePA := w.replyTo(aliceWelcome)
	w.send(bob, server, "", "register bob", "")
	bobWelcome := w.expect("bob", 1)[0]
	bobPA := w.replyTo(bobWelcome)
	wantSubject(t, "welcome", bobWelcome, "Welcome to Congo, bob")
	w.send(bob, bobPA, "Re: "+bobWelcome.Subject, "Hi!\ngames", bobWelcome.MessageID) // confirms bob's address
	w.expect("bob", 1)

	// A forged register for the victim: the welcome, then nothing.
	w.send("victim@example.org", server, "", "register victim", "")
	w.expect("victim", 1)
	w.send("victim@example.org", server, "", "register victim", "")
	w.send(alice, alicePA, "", "challenge congo victim", "")
	wantContains(t, "challenge to an unconfirmed address", w.expect("alice", 1)[0], "victim has not confirmed their address yet")
	w.expectNothing("victim")

	w.send(alice, alicePA, "", "challenge congo bob", "")
	challenge := w.expect("bob", 1)[0]
	w.expect("alice", 1)
	const subject = "Congo game 1: alice vs bob"
	wantSubject(t, "challenge", challenge, subject)
	w.send(bob, bobPA, "Re: "+challenge.Subject, "Happy to play!\naccept", challenge.MessageID)
	start := w.expect("alice", 1)[0]
	wantSubject(t, "start", start, subject)
	wantContains(t, "start", start, "bob accepted the challenge", "bob writes:", "Happy to play!")
	w.expect("bob", 1)

	// Chat beside a natural move, and a move with a draw offer: one mail
	// each (M19, M20, M23), the same Subject (M22).
	w.send(alice, alicePA, "Re: "+start.Subject, "Good luck, bob!\n\nMove: d2-e3.\n\nAlice", start.MessageID)
	b1 := w.expect("bob", 1)[0]
	wantSubject(t, "move", b1, subject)
	wantContains(t, "chat beside a move", b1, "alice: d2-e3", "alice writes:", "Good luck, bob!")
	if strings.Contains(b1.Text, "unknown command") {
		t.Errorf("chat answered with an error:\n%s", b1.Text)
	}
	wantContains(t, "the mover's copy", w.expect("alice", 1)[0], "You: d2-e3", "Your message was passed on to bob.")
	w.send(bob, bobPA, "Re: "+b1.Subject, "ｄ６－ｃ５ anyway\ndraw", b1.MessageID)
	a2 := w.expect("alice", 1)[0]
	wantContains(t, "a move and an offer in one mail", a2, "bob: d6-c5", "bob offers a draw")
	w.expect("bob", 1)

	// Words quoting personal addresses are relayed without them, the
	// recipient's own too (M30, M57).
	w.send(bob, bobPA, "Re: "+a2.Subject, "Write to "+alicePA+" and to "+bobPA+" for the prize", a2.MessageID)
	relayed := w.expect("alice", 1)[0]
	wantContains(t, "message alone", relayed, "bob writes:", "Write to congo+[address removed]@example.org and to congo+[address removed]@example.org")
	for _, pa := range []string{alicePA, bobPA} {
		if strings.Contains(strings.ToLower(relayed.Text), strings.ToLower(pa)) {
			t.Errorf("the personal address %s reached alice:\n%s", pa, relayed.Text)
		}
	}
	w.expect("bob", 1) // told it was passed on

	// A mail 5,000 levels deep: the next player's command is answered all
	// the same, within a second of its arrival (M32).
	var deep strings.Builder
	deep.WriteString("From: bob@example.org\nTo: " + bobPA + "\nSubject: deep\nMessage-ID: <deep@client.example.net>\nMIME-Version: 1.0\n")
	for i := range 5000 {
		fmt.Fprintf(&deep, "Content-Type: multipart/mixed; boundary=b%d\n\n--b%d\n", i, i)
	}
	deep.WriteString("Content-Type: text/plain\n\nhelp\n")
	w.sendRaw(bob, bobPA, deep.String())
	sent := time.Now()
	w.send(alice, alicePA, "Re: "+relayed.Subject, "d1xd7!!", relayed.MessageID)
	end := w.expect("alice", 1)[0]
	if took := time.Since(sent); took > 2*time.Second {
		t.Errorf("alice's move after a deep mail was answered in %v, want about a second at most", took)
	}
	wantSubject(t, "the end", end, subject)
	wantContains(t, "the end", end, "You win: bob's lion was captured.")
	for _, m := range w.expect("bob", 2) {
		if m.Subject == subject {
			wantContains(t, "the end to bob", m, "alice wins: your lion was captured.")
		} else {
			wantContains(t, "the deep mail's answer", m, "Only the start of your mail was read")
		}
	}
}
