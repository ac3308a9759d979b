package parser

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/congobymail/congo/lang"
)

// TestActionInWords checks M58: a line of a reply about a game that asks
// in words to resign, to offer, accept or decline a draw, to take back
// or to abort, in English, Japanese or Czech, is the message still, and
// the mail's hints say what was not done and the line to send.
func TestActionInWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		hint string // the Format of the hint; "" for none
	}{
		{"I resign, well played.", resignHint},
		{"I give up.", resignHint},
		{"OK, I'm resigning. Thanks for the game!", resignHint},
		{"I concede.", resignHint},
		{"Resign.", resignHint},
		{"draw?", offerHint},
		{"Draw!", offerHint},
		{"Shall we call it a draw?", offerHint},
		{"I offer you a draw.", offerHint},
		{"Do you accept a draw?", offerHint},
		{"remis?", offerHint},
		{"I accept the draw", acceptHint},
		{"The draw is accepted, well played.", acceptHint},
		{"OK, I'll take the draw.", acceptHint},
		{"No draw, thanks.", declineHint},
		{"I decline the draw: I still like my position.", declineHint},
		{"can I take that back?", takebackHint},
		{"Oops! Could I take my last move back, please?", takebackHint},
		{"takeback?", takebackHint},
		{"Shall we abort?", abortHint},
		{"Let's cancel the game, I chose the wrong colour.", abortHint},

		{"投了します。ありがとうございました。", resignHint},
		{"参りました。", resignHint},
		{"引き分けにしませんか？", offerHint},
		{"ドロー？", offerHint},
		{"引き分けを受けます。", acceptHint},
		{"引き分けはお断りします。", declineHint},
		{"待った！", takebackHint},
		{"一手戻してもいいですか？", takebackHint},
		{"対局を中止しましょう。", abortHint},

		{"Vzdávám, dobře zahráno.", resignHint},
		{"vzdavam", resignHint},
		{"Nabízím remízu.", offerHint},
		{"Remíza?", offerHint},
		{"Přijímám remízu.", acceptHint},
		{"Remízu ne, díky.", declineHint},
		{"Můžu vzít tah zpět?", takebackHint},
		{"Zrušme partii.", abortHint},

		// Words about the game that ask for nothing.
		{"Nice move!", ""},
		{"I won't resign yet.", ""},
		{"Never give up!", ""},
		{"You should resign.", ""},
		{"Draws are rare in Congo.", ""},
		{"That was drawn out.", ""},
		{"Take care, see you on Sunday.", ""},
		{"よろしくお願いします。", ""},
		{"投了しません。", ""},
		{"Nevzdávám se!", ""},
		{"Dobrý tah.", ""},
	}
	for _, tt := range tests {
		got := Parse(gameSubject, tt.line, Context{})
		want := Result{Message: tt.line}
		checkResult(t, fmt.Sprintf("Parse(%q)", tt.line), got, want)
		var formats []string
		for _, h := range got.Hints {
			formats = append(formats, h.Format)
			if h.Problem != InWords || h.Line != tt.line || h.Reason != h.Format {
				t.Errorf("Parse(%q) hint %+v, want one of problem %s for the line", tt.line, h, InWords)
			}
		}
		if want := []string{tt.hint}; tt.hint == "" && len(formats) != 0 || tt.hint != "" && !reflect.DeepEqual(formats, want) {
			t.Errorf("Parse(%q) hints %q, want %q", tt.line, formats, tt.hint)
		}
	}
}

// TestActionInWordsBesideCommands checks M58 beside commands: a mail
// that plays a move and offers a draw in words plays the move and says
// what was not done; one hint a kind of action; none in a mail about no
// game, whose lines are errors as ever.
func TestActionInWordsBesideCommands(t *testing.T) {
	t.Parallel()
	got := Parse(gameSubject, "c2-c3\ndraw?\nI offer a draw.\nI resign!", Context{})
	want := Result{Commands: []Command{{Kind: Move, Line: "c2-c3", Game: 42, Args: MoveArgs{Move: "c2-c3"}}},
		Message: "draw?\nI offer a draw.\nI resign!"}
	checkResult(t, "Parse(move and words)", got, want)
	if len(got.Hints) != 2 || got.Hints[0].Format != offerHint || got.Hints[0].Line != "draw?" || got.Hints[1].Format != resignHint {
		t.Errorf("Parse(move and words) hints %+v, want the offer's (of its first line) and the resignation's", got.Hints)
	}
	if got := Parse("", "I resign", Context{}); len(got.Hints) != 0 || len(got.Errors) != 1 {
		t.Errorf("Parse(%q) about no game = %+v, want one error and no hint", "I resign", got)
	}
}

