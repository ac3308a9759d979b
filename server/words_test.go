package server_test

import (
	"context"
	"strings"
	"testing"

	"github.com/congobymail/congo/config"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

// firstLines is the text of a mail from its start, or after the line
// that names the game in a board mail, without the quoted line of an
// error: what the reader reads first.
func firstLines(m servertest.Received) string {
	text := m.Text
	if strings.HasPrefix(text, "Game ") || strings.HasPrefix(text, "Partie ") || strings.HasPrefix(text, "対局 ") {
		_, text, _ = strings.Cut(text, "\n\n")
	}
	return strings.Join(strings.Fields(text), " ")
}

// wantFirst fails the test unless the mail starts with want, compared
// without their white space: a mail wraps its lines where it likes, and
// in Japanese inside words.
func wantFirst(t *testing.T, m servertest.Received, want string) {
	t.Helper()
	bare := func(s string) string { return strings.Join(strings.Fields(s), "") }
	if got := firstLines(m); !strings.HasPrefix(bare(got), bare(want)) {
		t.Errorf("mail to %s %q does not start with %q:\n%s", m.To, m.Subject, want, m.Text)
	}
}

// TestActionInWordsByMail (M58): "I resign, well played." in a reply
// about a game is relayed as the message and nothing is done; the
// sender's answer starts with what was not done and the line to send.
// Beside a move, the move is played, and the mover's own board mail
// starts with it.
func TestActionInWordsByMail(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	w.SendProven("alice", "move congo 1 b2-b3")
	toBob := servertest.Only(t, w.Deliver(), "bob")

	w.Reply(toBob, "I resign, well played.")
	mails := w.Deliver()
	answer := servertest.Only(t, mails, "bob")
	wantFirst(t, answer, `Nothing was done: to resign, send "resign" on a line of its own.`)
	servertest.WantText(t, answer, "Your message was passed on to alice.")
	servertest.WantText(t, servertest.Only(t, mails, "alice"), "bob writes:", "I resign, well played.")
	if g := w.Game(1); g.Status != db.Active {
		t.Errorf("game 1 is %v after bob's words, want still being played", g.Status)
	}

	w.Reply(toBob, "b6-b5\ndraw?")
	mails = w.Deliver()
	bobs := servertest.Only(t, mails, "bob")
	wantFirst(t, bobs, `Nothing was done: to offer a draw (or accept one), send "draw" on a line of its own.`)
	servertest.WantText(t, bobs, "You: b6-b5", "Your message was passed on to alice.")
	alices := servertest.Only(t, mails, "alice")
	servertest.WantText(t, alices, "bob: b6-b5", "bob writes:", "draw?")
	servertest.WantNoText(t, alices, "offers a draw")
	servertest.WantNoText(t, bobs, "You offer a draw")
}

// TestMoveInSentenceBesideCommand (M58): a move inside a sentence, in a
// mail that holds another command, is not played, and the answer names
// it first; the other command is carried out.
func TestMoveInSentenceBesideCommand(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.StartGame("alice", "bob")
	w.SendProven("alice", "move congo 1 b2-b3")
	toBob := servertest.Only(t, w.Deliver(), "bob")
	w.Reply(toBob, "Bold. My move: d6-e5\ndraw")
	mails := w.Deliver()
	bobs := servertest.Only(t, mails, "bob")
	wantFirst(t, bobs, `"d6-e5" was not played: a move must stand alone on its line. To play it, reply with just: d6-e5`)
	servertest.WantText(t, bobs, "You offer a draw")
	servertest.WantText(t, servertest.Only(t, mails, "alice"), "bob offers a draw", "Bold. My move: d6-e5")
	if g := w.Game(1); g.Position != "gmelecz/ppppppp/7/7/1P5/P1PPPPP/GMELECZ b 1" {
		t.Errorf("game 1 at %q, want bob's move not played", g.Position)
	}
}

// TestWordsInCzechAndJapanese (M58, M59): the game actions in words, the
// move prefixes and a language's name alone, in Czech and Japanese, each
// answered in the sender's language.
func TestWordsInCzechAndJapanese(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("jan", "hanako")
	w.StartGame("hanako", "jan")
	w.SendProven("jan", "language cs")
	w.SendProven("hanako", "language ja")
	w.Deliver()
	w.SendProven("hanako", "board congo 1")
	w.Reply(servertest.Only(t, w.Deliver(), "hanako"), "私の手：ｄ２－ｅ３")
	mails := w.Deliver()
	toJan := servertest.Only(t, mails, "jan")
	servertest.WantText(t, toJan, "hanako: d2-e3")
	servertest.WantText(t, servertest.Only(t, mails, "hanako"), "あなた：d2-e3")

	// A move written the Czech way, with Czech words beside it: played,
	// the words relayed.
	w.Reply(toJan, "Můj tah: e6-e5\nDobrý tah, uvidíme.")
	mails = w.Deliver()
	toHanako := servertest.Only(t, mails, "hanako")
	servertest.WantText(t, toHanako, "jan：e6-e5", "Dobrý tah, uvidíme.")
	servertest.WantText(t, servertest.Only(t, mails, "jan"), "Vy: e6-e5", "Vaše zpráva byla předána hráči hanako.")

	// Words that ask for a game action: nothing done, the answer in the
	// sender's language.
	w.Reply(toHanako, "引き分けにしませんか？")
	mails = w.Deliver()
	wantFirst(t, servertest.Only(t, mails, "hanako"), "何も実行していません。引き分けを提案する（または提案を受け入れる）には、「draw」だけを1行に書いて送ってください。")
	toJan = servertest.Only(t, mails, "jan")
	servertest.WantText(t, toJan, "引き分けにしませんか？")
	w.Reply(toJan, "Vzdávám, dobře zahráno.")
	mails = w.Deliver()
	wantFirst(t, servertest.Only(t, mails, "jan"), "Nic nebylo provedeno: chcete-li partii vzdát, pošlete „resign“ na samostatném řádku.")
	if g := w.Game(1); g.Status != db.Active {
		t.Errorf("game 1 is %v after words alone, want still being played", g.Status)
	}

	// A language's name alone switches the language (M59).
	w.Reply(toJan, "English")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "jan"), "From now on, this server writes to you in English.")
	w.Reply(toHanako, "česky")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "hanako"), "Odteď vám tento server píše česky.")
	w.SendProven("hanako", "日本語")
	servertest.WantText(t, servertest.Only(t, w.Deliver(), "hanako"), "これから、このサーバーはあなたに日本語で書きます。")
}

