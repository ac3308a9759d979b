package server

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" driver, to add a trigger

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/mailmsg"
	"github.com/congobymail/congo/outbox"
)

// TestThread plays by plain replies: every mail about the game refers to
// the game's first mail, and a reply to any of them names the game, so a
// bare move works.
func TestThread(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.sendProven("alice", "challenge congo bob")
	challenge := only(t, h.deliver(), "bob")
	root := challenge.MessageID

	h.reply(challenge, "accept")
	board := only(t, h.deliver(), "alice")
	h.reply(board, "b2-b3")
	toBob := only(t, h.deliver(), "bob")
	wantText(t, toBob, "alice: b2-b3")

	h.reply(toBob, "b6-b5 #1")
	toAlice := only(t, h.deliver(), "alice")
	wantText(t, toAlice, "bob: b6-b5")

	// A mistake is answered in the thread too, and a reply to the answer
	// still names the game.
	h.reply(toAlice, "c2-c6")
	answer := only(t, h.deliver(), "alice")
	wantText(t, answer, "not legal")
	if !slices.Equal(answer.InReplyTo, []string{h.last.MessageID}) {
		t.Errorf("answer In-Reply-To %q, want the mail answered %q", answer.InReplyTo, h.last.MessageID)
	}
	h.reply(answer, "c2-c3")
	wantText(t, only(t, h.deliver(), "bob"), "alice: c2-c3")

	for _, m := range []received{board, toBob, toAlice, answer} {
		if !slices.Contains(m.References, root) {
			t.Errorf("mail %q to %s: References %q lack the root %q", m.Subject, m.To, m.References, root)
		}
	}
}

func TestSubjectCommandCarriesComment(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.startGame("alice", "bob")
	m := h.mail("alice", "move congo 1 b2-b3", "Your turn, bob!\n\nAlice")
	m.HeaderRecipients = []string{h.personal("alice")}
	h.handle(m)
	mails := h.deliver()
	wantText(t, only(t, mails, "bob"), "alice: b2-b3", "alice writes:", "Your turn, bob!")
	wantNoText(t, only(t, mails, "alice"), "alice writes:")
}

func TestDuplicateMail(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.startGame("alice", "bob")
	m := h.mail("alice", "", "move congo 1 b2-b3")
	m.HeaderRecipients = []string{h.personal("alice")}
	h.handle(m)
	again := *m
	again.UID += 100 // the same mail, seen again at another place
	h.handle(&again)
	if mails := h.deliver(); len(mails) != 2 {
		t.Errorf("a mail handled twice gave %d mails, want 2", len(mails))
	}

	// Without a Message-ID, UIDVALIDITY and UID recognise it.
	m = h.mail("bob", "", "move congo 1 b6-b5")
	m.HeaderRecipients, m.MessageID = []string{h.personal("bob")}, ""
	h.handle(m)
	h.handle(m)
	if mails := h.deliver(); len(mails) != 2 {
		t.Errorf("a mail without Message-ID handled twice gave %d mails, want 2", len(mails))
	}
	var moves []db.Move
	h.inTx(func(ctx context.Context, tx *db.Tx) error {
		var err error
		moves, err = tx.Moves(ctx, 1)
		return err
	})
	if len(moves) != 2 {
		t.Errorf("%d moves stored, want 2", len(moves))
	}
}

func TestNeverAnswered(t *testing.T) {
	h := newHarness(t)
	h.register("alice")
	tests := []struct {
		name string
		edit func(m *mailmsg.Incoming)
	}{
		{"auto-reply", func(m *mailmsg.Incoming) { m.AutoReply, m.Why = true, "Auto-Submitted: auto-replied" }},
		{"bounce", func(m *mailmsg.Incoming) { m.AutoReply, m.Why, m.ReturnPath = true, "empty Return-Path", "<>" }},
		{"our own address", func(m *mailmsg.Incoming) { m.From = ourAddress }},
		{"our own plus address", func(m *mailmsg.Incoming) { m.From = "Congo+abc@Example.org" }},
		{"no From", func(m *mailmsg.Incoming) { m.From = "" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := h.mail("alice", "help", "help\nregister zed")
			tt.edit(m)
			h.handle(m)
			if mails := h.deliver(); len(mails) != 0 {
				t.Errorf("%d mails sent, want none", len(mails))
			}
			var seen bool
			h.inTx(func(ctx context.Context, tx *db.Tx) error {
				var err error
				seen, err = tx.Seen(ctx, m.MessageID, m.UIDValidity, m.UID)
				return err
			})
			if !seen {
				t.Errorf("the mail was not recorded as handled")
			}
		})
	}
}

