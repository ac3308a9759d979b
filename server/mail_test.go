package server_test

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

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/mailmsg"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

// TestThread plays by plain replies: every mail about the game refers to
// the game's first mail, and a reply to any of them names the game, so a
// bare move works.
func TestThread(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.SendProven("alice", "challenge congo bob")
	challenge := servertest.Only(t, w.Deliver(), "bob")
	root := challenge.MessageID

	w.Reply(challenge, "accept")
	board := servertest.Only(t, w.Deliver(), "alice")
	w.Reply(board, "b2-b3")
	toBob := servertest.Only(t, w.Deliver(), "bob")
	servertest.WantText(t, toBob, "alice: b2-b3")

	w.Reply(toBob, "b6-b5 #1")
	toAlice := servertest.Only(t, w.Deliver(), "alice")
	servertest.WantText(t, toAlice, "bob: b6-b5")

	// A mistake is answered in the thread too, and a reply to the answer
	// still names the game.
	w.Reply(toAlice, "c2-c6")
	answer := servertest.Only(t, w.Deliver(), "alice")
	servertest.WantText(t, answer, "not legal")
	if !slices.Equal(answer.InReplyTo, []string{w.Last.MessageID}) {
		t.Errorf("answer In-Reply-To %q, want the mail answered %q", answer.InReplyTo, w.Last.MessageID)
	}
	w.Reply(answer, "c2-c3")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "bob"), "alice: c2-c3")

	for _, m := range []servertest.Received{board, toBob, toAlice, answer} {
		if !slices.Contains(m.References, root) {
			t.Errorf("mail %q to %s: References %q lack the root %q", m.Subject, m.To, m.References, root)
		}
	}
}

func TestSubjectCommandCarriesComment(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	m := w.Mail("alice", "move congo 1 b2-b3", "Your turn, bob!\n\nAlice")
	m.HeaderRecipients = []string{w.Personal("alice")}
	w.Process(m)
	mails := w.Deliver()
	servertest.WantText(t, servertest.Only(t, mails, "bob"), "alice: b2-b3", "alice writes:", "Your turn, bob!")
	servertest.WantNoText(t, servertest.Only(t, mails, "alice"), "alice writes:")
}

func TestDuplicateMail(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	m := w.Mail("alice", "", "move congo 1 b2-b3")
	m.HeaderRecipients = []string{w.Personal("alice")}
	w.Process(m)
	again := *m
	again.UID += 100 // the same mail, seen again at another place
	w.Process(&again)
	if mails := w.Deliver(); len(mails) != 2 {
		t.Errorf("a mail handled twice gave %d mails, want 2", len(mails))
	}

	// Without a Message-ID, UIDVALIDITY and UID recognise it.
	m = w.Mail("bob", "", "move congo 1 b6-b5")
	m.HeaderRecipients, m.MessageID = []string{w.Personal("bob")}, ""
	w.Process(m)
	w.Process(m)
	if mails := w.Deliver(); len(mails) != 2 {
		t.Errorf("a mail without Message-ID handled twice gave %d mails, want 2", len(mails))
	}
	var moves []db.Move
	w.InTx(func(ctx context.Context, tx *db.Tx) error {
		var err error
		moves, err = tx.Moves(ctx, 1)
		return err
	})
	if len(moves) != 2 {
		t.Errorf("%d moves stored, want 2", len(moves))
	}
}

