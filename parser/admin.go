package parser

import (
	"strconv"
	"strings"
)

// AdminKind is the kind of an operator's command. The zero value means
// none.
type AdminKind uint8

const (
	NoAdmin    AdminKind = iota
	Ban                  // ban <handle>
	Unban                // unban <handle>
	Adjourn              // adjourn [congo] <id>
	Resume               // resume [congo] <id>
	Adjudicate           // adjudicate [congo] <id> <white|black|draw>
)

var adminWords = map[string]AdminKind{
	"ban": Ban, "unban": Unban, "adjourn": Adjourn, "resume": Resume, "adjudicate": Adjudicate,
}

// String returns the command word of k, such as "ban", or "none".
func (k AdminKind) String() string {
	for w, kk := range adminWords {
		if kk == k {
			return w
		}
	}
	return "none"
}

// Admin is an operator's command.
type Admin struct {
	Kind   AdminKind
	Line   string // as written, trimmed
	Handle string // of ban and unban
	Game   int64  // of adjourn, resume and adjudicate
	Result string // of adjudicate: "white", "black" or "draw"
}

// ParseAdmin reads one line as an operator's command: "ban alice",
// "unban alice", "adjourn congo 42", "resume congo 42", "adjudicate congo
// 42 white" (the word congo is optional; case does not matter). ok is
// false when the line is not one; a line that starts with a command word
// but is otherwise wrong gives ok true and Kind NoAdmin.
func ParseAdmin(line string) (a Admin, ok bool) {
	a.Line = strings.TrimSpace(line)
	f := strings.Fields(strings.ToLower(a.Line))
	if len(f) == 0 {
		return a, false
	}
	kind, ok := adminWords[f[0]]
	if !ok {
		return a, false
	}
	f = f[1:]
	bad := Admin{Line: a.Line}
	switch kind {
	case Ban, Unban:
		if len(f) != 1 {
			return bad, true
		}
		a.Handle = strings.Fields(a.Line)[1]
	default:
		if len(f) > 0 && f[0] == "congo" {
			f = f[1:]
		}
		want := 1
		if kind == Adjudicate {
			want = 2
		}
		if len(f) != want {
			return bad, true
		}
		id, err := strconv.ParseInt(strings.TrimPrefix(f[0], "#"), 10, 64)
		if err != nil || id <= 0 {
			return bad, true
		}
		a.Game = id
		if kind == Adjudicate {
			switch f[1] {
			case "white", "black", "draw":
				a.Result = f[1]
			default:
				return bad, true
			}
		}
	}
	a.Kind = kind
	return a, true
}
