package parser

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParseMessage checks M19: in a mail about a game, the lines that
// are no command are the sender's message to the opponent, never errors.
func TestParseMessage(t *testing.T) {
	t.Parallel()
	move := func(line, m string) Command {
		return Command{Kind: Move, Line: line, Game: 42, Args: MoveArgs{Move: m}}
	}
	b2b3 := move("b2-b3", "b2-b3")
	tests := []struct {
		name, body string
		want       Result
	}{
		{"Gmail: a move and a word above the quote",
			"b2-b3\n\nNice move, bob!\n\nOn Sat, 1 Mar 2025 at 12:00, Congo <congo@example.org> wrote:\n> Game 42: alice (white) vs bob (black)\n",
			Result{Commands: []Command{b2b3}, Message: "Nice move, bob!"}},
		{"Outlook: top-posted, the old mail below its header block",
			"Good luck!\r\nb2-b3\r\n\r\n________________________________\r\nFrom: Congo <congo@example.org>\r\nSent: Saturday, March 1, 2025 12:00 PM\r\nb6-b5\r\n",
			Result{Commands: []Command{b2b3}, Message: "Good luck!"}},
		{"Apple Mail: a greeting, a move and a sign-off",
			"Hi Bob,\n\nb2-b3\n\nCheers,\nAlice\n\nSent from my iPhone\n\n> On 1 Mar 2025, at 12:00, Congo <congo@example.org> wrote:",
			Result{Commands: []Command{b2b3}, Message: "Hi Bob,\n\nCheers,\nAlice"}},
		{"Thunderbird: the message below the move, and a signature",
			"c3xd4\nWell, that was unexpected.\n\n-- \nAlice Smith\nresign\n",
			Result{Commands: []Command{move("c3xd4", "c3xd4")}, Message: "Well, that was unexpected."}},
		{"mutt: a message only",
			"Good luck!\n\nOn Sat, Mar 01, 2025 at 12:00:00PM +0100, Congo wrote:\n> Game 42\n",
			Result{Message: "Good luck!"}},
		{"Czech Seznam: a message in Czech",
			"Dobrý tah!\n\nc3xd4!?\n\nS pozdravem\nPetr\n",
			Result{Commands: []Command{move("c3xd4!?", "c3xd4")}, Message: "Dobrý tah!\n\nS pozdravem\nPetr"}},
		{"Japanese IME: a greeting in Japanese, a full-width move",
			"よろしくお願いします。\n\nｂ２－ｂ３\n",
			Result{Commands: []Command{move("ｂ２－ｂ３", "b2-b3")}, Message: "よろしくお願いします。"}},
		{"the message is not normalised",
			"ｇｏｏｄ　ｌｕｃｋ\u3000!\nb2-b3\n\u00a0 Ça va\u00a0?\n",
			Result{Commands: []Command{b2b3}, Message: "ｇｏｏｄ　ｌｕｃｋ\u3000!\n\u00a0 Ça va\u00a0?"}},
		{"paragraphs: runs of blank lines are one, none at the ends, trailing spaces cut",
			"\n\n  \nFirst line.   \n  indented\t\n\n\n \n\nSecond paragraph.\n\nb2-b3\n\n\n",
			Result{Commands: []Command{b2b3}, Message: "First line.\n  indented\n\nSecond paragraph."}},
		{"CR and CRLF line ends",
			"one\r\ntwo\rthree\r\n\r\nfour",
			Result{Message: "one\ntwo\nthree\n\nfour"}},
		{"lines of punctuation are part of the message",
			"b2-b3\n:-)\n***\n",
			Result{Commands: []Command{b2b3}, Message: ":-)\n***"}},
		{"a rule above a header block is not",
			"Thanks!\n\n________________________________\nFrom: Bob\n",
			Result{Message: "Thanks!"}},
		{"a move inside words with a command: the line is message",
			"resign\nI should have played c3xd4.\n",
			Result{Commands: []Command{{Kind: Resign, Line: "resign", Game: 42}}, Message: "I should have played c3xd4."}},
		{"chat words that start like commands are not",
			"Draw? Never!\nResign? Not yet.\nmove-by-move\nb2-b3\n",
			Result{Commands: []Command{b2b3}, Message: "Draw? Never!\nResign? Not yet.\nmove-by-move"}},
		{"a line starting with a command word is a command, and may be wrong",
			"Help me understand the river.\nb2-b3\n",
			Result{Commands: []Command{b2b3}, Errors: []Error{errAt("Help me understand the river.", ExtraWords)}}},
		{"no move, a bad move, a typo: message",
			"h2-h3\ne4\nmvoe congo 42 a2-a9\n",
			Result{Message: "h2-h3\ne4\nmvoe congo 42 a2-a9"}},
		{"a bad move number after a move alone is an error",
			"b2-b3#x\nsorry\n",
			Result{Errors: []Error{errAt("b2-b3#x", BadMoveNumber)}, Message: "sorry"}},
		{"commands of other games, and the message",
			"move congo 7 c3xd4\nThanks for both games!\nresign congo 8\n",
			Result{Commands: []Command{
				{Kind: Move, Line: "move congo 7 c3xd4", Game: 7, Args: MoveArgs{Move: "c3xd4"}},
				{Kind: Resign, Line: "resign congo 8", Game: 8},
			}, Message: "Thanks for both games!"}},
	}
	for _, tt := range tests {
		got := Parse(gameSubject, tt.body, Context{})
		checkResult(t, fmt.Sprintf("%s: Parse(%q)", tt.name, tt.body), got, tt.want)
		got = Parse("Re: your move", tt.body, Context{Game: 42})
		checkResult(t, fmt.Sprintf("%s: Parse(%q, game 42)", tt.name, tt.body), got, tt.want)
	}
}

