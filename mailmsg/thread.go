package mailmsg

import (
	"slices"
	"strings"
)

// ValidID reports whether id can stand between the brackets of a
// Message-ID: id-left@id-right without white space, brackets or controls.
func ValidID(id string) bool {
	left, right, ok := strings.Cut(id, "@")
	if !ok || left == "" || right == "" {
		return false
	}
	return !strings.ContainsFunc(id, func(r rune) bool { return r <= ' ' || r == '<' || r == '>' || r == 0x7f })
}

// MaxThreadIDs bounds how many Message-IDs of each of a mail's
// In-Reply-To and References Answers lists: the closest ones, as a
// thread is named by the mails nearest the answer, and a long or forged
// header must not cost a lookup per id.
const MaxThreadIDs = 20

// Answers lists the Message-IDs the mail answers, the closest first: its
// first In-Reply-To ids and its last References, MaxThreadIDs of each at
// most.
func (m *Incoming) Answers() []string {
	ids := slices.Clone(m.InReplyTo[:min(len(m.InReplyTo), MaxThreadIDs)])
	for i := len(m.References) - 1; i >= max(len(m.References)-MaxThreadIDs, 0); i-- {
		ids = append(ids, m.References[i])
	}
	return ids
}

// MaxReferences bounds the References of a reply: the thread's root and
// the latest ids.
const MaxReferences = 20

// ReplyReferences is the References of a reply to m: m's own, then m's
// Message-ID, with root, the first mail of the thread, first when m did
// not name it; invalid ids are left out, and MaxReferences kept at most.
func (m *Incoming) ReplyReferences(root string) []string {
	var refs []string
	for _, id := range append(slices.Clone(m.References), m.MessageID) {
		if ValidID(id) {
			refs = append(refs, id)
		}
	}
	if root != "" && !slices.Contains(refs, root) {
		refs = append([]string{root}, refs...)
	}
	if len(refs) > MaxReferences {
		refs = append(refs[:1], refs[len(refs)-MaxReferences+1:]...)
	}
	return refs
}
