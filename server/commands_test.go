package server

import (
	"strings"
	"testing"

	"github.com/congobymail/congo/game"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/templates"
)

// needs is who may give each command: the decision, written out once more
// so that a change to the table is a change to this test too.
var needs = []struct {
	line string
	want need
}{
	{"help", anyone},
	{"register alice", anyone},
	{"rules", anyone},
	{"games", registered},
	{"board congo 1", proven},
	{"history congo 1", registered},
	{"ratings", registered},
	{"analyze congo 1", proven},
	{"conditional congo 1", registered},
	{"conditional congo 1 clear", proven},
	{"newkey", proven},
	{"challenge congo bob", proven},
	{"accept congo 1", proven},
	{"decline congo 1", proven},
	{"move congo 1 b2-b3", proven},
	{"resign congo 1", proven},
	{"draw congo 1", proven},
	{"nodraw congo 1", proven},
	{"takeback congo 1", proven},
	{"abort congo 1", proven},
	{"if b2-b3 then b6-b5", proven},
	{"if b2-b3 then resign", proven},
	{"note congo 1 his monkey is loose", proven},
	{"notes congo 1", registered},
	{"preview congo 1 b2-b3 b6-b5", proven},
	{"observe congo 1", proven},
	{"unobserve congo 1", proven},
	{"seek congo", proven},
	{"notify digest", proven},
	{"vacation 3", proven},
	{"language cs", proven},
	{"rename carol", proven},
	{"guard off", proven},
	{"tournament new swiss Spring Cup", proven},
	{"tournament start 1", proven},
	{"tournament cancel 1", proven},
	{"tournament kick 1 bob", proven},
	{"tournament 1 add robot", proven},
	{"tournament close 1", proven},
	{"challenge ladder 1 bob", proven},
	{"tournament 1", proven},
	{"tournaments", registered},
	{"join tournament 1", proven},
	{"leave tournament 1", proven},
	{"ban bob", operatorOnly},
	{"unban bob", operatorOnly},
	{"adjourn congo 1", operatorOnly},
	{"adjudicate congo 1 draw", operatorOnly},
	{"resume congo 1", proven}, // the operator's too
	{"pause congo 1", proven},
	{"give congo 1 2d", proven},
	{"claim congo 1", proven},
	{"timezone Europe/Prague", proven},
	{"timezone", registered},
	{"weekends pause", proven},
}

// TestCommandNeeds checks the proof each command needs, over the table:
// every command the parser knows has an entry, and each needs what the
// decision above says.
func TestCommandNeeds(t *testing.T) {
	t.Parallel()
	seen := map[parser.Kind]bool{}
	for _, tt := range needs {
		r := parser.Parse("", tt.line, parser.Context{Game: 1, Operator: true})
		if len(r.Commands) != 1 {
			t.Fatalf("Parse(%q) = %+v, want one command", tt.line, r)
		}
		c := r.Commands[0]
		seen[c.Kind] = true
		if got := needOf(c); got != tt.want {
			t.Errorf("%q needs %v, want %v", tt.line, got, tt.want)
		}
	}
	for k := parser.Help; k.Valid(); k++ {
		if _, ok := commands[k]; !ok {
			t.Errorf("the parser knows %v, the table of commands does not", k)
		}
		if !seen[k] {
			t.Errorf("%v is not in this test's list of needs", k)
		}
		if k.Operator() != (commands[k].need == operatorOnly) {
			t.Errorf("%v: the parser reads it in the operator's mail only = %v, the table says it needs %v", k, k.Operator(), commands[k].need)
		}
	}
}

// TestRefusalsHaveWords: every refusal of a change to a game is told in
// the mails' own words for it (the server names templates' problems with
// the game's).
func TestRefusalsHaveWords(t *testing.T) {
	t.Parallel()
	unknown := renderProblem(t, "no such problem")
	problems := []game.Problem{}
	for p := game.NotChallenged; p <= game.BadConditional; p++ {
		problems = append(problems, p)
	}
	for p := game.PausedAlready; p <= game.NotLate; p++ {
		problems = append(problems, p)
	}
	for _, p := range problems {
		if got := renderProblem(t, templates.Problem(p.String())); got == unknown || strings.TrimSpace(got) == "> b2-b3" {
			t.Errorf("refusal %v has no words in the mails:\n%s", p, got)
		}
	}
}

func renderProblem(t *testing.T, p templates.Problem) string {
	t.Helper()
	g := templates.Game{ID: 1, White: "alice", Black: "bob", State: templates.Playing, ToMove: "alice"}
	_, body, err := templates.Reply(templates.ReplyData{Sections: []templates.Section{
		templates.Error{Line: "b2-b3", Problem: p, GameID: 1, Game: &g, Handle: "bob", Detail: "why"}}})
	if err != nil {
		t.Fatal(err)
	}
	return body
}
