package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	netmail "net/mail"
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/config"

	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/internal/pgtest"
	"github.com/congobymail/congo/mailer/loopback"
	"github.com/congobymail/congo/mailmsg"
)

// world is a running daemon against in-process mail servers, with players
// who send mail by SMTP and read their mailboxes by IMAP.
type world struct {
	t    *testing.T
	sys  mailSystem
	seen map[string]int    // messages already read, per user
	raw  map[string][]byte // messages read, by Message-ID
	n    int               // mails sent, for Message-IDs
}

// mailSystem is where the players' mail goes: *loopback.System, or a
// Dovecot behind an SMTP server.
type mailSystem interface {
	// Deliver puts raw into the mailboxes of the recipients to.
	Deliver(ctx context.Context, from string, to []string, raw []byte) error
	// Messages returns the raw messages of a user's mailbox, oldest first.
	Messages(name, mailbox string) ([][]byte, error)
}

func startWorld(t *testing.T) *world {
	t.Helper()
	return startWorldWith(t, "alice", "bob")
}

// startWorldWith is startWorld with a mailbox for each of users besides
// the server's.
func startWorldWith(t *testing.T, users ...string) *world {
	t.Helper()
	return startWorldTuned(t, nil, users...)
}

// startWorldTuned is startWorldWith with the daemon's settings changed by
// tune, when it is not nil, before it starts.
func startWorldTuned(t *testing.T, tune func(*settings), users ...string) *world {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	sys := congotest.StartMail(t, loopback.Config{Users: congotest.Users(append([]string{"congo"}, users...)...)}) // stopped after the daemon
	cfg := &settings{Settings: config.Settings{
		IMAP:      sys.IMAPURL("congo"),
		SMTP:      sys.SMTPURL(),
		Address:   "congo@example.org",
		DB:        pgtest.DSN(t),
		Poll:      100 * time.Millisecond,
		Processed: "Processed",
		LogLevel:  "info",
	}}
	if tune != nil {
		tune(cfg)
	}
	return runWorld(ctx, cancel, t, sys, cfg)
}

// runWorld runs the daemon with cfg against sys until the test ends.
// cancel must end ctx.
func runWorld(ctx context.Context, cancel context.CancelFunc, t *testing.T, sys mailSystem, cfg *settings) *world {
	t.Helper()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() {
		logger = slog.New(slog.NewTextHandler(testWriter{t}, nil))
	}
	done := make(chan error, 1)
	go func() { done <- serve(ctx, cfg, logger) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("serve did not stop within 5 s of cancel (M10)")
		}
	})
	return &world{t: t, sys: sys, seen: map[string]int{}, raw: map[string][]byte{}}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// send mails a message as a player's mail client would write it.
func (w *world) send(from, to, subject, body string, inReplyTo string) string {
	w.t.Helper()
	w.n++
	id := fmt.Sprintf("m%d.%s@client.example.net", w.n, strings.Split(from, "@")[0])
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s>\r\n", from, to, subject, id)
	fmt.Fprintf(&b, "Date: %s\r\n", time.Now().Format(time.RFC1123Z))
	if inReplyTo != "" {
		fmt.Fprintf(&b, "In-Reply-To: <%s>\r\nReferences: <%s>\r\n", inReplyTo, inReplyTo)
	}
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n")
	b.WriteString(strings.ReplaceAll(body, "\n", "\r\n"))
	b.WriteString("\r\n")
	if err := w.sys.Deliver(context.Background(), from, []string{to}, []byte(b.String())); err != nil {
		w.t.Fatalf("deliver from %s: %v", from, err)
	}
	return id
}

// sendRaw delivers a message exactly as given, from an envelope sender.
func (w *world) sendRaw(envFrom, to, raw string) {
	w.t.Helper()
	raw = strings.ReplaceAll(raw, "\n", "\r\n")
	if err := w.sys.Deliver(context.Background(), envFrom, []string{to}, []byte(raw)); err != nil {
		w.t.Fatalf("deliver raw: %v", err)
	}
}

