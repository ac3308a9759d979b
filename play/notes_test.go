package play_test

import (
	"strings"
	"testing"

	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

// TestNotes keeps private notes by mail (M68): a note line in a reply
// about the game, beside a move and a message, and note congo <id>
// anywhere; notes lists them under their moves, the author's history
// shows them as {note: ...}, and nobody else reads them: not the
// opponent (neither in the board mail that carries the message nor in
// their history), nor an observer.
func TestNotes(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob", "carol")
	w.StartGame("alice", "bob")
	w.SendProven("carol", "observe congo 1")
	w.Deliver()

	// A note anywhere, before the first move: kept with the start.
	w.SendProven("alice", "note congo 1 Plan: the c-pawn, then the monkey.")
	mails := w.Deliver()
	kept := servertest.Only(t, mails, "alice")
	servertest.WantWords(t, kept, "Kept as your private note in game 1, at the start:", "Plan: the c-pawn, then the monkey.",
		"Nobody else sees it, now or after the game.")
	if kept.Subject != "Re: Congo game 1: alice vs bob" {
		t.Errorf("the answer to a note has Subject %q, want the game's", kept.Subject)
	}
	if n := len(mails); n != 1 {
		t.Errorf("a note caused %d mails, want only the answer to its author", n)
	}

	// A reply with a move, a note and a message: the message goes to
	// bob with the board, the note stays alice's, in her own board mail.
	w.SendProven("bob", "board congo 1")
	w.Deliver()
	w.SendProven("alice", "board congo 1")
	board := servertest.Only(t, w.Deliver(), "alice")
	w.Reply(board, "b2-b3\nnote His monkey is loose on b7.\nGood luck!")
	mails = w.Deliver()
	toAlice, toBob, toCarol := servertest.Only(t, mails, "alice"), servertest.Only(t, mails, "bob"), servertest.Only(t, mails, "carol")
	servertest.WantWords(t, toAlice, "You: b2-b3", "Kept as your private note in game 1, at the move 1. b2-b3:", "His monkey is loose on b7.")
	servertest.WantText(t, toBob, "alice: b2-b3", "alice writes:", "Good luck!")
	for _, m := range []servertest.Received{toBob, toCarol} {
		servertest.WantNoText(t, m, "monkey is loose", "Plan: the c-pawn", "private note")
		if strings.Contains(string(m.Raw), "monkey is loose") {
			t.Errorf("the mail to %s holds alice's note", m.To)
		}
	}

	// bob's own note, in Czech words (M40): his, not alice's.
	w.SendProven("bob", "move congo 1 b6-b5\nnote congo 1 Jeho opice je volná!")
	w.Deliver()
	w.SendProven("alice", "notes congo 1")
	list := servertest.Only(t, w.Deliver(), "alice")
	servertest.WantWords(t, list, "Your private notes in game 1", "At the start:", "Plan: the c-pawn, then the monkey.",
		"After 1. b2-b3:", "His monkey is loose on b7.")
	servertest.WantNoText(t, list, "opice")

	// The author's history has the notes in braces; the opponent's and
	// the observer's have none of alice's.
	w.SendProven("alice", "history congo 1")
	hist := servertest.Only(t, w.Deliver(), "alice")
	servertest.WantWords(t, hist, "{note: Plan: the c-pawn, then the monkey.} 1. b2-b3 {Good luck!} {note: His monkey is loose on b7.} b6-b5")
	servertest.WantNoText(t, hist, "opice")
	w.SendProven("bob", "history congo 1")
	bobs := servertest.Only(t, w.Deliver(), "bob")
	servertest.WantWords(t, bobs, "1. b2-b3 {Good luck!} b6-b5 {note: Jeho opice je volná!}")
	servertest.WantNoText(t, bobs, "monkey is loose", "Plan: the c-pawn")
	w.SendProven("carol", "history congo 1")
	servertest.WantNoText(t, servertest.Only(t, w.Deliver(), "carol"), "note:", "monkey is loose", "opice")

	// Only a player of the game keeps notes in it; a note needs its game.
	w.SendProven("carol", "note congo 1 alice will win")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "carol"), "not one of your games")
	w.SendProven("alice", "note watch the river")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "alice"), "a note needs its game")

	// A mail that proves nothing keeps no note.
	w.Send("alice", "note congo 1 forged")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "alice"), "did not come to your personal address")
	w.SendProven("alice", "notes congo 1")
	servertest.WantNoText(t, servertest.Only(t, w.Deliver(), "alice"), "forged")
}

// TestNotesTakeback: the notes of a move taken back stay, with the move
// before it (M68, M13); notes may be kept after the game too.
func TestNotesTakeback(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	w.SendProven("alice", "move congo 1 b2-b3\nnote congo 1 a slip?")
	w.SendProven("alice", "takeback congo 1")
	w.SendProven("bob", "takeback congo 1")
	w.SendProven("alice", "move congo 1 c2-c3")
	w.Deliver()
	w.SendProven("alice", "notes congo 1")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "alice"), "At the start: a slip?")
	w.SendProven("bob", "resign congo 1")
	w.Deliver()
	w.SendProven("alice", "note congo 1 Won: he never saw the c-file.\nnotes congo 1")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "alice"), "After 1. c2-c3: Won: he never saw the c-file.")
}

// TestNotesJapanese: a Japanese player's note and notes, in Japanese;
// the note kept as written, full-width letters and all.
func TestNotesJapanese(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("hanako", "jan")
	w.StartGame("hanako", "jan")
	w.SendProven("hanako", "language ja")
	w.Deliver()
	w.SendProven("hanako", "ｎｏｔｅ　ｃｏｎｇｏ　１　ｃ５を狙う。猿に注意！")
	m := servertest.Only(t, w.Deliver(), "hanako")
	servertest.WantText(t, m, "対局 1 の開始局面に、あなただけのメモを残しました", "  ｃ５を狙う。猿に注意！")
	w.SendProven("hanako", "notes congo 1")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "hanako"), "対局 1 でのあなたのメモです", "開始局面：", "  ｃ５を狙う。猿に注意！")
}

// TestNotesNotInASubjectsBody: with a command in the Subject the body is
// the message (M19); a note in it is neither kept nor passed on.
func TestNotesNotInASubjectsBody(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	m := w.ProvenMail("alice", "Good luck!\nnote my secret plan: c5\nif b6-b5 then resign")
	m.Subject = "move congo 1 b2-b3"
	w.Process(m)
	mails := w.Deliver()
	toBob := servertest.Only(t, mails, "bob")
	servertest.WantText(t, toBob, "alice: b2-b3", "Good luck!")
	servertest.WantNoText(t, toBob, "secret plan", "if b6-b5")
	var answer servertest.Received
	for _, r := range servertest.To(mails, "alice") {
		answer = r
	}
	servertest.WantWords(t, answer, "note my secret plan: c5", "Not kept, and not passed on")
}