// TestParseMessageNoGame checks that in a mail about no game nothing
// changes: the lines that are no command are errors, and there is no
// message.
func TestParseMessageNoGame(t *testing.T) {
	t.Parallel()
	body := "Hi,\n\nmove congo 42 b2-b3\n\nThanks!\n"
	want := Result{
		Commands: []Command{{Kind: Move, Line: "move congo 42 b2-b3", Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
		Errors:   []Error{errAt("Hi,", UnknownCommand), errAt("Thanks!", UnknownCommand)},
	}
	checkResult(t, fmt.Sprintf("Parse(%q)", body), Parse("Hello", body, Context{}), want)
}

// TestParseMessageLimits checks that a message is at most 200 lines and
// 16 KiB, and that one Error says where it was cut.
func TestParseMessageLimits(t *testing.T) {
	t.Parallel()
	lines := func(line string, n int) string { return strings.Repeat(line+"\n", n) }
	long := strings.Repeat("x", 1<<20)
	kib := strings.Repeat("y", 1<<10)
	tests := []struct {
		name, body string
		want       Result
	}{
		{"200 lines", lines("hello", maxLines), Result{Message: strings.TrimSpace(lines("hello", maxLines))}},
		{"201 lines", lines("hello", maxLines+1), Result{
			Message: strings.TrimSpace(lines("hello", maxLines)),
			Errors:  []Error{errAt("hello", Ignored)},
		}},
		{"a move after 200 lines is not read", lines("hello", maxLines) + "b2-b3", Result{
			Message: strings.TrimSpace(lines("hello", maxLines)),
			Errors:  []Error{errAt("b2-b3", Ignored)},
		}},
		{"16 KiB", "b2-b3\n" + lines(kib, 15) + strings.Repeat("z", 1<<10-16), Result{
			Commands: []Command{{Kind: Move, Line: "b2-b3", Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
			Message:  lines(kib, 15) + strings.Repeat("z", 1<<10-16),
		}},
		{"over 16 KiB", "b2-b3\n" + lines(kib, 16) + "resign", Result{
			Commands: []Command{{Kind: Move, Line: "b2-b3", Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
			Message:  strings.TrimSpace(lines(kib, 15)),
			Errors:   []Error{errAt(kib[:maxLineLen]+"...", Ignored)},
		}},
		{"a long line", "b2-b3\nhello\n" + long, Result{
			Commands: []Command{{Kind: Move, Line: "b2-b3", Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
			Message:  "hello",
			Errors:   []Error{errAt(long[:maxLineLen]+"...", Ignored)},
		}},
		{"a long command line is an error", "resign " + long, Result{
			Errors: []Error{errAt("resign "+long[:maxLineLen-len("resign ")]+"...", LongLine)},
		}},
	}
	for _, tt := range tests {
		got := Parse(gameSubject, tt.body, Context{})
		checkResult(t, fmt.Sprintf("%s: Parse(%.60q)", tt.name, tt.body), got, tt.want)
	}
}

// TestParseSubjectMessage checks that with the command in the Subject the
// body is the message, as the comment was, in a mail about a game or not.
func TestParseSubjectMessage(t *testing.T) {
	t.Parallel()
	for _, ctx := range []Context{{}, {Game: 42}} {
		body := "Good luck!\n\n\n  Alice\n\n-- \nAlice Smith"
		got := Parse("Re: move congo 42 b2-b3", body, ctx)
		want := Result{
			Commands:    []Command{{Kind: Move, Line: "move congo 42 b2-b3", Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
			Message:     "Good luck!\n\n\n  Alice",
			FromSubject: true,
		}
		checkResult(t, fmt.Sprintf("Parse(%q, game %d)", body, ctx.Game), got, want)
	}
}

// TestStopAtOwnLines checks M21: reading stops at a line that repeats a
// fixed line of the server's own mails, so that a mail of ours pasted
// below a move without quote marks is not read.
func TestStopAtOwnLines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, pasted string
	}{
		{"a rank, from White's side", "7  g m|e l e|c z  7\nresign"},
		{"a rank with spaces lost", "3 . P|. . .|. . 3\nresign"},
		{"the river", "4  ~ ~ ~ ~ ~ ~ ~  4  river\nresign"},
		{"a rank, from Black's side", "1  Z C|E L E|M G  1\nresign"},
		{"the files", "   a b c d e f g\nresign"},
		{"the files, from Black's side", "   g f e d c b a\nresign"},
		{"the position", "Position: gmelecz/ppppppp/7/7/7/1P5/P1PPPPP/GMELECZ b 1\nresign"},
		{"the footer", "Reply to this mail to play: write your commands in the body, one per\nresign"},
		{"a board mail's first line", "Game 42: alice (white, 1532) vs bob (black, 1468)\nresign"},
		{"a challenge's first line", "alice challenges you to a game of Congo: game 42.\n\n  decline congo 42"},
		{"a digest's first line", "Your daily Congo digest, bob: it is your move in these games.\nresign"},
		{"the manual's first line", "CONGO BY MAIL\nresign"},
		{"the rules' first line", "THE RULES OF CONGO\nresign"},
		{"the welcome's first line", "Welcome to Congo, alice!\n\n  challenge congo robot"},
		{"the welcome again", "This address is registered already, as alice.\n\n  challenge congo robot"},
		{"a new tournament", "Tournament 3: Spring Cup\n\n  join tournament 3"},
		{"the tournaments", "Open for joining:\n\n  3. Spring Cup: a Swiss\n      join tournament 3"},
	}
	for _, tt := range tests {
		body := "b2-b3\nThanks!\n" + tt.pasted
		want := Result{Commands: []Command{{Kind: Move, Line: "b2-b3", Game: 42, Args: MoveArgs{Move: "b2-b3"}}}, Message: "Thanks!"}
		checkResult(t, fmt.Sprintf("%s: Parse(%q)", tt.name, body), Parse(gameSubject, body, Context{}), want)
	}
	// Lines like them that are not ours are read.
	for _, line := range []string{"7 pawns left", "1 . 2 . 3 1", "a b c", "Game 42: good fun", "Reply to this mail soon", "Tournament games: fun"} {
		body := "b2-b3\n" + line
		got := Parse(gameSubject, body, Context{})
		if got.Message != line {
			t.Errorf("Parse(%q) message = %q, want %q", body, got.Message, line)
		}
	}
}

// TestPastedMails pastes each of the server's mails (templates/testdata)
// without quote marks below a move, as some mail programs do when a
// reply is forwarded or edited: nothing of it may be read as a command,
// and of a mail about a game nothing is read at all.
func TestPastedMails(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../templates/testdata/*.golden")
	if err != nil || len(files) == 0 {
		t.Fatalf("no mails in ../templates/testdata: %v", err)
	}
	for _, f := range files {
		if strings.Contains(f, "html") || strings.Contains(f, "registered") || strings.Contains(f, "how_to_register") || strings.Contains(f, "unproven") {
			continue // HTML, or a mail to an address that plays no game
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		_, mail, _ := strings.Cut(string(data), "\n\n") // the body, below the Subject
		for _, c := range []struct{ client, body string }{
			{"pasted as is", "b2-b3\nThanks!\n\n" + mail},
			{"pasted by a client that trims lines", "b2-b3\nThanks!\n\n" + trimLines(mail)},
			{"pasted with CRLF", strings.ReplaceAll("b2-b3\nThanks!\n\n"+mail, "\n", "\r\n")},
		} {
			got := Parse(gameSubject, c.body, Context{})
			call := fmt.Sprintf("%s, %s: Parse(%.80q)", filepath.Base(f), c.client, c.body)
			if len(got.Commands) != 1 || got.Commands[0].Args != (MoveArgs{Move: "b2-b3"}) || len(got.Errors) != 0 {
				t.Errorf("%s = %+v, want the move b2-b3 alone", call, got)
			}
			about := strings.HasPrefix(mail, "Game ") || strings.Contains(mail, "challenges you to a game") ||
				strings.HasPrefix(mail, "Your daily Congo digest")
			if about && got.Message != "Thanks!" {
				t.Errorf("%s message = %q, want %q", call, got.Message, "Thanks!")
			}
		}
	}
}

// trimLines trims every line of s, as some clients do when they paste.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return strings.Join(lines, "\n")
}

// TestQuotedHeaders checks M21: the quoted header blocks and attribution
// lines that mail programs write above an old mail, in other languages,
// end what is read.
func TestQuotedHeaders(t *testing.T) {
	t.Parallel()
	tests := []struct {
		client, quote string
	}{
		{"Outlook, English", "From: Congo <congo@example.org>\nSent: Saturday, March 1, 2025 12:00\nTo: bob"},
		{"Outlook, German", "Von: Congo <congo@example.org>\nGesendet: Samstag, 1. März 2025 12:00"},
		{"Outlook, French", "De : Congo <congo@example.org>\nEnvoyé : samedi 1 mars 2025 12:00"},
		{"Outlook, Spanish", "De: Congo <congo@example.org>\nEnviado: sábado, 1 de marzo de 2025 12:00"},
		{"Outlook, Portuguese", "De: Congo\nEnviada em: sábado, 1 de março de 2025 12:00"},
		{"Outlook, Italian", "Da: Congo <congo@example.org>\nInviato: sabato 1 marzo 2025 12:00"},
		{"Outlook, Italian, no address", "Da: Congo\nInviato: sabato 1 marzo 2025 12:00"},
		{"Outlook, Dutch", "Van: Congo <congo@example.org>\nVerzonden: zaterdag 1 maart 2025 12:00"},
		{"Outlook, Swedish", "Från: Congo <congo@example.org>\nSkickat: den 1 mars 2025 12:00"},
		{"Outlook, Norwegian", "Fra: Congo\nSendt: lørdag 1. mars 2025 12:00"},
		{"Outlook, Danish", "Fra: Congo <congo@example.org>\nSendt: 1. marts 2025 12:00"},
		{"Outlook, Czech", "Od: Congo <congo@example.org>\nOdesláno: sobota 1. března 2025 12:00\nKomu: bob"},
		{"Outlook, Polish", "Od: Congo\nWysłano: sobota, 1 marca 2025 12:00"},
		{"Outlook, Finnish", "Lähettäjä: Congo <congo@example.org>\nLähetetty: lauantai 1. maaliskuuta 2025 12.00"},
		{"Outlook, Japanese", "差出人: Congo <congo@example.org>\n送信日時: 2025年3月1日 12:00\n宛先: bob"},
		{"Outlook, Japanese, full-width colon", "差出人： Congo\n送信日時： 2025年3月1日 12:00"},
		{"a Japanese client", "送信者: Congo <congo@example.org>\n日付: 2025/03/01 12:00"},
		{"Outlook, Japanese, after a rule", "________________________________\n差出人: Congo\n送信日時: 2025年3月1日"},
		{"Czech Seznam", "---------- Původní e-mail ----------\nOd: Congo <congo@example.org>\nKomu: bob"},
		{"Czech Thunderbird", "Dne 01. 03. 25 v 12:00 Congo napsal(a):"},
		{"Czech Outlook.com", "Congo <congo@example.org> napsal(a):"},
		{"Czech Gmail", "so 1. 3. 2025 v 12:00 odesílatel Congo <congo@example.org> napsal:"},
		{"Czech Gmail, split", "so 1. 3. 2025 v 12:00 odesílatel Congo <\ncongo@example.org> napsal:"},
		{"Czech, split after Dne", "Dne 01.03.2025 v 12:00 Congo\n<congo@example.org> napsal(a):"},
		{"Polish Thunderbird", "W dniu 1.03.2025 o 12:00, Congo pisze <congo@example.org> napisał(a):"},
		{"Japanese Gmail", "2025年3月1日(土) 12:00 Congo <congo@example.org>:"},
		{"Japanese Gmail, full-width", "２０２５年３月１日（土） １２：００ Congo <congo@example.org>："},
		{"Japanese Gmail, split", "2025年3月1日(土) 12:00 Congo <\ncongo@example.org>:"},
		{"Japanese Thunderbird", "2025/03/01 12:00 に Congo さんは書きました:"},
		{"Japanese Outlook", "2025/03/01 12:00、Congo のメッセージ:"},
		{"Japanese Apple Mail", "2025/03/01 12:00、Congo <congo@example.org>のメール："},
		{"Gmail, Italian", "Il giorno sab 1 mar 2025 alle ore 12:00 Congo <congo@example.org> ha scritto:"},
		{"Gmail, Dutch", "Op za 1 mrt 2025 om 12:00 schreef Congo <congo@example.org>:"},
		{"Gmail, Swedish", "Den lör 1 mars 2025 kl 12:00 skrev Congo <congo@example.org>:"},
		{"Gmail, Spanish", "El sáb, 1 mar 2025 a las 12:00, Congo (<congo@example.org>) escribió:"},
		{"Gmail, Portuguese", "Em sáb., 1 de mar. de 2025 às 12:00, Congo <congo@example.org> escreveu:"},
		{"iPhone, Japanese", "iPhoneから送信"},
		{"iPhone, Czech", "Odesláno z iPhonu"},
	}
	for _, tt := range tests {
		body := "b2-b3\nDobrý tah!\n\n" + tt.quote + "\nresign\n\nb6-b5\n"
		want := Result{Commands: []Command{{Kind: Move, Line: "b2-b3", Game: 42, Args: MoveArgs{Move: "b2-b3"}}}, Message: "Dobrý tah!"}
		checkResult(t, fmt.Sprintf("%s: Parse(%q)", tt.client, body), Parse(gameSubject, body, Context{}), want)
	}
}

// TestHeaderWordsInProse checks that the short header words of other
// languages do not end the reading when they start a sentence.
func TestHeaderWordsInProse(t *testing.T) {
	t.Parallel()
	for _, line := range []string{"Da: ich bin wieder.", "Od: tohle je otázka", "Van: a car", "Fra: brother"} {
		body := "Hi\n\n" + line + "\nb2-b3"
		got := Parse(gameSubject, body, Context{})
		if len(got.Commands) != 1 || got.Message != "Hi\n\n"+line {
			t.Errorf("Parse(%q) = %+v, want the move and the message %q", body, got, "Hi\n\n"+line)
		}
	}
}
