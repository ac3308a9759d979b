package main

import (
	"net"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/congobymail/congo/internal/pgtest"
	"github.com/congobymail/congo/outbox"
)

// The attacks of the trust issue, each replayed by mail through the
// daemon, with forged mail from someone who knows a player's address
// (M52-M57).

const ourAddress = "congo@example.org"

// TestForgedFloodKeepsGameMail (M52, M53, attack 1): 60 forged mails in
// alice's name, one more than her recipient's cap an hour, bring her the
// answers of their own cap and spend nothing of hers: bob's next move
// reaches her.
func TestForgedFloodKeepsGameMail(t *testing.T) {
	w := startWorld(t)
	board, bobPA, _ := playOpening(t, w)
	for range outbox.DefaultMaxPerRecipient {
		w.send("alice@example.org", ourAddress, "", "games", "") // forged: not to her personal address
	}
	// Her welcome was the first answer to a mail that proved nothing.
	for _, m := range w.expect("alice", outbox.MaxUnprovenPerDay-1) {
		wantContains(t, "an answer to a forged mail", m, "Your games")
	}
	w.send("bob@example.org", bobPA, "Re: "+board.Subject, "d6-c5 anyway", board.MessageID)
	wantContains(t, "bob's move after the flood", w.expect("alice", 1)[0], "bob: d6-c5")
	w.expect("bob", 1)
}

// TestForgedMailIsNoLoop (M52, attack 2): forged mails without a
// command in bob's name count nothing against him: his own chat, proven,
// is relayed.
func TestForgedMailIsNoLoop(t *testing.T) {
	w := startWorld(t)
	board, bobPA, _ := playOpening(t, w)
	for range 5 {
		w.send("bob@example.org", ourAddress, "", "Thanks!", "")
	}
	w.expect("bob", outbox.MaxUnprovenPerDay-1)
	w.send("bob@example.org", bobPA, "Re: "+board.Subject, "A fine opening, alice.", board.MessageID)
	wantContains(t, "bob's chat after forged mail", w.expect("alice", 1)[0], "bob writes:", "A fine opening, alice.")
	wantContains(t, "bob's answer", w.expect("bob", 1)[0], "passed on to alice")
}

// TestForgedSubjectNotReflected (M55, attack 5): the answer to a forged
// mail has a Subject of our words, and quotes no link and no long line of
// the sender's.
func TestForgedSubjectNotReflected(t *testing.T) {
	w := startWorldWith(t, "victim")
	phish := "Your account is locked: verify it now at http://phish.example/login " + strings.Repeat("and win a prize ", 40)
	line := "Click https://phish.example/x or www.phish.example or write to help@phish.example " + strings.Repeat("now ", 30)
	w.send("victim@example.org", ourAddress, phish, line, "")
	m := w.expect("victim", 1)[0]
	if strings.Contains(m.Subject, "phish") || strings.Contains(m.Subject, "account") || strings.Contains(m.Subject, "prize") {
		t.Errorf("the answer's Subject holds the sender's words: %q", m.Subject)
	}
	if strings.Contains(m.Text, "phish") {
		t.Errorf("the answer quotes a link:\n%s", m.Text)
	}
	wantContains(t, "the quoted line", m, "[link removed]")
	for _, l := range strings.Split(m.Text, "\n") {
		if strings.Contains(l, "now now") && len([]rune(strings.TrimSpace(l))) > 72 {
			t.Errorf("a quoted line of %d characters: %q", len([]rune(l)), l)
		}
	}
}

// TestForgedRegisterCanBeTakenBack (M56, attack 6): a forged register
// squats carol's address under a handle of the forger's; the welcome it
// brings her says how to take the address, and her answer renames it.
func TestForgedRegisterCanBeTakenBack(t *testing.T) {
	w := startWorldWith(t, "carol")
	carol := "carol@example.org"
	w.send(carol, ourAddress, "", "register Carol_is_a_cheat", "") // forged
	welcome := w.expect("carol", 1)[0]
	wantContains(t, "the squatter's welcome", welcome, "If you did not ask to register", "rename <handle>")
	w.send(carol, ourAddress, "", "register carol", "") // hers, but proving nothing: the welcome once a day
	w.expectNothing("carol")
	w.send(carol, w.replyTo(welcome), "Re: "+welcome.Subject, "rename carol", welcome.MessageID)
	wantContains(t, "her rename", w.expect("carol", 1)[0], "You are carol now; you were Carol_is_a_cheat.")
	w.send(carol, w.replyTo(welcome), "Re: "+welcome.Subject, "games", welcome.MessageID)
	wantContains(t, "her games", w.expect("carol", 1)[0], "You have no games")
}