func TestHelpAndErrorsGoInOneReply(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.sendProven("alice", "help\nwhat is this\ngames\nchallenge congo zed\nchallenge congo bob")
	mails := h.deliver()
	if len(mails) != 3 {
		t.Fatalf("%d mails, want 3: the challenge to bob and alice, and one reply", len(mails))
	}
	var reply received
	for _, m := range to(mails, "alice") {
		if m.Subject == "The Congo manual" {
			reply = m
		}
	}
	wantText(t, reply, "CONGO BY MAIL", "> what is this", "Your games", "No player has the handle zed")
	if !slices.Equal(reply.InReplyTo, []string{h.last.MessageID}) {
		t.Errorf("reply In-Reply-To = %q, want %q", reply.InReplyTo, h.last.MessageID)
	}
}

// TestConcurrentDuplicate hands the same mail to the server from several
// goroutines at once, as two mailbox connections might: it is carried
// out once.
func TestConcurrentDuplicate(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.startGame("alice", "bob")
	m := h.mail("alice", "", "move congo 1 b2-b3")
	m.HeaderRecipients = []string{h.personal("alice")}
	errs := make(chan error, 4)
	for range cap(errs) {
		go func() { errs <- h.s.ProcessMail(context.Background(), m) }()
	}
	for range cap(errs) {
		if err := <-errs; err != nil {
			t.Errorf("ProcessMail: %v", err)
		}
	}
	if mails := h.deliver(); len(mails) != 2 {
		t.Errorf("the same mail handled at once by 4 goroutines gave %d mails, want 2", len(mails))
	}
}

// An answer to a command in the Subject must not repeat it: a reply to the
// answer would carry it again and run it a second time.
func TestAnswerDoesNotRepeatSubjectCommand(t *testing.T) {
	h := newHarness(t)
	h.handle(h.mail("alice", "register alice", ""))
	welcome := only(t, h.deliver(), "alice")
	if welcome.Subject != "Welcome to Congo, alice" {
		t.Errorf("Subject of the answer to \"register alice\" = %q, want %q", welcome.Subject, "Welcome to Congo, alice")
	}
	h.reply(welcome, "help")
	if r := only(t, h.deliver(), "alice"); !strings.Contains(r.Text, "CONGO BY MAIL") || strings.Contains(r.Text, "Welcome") {
		t.Errorf("reply \"help\" to the welcome was answered with:\n%s", r.Text)
	}
}

// A Subject that was meant as a command but could not run (here: resign
// without a game) is not repeated in the answer either: a reply to the
// answer, in the game's thread, would otherwise resign the game.
func TestAnswerDoesNotRepeatFailedSubjectCommand(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	id := h.startGame("alice", "bob")
	m := h.mail("alice", "resign", "move congo 1 b2-b6")
	m.HeaderRecipients = []string{h.personal("alice")}
	h.handle(m)
	answer := only(t, h.deliver(), "alice")
	if strings.Contains(strings.ToLower(answer.Subject), "resign") {
		t.Errorf("Subject of the answer = %q, want no \"resign\" in it", answer.Subject)
	}
	h.reply(answer, "b2-b3")
	if g := h.game(id); g.Status == db.Finished {
		t.Errorf("replying b2-b3 to the answer ended the game: %v, %s", g.Result, g.Reason)
	}
}

// A flood of board requests: each position is sent once per mail; the
// player's own proven requests are always answered, past her recipient's
// cap in the next hour (M53); forged ones are answered within a cap of
// their own (M52), the welcome among them, and spend nothing of hers.
func TestBoardFloodIsCapped(t *testing.T) {
	h := newHarnessOutbox(t, Config{}, outbox.Config{MaxPerRecipient: 10})
	h.register("alice", "bob")
	h.startGame("alice", "bob")
	h.deliver()
	h.clock.Advance(61 * time.Minute) // the setup's mails are out of the hour
	body := strings.Repeat("board congo 1\n", 50)
	h.sendProven("alice", body)
	if got := len(to(h.deliver(), "alice")); got != 1 {
		t.Errorf("50 lines \"board congo 1\" in one mail gave %d boards, want 1", got)
	}
	for range 20 {
		h.sendProven("alice", body)
	}
	if n := len(to(h.deliver(), "alice")); n != 9 {
		t.Errorf("20 more proven mails asking for boards gave alice %d mails within the hour, want 9 (the cap)", n)
	}
	h.clock.Advance(61 * time.Minute)
	if n := len(to(h.deliver(), "alice")); n != 10 {
		t.Errorf("an hour later %d of the boards she asked for came, want 10", n)
	}
	h.clock.Advance(61 * time.Minute)
	if n := len(to(h.deliver(), "alice")); n != 1 {
		t.Errorf("two hours later %d of the boards she asked for came, want the last", n)
	}
	for range 20 {
		h.send("alice", body) // forged: each is answered that it proves nothing
	}
	if n := len(to(h.deliver(), "alice")); n != outbox.MaxUnprovenPerDay-1 {
		t.Errorf("20 forged mails asking for boards gave alice %d mails, want %d (the cap, but for her welcome)", n, outbox.MaxUnprovenPerDay-1)
	}
}

