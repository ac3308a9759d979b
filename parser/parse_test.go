package parser

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// errAt is an Error with no Reason, for tables: Reasons are wording, and
// tests compare Line and Problem only.
func errAt(line string, p Problem) Error { return Error{Line: line, Problem: p} }

// checkResult compares got with want, ignoring error Reasons but requiring
// that each Error has one.
func checkResult(t *testing.T, call string, got, want Result) {
	t.Helper()
	for i, e := range got.Errors {
		if e.Reason == "" || e.Format == "" || fmt.Sprintf(e.Format, e.Args...) != e.Reason {
			t.Errorf("%s error %d has no reason, or not one of its Format and Args: %+v", call, i, e)
		}
		got.Errors[i].Reason, got.Errors[i].Format, got.Errors[i].Args = "", "", nil
	}
	if len(got.Commands) == 0 {
		got.Commands = nil
	}
	if len(got.Errors) == 0 {
		got.Errors = nil
	}
	if !reflect.DeepEqual(got.Commands, want.Commands) {
		t.Errorf("%s commands (-want +got):\n-%+v\n+%+v", call, want.Commands, got.Commands)
	}
	if !reflect.DeepEqual(got.Errors, want.Errors) {
		t.Errorf("%s errors (-want +got):\n-%+v\n+%+v", call, want.Errors, got.Errors)
	}
	if got.Message != want.Message {
		t.Errorf("%s message = %q, want %q", call, got.Message, want.Message)
	}
	if got.FromSubject != want.FromSubject {
		t.Errorf("%s FromSubject = %v, want %v", call, got.FromSubject, want.FromSubject)
	}
}