// TestLookalikeHandleRefused (M56, attack 7): aIice, with a capital I, is
// refused beside alice, naming her.
func TestLookalikeHandleRefused(t *testing.T) {
	w := startWorldWith(t, "alice", "mallory")
	w.send("alice@example.org", ourAddress, "", "register alice", "")
	w.expect("alice", 1)
	for _, h := range []string{"aIice", "a1ice", "ALICE"} {
		w.send("mallory@example.org", ourAddress, "", "register "+h, "")
	}
	answers := w.expect("mallory", 3)
	wantContains(t, "aIice", answers[0], "The handle aIice looks too much like alice")
	wantContains(t, "a1ice", answers[1], "The handle a1ice looks too much like alice")
	wantContains(t, "ALICE", answers[2], "The handle ALICE is taken")
}

// TestSecretInEveryFormRemoved (M57, attack 8): a message holding a
// player's secret, in any form that reads as it, reaches the opponent
// without it.
func TestSecretInEveryFormRemoved(t *testing.T) {
	w := startWorld(t)
	board, bobPA, alicePA := playOpening(t, w)
	secret := strings.TrimPrefix(strings.Split(alicePA, "@")[0], "congo+")
	spaced := secret[:6] + " " + secret[6:13] + "." + secret[13:20] + "-" + secret[20:]
	joined := secret[:10] + "\u200b" + secret[10:18] + "\u2060" + secret[18:] // zero-width space, word joiner
	var wide strings.Builder                                                  // full-width letters and digits
	for _, r := range secret {
		if r >= 'a' {
			wide.WriteRune(r - 'a' + 'ａ')
		} else {
			wide.WriteRune(r - '0' + '０')
		}
	}
	forms := []string{
		"bare " + secret,
		"encoded congo%2B" + secret + "%40example.org",
		"quoted \"congo+" + secret + "\"@example.org",
		"wide congo＋" + wide.String() + "＠example.org",
		"spaced " + spaced,
		"joined " + joined,
		"shouted " + strings.ToUpper(secret),
	}
	w.send("bob@example.org", bobPA, "Re: "+board.Subject, strings.Join(forms, "\n")+"\n\nd6-c5 anyway", board.MessageID)
	m := w.expect("alice", 1)[0]
	wantContains(t, "bob's message", m, "bob writes:", "bare [address removed]", "spaced [address removed]")
	if readsAs(m.Text, secret) {
		t.Errorf("alice's secret reached her opponent's message in a form that reads as it:\n%s", m.Text)
	}
	w.expect("bob", 1)
}

// readsAs reports whether text holds secret as it reads after NFKC and
// case folding, percent-decoding aside, without format characters,
// spaces, dots and hyphens.
func readsAs(text, secret string) bool {
	var b strings.Builder
	for _, r := range cases.Fold().String(norm.NFKC.String(text)) {
		if unicode.Is(unicode.Cf, r) || unicode.IsSpace(r) || r == '.' || r == '-' {
			continue
		}
		b.WriteRune(r)
	}
	return strings.Contains(b.String(), secret)
}

// TestWebConnectionsCapped (M57, attack 9): thousands of connections held
// open to the web pages take no more of the process's open files than
// -web-connections, and mail goes on.
func TestWebConnectionsCapped(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts the open files in /proc/self/fd")
	}
	sys := startSystem(t)
	d := startDaemon(t, sys, pgtest.DSN(t), func(c *settings) { c.Web, c.WebConnections = "127.0.0.1:0", 32 })
	w := newWorld(t, sys)
	addr := d.cfg.web.ln.Addr().String()
	before := openFiles(t)
	const held = 3000
	var mu sync.Mutex
	var conns []net.Conn
	var wg sync.WaitGroup
	for range held {
		wg.Go(func() {
			c, err := net.DialTimeout("tcp", addr, 2*time.Second)
			if err == nil {
				mu.Lock()
				conns = append(conns, c)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	t.Cleanup(func() {
		for _, c := range conns {
			c.Close()
		}
	})
	// The client's ends are this process's files too: the server's ends
	// are what may grow no further than the cap.
	time.Sleep(200 * time.Millisecond)
	if grown := openFiles(t) - before - len(conns); grown > 32+16 {
		t.Errorf("%d connections held to the web pages opened %d files in the daemon, want at most the cap of 32 (and a few)", len(conns), grown)
	}
	w.send("alice@example.org", ourAddress, "", "register alice", "")
	wantContains(t, "mail while the web pages are besieged", w.expect("alice", 1)[0], "Welcome to Congo, alice!")
}

// openFiles counts the process's open files.
func openFiles(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(fds)
}