// TestEmbeddedMoveBesideCommands checks M58: a move inside a sentence of
// a mail that holds other commands but no move is not played, and the
// mail's hints name it; beside a move, it is words about the game.
func TestEmbeddedMoveBesideCommands(t *testing.T) {
	t.Parallel()
	got := Parse(gameSubject, "Bold. My move: d2-e3\ndraw", Context{})
	want := Result{Commands: []Command{{Kind: Draw, Line: "draw", Game: 42}}, Message: "Bold. My move: d2-e3"}
	checkResult(t, "Parse(a move in a sentence, and draw)", got, want)
	if len(got.Hints) != 1 || got.Hints[0].Problem != EmbeddedMove || got.Hints[0].Args[1] != "d2-e3" {
		t.Errorf("Parse(a move in a sentence, and draw) hints %+v, want the move d2-e3 not played", got.Hints)
	}
	got = Parse(gameSubject, "b2-b3\nNext I play c3xd4, I think.", Context{})
	if len(got.Hints) != 0 || len(got.Commands) != 1 {
		t.Errorf("Parse(a move, and another in a sentence) = %+v, want the move and no hint", got)
	}
}

// TestMovePrefixesInLanguages checks M59: the prefixes of M20 in Czech
// and Japanese, and the word anyway of M61 after a move.
func TestMovePrefixesInLanguages(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		want MoveArgs
	}{
		{"Můj tah: e6-e5", MoveArgs{Move: "e6-e5"}},
		{"můj tah e6-e5.", MoveArgs{Move: "e6-e5"}},
		{"Muj tah: e6-e5", MoveArgs{Move: "e6-e5"}},
		{"Tah: e6-e5", MoveArgs{Move: "e6-e5"}},
		{"Hraju e6-e5", MoveArgs{Move: "e6-e5"}},
		{"Hraji e6-e5!", MoveArgs{Move: "e6-e5"}},
		{"Táhnu e6-e5", MoveArgs{Move: "e6-e5"}},
		{"私の手: e6-e5", MoveArgs{Move: "e6-e5"}},
		{"私の手：ｅ６－ｅ５", MoveArgs{Move: "e6-e5"}},
		{"私の手は e6-e5 です。", MoveArgs{Move: "e6-e5"}},
		{"次の手は e6-e5", MoveArgs{Move: "e6-e5"}},
		{"e6-e5 にします", MoveArgs{Move: "e6-e5"}},
		{"c3-c4 anyway", MoveArgs{Move: "c3-c4", Anyway: true}},
		{"c3-c4, anyway!", MoveArgs{Move: "c3-c4", Anyway: true}},
		{"c3-c4 anyway #5", MoveArgs{Move: "c3-c4", Number: 5, Anyway: true}},
		{"c3-c4 #5 anyway", MoveArgs{Move: "c3-c4", Number: 5, Anyway: true}},
		{"move c3-c4 ANYWAY", MoveArgs{Move: "c3-c4", Anyway: true}},
		{"move congo 42 c3-c4 anyway", MoveArgs{Move: "c3-c4", Anyway: true}},
	}
	for _, tt := range tests {
		got := Parse(gameSubject, tt.line, Context{})
		want := Result{Commands: []Command{{Kind: Move, Line: tt.line, Game: 42, Args: tt.want}}}
		checkResult(t, fmt.Sprintf("Parse(%q)", tt.line), got, want)
	}
	// Words that start like a prefix stay words.
	for _, line := range []string{"Tahle hra je skvělá", "Hrajeme dál", "anyway"} {
		if got := Parse(gameSubject, line, Context{}); len(got.Commands) != 0 || got.Message != line {
			t.Errorf("Parse(%q) = %+v, want the message alone", line, got)
		}
	}
}