func TestParseSubject(t *testing.T) {
	t.Parallel()
	move42 := Command{Kind: Move, Line: "move congo 42 b2-b3", Game: 42, Args: MoveArgs{Move: "b2-b3"}}
	tests := []struct {
		subject, body string
		game          int64 // Context.Game
		want          Result
	}{
		{
			"move congo 42 b2-b3", "Good luck!\n\n-- \nAlice\n", 0,
			Result{Commands: []Command{move42}, Message: "Good luck!", FromSubject: true},
		},
		{
			"Re: RE: Fwd: [congo] move congo 42 b2-b3", "", 0,
			Result{Commands: []Command{move42}, FromSubject: true},
		},
		{
			"AW: SV: Antw: Fw: WG: move congo 42 b2-b3  ", "", 0,
			Result{Commands: []Command{move42}, FromSubject: true},
		},
		{
			"Re[2]: Re(3): [ext] [congo] move congo 42 b2-b3", "", 0,
			Result{Commands: []Command{move42}, FromSubject: true},
		},
		{
			"RE : TR : help", "", 0,
			Result{Commands: []Command{{Kind: Help, Line: "help"}}, FromSubject: true},
		},
		{
			// A comment keeps its inner blank lines and ends at the quote.
			"resign congo 42", "\r\nHi Bob,\r\n\r\nwell played.  \r\n\r\nOn Mon, 1 Jan 2024, Bob wrote:\r\n> b2-b3\r\n", 0,
			Result{Commands: []Command{{Kind: Resign, Line: "resign congo 42", Game: 42}}, Message: "Hi Bob,\n\nwell played.", FromSubject: true},
		},
		{
			// The body is a comment even when it holds commands; the
			// sender is told that the first one was not carried out.
			"move congo 42 b2-b3", "resign congo 42\nratings", 0,
			Result{Commands: []Command{move42}, Message: "resign congo 42\nratings", FromSubject: true,
				Errors: []Error{{Line: "resign congo 42", Problem: NotRead}}},
		},
		{
			// The Subject's own command again in the body is no news.
			"Re: b2-b3", "b2-b3\n\nyour move", 42,
			Result{Commands: []Command{{Kind: Move, Line: "b2-b3", Game: 42, Args: MoveArgs{Move: "b2-b3"}}}, Message: "b2-b3\n\nyour move", FromSubject: true},
		},
		{
			// A bare move in the body counts for the Subject's game.
			"move congo 42 b2-b3", "b6-b5", 0,
			Result{Commands: []Command{move42}, Message: "b6-b5", FromSubject: true,
				Errors: []Error{{Line: "b6-b5", Problem: NotRead}}},
		},
		{
			// A bare move in the Subject of a reply.
			"Re: b2-b3 #3", "your turn", 42,
			Result{Commands: []Command{{Kind: Move, Line: "b2-b3 #3", Game: 42, Args: MoveArgs{Move: "b2-b3", Number: 3}}}, Message: "your turn", FromSubject: true},
		},
		{
			// The server's own Subject is no command: the body is read.
			"Re: Congo game 42: alice vs bob - bob to move", "b2-b3\n\nOn Mon, 1 Jan 2024 at 10:00, Congo <congo@example.com> wrote:\n> Congo game 42\n", 0,
			Result{Commands: []Command{{Kind: Move, Line: "b2-b3", Game: 42, Args: MoveArgs{Move: "b2-b3"}}}},
		},
		{
			"Re: Congo game 42: alice vs bob - bob to move", "resign\n", 0,
			Result{Commands: []Command{{Kind: Resign, Line: "resign", Game: 42}}},
		},
		{
			// The Context wins over the Subject.
			"Re: Congo game 42: alice vs bob - bob to move", "b2-b3", 7,
			Result{Commands: []Command{{Kind: Move, Line: "b2-b3", Game: 7, Args: MoveArgs{Move: "b2-b3"}}}},
		},
		{
			"Re: Congo game 42: alice vs bob - bob to move", "", 0,
			Result{},
		},
		{
			"Hello", "help", 0,
			Result{Commands: []Command{{Kind: Help, Line: "help"}}},
		},
		{
			"[congo]", "games", 0,
			Result{Commands: []Command{{Kind: Games, Line: "games", Args: GamesArgs{}}}},
		},
		{
			"Re:", "games", 0,
			Result{Commands: []Command{{Kind: Games, Line: "games", Args: GamesArgs{}}}},
		},
		{
			"Hello there", "", 0,
			Result{},
		},
		{
			// A malformed command in the Subject is reported when the
			// body has no command ...
			"move congo 42 b2-b9", "", 0,
			Result{Errors: []Error{errAt("move congo 42 b2-b9", BadMove)}},
		},
		{
			"Re: help me", "\n\n-- \nAlice", 0,
			Result{Errors: []Error{errAt("help me", ExtraWords)}},
		},
		{
			"b2-b3", "", 0,
			Result{Errors: []Error{errAt("b2-b3", MissingGame)}},
		},
		{
			// ... and not when it has something to read.
			"move congo 42 b2-b9", "board congo 42", 0,
			Result{Commands: []Command{{Kind: Board, Line: "board congo 42", Game: 42, Args: BoardArgs{}}}},
		},
		{
			"Re: Help for Congo", "I am new\n", 0,
			Result{Errors: []Error{errAt("I am new", UnknownCommand)}},
		},
		{
			strings.Repeat("move ", 100), "games", 0,
			Result{Commands: []Command{{Kind: Games, Line: "games", Args: GamesArgs{}}}},
		},
	}
	for _, tt := range tests {
		got := Parse(tt.subject, tt.body, Context{Game: tt.game})
		checkResult(t, fmt.Sprintf("Parse(%q, %q, game %d)", tt.subject, tt.body, tt.game), got, tt.want)
	}
}