// switchRand is crypto/rand until broken is set; then it fails.
type switchRand struct{ broken atomic.Bool }

func (r *switchRand) Read(p []byte) (int, error) {
	if r.broken.Load() {
		return 0, errors.New("no randomness")
	}
	return rand.Read(p)
}

// TestProcessMailsAlone handles mails in one transaction: in order, each
// seeing what those before it did, and a mail that fails is undone alone.
func TestProcessMailsAlone(t *testing.T) {
	r := &switchRand{}
	h := newHarnessWith(t, Config{Rand: r})
	h.register("alice", "bob")
	id := h.startGame("alice", "bob")
	white := h.provenMail("alice", fmt.Sprintf("move congo %d b2-b3", id))
	again := *white
	again.UID += 100
	r.broken.Store(true) // a new player's secret cannot be made
	batch := []*mailmsg.Incoming{
		white,
		h.mail("carol", "", "register carol"),
		h.provenMail("bob", fmt.Sprintf("move congo %d b6-b5", id)), // legal only after white's move
		&again,
	}
	errs := h.s.ProcessMails(context.Background(), batch)
	if len(errs) != len(batch) {
		t.Fatalf("ProcessMails gave %d errors for %d mails", len(errs), len(batch))
	}
	for i, err := range errs {
		if (err != nil) != (i == 1) {
			t.Errorf("mail %d (%q): error %v, want one only for the registration", i, batch[i].Text, err)
		}
	}
	var moves []db.Move
	h.inTx(func(ctx context.Context, tx *db.Tx) error {
		var err error
		moves, err = tx.Moves(ctx, id)
		if err != nil {
			return err
		}
		if _, err := tx.PlayerByHandle(ctx, "carol"); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("the failed registration left a player (err %v)", err)
		}
		return nil
	})
	if got := len(moves); got != 2 {
		t.Errorf("%d moves stored, want 2 (the copy of white's move is not applied again)", got)
	}
	// Two moves, each answered to both players; the registration nothing.
	if mails := h.deliver(); len(mails) != 4 {
		t.Errorf("%d mails sent, want 4", len(mails))
	}

	r.broken.Store(false)
	if err := h.s.ProcessMails(context.Background(), batch[1:2])[0]; err != nil {
		t.Fatalf("the registration again: %v", err)
	}
	if mails := h.deliver(); len(mails) != 1 {
		t.Errorf("the registration again gave %d mails, want 1", len(mails))
	}
}

// TestProcessMailsAfterSQLiteRollback: when SQLite rolls back the whole
// transaction of a batch on one mail's error (a trigger's RAISE(ROLLBACK)
// here, as a full disk would), the mails are handled again one at a time:
// the others are carried out, once, and only that mail fails.
func TestProcessMailsAfterSQLiteRollback(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	id := h.startGame("alice", "bob")
	raw, err := sql.Open("sqlite", h.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(`CREATE TRIGGER poison BEFORE INSERT ON players WHEN NEW.handle = 'carol'
		BEGIN SELECT RAISE(ROLLBACK, 'poisoned'); END`); err != nil {
		t.Fatal(err)
	}
	batch := []*mailmsg.Incoming{
		h.provenMail("alice", fmt.Sprintf("move congo %d b2-b3", id)),
		h.mail("carol", "", "register carol"),
		h.provenMail("bob", fmt.Sprintf("move congo %d b6-b5", id)),
	}
	errs := h.s.ProcessMails(context.Background(), batch)
	for i, err := range errs {
		if (err != nil) != (i == 1) {
			t.Errorf("mail %d (%q): error %v, want one for the registration alone", i, batch[i].Text, err)
		}
	}
	var moves []db.Move
	h.inTx(func(ctx context.Context, tx *db.Tx) error {
		var err error
		moves, err = tx.Moves(ctx, id)
		return err
	})
	if len(moves) != 2 {
		t.Errorf("%d moves stored, want 2", len(moves))
	}
	if mails := h.deliver(); len(mails) != 4 {
		t.Errorf("%d mails sent, want 4 (two moves, both players)", len(mails))
	}
}

// TestSubjectCommandBodyNotRead: with a command in the Subject, commands
// in the body are not carried out, and the answer says so.
func TestSubjectCommandBodyNotRead(t *testing.T) {
	h := newHarness(t)
	h.register("alice", "bob")
	h.handle(h.mail("alice", "games", "ratings\nhistory congo 1"))
	mails := h.deliver()
	if len(mails) != 1 {
		t.Fatalf("%d mails, want the one answer", len(mails))
	}
	wantText(t, mails[0], "> ratings", "Not carried out: with a command in the Subject, the body is read as a")
	if strings.Contains(mails[0].Text, "history congo 1") {
		t.Errorf("the answer names every body line, want the first command alone:\n%s", mails[0].Text)
	}
}
