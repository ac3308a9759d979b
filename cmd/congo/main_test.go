package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/congobymail/congo/rules"
)

func TestRun(t *testing.T) {
	t.Parallel()
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
		{args: []string{"match", "-a", "greedy", "-b", "random", "-games", "4", "-seed", "1", "-v"}, stdout: "" +
			"game 1: a white, a scored 1, 7 plies: white won: black's lion was captured\n" +
			"game 2: a black, a scored 1, 40 plies: black won: white's lion was captured\n" +
			"game 3: a white, a scored 1, 23 plies: white won: black's lion was captured\n" +
			"game 4: a black, a scored 1, 10 plies: black won: white's lion was captured\n" +
			"a=greedy b=random games=4 wins=4 draws=0 losses=0 score=100.0%\n" +
			"elo=+inf (95%: at least -19)\n"},
		{args: []string{"match", "-a", "random", "-b", "greedy", "-games", "2", "-opening", "0"}, stdout: "" +
			"a=random b=greedy games=2 wins=0 draws=0 losses=2 score=0.0%\n" +
			"elo=-inf (95%: at most +216)\n"},
		{args: []string{"match", "-a", "1"}, code: 2, stderr: "match wants -a and -b"},
		{args: []string{"match", "-a", "9", "-b", "1"}, code: 2, stderr: "level 9"},
		{args: []string{"match", "-a", "1", "-b", "1", "-games", "0"}, code: 2, stderr: "-games"},
		{args: []string{"match", "-a", "1", "-b", "1", "-speed", "3"}, code: 2, stderr: "speed"},
		{args: []string{"bestmove", "start", "-depth", "3", "-time", "1s"}, code: 2, stderr: "give one of"},
		{args: []string{"bestmove", "start", "-time", "soon"}, code: 2, stderr: "no duration"},
		{args: []string{"bestmove", "start", "-level", "6"}, code: 2, stderr: "level 6"},
		{args: []string{"bestmove", "start", "d2-d3"}, code: 2, stderr: "unexpected"},
		{args: []string{"bestmove", "3L3/7/7/7/7/7/7 b 1"}, code: 1, stderr: "the game is over"},
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
	t.Parallel()
	for _, cmd := range []string{"perft", "divide", "moves", "apply", "show", "bestmove", "match", "analyze", "tables", "probe", "help"} {
		if !strings.Contains(help, "congo "+cmd+" ") || !strings.Contains(help, "\n  congo "+cmd) {
			t.Errorf("help does not describe %q with an example", cmd)
		}
	}
}

// bestmove prints the move, the score and the line; the last line, with
// the time taken, varies from run to run.
func TestBestmove(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string // the first three lines
	}{
		{[]string{"bestmove", "2elc2/ppp1ppp/7/7/7/PPP1PPP/2ELE2 w 1"}, "bestmove d1xd7\nscore mate 1\npv d1xd7\n"},
		{[]string{"bestmove", "3pl2/3pp2/4Z2/7/7/7/2L4 w 1", "-depth", "4"}, "bestmove e5-g6\nscore mate 3\npv e5-g6 "},
		{[]string{"bestmove", "3l3/3p3/7/C5z/7/3P3/3L3", "w", "1", "-nodes", "20000"}, "bestmove a4xg4\nscore cp "},
		{[]string{"bestmove", "3l3/3p3/7/1m5/7/3P3/1C1L3 w 1", "-time", "200ms"}, "bestmove b1xb4\nscore "},
		{[]string{"bestmove", "3l3/3p3/7/1m5/7/3P3/1C1L3 w 1", "-level", "2", "-seed", "3"}, "bestmove b1xb4\nscore "},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(c.args, &stdout, &stderr); code != 0 {
			t.Errorf("run(%q) = %d, want 0 (stderr %q)", c.args, code, stderr.String())
			continue
		}
		out := stdout.String()
		lines := strings.Split(out, "\n")
		if !strings.HasPrefix(out, c.want) || len(lines) != 5 || !strings.HasPrefix(lines[3], "info depth ") {
			t.Errorf("run(%q) stdout:\n%s\nwant it to start with:\n%s\nand end with an info line", c.args, out, c.want)
		}
	}
	// The same depth gives the same answer.
	args := []string{"bestmove", "start", "-depth", "5", "-seed", "7"}
	var first string
	for range 2 {
		var stdout, stderr bytes.Buffer
		run(args, &stdout, &stderr)
		got, _, _ := strings.Cut(stdout.String(), "info")
		if first != "" && got != first {
			t.Errorf("run(%q) gave\n%s\nthen\n%s", args, first, got)
		}
		first = got
	}
}

