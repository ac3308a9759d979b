package parser

import (
	"fmt"
	"strings"
	"testing"
)

// gameSubject is the Subject of a reply to one of the server's mails
// about game 42.
const gameSubject = "Re: Congo game 42: alice vs bob - bob to move"

// TestMoveAlone checks M20: a move alone on its line may carry what
// people add to it, in a reply about game 42.
func TestMoveAlone(t *testing.T) {
	t.Parallel()
	tests := []struct {
		client, line string
		move         string
		n            int // the #N guard
	}{
		{"any", "b2-b3.", "b2-b3", 0},
		{"any", "b2-b3,", "b2-b3", 0},
		{"any", "b2-b3;", "b2-b3", 0},
		{"any", "b2-b3!", "b2-b3", 0},
		{"any", "c3xd4?", "c3xd4", 0},
		{"a player who annotates", "c3xd4!!", "c3xd4", 0},
		{"a player who annotates", "c3xd4!?", "c3xd4", 0},
		{"a player who annotates", "c3xd4?!", "c3xd4", 0},
		{"a player who annotates", "c3xd4??", "c3xd4", 0},
		{"a player who annotates", "b2-b3 !", "b2-b3", 0},
		{"Japanese IME", "b2-b3。", "b2-b3", 0},
		{"Japanese IME", "b2-b3、", "b2-b3", 0},
		{"Japanese IME, full-width marks", "b2-b3！？", "b2-b3", 0},
		{"any", `"b2-b3"`, "b2-b3", 0},
		{"any", "'b2-b3'", "b2-b3", 0},
		{"any", "(b2-b3)", "b2-b3", 0},
		{"any", "[b2-b3]", "b2-b3", 0},
		{"any", "( b2-b3 )", "b2-b3", 0},
		{"French", "«b2-b3»", "b2-b3", 0},
		{"French, spaced", "« b2-b3 »", "b2-b3", 0},
		{"Japanese IME", "「b2-b3」", "b2-b3", 0},
		{"Japanese IME", "『b2-b3』", "b2-b3", 0},
		{"Japanese IME, full-width parentheses", "（ｂ２－ｂ３）", "b2-b3", 0},
		{"Apple Mail, smart quotes", "\u201cb2-b3\u201d", "b2-b3", 0},
		{"Apple Mail, smart single quotes", "\u2018b2-b3\u2019", "b2-b3", 0},
		{"Czech and German quotes", "\u201eb2-b3\u201c", "b2-b3", 0},
		{"Gmail, bold as plain text", "*b2-b3*", "b2-b3", 0},
		{"any", "move b2-b3", "b2-b3", 0},
		{"squares alone, as R20 reads them", "B2 B3", "B2 B3", 0},
		{"any", "Move: b2-b3", "b2-b3", 0},
		{"any", "MOVE: b2-b3", "b2-b3", 0},
		{"any", "Move:b2-b3", "b2-b3", 0},
		{"any", "my move: b2-b3", "b2-b3", 0},
		{"any", "My move: c3xd4", "c3xd4", 0},
		{"any", "I play b2-b3", "b2-b3", 0},
		{"any", "i play b2-b3", "b2-b3", 0},
		{"any", "I PLAY: b2-b3", "b2-b3", 0},
		{"nested", `Move: "b2-b3".`, "b2-b3", 0},
		{"nested", "my move: (b2-b3)!", "b2-b3", 0},
		{"nested", `"I play b2-b3!"`, "b2-b3", 0},
		{"nested", "Move 「ｂ２－ｂ３」。", "b2-b3", 0},
		{"with the guard (M1)", "b2-b3#2.", "b2-b3", 2},
		{"with the guard (M1)", "b2-b3 #2!", "b2-b3", 2},
		{"with the guard (M1)", "b2-b3! #2", "b2-b3", 2},
		{"with the guard (M1)", `"b2-b3" #2`, "b2-b3", 2},
		{"with the guard (M1)", "I play b2-b3 #2", "b2-b3", 2},
		{"with the guard (M1)", "Move: b2-b3#2", "b2-b3", 2},
		{"with the game word", "congo b2-b3!", "b2-b3", 0},
		{"move command", "move congo 42 b2-b3.", "b2-b3", 0},
		{"move command", `move "b2-b3"`, "b2-b3", 0},
		{"move command", "move (c3xd4)!", "c3xd4", 0},
	}
	for _, tt := range tests {
		got := Parse(gameSubject, tt.line, Context{})
		want := Result{Commands: []Command{{Kind: Move, Line: tt.line, Game: 42, Args: MoveArgs{Move: tt.move, Number: tt.n}}}}
		checkResult(t, fmt.Sprintf("%s: Parse(%q)", tt.client, tt.line), got, want)
	}
}

