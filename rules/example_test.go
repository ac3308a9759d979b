package rules_test

import (
	"fmt"

	"github.com/congobymail/congo/rules"
)

func ExamplePosition_Play() {
	p, err := rules.ParsePosition("3l3/7/3pp2/c1M4/7/7/2L4 w 1")
	if err != nil {
		panic(err)
	}
	// A monkey's chain, written the MindSports way.
	next, eff, err := p.Play("c4-e6-e4x")
	if err != nil {
		panic(err)
	}
	fmt.Println(eff.Move, "by the", eff.Piece)
	for _, c := range eff.Captured {
		fmt.Println("captured the", c.Piece, "on", c.Square)
	}
	fmt.Println(len(eff.Drowned), "drowned;", eff.Outcome)
	fmt.Println(next)

	_, _, err = next.Play("e4-e3")
	fmt.Println(err)
	// Output:
	// c4xe6xe4 by the white monkey
	// captured the black pawn on d5
	// captured the black pawn on e5
	// 0 drowned; the game goes on
	// 3l3/7/7/c3M2/7/7/2L4 b 1
	// e4-e3: the monkey on e4 is white's, and it is black's move
}

func ExamplePosition_Diagram() {
	fmt.Print(rules.Start().Diagram(rules.White))
	// Output:
	//    a b c d e f g
	// 7  g m|e l e|c z  7
	// 6  p p|p p p|p p  6
	// 5  . .|. . .|. .  5
	// 4  ~ ~ ~ ~ ~ ~ ~  4  river
	// 3  . .|. . .|. .  3
	// 2  P P|P P P|P P  2
	// 1  G M|E L E|C Z  1
	//    a b c d e f g
}

func ExamplePerft() {
	for depth := 1; depth <= 4; depth++ {
		fmt.Println(depth, rules.Perft(rules.Start(), depth))
	}
	// Output:
	// 1 24
	// 2 576
	// 3 14332
	// 4 356456
}