// TestRobotReadsNoMessages (M59): words to the robot, beside a move,
// alone, or beside a challenge, are answered "The robot reads no
// messages", never "passed on".
func TestRobotReadsNoMessages(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{Settings: config.Settings{Robot: config.DefaultRobot}})
	if err := w.Server.EnsureRobot(context.Background()); err != nil {
		t.Fatal(err)
	}
	w.Register("alice")
	w.SendProven("alice", "Good luck, robot!\nchallenge congo robot level=1")
	start := servertest.Only(t, w.DeliverChecked(), "alice")
	servertest.WantText(t, start, "The robot reads no messages: your words were not passed on to robot.")
	servertest.WantNoText(t, start, "passed on to robot.\n\nYour message", "Your message was passed on")

	w.Reply(start, "Here I come.\nb2-b3")
	answer := servertest.Only(t, w.DeliverChecked(), "alice")
	servertest.WantText(t, answer, "The robot reads no messages")
	servertest.WantNoText(t, answer, "Your message was passed on")
	servertest.RobotStep(t, w.Server)
	board := servertest.Only(t, w.DeliverChecked(), "alice")
	servertest.WantText(t, board, "You: b2-b3", "robot: ")

	w.Reply(board, "Nice one.")
	answer = servertest.Only(t, w.DeliverChecked(), "alice")
	servertest.WantText(t, answer, "The robot reads no messages")
	servertest.WantNoText(t, answer, "Your message was passed on")

	// In Czech: the robot is "the computer player", not "Robot robot".
	w.SendProven("alice", "česky")
	w.DeliverChecked()
	w.Reply(board, "Pěkný tah.")
	answer = servertest.Only(t, w.DeliverChecked(), "alice")
	servertest.WantWords(t, answer, "Počítačový hráč robot nečte žádné zprávy: vaše slova nebyla předána.")
}