// TestLanguageNameAlone checks M59: a line that is only a language's
// name sets the language, as language <name> does; a code alone does
// not ("ja" is a word in Czech and German).
func TestLanguageNameAlone(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		want lang.Code
	}{
		{"česky", lang.Czech},
		{"Česky.", lang.Czech},
		{"cesky", lang.Czech},
		{"čeština", lang.Czech},
		{"日本語", lang.Japanese},
		{"日本語。", lang.Japanese},
		{"English", lang.English},
		{"ENGLISH!", lang.English},
		{"Japanese", lang.Japanese},
	}
	for _, tt := range tests {
		for _, game := range []int64{0, 42} {
			got := Parse("", tt.line, Context{Game: game})
			want := Result{Commands: []Command{{Kind: Language, Line: tt.line, Args: LanguageArgs{Language: tt.want}}}}
			checkResult(t, fmt.Sprintf("Parse(%q, game %d)", tt.line, game), got, want)
		}
	}
	for _, line := range []string{"ja", "cs", "en", "English please"} {
		if got := Parse(gameSubject, line, Context{}); len(got.Commands) != 0 {
			t.Errorf("Parse(%q) = %+v, want no command", line, got)
		}
	}
}

// TestGuard checks the words of M61: guard on|off.
func TestGuard(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		want Command
	}{
		{"guard off", Command{Kind: Guard, Args: GuardArgs{}}},
		{"Guard ON", Command{Kind: Guard, Args: GuardArgs{On: true}}},
		{"guard on.", Command{Kind: Guard, Args: GuardArgs{On: true}}},
	}
	for _, tt := range tests {
		got := Parse("", tt.line, Context{})
		want := tt.want
		want.Line = tt.line
		checkResult(t, fmt.Sprintf("Parse(%q)", tt.line), got, Result{Commands: []Command{want}})
	}
	// In a message, guard is a word.
	for _, line := range []string{"Guard your lion!", "guard"} {
		if got := Parse(gameSubject, line, Context{}); len(got.Commands) != 0 || got.Message != line {
			t.Errorf("Parse(%q) = %+v, want the message alone", line, got)
		}
	}
}

// TestRated checks rated in a challenge (M60): a game against the robot
// is unrated unless its challenge says rated; rated and unrated both are
// an error.
func TestRated(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		want ChallengeArgs
	}{
		{"challenge congo robot rated", ChallengeArgs{Handle: "robot", Rated: true}},
		{"challenge congo robot level=2 rated black", ChallengeArgs{Handle: "robot", Rated: true, Level: 2, Color: 1}},
	}
	for _, tt := range tests {
		got := Parse("", tt.line, Context{})
		checkResult(t, fmt.Sprintf("Parse(%q)", tt.line), got, Result{Commands: []Command{{Kind: Challenge, Line: tt.line, Args: tt.want}}})
	}
	got := Parse("", "challenge congo bob rated unrated", Context{})
	if len(got.Errors) != 1 || got.Errors[0].Problem != ExtraWords {
		t.Errorf("Parse(rated unrated) = %+v, want one error", got)
	}
}

// TestChallengeMessage checks that the lines of words beside a challenge
// in a mail about no game are the message to the player challenged; a
// line with something to say of it stays an error, and so do words
// beside anything but one challenge.
func TestChallengeMessage(t *testing.T) {
	t.Parallel()
	got := Parse("", "Hi bob,\n\nfancy a game?\nchallenge congo bob days=5\n\nalice", Context{})
	want := Result{Commands: []Command{{Kind: Challenge, Line: "challenge congo bob days=5", Args: ChallengeArgs{Handle: "bob", Control: TimeControl{Days: 5}}}},
		Message: "Hi bob,\n\nfancy a game?\n\nalice"}
	checkResult(t, "Parse(a challenge with words)", got, want)

	got = Parse("", "challenge congo bob\nmvoe congo 3 b2-b3", Context{})
	if len(got.Errors) != 1 || got.Message != "" {
		t.Errorf("Parse(a challenge and a misspelt command) = %+v, want its error and no message", got)
	}
	got = Parse("", "Hi!\ngames", Context{})
	if len(got.Errors) != 1 || got.Message != "" {
		t.Errorf("Parse(words and games) = %+v, want an error and no message", got)
	}
	got = Parse("", "Hi!\nchallenge congo bob\nchallenge congo carol", Context{})
	if len(got.Errors) != 1 || got.Message != "" {
		t.Errorf("Parse(words and two challenges) = %+v, want an error and no message", got)
	}
}
