package templates

import "testing"

// BenchmarkBoardMail renders a board mail, text and HTML, as the server
// does for every move and every "board" command.
func BenchmarkBoardMail(b *testing.B) {
	d := htmlBoard()
	for b.Loop() {
		if _, _, _, err := BoardMail(d); err != nil {
			b.Fatal(err)
		}
	}
}