// expect waits for exactly n new mails in user's INBOX and returns them.
func (w *world) expect(user string, n int) []*mailmsg.Incoming {
	w.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		raws, err := w.sys.Messages(user, "INBOX")
		if err != nil {
			w.t.Fatalf("messages of %s: %v", user, err)
		}
		fresh := raws[w.seen[user]:]
		if len(fresh) >= n || time.Now().After(deadline) {
			if len(fresh) != n {
				var subjects []string
				for _, r := range fresh {
					m, _ := mailmsg.Parse(r)
					subjects = append(subjects, m.Subject)
				}
				w.t.Fatalf("%s received %d new mails, want %d: %q", user, len(fresh), n, subjects)
			}
			w.seen[user] += n
			var out []*mailmsg.Incoming
			for _, r := range fresh {
				m, err := mailmsg.Parse(r)
				if err != nil {
					w.t.Fatalf("parse mail to %s: %v", user, err)
				}
				w.raw[m.MessageID] = r
				out = append(out, m)
			}
			return out
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// expectNothing checks that no new mail came to user.
func (w *world) expectNothing(user string) {
	w.t.Helper()
	raws, err := w.sys.Messages(user, "INBOX")
	if err != nil {
		w.t.Fatal(err)
	}
	if extra := len(raws) - w.seen[user]; extra != 0 {
		m, _ := mailmsg.Parse(raws[w.seen[user]])
		w.t.Fatalf("%s received %d unexpected mails, first %q:\n%s", user, extra, m.Subject, m.Text)
	}
}

func wantContains(t *testing.T, what string, m *mailmsg.Incoming, subs ...string) {
	t.Helper()
	for _, s := range subs {
		if !strings.Contains(m.Text, s) {
			t.Errorf("%s: body lacks %q:\n%s", what, s, m.Text)
		}
	}
}

func wantSubject(t *testing.T, what string, m *mailmsg.Incoming, subject string) {
	t.Helper()
	if m.Subject != subject {
		t.Errorf("%s: Subject = %q, want %q", what, m.Subject, subject)
	}
}

// replyTo is the Reply-To address of a mail the server sent: the player's
// personal address.
func (w *world) replyTo(m *mailmsg.Incoming) string {
	w.t.Helper()
	msg, err := netmail.ReadMessage(bytes.NewReader(w.raw[m.MessageID]))
	if err != nil {
		w.t.Fatal(err)
	}
	a, err := netmail.ParseAddress(msg.Header.Get("Reply-To"))
	if err != nil {
		w.t.Fatalf("Reply-To of %q: %v", m.Subject, err)
	}
	return a.Address
}

// TestEndToEnd plays a whole game by mail through the daemon: register,
// challenge, accept, an illegal move, a move out of turn, a stale #N, a
// forged From, a bounce, and a lion capture.
func TestEndToEnd(t *testing.T) {
	playGame(t, startWorld(t))
}

// playGame plays the game of TestEndToEnd in w, whose users are congo,
// alice and bob at example.org.
func playGame(t *testing.T, w *world) {
	const server = "congo@example.org"
	alice, bob := "alice@example.org", "bob@example.org"

	w.send(alice, server, "hello", "register alice", "")
	welcome := w.expect("alice", 1)[0]
	alicePA := w.replyTo(welcome)
	if !strings.HasPrefix(alicePA, "congo+") || !strings.HasSuffix(alicePA, "@example.org") {
		t.Fatalf("alice's personal address = %q, want congo+<secret>@example.org", alicePA)
	}
	w.send(bob, server, "", "register bob", "")
	bobWelcome := w.expect("bob", 1)[0]
	bobPA := w.replyTo(bobWelcome)
	// Until bob answers his welcome, his address is not confirmed (M28):
	// nobody may challenge him.
	w.send(alice, alicePA, "Re: "+welcome.Subject, "challenge congo bob", welcome.MessageID)
	wantContains(t, "challenge before bob confirmed", w.expect("alice", 1)[0], "bob has not confirmed their address yet")
	w.expectNothing("bob")
	w.send(bob, bobPA, "Re: "+bobWelcome.Subject, "games", bobWelcome.MessageID)
	w.expect("bob", 1)

	// The challenge: bob gets the game number and the command to accept it
	// (M2); alice is told the number too.
	w.send(alice, alicePA, "Re: "+welcome.Subject, "challenge congo bob", welcome.MessageID)
	challenge := w.expect("bob", 1)[0]
	wantSubject(t, "challenge to bob", challenge, "Congo game 1: alice vs bob")
	wantContains(t, "challenge to bob", challenge, "accept congo 1")
	wantContains(t, "challenge to alice", w.expect("alice", 1)[0], "game 1")

	w.send(bob, bobPA, "Re: "+challenge.Subject, "accept congo 1", challenge.MessageID)
	start := w.expect("bob", 1)[0]
	wantSubject(t, "start to bob", start, "Congo game 1: alice vs bob")
	wantContains(t, "start to bob", start, "Position: gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1")
	aliceBoard := w.expect("alice", 1)[0]
	wantSubject(t, "start to alice", aliceBoard, "Congo game 1: alice vs bob")
	thread := aliceBoard.References
	if len(thread) == 0 || thread[0] != challenge.MessageID {
		t.Errorf("board References = %q, want the challenge %q first (M9)", thread, challenge.MessageID)
	}

	// Out of turn: bob is told, alice hears nothing.
	w.send(bob, bobPA, "Re: "+start.Subject, "move congo 1 d6-c5", start.MessageID)
	wantContains(t, "out of turn", w.expect("bob", 1)[0], "move congo 1 d6-c5", "Position: gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1")

	// Illegal: the answer lists what the pawn can do.
	w.send(alice, alicePA, "Re: "+aliceBoard.Subject, "move congo 1 b2-b5", aliceBoard.MessageID)
	wantContains(t, "illegal move", w.expect("alice", 1)[0], "b2-b5: the pawn on b2 can go to")
	w.expectNothing("bob")

	// A legal move with a correct guard (M1).
	w.send(alice, alicePA, "Re: "+aliceBoard.Subject, "move congo 1 d2-e3#1", aliceBoard.MessageID)
	b1 := w.expect("bob", 1)[0]
	wantSubject(t, "after d2-e3", b1, "Congo game 1: alice vs bob")
	wantContains(t, "after d2-e3", b1, "d2-e3", "Position: gmelecz/ppppppp/7/7/4P2/PPP1PPP/GMELECZ b 1")
	w.expect("alice", 1)

	// A stale guard is refused with the current number.
	w.send(bob, bobPA, "Re: "+b1.Subject, "move congo 1 d6-c5 #2", b1.MessageID)
	wantContains(t, "stale guard", w.expect("bob", 1)[0], "#1")

	// A forged From: not applied, and the real bob is told how to prove it.
	w.send(bob, server, "move", "move congo 1 d6-c5", "")
	wantContains(t, "forged", w.expect("bob", 1)[0], "personal address")
	w.expectNothing("alice")

	// A bounce is never answered. It is handled before the next mail, so
	// when bob's move is answered the bounce has been filed away.
	w.sendRaw("", server, "From: MAILER-DAEMON@example.net\nTo: congo@example.org\n"+
		"Subject: Undelivered Mail Returned to Sender\nMessage-ID: <bounce1@example.net>\n"+
		"Content-Type: multipart/report; report-type=delivery-status; boundary=b\n\n"+
		"--b\nContent-Type: text/plain\n\nmove congo 1 d6-c5\n--b--\n")

	// bob replies to the board with a bare move: it applies to game 1.
	w.send(bob, bobPA, "Re: "+b1.Subject, "d6-c5 anyway\n\n-- \nbob", b1.MessageID)
	a2 := w.expect("alice", 1)[0]
	wantContains(t, "after d6-c5", a2, "d6-c5", "Position: gmelecz/ppp1ppp/2p4/7/4P2/PPP1PPP/GMELECZ w 2")
	w.expect("bob", 1)

	// alice's lion flies across the open d-file and wins (R4, R15, M4).
	w.send(alice, alicePA, "Re: "+a2.Subject, "d1xd7", a2.MessageID)
	for _, who := range []string{"alice", "bob"} {
		end := w.expect(who, 1)[0]
		wantSubject(t, "the end to "+who, end, "Congo game 1: alice vs bob")
		wantContains(t, "the end to "+who, end, "d1xd7", map[string]string{"alice": "You win", "bob": "alice wins"}[who])
	}

	// No player's address ever reaches the other player.
	for _, pair := range [][2]string{{"alice", bob}, {"bob", alice}} {
		raws, err := w.sys.Messages(pair[0], "INBOX")
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range raws {
			if strings.Contains(strings.ToLower(string(r)), pair[1]) {
				t.Errorf("a mail to %s shows %s:\n%s", pair[0], pair[1], r)
			}
		}
	}

	// The server's INBOX is empty: everything was filed in Processed (M7).
	waitEmpty(t, w.sys, "congo", "INBOX")
	processed, err := w.sys.Messages("congo", "Processed")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(processed), w.n+1; got != want {
		t.Errorf("Processed holds %d mails, want %d (every mail sent plus the bounce)", got, want)
	}
}

func waitEmpty(t *testing.T, sys mailSystem, user, mailbox string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		raws, err := sys.Messages(user, mailbox)
		if err != nil {
			t.Fatal(err)
		}
		if len(raws) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s's %s still holds %d mails", user, mailbox, len(raws))
		}
		time.Sleep(20 * time.Millisecond)
	}
}
