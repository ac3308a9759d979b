package parser_test

import (
	"fmt"

	"github.com/congobymail/congo/parser"
)

func ExampleParse() {
	body := "Nice move!\n\nb2-b3 #4\nmove congo 43 c3xd4\nmove congo 44 a2-a9\n\nGood luck,\nAlice\n\n" +
		"On Mon, 1 Jan 2024 at 10:00, Congo <congo@example.com> wrote:\n> Congo game 42\n"
	r := parser.Parse("Re: Congo game 42: alice vs bob - bob to move", body, parser.Context{})
	for _, c := range r.Commands {
		m := c.Args.(parser.MoveArgs)
		fmt.Printf("%v game %d: %s #%d\n", c.Kind, c.Game, m.Move, m.Number)
	}
	for _, e := range r.Errors {
		fmt.Printf("%q: %s\n", e.Line, e.Reason)
	}
	fmt.Printf("message: %q\n", r.Message)
	// Output:
	// move game 42: b2-b3 #4
	// move game 43: c3xd4 #0
	// "move congo 44 a2-a9": "a2-a9" is not a move: write it as b2-b3
	// message: "Nice move!\n\nGood luck,\nAlice"
}

// A move inside a sentence is not played (M20): the answer shows how to
// write it alone on its line.
func ExampleParse_embeddedMove() {
	r := parser.Parse("Re: Congo game 42: alice vs bob - bob to move", "I think c3xd4 is best.\n", parser.Context{})
	fmt.Println(len(r.Commands), r.Errors[0].Problem, r.Message == "")
	fmt.Println(r.Errors[0].Reason)
	// Output:
	// 0 embedded move true
	// "c3xd4" was not played: a move must stand alone on its line. To play it, reply with just: c3xd4
}