func TestNeverAnswered(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice")
	tests := []struct {
		name string
		edit func(m *mailmsg.Incoming)
	}{
		{"auto-reply", func(m *mailmsg.Incoming) { m.AutoReply, m.Why = true, "Auto-Submitted: auto-replied" }},
		{"bounce", func(m *mailmsg.Incoming) { m.AutoReply, m.Why, m.ReturnPath = true, "empty Return-Path", "<>" }},
		{"our own address", func(m *mailmsg.Incoming) { m.From = servertest.ServerAddress }},
		{"our own plus address", func(m *mailmsg.Incoming) { m.From = "Congo+abc@Example.org" }},
		{"no From", func(m *mailmsg.Incoming) { m.From = "" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := w.Mail("alice", "help", "help\nregister zed")
			tt.edit(m)
			w.Process(m)
			if mails := w.Deliver(); len(mails) != 0 {
				t.Errorf("%d mails sent, want none", len(mails))
			}
			var seen bool
			w.InTx(func(ctx context.Context, tx *db.Tx) error {
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
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.SendProven("alice", "help\nwhat is this\ngames\nchallenge congo zed\nchallenge congo bob")
	mails := w.Deliver()
	if len(mails) != 3 {
		t.Fatalf("%d mails, want 3: the challenge to bob and alice, and one reply", len(mails))
	}
	var reply servertest.Received
	for _, m := range servertest.To(mails, "alice") {
		if m.Subject == "The Congo manual" {
			reply = m
		}
	}
	servertest.WantText(t, reply, "CONGO BY MAIL", "> what is this", "Your games", "No player has the handle zed")
	if !slices.Equal(reply.InReplyTo, []string{w.Last.MessageID}) {
		t.Errorf("reply In-Reply-To = %q, want %q", reply.InReplyTo, w.Last.MessageID)
	}
}

// TestConcurrentDuplicate hands the same mail to the server from several
// goroutines at once, as two mailbox connections might: it is carried
// out once.
func TestConcurrentDuplicate(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	m := w.Mail("alice", "", "move congo 1 b2-b3")
	m.HeaderRecipients = []string{w.Personal("alice")}
	errs := make(chan error, 4)
	for range cap(errs) {
		go func() { errs <- w.Server.ProcessMail(context.Background(), m) }()
	}
	for range cap(errs) {
		if err := <-errs; err != nil {
			t.Errorf("ProcessMail: %v", err)
		}
	}
	if mails := w.Deliver(); len(mails) != 2 {
		t.Errorf("the same mail handled at once by 4 goroutines gave %d mails, want 2", len(mails))
	}
}

// An answer to a command in the Subject must not repeat it: a reply to the
// answer would carry it again and run it a second time.
func TestAnswerDoesNotRepeatSubjectCommand(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Process(w.Mail("alice", "register alice", ""))
	welcome := servertest.Only(t, w.Deliver(), "alice")
	if welcome.Subject != "Welcome to Congo, alice" {
		t.Errorf("Subject of the answer to \"register alice\" = %q, want %q", welcome.Subject, "Welcome to Congo, alice")
	}
	w.Reply(welcome, "help")
	if r := servertest.Only(t, w.Deliver(), "alice"); !strings.Contains(r.Text, "CONGO BY MAIL") || strings.Contains(r.Text, "Welcome") {
		t.Errorf("reply \"help\" to the welcome was answered with:\n%s", r.Text)
	}
}

// A Subject that was meant as a command but could not run (here: resign
// without a game) is not repeated in the answer either: a reply to the
// answer, in the game's thread, would otherwise resign the game.
func TestAnswerDoesNotRepeatFailedSubjectCommand(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	id := w.StartGame("alice", "bob")
	m := w.Mail("alice", "resign", "move congo 1 b2-b6")
	m.HeaderRecipients = []string{w.Personal("alice")}
	w.Process(m)
	answer := servertest.Only(t, w.Deliver(), "alice")
	if strings.Contains(strings.ToLower(answer.Subject), "resign") {
		t.Errorf("Subject of the answer = %q, want no \"resign\" in it", answer.Subject)
	}
	w.Reply(answer, "b2-b3")
	if g := w.Game(id); g.Status == db.Finished {
		t.Errorf("replying b2-b3 to the answer ended the game: %v, %s", g.Result, g.Reason)
	}
}

// A flood of board requests: each position is sent once per mail; the
// player's own proven requests are always answered, past her recipient's
// cap in the next hour (M53); forged ones are answered within a cap of
// their own (M52), the welcome among them, and spend nothing of hers.
func TestBoardFloodIsCapped(t *testing.T) {
	t.Parallel()
	w := servertest.NewWithOutbox(t, server.Config{}, outbox.Config{MaxPerRecipient: 10})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	w.Deliver()
	w.Clock.Advance(61 * time.Minute) // the setup's mails are out of the hour
	body := strings.Repeat("board congo 1\n", 50)
	w.SendProven("alice", body)
	if got := len(servertest.To(w.Deliver(), "alice")); got != 1 {
		t.Errorf("50 lines \"board congo 1\" in one mail gave %d boards, want 1", got)
	}
	for range 20 {
		w.SendProven("alice", body)
	}
	if n := len(servertest.To(w.Deliver(), "alice")); n != 9 {
		t.Errorf("20 more proven mails asking for boards gave alice %d mails within the hour, want 9 (the cap)", n)
	}
	w.Clock.Advance(61 * time.Minute)
	if n := len(servertest.To(w.Deliver(), "alice")); n != 10 {
		t.Errorf("an hour later %d of the boards she asked for came, want 10", n)
	}
	w.Clock.Advance(61 * time.Minute)
	if n := len(servertest.To(w.Deliver(), "alice")); n != 1 {
		t.Errorf("two hours later %d of the boards she asked for came, want the last", n)
	}
	for range 20 {
		w.Send("alice", body) // forged: each is answered that it proves nothing
	}
	if n := len(servertest.To(w.Deliver(), "alice")); n != outbox.MaxUnprovenPerDay-1 {
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
	t.Parallel()
	r := &switchRand{}
	w := servertest.New(t, server.Config{Rand: r})
	w.Register("alice", "bob")
	id := w.StartGame("alice", "bob")
	white := w.ProvenMail("alice", fmt.Sprintf("move congo %d b2-b3", id))
	again := *white
	again.UID += 100
	r.broken.Store(true) // a new player's secret cannot be made
	batch := []*mailmsg.Incoming{
		white,
		w.Mail("carol", "", "register carol"),
		w.ProvenMail("bob", fmt.Sprintf("move congo %d b6-b5", id)), // legal only after white's move
		&again,
	}
	errs := w.Server.ProcessMails(context.Background(), batch)
	if len(errs) != len(batch) {
		t.Fatalf("ProcessMails gave %d errors for %d mails", len(errs), len(batch))
	}
	for i, err := range errs {
		if (err != nil) != (i == 1) {
			t.Errorf("mail %d (%q): error %v, want one only for the registration", i, batch[i].Text, err)
		}
	}
	var moves []db.Move
	w.InTx(func(ctx context.Context, tx *db.Tx) error {
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
	if mails := w.Deliver(); len(mails) != 4 {
		t.Errorf("%d mails sent, want 4", len(mails))
	}

	r.broken.Store(false)
	if err := w.Server.ProcessMails(context.Background(), batch[1:2])[0]; err != nil {
		t.Fatalf("the registration again: %v", err)
	}
	if mails := w.Deliver(); len(mails) != 1 {
		t.Errorf("the registration again gave %d mails, want 1", len(mails))
	}
}

// TestProcessMailsAfterSQLiteRollback: when SQLite rolls back the whole
// transaction of a batch on one mail's error (a trigger's RAISE(ROLLBACK)
// here, as a full disk would), the mails are handled again one at a time:
// the others are carried out, once, and only that mail fails.
func TestProcessMailsAfterSQLiteRollback(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	id := w.StartGame("alice", "bob")
	raw, err := sql.Open("sqlite", w.DBPath)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(`CREATE TRIGGER poison BEFORE INSERT ON players WHEN NEW.handle = 'carol'
		BEGIN SELECT RAISE(ROLLBACK, 'poisoned'); END`); err != nil {
		t.Fatal(err)
	}
	batch := []*mailmsg.Incoming{
		w.ProvenMail("alice", fmt.Sprintf("move congo %d b2-b3", id)),
		w.Mail("carol", "", "register carol"),
		w.ProvenMail("bob", fmt.Sprintf("move congo %d b6-b5", id)),
	}
	errs := w.Server.ProcessMails(context.Background(), batch)
	for i, err := range errs {
		if (err != nil) != (i == 1) {
			t.Errorf("mail %d (%q): error %v, want one for the registration alone", i, batch[i].Text, err)
		}
	}
	var moves []db.Move
	w.InTx(func(ctx context.Context, tx *db.Tx) error {
		var err error
		moves, err = tx.Moves(ctx, id)
		return err
	})
	if len(moves) != 2 {
		t.Errorf("%d moves stored, want 2", len(moves))
	}
	if mails := w.Deliver(); len(mails) != 4 {
		t.Errorf("%d mails sent, want 4 (two moves, both players)", len(mails))
	}
}

// TestSubjectCommandBodyNotRead: with a command in the Subject, commands
// in the body are not carried out, and the answer says so.
func TestSubjectCommandBodyNotRead(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.Process(w.Mail("alice", "games", "ratings\nhistory congo 1"))
	mails := w.Deliver()
	if len(mails) != 1 {
		t.Fatalf("%d mails, want the one answer", len(mails))
	}
	servertest.WantText(t, mails[0], "> ratings", "Not carried out: with a command in the Subject, the body is read as a")
	if strings.Contains(mails[0].Text, "history congo 1") {
		t.Errorf("the answer names every body line, want the first command alone:\n%s", mails[0].Text)
	}
}