func TestParseBody(t *testing.T) {
	t.Parallel()
	help := Command{Kind: Help, Line: "help"}
	games := Command{Kind: Games, Line: "games", Args: GamesArgs{}}
	tests := []struct {
		name string
		body string
		want Result
	}{
		{"empty", "", Result{}},
		{"blank", "\n \n\t\r\n\u00a0\n", Result{}},
		{"two commands", "move congo 42 b2-b3\nboard congo 43\n", Result{Commands: []Command{
			{Kind: Move, Line: "move congo 42 b2-b3", Game: 42, Args: MoveArgs{Move: "b2-b3"}},
			{Kind: Board, Line: "board congo 43", Game: 43, Args: BoardArgs{}},
		}}},
		{"CRLF", "help\r\ngames\r\n", Result{Commands: []Command{help, games}}},
		{"CR", "help\rgames", Result{Commands: []Command{help, games}}},
		{"no final newline", "help\ngames", Result{Commands: []Command{help, games}}},
		{"skipped lines", "\n\n***\nhelp\n   \n_____\n. . .\n#\ngames\n", Result{Commands: []Command{help, games}}},
		{"chat around commands", "Hi Bob,\nmove congo 42 b2-b3\nThanks!\n", Result{
			Commands: []Command{{Kind: Move, Line: "move congo 42 b2-b3", Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
			Errors:   []Error{errAt("Hi Bob,", UnknownCommand), errAt("Thanks!", UnknownCommand)},
		}},
		{"error after command", "help\nmvoe congo 1 b2-b3\ngames", Result{
			Commands: []Command{help, games},
			Errors:   []Error{errAt("mvoe congo 1 b2-b3", UnknownCommand)},
		}},

		{"signature", "help\n-- \nAlice\ngames", Result{Commands: []Command{help}}},
		{"signature without space", "help\n--\ngames", Result{Commands: []Command{help}}},
		{"signature with CR", "help\r\n-- \r\nAlice", Result{Commands: []Command{help}}},
		{"long dash line is no signature", "help\n----\ngames", Result{Commands: []Command{help, games}}},

		{"quote", "help\n> games\nboard congo 1", Result{Commands: []Command{help}}},
		{"quote first", "> games\nhelp", Result{}},
		{"indented quote", "help\n   > games", Result{Commands: []Command{help}}},
		{"nested quote", "help\n>> games", Result{Commands: []Command{help}}},
		{"HTML blockquote", "help\n\n> On Mon, 1 Jan 2024, Bob wrote:\n> \n> games\n", Result{Commands: []Command{help}}},

		{"attribution", "help\n\nOn Mon, 1 Jan 2024 at 10:00, Bob <bob@example.com> wrote:\ngames", Result{Commands: []Command{help}}},
		{"attribution lowercase", "help\non Mon, Bob wrote:\ngames", Result{Commands: []Command{help}}},
		{"attribution over two lines", "help\nOn Mon, Jan 1, 2024 at 10:00 AM Bob Smith <\nbob@example.com> wrote:\n\ngames", Result{Commands: []Command{help}}},
		{"attribution without On", "help\nBob Smith wrote:\ngames", Result{Commands: []Command{help}}},
		{"French attribution", "help\nLe lun. 1 janv. 2024 à 10:00, Bob <bob@example.com> a écrit :\ngames", Result{Commands: []Command{help}}},
		{"German attribution", "help\nAm 01.01.2024 um 10:00 schrieb Bob <bob@example.com>:\ngames", Result{Commands: []Command{help}}},
		{"German attribution over two lines", "help\nAm 01.01.2024 um 10:00 schrieb Bob Smith\n<bob@example.com>:\ngames", Result{Commands: []Command{help}}},
		{"a line starting On is no attribution", "On second thought\nhelp", Result{
			Commands: []Command{help},
			Errors:   []Error{errAt("On second thought", UnknownCommand)},
		}},

		{"Outlook original message", "help\n\n-----Original Message-----\nFrom: Bob\ngames", Result{Commands: []Command{help}}},
		{"Outlook spaced original message", "help\n----- Original Message -----\ngames", Result{Commands: []Command{help}}},
		{"forwarded message", "help\n---------- Forwarded message ---------\ngames", Result{Commands: []Command{help}}},
		{"Outlook header block", "help\n\n________________________________\nFrom: Bob <bob@example.com>\nSent: Monday\ngames", Result{Commands: []Command{help}}},
		{"header block after blank", "help\n\nFrom: Bob <bob@example.com>\ngames", Result{Commands: []Command{help}}},
		{"German header block", "help\n\nVon: Bob <bob@example.com>\ngames", Result{Commands: []Command{help}}},
		{"From line not after a blank line", "help\nFrom: Bob\ngames", Result{
			Commands: []Command{help, games},
			Errors:   []Error{errAt("From: Bob", UnknownCommand)},
		}},
		{"sign-off", "resign congo 4\n\nSent from my iPhone\n", Result{Commands: []Command{{Kind: Resign, Line: "resign congo 4", Game: 4}}}},
		{"Outlook sign-off", "help\nGet Outlook for Android", Result{Commands: []Command{help}}},
	}
	for _, tt := range tests {
		got := Parse("", tt.body, Context{})
		checkResult(t, fmt.Sprintf("%s: Parse(%q)", tt.name, tt.body), got, tt.want)
	}
}

// TestParseHTMLText checks a body as mailmsg makes it from an HTML-only
// reply: non-breaking spaces, blank lines, and the quoted mail as "> ".
func TestParseHTMLText(t *testing.T) {
	t.Parallel()
	body := "\u00a0\n\nb2-b3\u00a0#2\u00a0\n\u00a0\n\nmove\u00a0congo\u00a043 c3xd4\n\n" +
		"On Mon, 1 Jan 2024 at 10:00, Congo <congo@example.com> wrote:\n\n" +
		"> Congo game 42: alice vs bob - bob to move\n> \n> move congo 42 a1-a2\n"
	want := Result{Commands: []Command{
		{Kind: Move, Line: "b2-b3\u00a0#2", Game: 42, Args: MoveArgs{Move: "b2-b3", Number: 2}},
		{Kind: Move, Line: "move\u00a0congo\u00a043 c3xd4", Game: 43, Args: MoveArgs{Move: "c3xd4"}},
	}}
	got := Parse("Re: Congo game 42: alice vs bob - bob to move", body, Context{})
	checkResult(t, fmt.Sprintf("Parse(%q)", body), got, want)
}

func TestParseLimits(t *testing.T) {
	t.Parallel()
	lines := func(line string, n int) string { return strings.Repeat(line+"\n", n) }
	helps := func(n int) []Command {
		c := make([]Command, n)
		for i := range c {
			c[i] = Command{Kind: Help, Line: "help"}
		}
		return c
	}
	hellos := func(n int) []Error {
		e := make([]Error, n)
		for i := range e {
			e[i] = errAt("hello", UnknownCommand)
		}
		return e
	}
	long := strings.Repeat("x", 1<<20)
	tests := []struct {
		name    string
		subject string
		body    string
		want    Result
	}{
		{"50 commands", "", lines("help", maxCommands), Result{Commands: helps(maxCommands)}},
		{"51 commands", "", lines("help", maxCommands+1), Result{
			Commands: helps(maxCommands),
			Errors:   []Error{errAt("help", Ignored)},
		}},
		{"51 commands and a signature", "", lines("help", maxCommands) + "-- \nAlice\n", Result{Commands: helps(maxCommands)}},
		{"200 lines", "", lines("hello", maxLines), Result{Errors: hellos(maxLines)}},
		{"100000 lines", "", lines("hello", 100000), Result{Errors: append(hellos(maxLines), errAt("hello", Ignored))}},
		{"command after many blank lines", "", lines("", maxLines) + "help", Result{Errors: []Error{errAt("help", Ignored)}}},
		{"signature after many blank lines", "", "help\n" + lines("", 100000) + "-- \nhello", Result{Commands: helps(1)}},
		{"one long line", "", long, Result{Errors: []Error{errAt(long[:maxLineLen]+"...", LongLine)}}},
		{"long line among commands", "", "help\n" + long + "\nhelp", Result{
			Commands: helps(2),
			Errors:   []Error{errAt(long[:maxLineLen]+"...", LongLine)},
		}},
		{"long non-ASCII line is cut between characters", "", "x" + strings.Repeat("\u00e9", 200), Result{Errors: []Error{errAt("x"+strings.Repeat("\u00e9", 127)+"...", LongLine)}}},
		{"long subject", strings.Repeat("move ", 100000), "help", Result{Commands: helps(1)}},
		{"long comment", "help", lines("hello", maxLines+5), Result{
			Commands:    helps(1),
			Message:     strings.TrimSpace(lines("hello", maxLines)),
			FromSubject: true,
			Errors:      []Error{errAt("hello", Ignored)},
		}},
		{"long comment line", "help", "hello\n" + long, Result{
			Commands:    helps(1),
			Message:     "hello",
			FromSubject: true,
			Errors:      []Error{errAt(long[:maxLineLen]+"...", Ignored)},
		}},
	}
	for _, tt := range tests {
		got := Parse(tt.subject, tt.body, Context{})
		checkResult(t, fmt.Sprintf("%s: Parse(%.40q, %.40q)", tt.name, tt.subject, tt.body), got, tt.want)
	}
}

func TestGameFromSubject(t *testing.T) {
	t.Parallel()
	tests := []struct {
		subject string
		want    int64
	}{
		{"Congo game 42: alice vs bob - bob to move", 42},
		{"Re: Congo game 42: alice vs bob - bob to move", 42},
		{"RE: [congo] CONGO GAME #7 - alice to move", 7},
		{"Fwd: congo game 12", 12},
		{"congo  game\t9", 9},
		{"congo congo game 5", 5},
		{"Re: Congo game 3 (Congo game 4)", 3},
		{"", 0},
		{"congo game", 0},
		{"congo game 0", 0},
		{"congo game #", 0},
		{"congo game 42abc", 0},
		{"congo game 99999999999999999999", 0},
		{"mycongo game 4", 0},
		{"congogame 4", 0},
		{"congo games 4", 0},
		{"move congo 42 b2-b3", 0},
		{"game 42", 0},
		// The Subjects in Japanese and Czech (M22, M40).
		{"Re: Congo 対局 42: alice 対 bob", 42},
		{"Congo 対局 42: alice 対 bob（Spring Cup 第2回戦）", 42},
		{"Congo 対局42", 42},
		{"RE: Congo partie 42: alice – bob", 42},
		{"Odp: congo PARTIE #8", 8},
		{"Congo partie42", 0},
		{"Congo partief 4", 0},
		{"Congo 対局 0", 0},
		{"Congo tournament 3: Spring Cup", 0},
		{"Congo 大会 3: Spring Cup", 0},
		{"Congo turnaj 3: Spring Cup", 0},
	}
	for _, tt := range tests {
		if got := GameFromSubject(tt.subject); got != tt.want {
			t.Errorf("GameFromSubject(%q) = %d, want %d", tt.subject, got, tt.want)
		}
	}
}

func TestStripSubject(t *testing.T) {
	t.Parallel()
	tests := []struct {
		subject, want string
	}{
		{"help", "help"},
		{"  Re: help ", "help"},
		{"Re:help", "help"},
		{"RE: Re: re: help", "help"},
		{"Fwd: Fw: FW: help", "help"},
		{"AW: SV: Antw: VS: WG: help", "help"},
		{"RE : TR : help", "help"},
		{"Re[2]: Re(10): help", "help"},
		{"[congo] [ext] help", "help"},
		{"Re: [congo] Re: help", "help"},
		{"\u00a0Re:\u00a0help\u00a0", "help"},
		{"Reply: help", "Reply: help"},
		{"Re help", "Re help"},
		{"Re[x]: help", "Re[x]: help"},
		{"[unclosed help", "[unclosed help"},
		{"Re:", ""},
		{"Re: help\r\n games", "help"},
		{"\nhelp", ""},
		{"", ""},
		{"Congo game 42: alice vs bob", "Congo game 42: alice vs bob"},
	}
	for _, tt := range tests {
		if got := stripSubject(tt.subject); got != tt.want {
			t.Errorf("stripSubject(%q) = %q, want %q", tt.subject, got, tt.want)
		}
	}
}

func BenchmarkParseLongBody(b *testing.B) {
	body := strings.Repeat("a line that is not a command\n", 100000)
	for b.Loop() {
		Parse("Re: Congo game 42: alice vs bob - bob to move", body, Context{})
	}
}

func TestParseConditionalGame(t *testing.T) {
	t.Parallel()
	tests := []struct {
		body string
		game int64 // Context.Game
		want []int64
	}{
		{"if c6-c5 then b2-b3", 42, []int64{42}},
		{"conditional congo 7\nif c6-c5 then b2-b3\nif d6-d5 then d2-d3", 42, []int64{7, 7, 7}},
		{"if c6-c5 then b2-b3\nconditional congo 7\nif d6-d5 then d2-d3", 42, []int64{42, 7, 7}},
		{"conditional congo 7\nconditional congo 8\nif c6-c5 then b2-b3", 0, []int64{7, 8, 8}},
		{"conditional congo 7 clear\nif c6-c5 then b2-b3", 42, []int64{7, 42}},
	}
	for _, tt := range tests {
		r := Parse("", tt.body, Context{Game: tt.game})
		var got []int64
		for _, c := range r.Commands {
			got = append(got, c.Game)
		}
		if len(r.Errors) != 0 || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Parse(%q) games = %v, errors %+v, want %v", tt.body, got, r.Errors, tt.want)
		}
	}
}

// A Subject that is a command, or was meant to be one, must be marked so
// that answers do not repeat it.
func TestCommandSubject(t *testing.T) {
	t.Parallel()
	tests := []struct {
		subject, body string
		want          bool
	}{
		{"move congo 1 b2-b3", "", true},
		{"Re: resign", "move congo 1 b2-b3", true}, // no game: an error, but a command all the same
		{"register al!ce", "help", true},
		{"hello", "help", false},
		{"Re: Congo game 42: alice vs bob - bob to move", "b2-b3", false},
		{"", "help", false},
	}
	for _, tt := range tests {
		if got := Parse(tt.subject, tt.body, Context{}).CommandSubject; got != tt.want {
			t.Errorf("Parse(%q, %q).CommandSubject = %v, want %v", tt.subject, tt.body, got, tt.want)
		}
	}
}

func TestCutBody(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ body, read string }{
		{"a\nb\n", "a\nb\n"},
		{"a\r\n\r\nOn Mon, Alice wrote:\r\nb", "a\r\n\r\n"},
		{"a\n-----Original Message-----\nb", "a\n"},
		{"a\n\nFrom: Alice\nb", "a\n\n"},
		{"a\nFrom: Alice\nb", "a\nFrom: Alice\nb"},
	} {
		read, rest := CutBody(tt.body)
		if read != tt.read || read+rest != tt.body {
			t.Errorf("CutBody(%q) = %q, %q; want read %q", tt.body, read, rest, tt.read)
		}
	}
}

// BenchmarkParseProse is a mail about no game in prose, every line of it
// answered as no command, and so read for a hint.
func BenchmarkParseProse(b *testing.B) {
	body := strings.Repeat("Hello there, I would like to know how one starts a game here\nThanks, Alice\n", 50)
	for b.Loop() {
		Parse("a question", body, Context{})
	}
}