// TestFullWidth checks M21: lines are read after NFKC, so that the
// full-width letters, digits, signs and spaces of an input method, and
// the dashes mail programs make, read as ASCII.
func TestFullWidth(t *testing.T) {
	t.Parallel()
	tests := []struct {
		client, line string
		game         int64 // Context.Game
		want         Command
	}{
		{"Japanese IME", "ｂ２－ｂ３", 42, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
		{"Japanese IME", "Ｂ２－Ｂ３", 42, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "B2-B3"}}},
		{"Japanese IME", "ｃ３ｘｄ４", 42, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "c3xd4"}}},
		{"Japanese IME", "ｍｏｖｅ　ｃｏｎｇｏ　４２　ｂ２－ｂ３", 0, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
		{"Japanese IME", "ｍｏｖｅ　ｃｏｎｇｏ　４２　ｂ２－ｂ３　＃３", 0, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3", Number: 3}}},
		{"Japanese IME", "ｒｅｓｉｇｎ", 42, Command{Kind: Resign, Game: 42}},
		{"Japanese IME", "ａｃｃｅｐｔ　ｃｏｎｇｏ　＃７", 0, Command{Kind: Accept, Game: 7}},
		{"Japanese IME, ideographic spaces", "move\u3000congo\u300042\u3000b2-b3", 0, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
		{"Japanese IME, katakana long mark", "b2ーb3", 42, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
		{"Japanese IME, half-width long mark", "b2ｰb3", 42, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
		{"Japanese IME, long mark in a chain", "b1ーd3ーf5", 42, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b1-d3-f5"}}},
		{"Japanese IME, full-width x", "c3ｘd4", 42, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "c3xd4"}}},
		{"Word, en dash", "b2\u2013b3", 42, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
		{"Word, em dash", "b2\u2014b3", 42, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
		{"Apple Mail, hyphen", "b2\u2010b3", 42, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
		{"non-breaking hyphen", "b2\u2011b3", 42, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
		{"figure dash", "b2\u2012b3", 42, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
		{"horizontal bar", "b2\u2015b3", 42, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
		{"minus sign", "b2\u2212b3", 42, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
		{"multiplication sign", "c3\u00d7d4", 42, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "c3xd4"}}},
		{"an if line", "ｉｆ　ｃ６－ｃ５　ｔｈｅｎ　ｂ２ーｂ３", 42, Command{Kind: If, Game: 42, Args: IfArgs{Moves: []string{"c6-c5", "b2-b3"}}}},
		{"a handle", "ｃｈａｌｌｅｎｇｅ　ｃｏｎｇｏ　ｂｏｂ　ｂｌａｃｋ", 0, Command{Kind: Challenge, Args: ChallengeArgs{Handle: "bob", Color: 1}}},
	}
	for _, tt := range tests {
		got := Parse("", tt.line, Context{Game: tt.game})
		want := tt.want
		want.Line = tt.line
		checkResult(t, fmt.Sprintf("%s: Parse(%q, game %d)", tt.client, tt.line, tt.game), got, Result{Commands: []Command{want}})
	}
	// The long mark is a dash only between two squares.
	for _, line := range []string{"ーb2-b3", "b2-b3ー", "ボード"} {
		if got := Parse(gameSubject, line, Context{}); len(got.Commands) != 0 {
			t.Errorf("Parse(%q) = %+v, want no command", line, got)
		}
	}
}

// TestEmbeddedMove checks M20: a line in which a move stands inside other
// words is no move, and a mail about a game whose only move is such a
// line plays nothing and relays nothing: it is answered with how to
// write that move.
func TestEmbeddedMove(t *testing.T) {
	t.Parallel()
	tests := []struct {
		client, body string
		line         string // the line of the Error
		move         string // how to write it, canonically
	}{
		{"Gmail", "I think b2-b3 is best", "I think b2-b3 is best", "b2-b3"},
		{"Gmail", "what about c3xd4?", "what about c3xd4?", "c3xd4"},
		{"Outlook", "Hi Bob,\n\nMy move is b2-b3.\n\nAlice", "My move is b2-b3.", "b2-b3"},
		{"Apple Mail", "Let's go: B2XB3!\n\nSent from my iPhone", "Let's go: B2XB3!", "b2xb3"},
		{"Thunderbird", "1. b2-b3 c6-c5", "1. b2-b3 c6-c5", "b2-b3"},
		{"Thunderbird", "b2-b3 please", "b2-b3 please", "b2-b3"},
		{"a spaced move", "I'd say b2 - b3 here", "I'd say b2 - b3 here", "b2-b3"},
		{"a monkey's chain", "then b1xd3xf5 wins", "then b1xd3xf5 wins", "b1xd3xf5"},
		{"MindSports' final x", "try d2-e3x now", "try d2-e3x now", "d2-e3x"},
		{"Japanese IME", "b2-b3を指します。", "b2-b3を指します。", "b2-b3"},
		{"Japanese IME, full-width", "ｂ２－ｂ３でお願いします", "ｂ２－ｂ３でお願いします", "b2-b3"},
		{"Japanese IME, long mark", "次はb2ーb3です", "次はb2ーb3です", "b2-b3"},
		{"Czech Seznam", "Hraju c3×d4, dobrý?", "Hraju c3×d4, dobrý?", "c3xd4"},
		{"a move written another way, alone", "b2->b3", "b2->b3", "b2-b3"},
		{"a move written another way, alone", "b2 to b3", "b2 to b3", "b2-b3"},
		{"a move written another way, alone", "I play c3:d4", "I play c3:d4", "c3xd4"},
		{"the first of two", "b2-b3 or c3xd4?\nor maybe d2-d3", "b2-b3 or c3xd4?", "b2-b3"},
		{"after a message", "Good luck!\n\nI'll try c3-c4 then", "I'll try c3-c4 then", "c3-c4"},
	}
	for _, tt := range tests {
		got := Parse(gameSubject, tt.body, Context{})
		call := fmt.Sprintf("%s: Parse(%q)", tt.client, tt.body)
		if len(got.Errors) == 1 && !strings.HasSuffix(got.Errors[0].Reason, "reply with just: "+tt.move) {
			t.Errorf("%s reason = %q, want it to show how to write %s", call, got.Errors[0].Reason, tt.move)
		}
		checkResult(t, call, got, Result{Errors: []Error{errAt(tt.line, EmbeddedMove)}})
	}
}

// TestNoEmbeddedMove checks lines that hold no move-shaped token, and
// mails with a command beside one: their lines are message.
func TestNoEmbeddedMove(t *testing.T) {
	t.Parallel()
	for _, body := range []string{
		"See you on 2025-03-01!",
		"My phone is 555-1234",
		"e4 is not a square here",
		"a1b2c3d4 is my password",
		"ab2-b3c",
		"x2-b3",
		"b2-b9 was a typo",
		"Call me at h2-h3",
	} {
		got := Parse(gameSubject, body, Context{})
		checkResult(t, fmt.Sprintf("Parse(%q)", body), got, Result{Message: body})
	}
	// A command beside the line: it is message, as M19 says.
	body := "I think c3xd4 is best, but\nb2-b3"
	got := Parse(gameSubject, body, Context{})
	want := Result{Commands: []Command{{Kind: Move, Line: "b2-b3", Game: 42, Args: MoveArgs{Move: "b2-b3"}}}, Message: "I think c3xd4 is best, but"}
	checkResult(t, fmt.Sprintf("Parse(%q)", body), got, want)
	// A failed command beside it too: it is a command all the same.
	body = "I think c3xd4 is best\nresign congo x"
	got = Parse(gameSubject, body, Context{})
	want = Result{Errors: []Error{errAt("resign congo x", BadGame)}, Message: "I think c3xd4 is best"}
	checkResult(t, fmt.Sprintf("Parse(%q)", body), got, want)
	// In a mail about no game, the line is an error as before.
	body = "I think c3xd4 is best"
	got = Parse("", body, Context{})
	checkResult(t, fmt.Sprintf("Parse(%q)", body), got, Result{Errors: []Error{errAt(body, UnknownCommand)}})
}

// TestBadMoveHint checks that the hint for a bad move shows how to write
// that move when it can be guessed.
func TestBadMoveHint(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line, want string // want: the end of the Reason
	}{
		{"move congo 42 d2->e3", "write it as d2-e3"},
		{"move congo 42 D2 -> E3", "write it as d2-e3"},
		{"move congo 42 d2 to e3", "write it as d2-e3"},
		{"move congo 42 d2 TO e3", "write it as d2-e3"},
		{"move congo 42 d2=>e3", "write it as d2-e3"},
		{"move congo 42 d2→e3", "write it as d2-e3"},
		{"move congo 42 c3:d4", "write it as c3xd4"},
		{"move congo 42 c3*d4", "write it as c3xd4"},
		{"move congo 42 b1:d3:f5", "write it as b1xd3xf5"},
		{"move congo 42 d2~e3", "write it as d2-e3"},
		{"move congo 42 xyz", "write it as b2-b3"},
		{"move congo 42 e4", "write it as b2-b3"},
		{"move congo 42 b2-b9", "write it as b2-b3"},
		{"move congo 42 d2-e3 please", "write it as b2-b3"},
		{"d2->e3", "write it as d2-e3"},
		{"c3:d4!", "write it as c3xd4"},
		{"congo d2 to e3", "write it as d2-e3"},
	}
	for _, tt := range tests {
		got := Parse("", tt.line, Context{})
		if len(got.Errors) != 1 || got.Errors[0].Problem != BadMove || !strings.HasSuffix(got.Errors[0].Reason, tt.want) {
			t.Errorf("Parse(%q) = %+v, want a bad move whose reason ends %q", tt.line, got, tt.want)
		}
	}
}

func TestMoveHint(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text, want string // want "" for no guess
	}{
		{"b2b3", "b2-b3"},
		{"B2 B3", "b2-b3"},
		{"b2->b3", "b2-b3"},
		{"b2 to b3", "b2-b3"},
		{"b2\u2013b3", "b2-b3"},
		{"c3:d4", "c3xd4"},
		{"c3*d4", "c3xd4"},
		{"C3XD4", "c3xd4"},
		{"c3 x d4", "c3xd4"},
		{"c3\u00d7d4", "c3xd4"},
		{"b1xd3xf5", "b1xd3xf5"},
		{"d2-e3x", "d2-e3x"},
		{"b2ーb3", "b2-b3"},
		{"", ""},
		{"b2", ""},
		{"xyz", ""},
		{"b2-b9", ""},
		{"b2 to", ""},
		{"to b3", ""},
	}
	for _, tt := range tests {
		got, ok := moveHint(tt.text)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("moveHint(%q) = %q, %v, want %q", tt.text, got, ok, tt.want)
		}
	}
}

// TestDigest checks M24: in a reply to a digest, a line "<id>: <move>",
// "<id> <move>" or "game <id> <move>" plays in game <id> when the digest
// listed it.
func TestDigest(t *testing.T) {
	t.Parallel()
	move := func(line string, game int64, m string, n int) Command {
		return Command{Kind: Move, Line: line, Game: game, Args: MoveArgs{Move: m, Number: n}}
	}
	several := Context{Digest: []int64{12, 13}}
	one := Context{Game: 12, Digest: []int64{12}} // as the server sets it for one game
	tests := []struct {
		name, body string
		ctx        Context
		want       Result
	}{
		{"Gmail: one line per game", "12: b2-b3\n13: c3xd4\n", several, Result{Commands: []Command{
			move("12: b2-b3", 12, "b2-b3", 0), move("13: c3xd4", 13, "c3xd4", 0)}}},
		{"without the colon", "12 b2-b3\n13 c3xd4!", several, Result{Commands: []Command{
			move("12 b2-b3", 12, "b2-b3", 0), move("13 c3xd4!", 13, "c3xd4", 0)}}},
		{"with the word game", "game 12 b2-b3\nGame #13: c3xd4 #4\nGAME 12: (d2-d3).", several, Result{Commands: []Command{
			move("game 12 b2-b3", 12, "b2-b3", 0), move("Game #13: c3xd4 #4", 13, "c3xd4", 4), move("GAME 12: (d2-d3).", 12, "d2-d3", 0)}}},
		{"Japanese IME", "１２：ｂ２－ｂ３\n１３　ｃ３ｘｄ４。", several, Result{Commands: []Command{
			move("１２：ｂ２－ｂ３", 12, "b2-b3", 0), move("１３　ｃ３ｘｄ４。", 13, "c3xd4", 0)}}},
		{"with the guard", "12: b2-b3#2\n13: c3xd4 #x", several, Result{
			Commands: []Command{move("12: b2-b3#2", 12, "b2-b3", 2)},
			Errors:   []Error{errAt("13: c3xd4 #x", BadMoveNumber)}}},
		{"a game not in the digest", "14: b2-b3", several, Result{Errors: []Error{errAt("14: b2-b3", NotInDigest)}}},
		{"a move command names any game", "move congo 14 b2-b3", several, Result{Commands: []Command{
			{Kind: Move, Line: "move congo 14 b2-b3", Game: 14, Args: MoveArgs{Move: "b2-b3"}}}}},
		{"a bare move, several games", "b2-b3", several, Result{Errors: []Error{errAt("b2-b3", MissingGame)}}},
		{"a bad move", "12: b2-b9", several, Result{Errors: []Error{errAt("12: b2-b9", BadMove)}}},
		{"several games: no message", "12: b2-b3\nThanks!", several, Result{
			Commands: []Command{move("12: b2-b3", 12, "b2-b3", 0)},
			Errors:   []Error{errAt("Thanks!", UnknownCommand)}}},
		{"one game: a bare move", "b2-b3", one, Result{Commands: []Command{move("b2-b3", 12, "b2-b3", 0)}}},
		{"one game: its line", "12: b2-b3\nGood luck!", one, Result{
			Commands: []Command{move("12: b2-b3", 12, "b2-b3", 0)}, Message: "Good luck!"}},
		{"one game: another game", "13: b2-b3", one, Result{Errors: []Error{errAt("13: b2-b3", NotInDigest)}}},
		{"one game: a bad move is message", "12: b2-b9", one, Result{Message: "12: b2-b9"}},
		{"not a digest reply", "12: b2-b3", Context{Game: 42}, Result{Errors: []Error{errAt("12: b2-b3", EmbeddedMove)}}},
		{"not a digest reply, no game", "12: b2-b3", Context{}, Result{Errors: []Error{errAt("12: b2-b3", UnknownCommand)}}},
		{"the digest pasted below", "12: b2-b3\n\nYour daily Congo digest, bob: it is your move in these games.\n\nGame 13: alice (white) vs bob (black)\n13: c3xd4", several,
			Result{Commands: []Command{move("12: b2-b3", 12, "b2-b3", 0)}}},
	}
	for _, tt := range tests {
		got := Parse("Re: Congo: your move in 2 games", tt.body, tt.ctx)
		checkResult(t, fmt.Sprintf("%s: Parse(%q, %+v)", tt.name, tt.body, tt.ctx), got, tt.want)
	}
}

func TestCanonical(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"b2-b3", "b2-b3"},
		{"B2XB3", "b2xb3"},
		{"b2 - b3", "b2-b3"},
		{"b2b3", "b2-b3"},
		{"a2-c4-c6x", "a2-c4-c6x"},
		{"b1 x d3 x f5", "b1xd3xf5"},
		{"b2\u2014b3", "b2-b3"},
		{"b2-b3-", "b2-b3"},
	} {
		if got := canonical(tt.in); got != tt.want {
			t.Errorf("canonical(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestCommandWithinLine checks that a line which starts with other words
// but holds a whole command is answered with how to send it: the command
// alone on a line. A command word in prose that does not make a whole
// command gets the usual answer.
func TestCommandWithinLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		body string
		want string // the command shown, or "" for the usual answer
	}{
		{"Hello! I would like to play. register alice", "register alice"},
		{"Hi, please register alice.", "register alice"},
		{"Could you send me the help?", "help"},
		{"so I say: challenge congo bob white days=3!", "challenge congo bob white days=3"},
		{"Please congo move 42 b2-b3", "congo move 42 b2-b3"},
		{"I would like to move", ""},
		{"I resign", ""}, // resign alone names no game
		{"I am new here", ""},
		{"please adjourn congo 42", ""}, // an operator's command, for a player
	}
	for _, tt := range tests {
		wantHint(t, tt.body, tt.want, "to send %q, write it on a line of its own")
	}
}

// TestMisspeltCommand checks that a command word off by one letter is
// answered with the line mended, when that reads as a whole command, and
// that other words get the usual answer.
func TestMisspeltCommand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		want string // the line mended, or "" for the usual answer
	}{
		{"mvoe congo 42 b2-b3", "move congo 42 b2-b3"},
		{"congo mvoe 42 b2-b3", "congo move 42 b2-b3"},
		{"chalenge congo bob", "challenge congo bob"},
		{"Chalenge congo bob", "challenge congo bob"},
		{"resing congo 42", "resign congo 42"},
		{"regster alice", "register alice"},
		{"ratigns", "ratings"},
		{"hepl", "help"},
		{"analize congo 7", "analyze congo 7"},
		{"Draws are rare", ""},  // "draw are rare" is no command
		{"resing", ""},          // nor is resign without its game, here
		{"hekp me", ""},         // nor "help me"
		{"Thanks", ""},          // no command word is one letter from it
		{"bna alice", ""},       // a short word is not mended
		{"adjorn congo 42", ""}, // an operator's command, for a player
	}
	for _, tt := range tests {
		wantHint(t, tt.line, tt.want, "did you mean %q?")
	}
	// The operator's misspelt command is mended for the operator.
	got := Parse("", "adjorn congo 42", Context{Operator: true})
	if len(got.Errors) != 1 || !strings.HasSuffix(got.Errors[0].Reason, `did you mean "adjourn congo 42"?`) {
		t.Errorf("Parse(adjorn congo 42) for the operator = %+v, want the line mended", got)
	}
}

func TestOneEdit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		want bool
	}{
		{"move", "mvoe", true}, {"move", "mave", true}, {"move", "moves", true}, {"move", "mve", true},
		{"move", "move", false}, {"move", "omev", false}, {"move", "mvo", false}, {"help", "hlepp", false},
		{"draw", "darw", true}, {"draw", "dawr", false}, {"čeština", "češtna", true},
	}
	for _, tt := range tests {
		if got := oneEdit(tt.a, tt.b); got != tt.want {
			t.Errorf("oneEdit(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if got := oneEdit(tt.b, tt.a); got != tt.want {
			t.Errorf("oneEdit(%q, %q) = %v, want %v", tt.b, tt.a, got, tt.want)
		}
	}
}

// wantHint checks that body, in a mail about no game, is one unknown
// command whose answer ends with the hint format makes of want, or with
// the usual answer for want "".
func wantHint(t *testing.T, body, want, format string) {
	t.Helper()
	got := Parse("", body, Context{})
	if len(got.Commands) != 0 || len(got.Errors) != 1 || got.Errors[0].Problem != UnknownCommand {
		t.Errorf("Parse(%q) = %+v, want one unknown command", body, got)
		return
	}
	hint := fmt.Sprintf(format, want)
	if want == "" {
		hint = `send "help" for the list of commands`
	}
	if reason := got.Errors[0].Reason; !strings.HasSuffix(reason, hint) {
		t.Errorf("Parse(%q) reason = %q, want it to end %q", body, reason, hint)
	}
}
