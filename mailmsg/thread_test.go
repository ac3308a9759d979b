package mailmsg

import (
	"fmt"
	"slices"
	"testing"
)

func TestReplyReferences(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		m    Incoming
		root string
		want []string
	}{
		{"first mail", Incoming{MessageID: "a@x"}, "", []string{"a@x"}},
		{"reply", Incoming{MessageID: "c@x", References: []string{"a@x", "b@x"}}, "a@x", []string{"a@x", "b@x", "c@x"}},
		{"root added", Incoming{MessageID: "c@x", References: []string{"b@x"}}, "r@y", []string{"r@y", "b@x", "c@x"}},
		{"no Message-ID", Incoming{References: []string{"b@x"}}, "", []string{"b@x"}},
		{"invalid ids dropped", Incoming{MessageID: "nonsense", References: []string{"b@x", "with space@x"}}, "", []string{"b@x"}},
	}
	for _, tt := range tests {
		if got := tt.m.ReplyReferences(tt.root); !slices.Equal(got, tt.want) {
			t.Errorf("%s: ReplyReferences(%q %q, %q) = %q, want %q", tt.name, tt.m.MessageID, tt.m.References, tt.root, got, tt.want)
		}
	}

	long := Incoming{MessageID: "last@x"}
	for i := range 30 {
		long.References = append(long.References, fmt.Sprintf("m%d@x", i))
	}
	got := long.ReplyReferences("m0@x")
	if len(got) != MaxReferences || got[0] != "m0@x" || got[len(got)-1] != "last@x" {
		t.Errorf("ReplyReferences(30 references) = %q, want %d: the root first and the latest last", got, MaxReferences)
	}
}

// TestAnswersBounded: a long References header costs a bounded
// number of lookups, the closest ids first.
func TestAnswersBounded(t *testing.T) {
	t.Parallel()
	m := &Incoming{InReplyTo: []string{"reply@x"}}
	for i := range 1000 {
		m.References = append(m.References, fmt.Sprintf("r%d@x", i))
	}
	ids := m.Answers()
	if len(ids) != 1+MaxThreadIDs {
		t.Fatalf("Answers: %d ids, want %d", len(ids), 1+MaxThreadIDs)
	}
	if ids[0] != "reply@x" || ids[1] != "r999@x" || ids[len(ids)-1] != fmt.Sprintf("r%d@x", 1000-MaxThreadIDs) {
		t.Errorf("Answers = %q, want In-Reply-To then the last References, closest first", ids)
	}
	if ids := (&Incoming{InReplyTo: []string{"a@x"}, References: []string{"b@x", "a@x"}}).Answers(); !slices.Equal(ids, []string{"a@x", "a@x", "b@x"}) {
		t.Errorf("Answers(short) = %q", ids)
	}
}
