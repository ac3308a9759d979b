package parser

import "testing"

func TestParseAdmin(t *testing.T) {
	tests := []struct {
		line string
		ok   bool
		want Admin
	}{
		{"ban Alice", true, Admin{Kind: Ban, Handle: "Alice"}},
		{"UNBAN alice", true, Admin{Kind: Unban, Handle: "alice"}},
		{"adjourn congo 42", true, Admin{Kind: Adjourn, Game: 42}},
		{"resume 42", true, Admin{Kind: Resume, Game: 42}},
		{"adjudicate congo 7 draw", true, Admin{Kind: Adjudicate, Game: 7, Result: "draw"}},
		{"adjudicate 7 Black", true, Admin{Kind: Adjudicate, Game: 7, Result: "black"}},
		{"adjudicate 7 nobody", true, Admin{}},
		{"adjourn congo x", true, Admin{}},
		{"ban", true, Admin{}},
		{"move congo 1 b2-b3", false, Admin{}},
		{"", false, Admin{}},
	}
	for _, tt := range tests {
		got, ok := ParseAdmin(tt.line)
		got.Line = ""
		if ok != tt.ok || got != tt.want {
			t.Errorf("ParseAdmin(%q) = %+v, %v, want %+v, %v", tt.line, got, ok, tt.want, tt.ok)
		}
	}
}
