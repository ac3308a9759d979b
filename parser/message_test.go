package parser

import (
	"fmt"
	"strings"
	"testing"
)

// TestParseMessage checks M19: in a mail about a game, the lines that
// are no command are the sender's message to the opponent, never errors.
func TestParseMessage(t *testing.T) {
	move := func(line, m string) Command { return Command{Kind: Move, Line: line, Game: 42, Move: m} }
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
				{Kind: Move, Line: "move congo 7 c3xd4", Game: 7, Move: "c3xd4"},
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
	body := "Hi,\n\nmove congo 42 b2-b3\n\nThanks!\n"
	want := Result{
		Commands: []Command{{Kind: Move, Line: "move congo 42 b2-b3", Game: 42, Move: "b2-b3"}},
		Errors:   []Error{errAt("Hi,", UnknownCommand), errAt("Thanks!", UnknownCommand)},
	}
	checkResult(t, fmt.Sprintf("Parse(%q)", body), Parse("Hello", body, Context{}), want)
}

// TestParseMessageLimits checks that a message is at most 200 lines and
// 16 KiB, and that one Error says where it was cut.
func TestParseMessageLimits(t *testing.T) {
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
			Commands: []Command{{Kind: Move, Line: "b2-b3", Game: 42, Move: "b2-b3"}},
			Message:  lines(kib, 15) + strings.Repeat("z", 1<<10-16),
		}},
		{"over 16 KiB", "b2-b3\n" + lines(kib, 16) + "resign", Result{
			Commands: []Command{{Kind: Move, Line: "b2-b3", Game: 42, Move: "b2-b3"}},
			Message:  strings.TrimSpace(lines(kib, 15)),
			Errors:   []Error{errAt(kib[:maxLineLen]+"...", Ignored)},
		}},
		{"a long line", "b2-b3\nhello\n" + long, Result{
			Commands: []Command{{Kind: Move, Line: "b2-b3", Game: 42, Move: "b2-b3"}},
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
	for _, ctx := range []Context{{}, {Game: 42}} {
		body := "Good luck!\n\n\n  Alice\n\n-- \nAlice Smith"
		got := Parse("Re: move congo 42 b2-b3", body, ctx)
		want := Result{
			Commands:    []Command{{Kind: Move, Line: "move congo 42 b2-b3", Game: 42, Move: "b2-b3"}},
			Message:     "Good luck!\n\n\n  Alice",
			FromSubject: true,
		}
		checkResult(t, fmt.Sprintf("Parse(%q, game %d)", body, ctx.Game), got, want)
	}
}