func TestAnalyze(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	const game = "[Event \"Congo game 42\"]\n[White \"alice\"]\n[Black \"bob \\\"b\\\"\"]\n[Result \"1-0\"]\n" +
		"[Termination \"lion captured\"]\n\n1. d2-e3 {Good luck!} d6-c5 2. d1xd7 1-0\n"
	file := write("g42.txt", game)
	runAnalyze := func(in string, args ...string) (int, string, string) {
		t.Helper()
		stdin = strings.NewReader(in)
		defer func() { stdin = os.Stdin }()
		var out, errs bytes.Buffer
		code := run(append([]string{"analyze"}, args...), &out, &errs)
		return code, out.String(), errs.String()
	}
	code, first, errs := runAnalyze("", file, "-nodes", "20000")
	if code != 0 || errs != "" {
		t.Fatalf("congo analyze %s = %d, %q", file, code, errs)
	}
	for _, want := range []string{
		"Analysis: 20000 nodes a position",
		"\n1... d6-c5??           +lion in 1   lion lost: better ",
		"\n2. d1xd7               1-0\n",
		"\nBlack: 0 ?!, 0 ?, 1 ??; average loss ",
		"\n[Black \"bob \\\"b\\\"\"]\n[Result \"1-0\"]\n[Termination \"lion captured\"]\n\n1. d2-e3 d6-c5?? {lion lost: better ",
	} {
		if !strings.Contains(first, want) {
			t.Errorf("congo analyze %s =\n%s\nwant it to hold %q", file, first, want)
		}
	}
	if !strings.HasSuffix(first, " 2. d1xd7 1-0\n") {
		t.Errorf("congo analyze %s ends %q, want the annotated record", file, first[max(0, len(first)-40):])
	}
	// The same output again, from standard input, flags first; and from
	// the annotated record it printed.
	if code, again, _ := runAnalyze(game, "-nodes", "20000", "-"); code != 0 || again != first {
		t.Errorf("congo analyze - = %d:\n%s\nwant the same as from the file:\n%s", code, again, first)
	}
	annotated := first[strings.Index(first, "[Event"):]
	if code, again, _ := runAnalyze(annotated, "-", "-nodes", "20000"); code != 0 || again != first {
		t.Errorf("congo analyze of its own record = %d:\n%s\nwant\n%s", code, again, first)
	}
	for _, c := range []struct {
		args   []string
		in     string
		code   int
		stderr string
	}{
		{nil, "", 2, "one record file"},
		{[]string{file, file}, "", 2, "one record file"},
		{[]string{file, "-nodes", "0"}, "", 2, "-nodes"},
		{[]string{filepath.Join(dir, "none.txt")}, "", 1, "none.txt"},
		{[]string{"-"}, "1. d2-e3 d2-d3 *", 1, "move 2: d2-d3"},
		{[]string{"-"}, "1. d2-e3 {unclosed", 1, "not closed"},
		{[]string{"-"}, "[White alice]\n\n1. d2-e3", 1, "line 1"},
		{[]string{"-"}, "1. d2-e3 1-0 d6-c5", 1, "after the result"},
		{[]string{"-"}, "1. d2-e3 d6-c5 2. d1xd7 3. a2-a3", 1, "the game is over"},
	} {
		code, _, errs := runAnalyze(c.in, c.args...)
		if code != c.code || !strings.Contains(errs, c.stderr) {
			t.Errorf("congo analyze %q (input %q) = %d, %q; want %d, %q", c.args, c.in, code, errs, c.code, c.stderr)
		}
	}
}

func TestParseRecord(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text, moves, result string
	}{
		{"", "", ""},
		{"1. d2-e3 *", "d2-e3", "*"},
		{"1.d2-e3 d6-c5 2.D1XD7", "d2-e3 d6-c5 d1xd7", ""},
		{"1. d2-e3?! {a\nlong} d6-c5?? {better e6-d5\n(+0.06)} 2. d1xd7 1-0", "d2-e3 d6-c5 d1xd7", "1-0"},
		{"1. d2-e3 1... d6-c5 1/2-1/2\n", "d2-e3 d6-c5", "1/2-1/2"},
	} {
		rec, err := parseRecord(c.text)
		var got []string
		for _, m := range rec.moves {
			got = append(got, m.String())
		}
		if err != nil || strings.Join(got, " ") != c.moves || rec.result != c.result {
			t.Errorf("parseRecord(%q) = %q %q, %v; want %q %q", c.text, got, rec.result, err, c.moves, c.result)
		}
	}
}

// parseRecord never panics, and the moves it reads replay from the start.
func FuzzParseRecord(f *testing.F) {
	for _, s := range []string{
		"[Event \"Congo game 42\"]\n\n1. d2-e3 {Good luck!} d6-c5 2. d1xd7 1-0\n",
		"1. d2-e3?! {a\nlong} d6-c5?? {better e6-d5} 2. d1xd7 1-0",
		"1.d2-e3 1... d6-c5 *", "{", "[", "[A \"\\\"\"]", "1-0 1-0", "12.",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		rec, err := parseRecord(text)
		if err != nil {
			return
		}
		p := rules.Start()
		for i, m := range rec.moves {
			if _, err := p.ParseMove(m.String()); err != nil {
				t.Fatalf("parseRecord(%q) move %d %v: %v", text, i+1, m, err)
			}
			p = p.After(m)
		}
	})
}
