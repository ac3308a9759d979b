// Command congo answers questions about Congo positions: legal moves,
// moves applied, diagrams, perft counts, the engine's best move, and
// matches between engines.
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
  congo bestmove POSITION [-depth N | -time D | -nodes N | -level L] [-seed S]
                 [-tables DIR]    the engine's move, its score and the line it
                                  expects (by default as level 5 plays)
  congo match -a PLAYER -b PLAYER [-games N] [-seed S] [-opening P] [-v]
              [-tables DIR] [-a-tables DIR] [-b-tables DIR] [-positions FILE]
                                  games between two players from varied
                                  openings: a's wins, draws, losses and the
                                  Elo difference
  congo analyze FILE [-nodes N] [-tables DIR]
                                  the engine's analysis of the game in a
                                  record file (- for standard input): each
                                  move's evaluation and mark, a summary per
                                  player, a graph, the record annotated
  congo tables [DIR] [MATERIAL...]
                                  build the endgame tables into DIR: every
                                  position of four men or fewer (or of the
                                  materials named, like LZvLE or LZPvLE)
  congo probe POSITION [-tables DIR]
                                  what the endgame tables say of a position:
                                  win N, loss N, draw or unknown
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

bestmove prints four lines:
  bestmove MOVE                 the move, canonical, alone after one space
  score cp N | score mate N     cp: hundredths of a pawn for the side to move;
                                mate N: the side to move captures the enemy
                                lion (or leaves it no move) on its N-th ply
                                from now, mate -N: loses so on ply N
  pv MOVE...                    the expected line, starting with MOVE
  info depth D nodes N time T nps R   (T and R vary from run to run)
-depth and -nodes give the same answer on every run; -time (like 500ms or 2s)
does not. -level L searches as level L (1 weakest to 5 strongest) plays; the
levels: 1 depth 1, 2 depth 2, 3 depth 3, 4 depth 5, 5 up to 1500000 nodes,
with a node limit each and a time cap of 10s a move that only a machine far
too slow reaches. -seed varies the choice among equal moves.

match plays -games N games (default 10) between players a and b, each a
level 1..5, random (any legal move) or greedy (the capture taking the most,
else any move). Every opening (-opening P random plies from the start,
default 4, chosen by -seed S, default 1) is played twice, a with White then
with Black. A game is drawn when a position occurs for the third time (the
rules have no such draw, R19, but two programs could go round a cycle for
ever) or when it is longer than 300 plies; levels 2 to 5 resign after 3
searches in a row scoring -12 pawns or worse, and avoid repeating a position
when ahead. It prints, with -v a line per game first (with the number of
moves the time cap stopped, if any):
  a=A b=B games=N wins=W draws=D losses=L score=S%
  elo=E ±M (95%)                E and M in Elo points, E signed: a's
                                rating minus b's; when a won (lost) every
  elo=+inf (95%: at least E)    game, the one-sided 95% bound instead
  elo=-inf (95%: at most E)

The endgame tables hold the exact value of every position with at most
two pieces besides the two lions (four men): tables builds them into DIR
(the directory of CONGO_TABLES, or congo-tables in the user's cache
directory, when none is given): 63 files, 11 MB, in under a minute on two
cores. MATERIALs after DIR, each written as White's lion and pieces, v,
Black's (LZPvLE: lion, zebra and pawn against lion and elephant), build
their tables alone, with those they lead to: five men too, about 30 s and
11 MB each (LZPvLE, with LZSvLE which its pawn leads to: a minute, 21 MB).
probe prints one line for the side to move: win N (it captures the
enemy lion on its N-th move with best play on both sides), loss N (the
other side does, on its N-th), draw (neither can force it), or unknown for
a position outside the tables (more men, a lion already captured). A side
with no legal move has lost (loss 0), two lone lions draw unless the side
to move can capture, no repetition rule applies. Without -tables, probe
uses the directory of tables above, building it first if it is empty.
With -tables DIR, bestmove (at levels 4 and 5), match (players 4 and 5 of
both sides, or of a or b alone with -a-tables, -b-tables; the player
"tables" plays every position the tables hold by them, and others as level
5) and analyze play and judge such positions by the tables: a won one is
won in exactly its N, and the analysis says "from the tables". match
-positions FILE starts the games from the positions of FILE (one a line),
each played twice, a with the side to move first.

analyze reads a game in the format of the history command (tag pairs,
then the moves with their numbers, comments in braces and the result; the
marks of an analysis after a move are ignored) and judges every move with
the engine at -nodes N nodes a position (default 200000, as the analysis by
mail), so the same game gives the same analysis on every machine. It
prints a line per move: the move with its mark (?! for 0.5 pawn lost
against the engine's best move or more, ? for 1.0, ?? for 3.0, a lion lost
or a win missed or thrown away), the evaluation after it from White's side
(pawns, +lion in N or -lion in N when White or Black takes the lion by
force in N moves, or the result), and for a marked move the better one with
its line; then per player the marks and the average loss; the evaluation
graph; and the record again with the marks and the better moves in braces.

Examples:
  congo perft start 4                   356456
  congo divide start 2
  congo moves "3l3/7/3p3/2p1p2/2Mp3/7/3L3 w 1"
  congo apply start b2-b3 b6-b5         prints the position after both moves
  congo show start
  congo show "3l3/7/3pp2/c1M4/7/7/2L4 w 1" black
  congo bestmove "3l3/7/7/7/7/7/3L3 w 1" -depth 3    bestmove d1xd7 ...
  congo match -a 5 -b greedy -games 100
  congo analyze game42.txt
  congo tables ./tables                 builds the tables into ./tables
  congo probe "7/7/3l3/7/3Z3/7/3L3 w 1" -tables ./tables    win 9

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
	err := dispatch(args, stdout, stderr)
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

func dispatch(args []string, w, stderr io.Writer) error {
	if len(args) == 0 {
		return usagef("no command given")
	}
	cmd, args := args[0], args[1:]
	switch cmd {
	case "help", "-h", "-help", "--help":
		_, err := io.WriteString(w, help)
		return err
	case "analyze":
		return analyze(args, w)
	case "tables":
		return tables(args, w)
	case "match":
		return match(args, w)
	}
	commands := map[string]func(rules.Position, []string) (string, error){
		"perft":    perft,
		"divide":   divide,
		"moves":    moves,
		"apply":    apply,
		"show":     show,
		"bestmove": bestmove,
		"probe":    func(p rules.Position, rest []string) (string, error) { return probe(p, rest, stderr) },
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
