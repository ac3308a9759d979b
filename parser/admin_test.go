package parser

import (
	"reflect"
	"testing"
)

func TestParseAdmin(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		ok   bool
		want Command
	}{
		{"ban Alice", true, Command{Kind: Ban, Args: BanArgs{Handle: "Alice"}}},
		{"UNBAN alice", true, Command{Kind: Unban, Args: BanArgs{Handle: "alice"}}},
		{"adjourn congo 42", true, Command{Kind: Adjourn, Game: 42}},
		{"resume 42", true, Command{Kind: Resume, Game: 42}},
		{"adjudicate congo 7 draw", true, Command{Kind: Adjudicate, Game: 7, Args: AdjudicateArgs{Result: "draw"}}},
		{"adjudicate 7 Black", true, Command{Kind: Adjudicate, Game: 7, Args: AdjudicateArgs{Result: "black"}}},
		{"adjudicate 7 nobody", true, Command{}},
		{"adjourn congo x", true, Command{}},
		{"ban", true, Command{}},
		{"move congo 1 b2-b3", false, Command{}},
		{"", false, Command{}},
	}
	for _, tt := range tests {
		got, e, ok := ParseAdmin(tt.line)
		got.Line = ""
		if ok != tt.ok || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseAdmin(%q) = %+v, %v, want %+v, %v", tt.line, got, ok, tt.want, tt.ok)
		}
		if bad := ok && got.Kind == NoKind; bad != (e.Problem == BadAdmin) {
			t.Errorf("ParseAdmin(%q) error %+v, want BadAdmin exactly when not understood", tt.line, e)
		}
	}
}

// TestOperatorWordsOnlyForTheOperator: ban and the like are commands in
// the operator's mail only; in anyone else's they are unknown words.
func TestOperatorWordsOnlyForTheOperator(t *testing.T) {
	t.Parallel()
	for _, line := range []string{"ban bob", "adjourn congo 4", "adjudicate 4 draw"} {
		r := Parse("", line, Context{})
		if len(r.Commands) != 0 || len(r.Errors) != 1 || r.Errors[0].Problem != UnknownCommand {
			t.Errorf("Parse(%q) for a player = %+v, want an unknown command", line, r)
		}
		// In a mail about a game, a player's line that starts with no
		// command word of theirs is part of the message (M19).
		r = Parse("", line, Context{Game: 4})
		if len(r.Commands) != 0 || len(r.Errors) != 0 || r.Message != line {
			t.Errorf("Parse(%q) for a player in a mail about a game = %+v, want the message %q", line, r, line)
		}
		r = Parse("", line, Context{Game: 4, Operator: true})
		if len(r.Commands) != 1 || !r.Commands[0].Kind.Operator() {
			t.Errorf("Parse(%q) for the operator = %+v, want the operator's command", line, r)
		}
	}
}
