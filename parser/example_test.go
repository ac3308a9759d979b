package parser_test

import (
	"fmt"

	"github.com/congobymail/congo/parser"
)

func ExampleParse() {
	body := "b2-b3 #4\nmove congo 43 c3xd4\nmvoe congo 44 a2-a3\n\n" +
		"On Mon, 1 Jan 2024 at 10:00, Congo <congo@example.com> wrote:\n> Congo game 42\n"
	r := parser.Parse("Re: Congo game 42: alice vs bob - bob to move", body, parser.Context{})
	for _, c := range r.Commands {
		fmt.Printf("%v game %d: %s #%d\n", c.Kind, c.Game, c.Move, c.MoveNumber)
	}
	for _, e := range r.Errors {
		fmt.Printf("%q: %s\n", e.Line, e.Reason)
	}
	// Output:
	// move game 42: b2-b3 #4
	// move game 43: c3xd4 #0
	// "mvoe congo 44 a2-a3": unknown command "mvoe"; send "help" for the list of commands
}
