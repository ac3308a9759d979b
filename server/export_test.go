package server

import "github.com/congobymail/congo/parser"

// LoopMails and LoopQuiet are loopMails and loopQuiet, for
// TestLoopWithAResponder.
const (
	LoopMails = loopMails
	LoopQuiet = loopQuiet
)

// ProvenKinds are the kinds of command whose entry in the table needs a
// proven sender, for TestForgedTestsCoverEveryChange.
func ProvenKinds() []parser.Kind {
	var kinds []parser.Kind
	for k, e := range commands {
		if e.need == proven {
			kinds = append(kinds, k)
		}
	}
	return kinds
}
