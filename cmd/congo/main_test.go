package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/congobymail/congo/rules"
)

func TestRun(t *testing.T) {
	const ring = "3l3/7/3p3/2p1p2/2Mp3/7/3L3 w 1"
	for _, c := range []struct {
		args   []string
		code   int
		stdout string // exactly
		stderr string // a part of it; "" for nothing at all
	}{
		{args: []string{"perft", "start", "3"}, stdout: "14332\n"},
		{args: []string{"perft", rules.StartPosition, "2"}, stdout: "576\n"},
		{args: []string{"perft", ring, "1"}, stdout: "19\n"},
		// The position without quotes: three arguments.
		{args: []string{"perft", "3l3/7/3p3/2p1p2/2Mp3/7/3L3", "w", "1", "1"}, stdout: "19\n"},
		{args: []string{"perft", "start", "0"}, stdout: "1\n"},
		{args: []string{"perft", "3L3/7/7/7/7/7/7 b 1", "3"}, stdout: "0\n"},
		{
			// Facing lions: only after d1-d2 do they still face each other;
			// elsewhere the game is drawn (R17) or won.
			args:   []string{"divide", "3l3/7/7/7/7/7/3L3 w 1", "2"},
			stdout: "d1-c1 0\nd1-c2 0\nd1-d2 6\nd1-e1 0\nd1-e2 0\nd1xd7 0\n6\n",
		},
		{
			args: []string{"moves", "start"},
			stdout: "a1-a3\na1-c3\na2-a3\na2-b3\nb2-a3\nb2-b3\nb2-c3\nc1-c3\nc2-b3\nc2-c3\nc2-d3\nd2-c3\n" +
				"d2-d3\nd2-e3\ne1-e3\ne2-d3\ne2-e3\ne2-f3\nf2-e3\nf2-f3\nf2-g3\ng1-f3\ng2-f3\ng2-g3\n",
		},
		{args: []string{"moves", "3l3/7/7/7/7/7/2L4 w 1"}, stdout: ""},
		{args: []string{"apply", "start"}, stdout: rules.StartPosition + "\n"},
		{args: []string{"apply", "start", "b2-b3"}, stdout: "gmelecz/ppppppp/7/7/1P5/P1PPPPP/GMELECZ b 1\n"},
		{args: []string{"apply", "start", "B2 B3", "c6xc5x", "b3-b4"}, stdout: "gmelecz/pp1pppp/2p4/1P5/7/P1PPPPP/GMELECZ b 2\n"},
		{args: []string{"apply", ring, "c3-c5-e5-e3-c3"}, stdout: "3l3/7/7/7/2M4/7/3L3 b 1\n"},
		{args: []string{"apply", "start", "b2-b5"}, code: 1, stderr: "b2-b5: the pawn on b2 can go to b3, a3, c3\n"},
		{args: []string{"apply", "start", "b2-b3", "b3-b4"}, code: 1, stderr: "move 2: b3-b4: the pawn on b3 is white's, and it is black's move\n"},
		{args: []string{"apply", "3L3/7/7/7/7/7/7 b 1", "a7-a6"}, code: 1, stderr: "the game is over"},
		{args: []string{"apply", "start", "zz"}, code: 1, stderr: "zz: not a move"},
		{args: []string{"show", "start"}, stdout: rules.Start().Diagram(rules.White) + "white to move, move 1\n"},
		{args: []string{"show", "start", "black"}, stdout: rules.Start().Diagram(rules.Black) + "white to move, move 1\n"},
		{args: []string{"show", "3l3/7/7/7/7/7/2L4 b 9"}, stdout: "" +
			"   a b c d e f g\n" +
			"7  . .|. l .|. .  7\n" +
			"6  . .|. . .|. .  6\n" +
			"5  . .|. . .|. .  5\n" +
			"4  ~ ~ ~ ~ ~ ~ ~  4  river\n" +
			"3  . .|. . .|. .  3\n" +
			"2  . .|. . .|. .  2\n" +
			"1  . .|L . .|. .  1\n" +
			"   a b c d e f g\n" +
			"drawn: only the two lions are left\n"},
		{args: []string{"help"}, stdout: help},
		{args: []string{"-h"}, stdout: help},
		{args: []string{"--help"}, stdout: help},
		{args: nil, code: 2, stderr: "no command"},
		{args: []string{"play"}, code: 2, stderr: `unknown command "play"`},
		{args: []string{"perft"}, code: 2, stderr: "position is missing"},
		{args: []string{"perft", "start"}, code: 2, stderr: "depth"},
		{args: []string{"perft", "start", "deep"}, code: 2, stderr: `depth "deep"`},
		{args: []string{"perft", "start", "-1"}, code: 2, stderr: "depth"},
		{args: []string{"divide", "start", "0"}, code: 2, stderr: "depth"},
		{args: []string{"moves", "start", "b2-b3"}, code: 2, stderr: "position only"},
		{args: []string{"show", "start", "purple"}, code: 2, stderr: "white or black"},
		{args: []string{"perft", "3l3/7/7 w 1", "1"}, code: 1, stderr: "want 7 ranks"},
		{args: []string{"moves", "3l3/7/7/7/7/7/L6 w 1"}, code: 1, stderr: "outside its castle"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(c.args, &stdout, &stderr)
		if code != c.code {
			t.Errorf("run(%q) = %d, want %d (stderr %q)", c.args, code, c.code, stderr.String())
		}
		if stdout.String() != c.stdout {
			t.Errorf("run(%q) stdout:\n%s\nwant:\n%s", c.args, stdout.String(), c.stdout)
		}
		switch {
		case c.stderr == "" && stderr.Len() > 0:
			t.Errorf("run(%q) stderr %q, want nothing", c.args, stderr.String())
		case !strings.Contains(stderr.String(), c.stderr):
			t.Errorf("run(%q) stderr %q, want it to contain %q", c.args, stderr.String(), c.stderr)
		}
	}
}

// The help text names every command and gives an example of each.
func TestHelp(t *testing.T) {
	for _, cmd := range []string{"perft", "divide", "moves", "apply", "show", "help"} {
		if !strings.Contains(help, "congo "+cmd+" ") || !strings.Contains(help, "\n  congo "+cmd) {
			t.Errorf("help does not describe %q with an example", cmd)
		}
	}
}
