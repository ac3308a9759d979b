package parser

import (
	"reflect"
	"strings"
	"testing"

	"github.com/congobymail/congo/rules"
)

// TestParseCommand checks every command form, in both word orders, one to a
// body.
func TestParseCommand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		game int64 // Context.Game
		want Command
	}{
		{"help", 0, Command{Kind: Help}},
		{"HELP", 0, Command{Kind: Help}},
		{"congo help", 0, Command{Kind: Help}},
		{"newkey", 0, Command{Kind: NewKey}},
		{"NewKey", 0, Command{Kind: NewKey}},
		{"games", 0, Command{Kind: Games, Args: GamesArgs{}}},
		{"Congo Games", 0, Command{Kind: Games, Args: GamesArgs{}}},

		{"register alice", 0, Command{Kind: Register, Args: RegisterArgs{Handle: "alice"}}},
		{"Register Alice_B-2", 0, Command{Kind: Register, Args: RegisterArgs{Handle: "Alice_B-2"}}},
		{"REGISTER ab", 0, Command{Kind: Register, Args: RegisterArgs{Handle: "ab"}}},
		{"register abcdefghijklmnopqrst", 0, Command{Kind: Register, Args: RegisterArgs{Handle: "abcdefghijklmnopqrst"}}},
		{"rename carol", 0, Command{Kind: Rename, Args: RenameArgs{Handle: "carol"}}},
		{"Rename Carol_2", 0, Command{Kind: Rename, Args: RenameArgs{Handle: "Carol_2"}}},
		{"register congo", 0, Command{Kind: Register, Args: RegisterArgs{Handle: "congo"}}},
		// M21, M41: a Japanese input method's full-width letters are read
		// after NFKC; the handle is then ASCII.
		{"register \uff41\uff4c\uff49\uff43\uff45", 0, Command{Kind: Register, Args: RegisterArgs{Handle: "alice"}}},
		{"congo register alice", 0, Command{Kind: Register, Args: RegisterArgs{Handle: "alice"}}},

		{"challenge congo bob", 0, Command{Kind: Challenge, Args: ChallengeArgs{Handle: "bob"}}},
		{"challenge congo bob white", 0, Command{Kind: Challenge, Args: ChallengeArgs{Handle: "bob", Color: rules.White}}},
		{"challenge congo bob BLACK", 0, Command{Kind: Challenge, Args: ChallengeArgs{Handle: "bob", Color: rules.Black}}},
		{"Challenge Bob Black", 0, Command{Kind: Challenge, Args: ChallengeArgs{Handle: "Bob", Color: rules.Black}}},
		{"congo challenge bob white", 0, Command{Kind: Challenge, Args: ChallengeArgs{Handle: "bob", Color: rules.White}}},
		{"challenge congo congo", 0, Command{Kind: Challenge, Args: ChallengeArgs{Handle: "congo"}}},
		{"challenge congo white", 0, Command{Kind: Challenge, Args: ChallengeArgs{Handle: "white"}}},
		{"challenge congo bob white", 42, Command{Kind: Challenge, Args: ChallengeArgs{Handle: "bob", Color: rules.White}}},

		{"accept congo 42", 0, Command{Kind: Accept, Game: 42}},
		{"accept congo #42", 0, Command{Kind: Accept, Game: 42}},
		{"accept 42", 0, Command{Kind: Accept, Game: 42}},
		{"congo accept 42", 0, Command{Kind: Accept, Game: 42}},
		{"ACCEPT CONGO #7", 0, Command{Kind: Accept, Game: 7}},
		{"accept congo 007", 0, Command{Kind: Accept, Game: 7}},
		{"decline congo 42", 0, Command{Kind: Decline, Game: 42}},
		{"congo decline #42", 0, Command{Kind: Decline, Game: 42}},
		{"decline 42", 0, Command{Kind: Decline, Game: 42}},

		{"move congo 42 b2-b3", 0, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
		{"move congo #42 b2-b3", 0, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
		{"move 42 b2-b3", 0, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
		{"congo move 42 b2-b3", 0, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
		{"congo move #42 b2-b3#3", 0, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3", Number: 3}}},
		{"move congo 42 b2-b3#1", 0, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3", Number: 1}}},
		{"move congo 42 b2-b3 #1", 0, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3", Number: 1}}},
		{"move congo 42 b2-b3 # 12", 0, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3", Number: 12}}},
		{"move congo 42 b2 - b3", 0, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2 - b3"}}},
		{"move congo 42 b2 - b3 #2", 0, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2 - b3", Number: 2}}},
		{"move congo 42 a2-c4-c6x", 0, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "a2-c4-c6x"}}},
		{"move congo 42 B2XB3", 0, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "B2XB3"}}},
		{"move congo 42 b1xd3xf5#9", 0, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b1xd3xf5", Number: 9}}},
		{"move congo 42 d2-e3x", 0, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "d2-e3x"}}},
		{"Move Congo 42 c3xd4", 0, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "c3xd4"}}},
		// M21: the dashes of mail programs and input methods are read as "-",
		// and "×" as "x", inside a move.
		{"move congo 42 b2\u2013b3", 0, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
		{"move congo 42 b2\u2212b3", 0, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
		{"move congo 42 c3\u00d7d4", 0, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "c3xd4"}}},
		{"move congo 7 b2-b3", 42, Command{Kind: Move, Game: 7, Args: MoveArgs{Move: "b2-b3"}}},

		{"board congo 42", 0, Command{Kind: Board, Game: 42, Args: BoardArgs{}}},
		{"congo board #42", 0, Command{Kind: Board, Game: 42, Args: BoardArgs{}}},
		{"board 42", 0, Command{Kind: Board, Game: 42, Args: BoardArgs{}}},
		{"resign congo 42", 0, Command{Kind: Resign, Game: 42}},
		{"congo resign 42", 0, Command{Kind: Resign, Game: 42}},
		{"resign #42", 0, Command{Kind: Resign, Game: 42}},
		{"resign congo 7", 42, Command{Kind: Resign, Game: 7}},

		// In a reply about game 42.
		{"b2-b3", 42, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
		{"b2-b3 #4", 42, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3", Number: 4}}},
		{"b2-b3#4", 42, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3", Number: 4}}},
		{"B2xB3", 42, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "B2xB3"}}},
		{"b2 - b3", 42, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2 - b3"}}},
		{"a2-c4-c6x", 42, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "a2-c4-c6x"}}},
		{"move b2-b3", 42, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
		{"move congo b2-b3 #5", 42, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3", Number: 5}}},
		{"congo move b2-b3", 42, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
		{"congo b2-b3", 42, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
		{"resign", 42, Command{Kind: Resign, Game: 42}},
		{"Resign", 42, Command{Kind: Resign, Game: 42}},
		{"resign congo", 42, Command{Kind: Resign, Game: 42}},
		{"board", 42, Command{Kind: Board, Game: 42, Args: BoardArgs{}}},
		{"accept", 42, Command{Kind: Accept, Game: 42}},
		{"decline congo", 42, Command{Kind: Decline, Game: 42}},

		// Mail program noise around the words.
		{"move\u00a0congo\t42  b2-b3\r", 0, Command{Kind: Move, Game: 42, Args: MoveArgs{Move: "b2-b3"}}},
		{"  help  ", 0, Command{Kind: Help}},
		{"help\u00a0\u00a0", 0, Command{Kind: Help}},
		{"\ufeffgames\u200b", 0, Command{Kind: Games, Args: GamesArgs{}}},
		{"\tresign congo 42 \t", 0, Command{Kind: Resign, Game: 42}},

		// Correspondence play.
		{"challenge congo bob days=5", 0, Command{Kind: Challenge, Args: ChallengeArgs{Handle: "bob", Control: TimeControl{Days: 5}}}},
		{"challenge congo bob unrated BANK=10+1 black", 0, Command{Kind: Challenge, Args: ChallengeArgs{Handle: "bob", Color: rules.Black,
			Control: TimeControl{Bank: true, Days: 10, Increment: 1}, Unrated: true}}},
		{"challenge congo robot level=1", 0, Command{Kind: Challenge, Args: ChallengeArgs{Handle: "robot", Level: 1}}},
		{"challenge congo robot black LEVEL=5 days=2", 0, Command{Kind: Challenge, Args: ChallengeArgs{Handle: "robot", Color: rules.Black,
			Control: TimeControl{Days: 2}, Level: 5}}},
		{"games bob", 0, Command{Kind: Games, Args: GamesArgs{Handle: "bob"}}},
		{"draw congo 42", 0, Command{Kind: Draw, Game: 42}},
		{"draw", 42, Command{Kind: Draw, Game: 42}},
		{"nodraw congo 42", 0, Command{Kind: NoDraw, Game: 42}},
		{"takeback congo 42", 0, Command{Kind: Takeback, Game: 42}},
		{"abort congo 42", 0, Command{Kind: Abort, Game: 42}},
		{"observe congo 7", 0, Command{Kind: Observe, Game: 7}},
		{"unobserve congo 7", 0, Command{Kind: Unobserve, Game: 7}},
		{"history congo 7", 0, Command{Kind: History, Game: 7}},
		{"analyze congo 7", 0, Command{Kind: Analyze, Game: 7}},
		{"Analyse congo #7", 0, Command{Kind: Analyze, Game: 7}},
		{"congo analyse 7", 0, Command{Kind: Analyze, Game: 7}},
		{"analyze", 42, Command{Kind: Analyze, Game: 42}},
		{"board congo 42#3", 0, Command{Kind: Board, Game: 42, Args: BoardArgs{Past: true, At: 3}}},
		{"board congo 42 #0", 0, Command{Kind: Board, Game: 42, Args: BoardArgs{Past: true}}},
		{"board #42", 0, Command{Kind: Board, Game: 42, Args: BoardArgs{}}},
		{"board #5", 42, Command{Kind: Board, Game: 5, Args: BoardArgs{}}},
		{"conditional congo 42", 0, Command{Kind: Conditional, Game: 42, Args: ConditionalArgs{}}},
		{"conditional congo 42 clear", 0, Command{Kind: Conditional, Game: 42, Args: ConditionalArgs{Clear: true}}},
		{"conditional clear", 42, Command{Kind: Conditional, Game: 42, Args: ConditionalArgs{Clear: true}}},
		{"if c6-c5 then b2-b3", 42, Command{Kind: If, Game: 42, Args: IfArgs{Moves: []string{"c6-c5", "b2-b3"}}}},
		{"IF c6-c5 THEN b2-b3 if d6 - d5 then c2xc3", 42, Command{Kind: If, Game: 42,
			Args: IfArgs{Moves: []string{"c6-c5", "b2-b3", "d6 - d5", "c2xc3"}}}},
		{"seek congo", 0, Command{Kind: Seek, Args: SeekArgs{}}},
		{"seek congo days=2 unrated", 0, Command{Kind: Seek, Args: SeekArgs{Control: TimeControl{Days: 2}, Unrated: true}}},
		{"seek off", 0, Command{Kind: Seek, Args: SeekArgs{Off: true}}},
		{"notify digest", 0, Command{Kind: Notify, Args: NotifyArgs{Notice: NoticeDigest}}},
		{"Notify OFF", 0, Command{Kind: Notify, Args: NotifyArgs{Notice: NoticeOff}}},
		{"notify each", 0, Command{Kind: Notify, Args: NotifyArgs{Notice: NoticeEach}}},
		{"ratings", 0, Command{Kind: Ratings}},
		{"vacation 7", 0, Command{Kind: Vacation, Args: VacationArgs{Days: 7}}},
		{"vacation off", 0, Command{Kind: Vacation, Args: VacationArgs{Off: true}}},
	}
	for _, tt := range tests {
		got := Parse("", tt.line, Context{Game: tt.game})
		want := tt.want
		want.Line = strings.TrimFunc(tt.line, isSpace)
		if len(got.Commands) != 1 || len(got.Errors) != 0 || !reflect.DeepEqual(got.Commands[0], want) {
			t.Errorf("Parse(%q, game %d) = %+v, want one command %+v", tt.line, tt.game, got, want)
		}
	}
}

// TestParseLineError checks that lines that are not commands are reported
// with the problem they have, quoting the line.
func TestParseLineError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		game int64 // Context.Game
		want Problem
	}{
		{"mvoe congo 42 b2-b3", 0, UnknownCommand},
		{"hello", 0, UnknownCommand},
		{"Hi Bob,", 0, UnknownCommand}, // in a mail about a game, a line of the message (M19)
		{"congo", 0, UnknownCommand},
		{"congo game 42", 0, UnknownCommand},
		{"congo b2-b3", 0, MissingGame},
		{"#42", 0, UnknownCommand},
		{"h2-h3", 0, BadMove},
		{strings.Repeat("a", maxLineLen+1), 0, LongLine},
		{"move congo 42 " + strings.Repeat("b2-b3-", 50), 0, LongLine},

		{"help me", 0, ExtraWords},
		{"games bob please", 0, ExtraWords},
		{"newkey now", 0, ExtraWords},
		{"accept congo 42 please", 0, ExtraWords},
		{"resign congo 42 43", 0, ExtraWords},
		{"challenge congo bob white now", 0, ExtraWords},

		{"move congo b2-b3", 0, MissingGame},
		{"move b2-b3", 0, MissingGame},
		{"move congo", 0, MissingGame},
		{"move", 0, MissingGame},
		{"move congo abc b2-b3", 0, MissingGame},
		{"resign", 0, MissingGame},
		{"board congo", 0, MissingGame},
		{"accept congo", 0, MissingGame},
		{"decline", 0, MissingGame},
		{"b2-b3", 0, MissingGame},
		{"b2-b3 #2", 0, MissingGame},
		{"B2xB3", 0, MissingGame},

		{"move congo #x b2-b3", 0, BadGame},
		{"move congo 0 b2-b3", 0, BadGame},
		{"move congo 42x b2-b3", 42, BadGame},
		{"accept congo abc", 0, BadGame},
		{"analyze congo abc", 0, BadGame},
		{"analyse", 0, MissingGame},
		{"analyze congo 7 please", 0, ExtraWords},
		{"accept congo #", 0, BadGame},
		{"accept congo -1", 0, BadGame},
		{"board congo 99999999999999999999", 0, BadGame},
		{"resign congo 0", 42, BadGame},

		{"move congo 42", 0, MissingMove},
		{"move congo #42", 0, MissingMove},
		{"move congo 42 #3", 0, MissingMove},
		{"move", 42, MissingMove},

		{"move congo 42 xyz", 0, BadMove},
		{"move congo 42 b2-b9", 0, BadMove},
		{"move congo 42 b2", 0, BadMove},
		{"move congo 42 b2-b3 please", 0, BadMove},
		{"move congo abc b2-b3", 42, BadMove},
		{"b2-b9", 0, BadMove},
		{"e4", 0, BadMove},
		{"b2", 0, BadMove},

		{"move congo 42 b2-b3#", 0, BadMoveNumber},
		{"move congo 42 b2-b3#0", 0, BadMoveNumber},
		{"move congo 42 b2-b3#x", 0, BadMoveNumber},
		{"move congo 42 b2-b3 #-1", 0, BadMoveNumber},
		{"move congo 42 b2-b3 #1 please", 0, BadMoveNumber},
		{"move congo 42 b2-b3#9999999999", 0, BadMoveNumber},
		{"b2-b3#x", 42, BadMoveNumber},

		{"register", 0, MissingHandle},
		{"challenge", 0, MissingHandle},
		{"challenge congo", 0, MissingHandle},

		{"register a", 0, BadHandle},
		{"rename", 0, MissingHandle},
		{"rename a", 0, BadHandle},
		{"register alice smith", 0, BadHandle},
		{"register abcdefghijklmnopqrstu", 0, BadHandle},
		{"register alice!", 0, BadHandle},
		{"register \u0430lice", 0, BadHandle}, // Cyrillic a
		{"register al\u00efce", 0, BadHandle},
		{"challenge congo b\u043eb", 0, BadHandle}, // Cyrillic o
		{"challenge congo bob@example.com", 0, BadHandle},

		{"challenge congo bob red", 0, BadColour},
		{"challenge congo bob w", 0, BadColour},

		{"challenge congo bob days=0", 0, BadTimeControl},
		{"challenge congo bob days=61", 0, BadTimeControl},
		{"challenge congo bob bank=5+6", 0, BadTimeControl},
		{"challenge congo bob bank=5", 0, BadTimeControl},
		{"challenge congo bob hours=5", 0, BadTimeControl},
		{"challenge congo robot level=0", 0, BadLevel},
		{"challenge congo robot level=6", 0, BadLevel},
		{"challenge congo robot level=", 0, BadLevel},
		{"challenge congo robot level=x", 0, BadLevel},
		{"challenge congo robot level=2 level=3", 0, ExtraWords},
		{"seek congo level=2", 0, BadTimeControl},
		{"challenge congo bob white black", 0, ExtraWords},
		{"challenge congo bob days=2 days=3", 0, ExtraWords},
		{"seek congo white", 0, ExtraWords},
		{"seek congo days=x", 0, BadTimeControl},
		{"games bob carol", 0, ExtraWords},
		{"games b!", 0, BadHandle},
		{"ratings please", 0, ExtraWords},
		{"draw", 0, MissingGame},
		{"takeback congo x", 0, BadGame},
		{"abort congo 42 now", 0, ExtraWords},
		{"board congo 42#x", 0, BadMoveNumber},
		{"board congo 42 #", 0, BadMoveNumber},
		{"if c6-c5 then b2-b3", 0, MissingGame},
		{"if c6-c5", 42, BadConditional},
		{"if c6-c5 then", 42, BadConditional},
		{"if then b2-b3", 42, BadConditional},
		{"if c6-c5 then b2-b3 then c2-c3", 42, BadConditional},
		{"if c6-c5 then b2-b9", 42, BadConditional},
		{"if you like", 42, BadConditional},
		{"notify", 0, BadSetting},
		{"notify weekly", 0, BadSetting},
		{"vacation", 0, BadSetting},
		{"vacation forever", 0, BadSetting},
		{"vacation 0", 0, BadSetting},
	}
	for _, tt := range tests {
		got := Parse("", tt.line, Context{Game: tt.game})
		if len(got.Commands) != 0 || len(got.Errors) != 1 {
			t.Errorf("Parse(%q, game %d) = %+v, want one error", tt.line, tt.game, got)
			continue
		}
		e := got.Errors[0]
		if e.Problem != tt.want {
			t.Errorf("Parse(%q, game %d) problem = %v (%s), want %v", tt.line, tt.game, e.Problem, e.Reason, tt.want)
		}
		if want := cut(strings.TrimFunc(tt.line, isSpace), maxLineLen); e.Line != want {
			t.Errorf("Parse(%q, game %d) error line = %q, want %q", tt.line, tt.game, e.Line, want)
		}
		if e.Reason == "" {
			t.Errorf("Parse(%q, game %d) error has no reason", tt.line, tt.game)
		}
	}
}

// TestReasonNamesTheFix spot-checks that a reason says how to fix the line.
func TestReasonNamesTheFix(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		game int64
		want string // a part of the reason
	}{
		{"mvoe congo 42 b2-b3", 0, `"mvoe"`},
		{"mvoe congo 42 b2-b3", 0, `did you mean "move congo 42 b2-b3"?`},
		{"mvoe congo", 0, `"help"`},
		{"congo mvoe 42 b2-b3", 0, `"mvoe"`},
		{"congo game 42", 0, `"game"`},
		{"move b2-b3", 0, "move congo <id> <move>"},
		{"move congo 42 xyz", 0, `"xyz"`},
		{"move congo 42 xyz", 0, "b2-b3"},
		{"b2-b3", 0, "move congo <id> b2-b3"},
		{"register \u0430lice", 0, "2-20"},
		{"accept congo abc", 0, "accept congo <id>"},
		{"move congo 42", 0, "move congo 42 b2-b3"},
		{"help " + strings.Repeat("x", 100), 0, strings.Repeat("x", maxWordLen) + `..."`},
	}
	for _, tt := range tests {
		got := Parse("", tt.line, Context{Game: tt.game})
		if len(got.Errors) != 1 || !strings.Contains(got.Errors[0].Reason, tt.want) {
			t.Errorf("Parse(%q) = %+v, want one error whose reason holds %q", tt.line, got, tt.want)
		}
	}
}

func TestValidHandle(t *testing.T) {
	t.Parallel()
	tests := []struct {
		h    string
		want bool
	}{
		{"al", true},
		{"alice", true},
		{"ALICE", true},
		{"alice-b_2", true},
		{"42", true},
		{"--", true},
		{"abcdefghijklmnopqrst", true},
		{"", false},
		{"a", false},
		{"abcdefghijklmnopqrstu", false},
		{"alice smith", false},
		{"alice!", false},
		{"alice.b", false},
		{"alice@example.com", false},
		{"\u0430lice", false},                     // Cyrillic a
		{"\uff41\uff4c\uff49\uff43\uff45", false}, // fullwidth
		{"alice\u200b", false},                    // zero-width space
		{"al\u00efce", false},
		{"\u00e9\u00e9", false}, // two letters, four bytes
	}
	for _, tt := range tests {
		if got := ValidHandle(tt.h); got != tt.want {
			t.Errorf("ValidHandle(%q) = %v, want %v", tt.h, got, tt.want)
		}
	}
}

func TestKindString(t *testing.T) {
	t.Parallel()
	for k := Help; k <= lastKind; k++ {
		if !k.Valid() {
			t.Errorf("Kind(%d).Valid() = false, want true", k)
		}
		if got := keyword(k.String()); got != k {
			t.Errorf("keyword(%q) = %v, want %v", k.String(), got, k)
		}
	}
	for _, k := range []Kind{NoKind, lastKind + 1} {
		if k.Valid() {
			t.Errorf("Kind(%d).Valid() = true, want false", k)
		}
	}
}