// TestChallengeWithWords: the words beside a challenge in a mail about
// no game go to the player challenged with it, and the challenger is
// told so.
func TestChallengeWithWords(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("alice", "bob")
	w.SendProven("alice", "Hi bob, fancy a game?\nchallenge congo bob days=5\n\nalice")
	mails := w.Deliver()
	servertest.WantText(t, servertest.Only(t, mails, "bob"), "alice challenges you", "alice writes:", "Hi bob, fancy a game?")
	toAlice := servertest.Only(t, mails, "alice")
	servertest.WantWords(t, toAlice, "Your message was passed on to bob with the challenge.")
	servertest.WantNoText(t, toAlice, "unknown command")
}

// TestFinishedGameInCzechAndJapanese (M59, issue 24's fifth finding): a
// game won by mail is told in the past and without a player's gender:
// in Czech the players' sides are the pieces they play ("jan (bílými"),
// the winner a noun ("Výhra je vaše", "Výhra: jan"), never "vyhrává";
// in Japanese "jan の勝ちです".
func TestFinishedGameInCzechAndJapanese(t *testing.T) {
	t.Parallel()
	w := servertest.New(t, server.Config{})
	w.Register("jan", "hanako", "petra")
	w.StartGame("jan", "hanako")
	w.SendProven("jan", "language cs")
	w.SendProven("hanako", "language ja")
	w.SendProven("petra", "language cs")
	w.Deliver()
	w.SendProven("petra", "observe congo 1")
	w.Deliver()
	w.SendProven("jan", "move congo 1 d2-e3")
	w.SendProven("hanako", "move congo 1 d6-c5 anyway")
	w.Deliver()
	w.SendProven("jan", "move congo 1 d1xd7")
	mails := w.Deliver()
	toJan := servertest.Only(t, mails, "jan")
	servertest.WantWords(t, toJan, "Partie 1: jan (bílými", "hanako (černými", "Výhra je vaše, zajetím lva hráče hanako.")
	toPetra := servertest.Only(t, mails, "petra")
	servertest.WantWords(t, toPetra, "Výhra: jan, zajetím lva hráče hanako.")
	toHanako := servertest.Only(t, mails, "hanako")
	servertest.WantWords(t, toHanako, "jan の勝ちです。あなたのライオンが取られました。")
	for _, m := range []servertest.Received{toJan, toPetra} {
		servertest.WantNoWords(t, m, "vyhrává", "bílý)", "černý)", "(bílý,", "(černý,")
	}
	w.SendProven("jan", "games")
	servertest.WantNoWords(t, servertest.Only(t, w.Deliver(), "jan"), "vyhrává", "(bílý", "(černý")

	// A game resigned: one colon at most, the loser's "vaším vzdáním".
	w.SendProven("petra", "challenge congo jan")
	w.Deliver()
	w.SendProven("jan", "accept congo 2")
	w.Deliver()
	w.SendProven("jan", "resign congo 2")
	mails = w.Deliver()
	servertest.WantWords(t, servertest.Only(t, mails, "jan"), "Výhra: petra. Partie skončila vaším vzdáním.")
	servertest.WantWords(t, servertest.Only(t, mails, "petra"), "Výhra je vaše: partie skončila vzdáním.")
}
