package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"strings"

	"github.com/congobymail/congo/analysis"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/tablebase"
)

// stdin is where "congo analyze -" reads the record; tests replace it.
var stdin io.Reader = os.Stdin

// analyze prints the analysis of the game in a record file (or "-" for
// standard input), then the record annotated.
func analyze(args []string, w io.Writer) error {
	fs := flags("analyze")
	nodes := fs.Int64("nodes", analysis.DefaultNodes, "")
	tablesDir := fs.String("tables", "", "")
	// The file may come before or after the flags.
	var file []string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") || len(args) > 0 && args[0] == "-" {
		file, args = args[:1], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return usagef("analyze: %v", err)
	}
	file = append(file, fs.Args()...)
	if len(file) != 1 {
		return usagef("analyze wants one record file, or - for standard input")
	}
	if *nodes < 1 {
		return usagef("analyze: -nodes wants a whole number from 1")
	}
	var text []byte
	var err error
	if file[0] == "-" {
		text, err = io.ReadAll(stdin)
	} else {
		text, err = os.ReadFile(file[0])
	}
	if err != nil {
		return err
	}
	rec, err := parseRecord(string(text))
	if err != nil {
		return fmt.Errorf("%s: %w", file[0], err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	o := analysis.Options{Nodes: *nodes, Start: rec.start}
	if *tablesDir != "" {
		ts, err := tablebase.Open(*tablesDir)
		if err != nil {
			return err
		}
		o.Tables = ts
	}
	a, err := analysis.Analyze(ctx, rec.moves, o)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString(a.Text())
	b.WriteString("\n")
	for _, t := range rec.tags {
		fmt.Fprintf(&b, "[%s \"%s\"]\n", t[0], strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(t[1]))
	}
	if len(rec.tags) > 0 {
		b.WriteString("\n")
	}
	b.WriteString(a.Movetext(rec.result))
	_, err = io.WriteString(w, b.String())
	return err
}

// record is a game read from the record format of docs/playing.md ("The game
// record").
type record struct {
	tags   [][2]string    // name and value, in order
	start  rules.Position // the position the game began from: its Position tag (M72), or the start
	moves  []rules.Move
	result string // "1-0", "0-1", "1/2-1/2", "*"; "" when not written
}

var (
	tagLine    = regexp.MustCompile(`^\[([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\]$`)
	moveNumber = regexp.MustCompile(`^[0-9]+\.(\.\.)?`)
)

// parseRecord reads a game record: tag pairs, one a line, then the moves
// with their numbers, comments in braces, and the result. The moves are
// played from the position of a Position tag (a game from a position,
// M72), or else from the start. Marks after a
// move (as an annotated record has: "?!", "?", "??", "!") are left out,
// so the output of congo analyze may be read again.
func parseRecord(text string) (record, error) {
	var rec record
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	i := 0
	for ; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		if line == "" {
			continue
		}
		if !strings.HasPrefix(line, "[") {
			break
		}
		m := tagLine.FindStringSubmatch(line)
		if m == nil {
			return record{}, fmt.Errorf("line %d: %q is not a tag pair like [White \"alice\"]", i+1, line)
		}
		value := strings.NewReplacer(`\\`, `\`, `\"`, `"`).Replace(m[2])
		rec.tags = append(rec.tags, [2]string{m[1], value})
	}
	moves := strings.Join(lines[i:], "\n")
	rec.start = rules.Start()
	for _, t := range rec.tags {
		if t[0] == "Position" || t[0] == "FEN" {
			p, err := rules.ParsePosition(t[1])
			if err != nil {
				return record{}, fmt.Errorf("the %s tag: %w", t[0], err)
			}
			rec.start = p
		}
	}
	p := rec.start
	for len(moves) > 0 {
		moves = strings.TrimLeft(moves, " \t\n")
		if moves == "" {
			break
		}
		if moves[0] == '{' {
			end := strings.IndexByte(moves, '}')
			if end < 0 {
				return record{}, fmt.Errorf("a comment is not closed: %.20q", moves)
			}
			moves = moves[end+1:]
			continue
		}
		end := strings.IndexAny(moves, " \t\n{")
		if end < 0 {
			end = len(moves)
		}
		tok := moves[:end]
		moves = moves[end:]
		if rec.result != "" {
			return record{}, fmt.Errorf("%q after the result %s", tok, rec.result)
		}
		switch tok {
		case "1-0", "0-1", "1/2-1/2", "*":
			rec.result = tok
			continue
		}
		if n := moveNumber.FindString(tok); n != "" {
			if tok = tok[len(n):]; tok == "" {
				continue
			}
		}
		text := strings.TrimRight(tok, "?!")
		m, err := p.ParseMove(text)
		if err != nil {
			return record{}, fmt.Errorf("move %d: %w", len(rec.moves)+1, err)
		}
		rec.moves = append(rec.moves, m)
		p = p.After(m)
	}
	return rec, nil
}
