// Command congo answers questions about Congo positions: legal moves,
// moves applied, diagrams, perft counts.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/congobymail/congo/rules"
)

const help = `congo: the rules of Congo (7x7 chess variant) from the command line.

Usage:
  congo perft  POSITION DEPTH     number of sequences of DEPTH legal moves
  congo divide POSITION DEPTH     that number below each legal move, then the total
  congo moves  POSITION           every legal move, one a line, sorted
  congo apply  POSITION MOVE...   the position after the moves, one line
  congo show   POSITION [black]   a diagram of the position (from White's side,
                                  or from Black's with "black")
  congo help                      this text (also -h, --help)

POSITION is one line of FEN-like notation, in quotes, ranks 7 down to 1, then
the side to move and the move number, for example
  "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1"
Letters: L lion, Z zebra, E elephant, G giraffe, M monkey, C crocodile,
P pawn, S superpawn; uppercase for White, lowercase for Black; a digit for
empty squares. The word start stands for the start position.

MOVE is written as players write it: the start square and each square the
piece lands on, joined by - or x: b2-b3, c3xd4, b1xd3xf5 (a monkey's chain);
any case, with a trailing x as in a2-c4-c6x. Output is always canonical.

perft prints the count alone on its last line; divide prints "MOVE COUNT"
lines sorted by move, then the total alone on the last line. A finished game
ends every sequence through it.

Examples:
  congo perft start 4                   356456
  congo divide start 2
  congo moves "3l3/7/3p3/2p1p2/2Mp3/7/3L3 w 1"
  congo apply start b2-b3 b6-b5         prints the position after both moves
  congo show start
  congo show "3l3/7/3pp2/c1M4/7/7/2L4 w 1" black

Exit status: 0 on success, 1 for a bad position, an illegal move or a move
in a finished game (with a message on standard error), 2 for a usage error.
`

// usageError is a command line that does not fit the usage.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command line args and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	err := dispatch(args, stdout)
	var u *usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &u):
		fmt.Fprintf(stderr, "congo: %v\nRun congo help for the usage.\n", err)
		return 2
	default:
		fmt.Fprintf(stderr, "congo: %v\n", err)
		return 1
	}
}

func dispatch(args []string, w io.Writer) error {
	if len(args) == 0 {
		return usagef("no command given")
	}
	cmd, args := args[0], args[1:]
	if cmd == "help" || cmd == "-h" || cmd == "-help" || cmd == "--help" {
		_, err := io.WriteString(w, help)
		return err
	}
	commands := map[string]func(rules.Position, []string) (string, error){
		"perft":  perft,
		"divide": divide,
		"moves":  moves,
		"apply":  apply,
		"show":   show,
	}
	f, ok := commands[cmd]
	if !ok {
		return usagef("unknown command %q", cmd)
	}
	p, rest, err := position(args)
	if err != nil {
		return err
	}
	out, err := f(p, rest)
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, out)
	return err
}

// depth reads the one argument left as a depth of at least least.
func depth(cmd string, rest []string, least int) (int, error) {
	if len(rest) != 1 {
		return 0, usagef("%s wants a position and a depth", cmd)
	}
	d, err := strconv.Atoi(rest[0])
	if err != nil || d < least {
		return 0, usagef("depth %q: want a whole number from %d", rest[0], least)
	}
	return d, nil
}

func perft(p rules.Position, rest []string) (string, error) {
	d, err := depth("perft", rest, 0)
	if err != nil {
		return "", err
	}
	return fmt.Sprintln(rules.Perft(p, d)), nil
}

func divide(p rules.Position, rest []string) (string, error) {
	d, err := depth("divide", rest, 1)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	var total uint64
	for _, e := range rules.Divide(p, d) {
		fmt.Fprintf(&b, "%s %d\n", e.Move, e.Nodes)
		total += e.Nodes
	}
	fmt.Fprintln(&b, total)
	return b.String(), nil
}

func moves(p rules.Position, rest []string) (string, error) {
	if len(rest) != 0 {
		return "", usagef("moves wants a position only, got %q too", rest)
	}
	var list []string
	for _, m := range p.Legal() {
		list = append(list, m.String()+"\n")
	}
	slices.Sort(list)
	return strings.Join(list, ""), nil
}

func apply(p rules.Position, moves []string) (string, error) {
	for i, text := range moves {
		var err error
		if p, _, err = p.Play(text); err != nil {
			if len(moves) > 1 {
				return "", fmt.Errorf("move %d: %w", i+1, err)
			}
			return "", err
		}
	}
	return p.String() + "\n", nil
}

func show(p rules.Position, rest []string) (string, error) {
	side := rules.White
	switch {
	case len(rest) == 0, len(rest) == 1 && rest[0] == "white":
	case len(rest) == 1 && rest[0] == "black":
		side = rules.Black
	default:
		return "", usagef("show wants a position and optionally white or black, got %q too", rest)
	}
	status := fmt.Sprintf("%s to move, move %d", p.Turn(), p.MoveNumber())
	if o := p.Outcome(); o.Over() {
		status = o.String()
	}
	return p.Diagram(side) + status + "\n", nil
}

// position reads the position at the start of args and returns the
// arguments after it. A position is "start", one argument in R21 notation,
// or the same written without quotes (three arguments).
func position(args []string) (rules.Position, []string, error) {
	switch {
	case len(args) == 0:
		return rules.Position{}, nil, usagef("a position is missing (R21 notation in quotes, or start)")
	case args[0] == "start":
		return rules.Start(), args[1:], nil
	case !strings.ContainsAny(args[0], " \t") && len(args) >= 3 && (args[1] == "w" || args[1] == "b"):
		args = append([]string{strings.Join(args[:3], " ")}, args[3:]...)
	}
	p, err := rules.ParsePosition(args[0])
	if err != nil {
		return rules.Position{}, nil, err
	}
	return p, args[1:], nil
}
