package main

import (
	"bufio"
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/congobymail/congo/engine"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/tablebase"
)

// readPositions reads the positions of a file, one a line in R21
// notation; blank lines and lines starting with # are left out.
func readPositions(path string) ([]rules.Position, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []rules.Position
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p, err := rules.ParsePosition(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no positions", path)
	}
	return out, nil
}

// flags returns a flag set for cmd that reports errors as usage errors.
func flags(cmd string) *flag.FlagSet {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

func parseFlags(cmd string, fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return usagef("%s: %v", cmd, err)
	}
	if fs.NArg() > 0 {
		return usagef("%s: unexpected %q", cmd, fs.Args())
	}
	return nil
}

// seconds reads a duration like "2s" or "500ms", or a number of seconds.
type seconds struct{ d time.Duration }

func (s *seconds) String() string { return s.d.String() }
func (s *seconds) Set(v string) error {
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		s.d = time.Duration(f * float64(time.Second))
	} else if s.d, err = time.ParseDuration(v); err != nil {
		return fmt.Errorf("%q is no duration (like 2s or 500ms)", v)
	}
	if s.d <= 0 {
		return fmt.Errorf("%q: want a positive duration", v)
	}
	return nil
}

func bestmove(p rules.Position, rest []string) (string, error) {
	fs := flags("bestmove")
	tablesDir := fs.String("tables", "", "")
	depth := fs.Int("depth", 0, "")
	nodes := fs.Int64("nodes", 0, "")
	level := fs.Int("level", 0, "")
	seed := fs.Uint64("seed", 0, "")
	var limit seconds
	fs.Var(&limit, "time", "")
	if err := parseFlags("bestmove", fs, rest); err != nil {
		return "", err
	}
	if *depth < 0 || *nodes < 0 {
		return "", usagef("bestmove: -depth and -nodes want a whole number from 1")
	}
	set := 0
	for _, on := range []bool{*depth > 0, *nodes > 0, limit.d > 0, *level != 0} {
		if on {
			set++
		}
	}
	if set > 1 {
		return "", usagef("bestmove: give one of -depth, -nodes, -time and -level")
	}
	if o := p.Outcome(); o.Over() {
		return "", fmt.Errorf("%w (%s)", rules.ErrGameOver, o)
	}
	opts := engine.Options{Seed: *seed, Now: time.Now}
	if *tablesDir != "" {
		ts, err := tablebase.Open(*tablesDir)
		if err != nil {
			return "", err
		}
		opts.Tables = ts
	}
	start := time.Now()
	var lim engine.Limits
	switch {
	case *depth > 0:
		lim.Depth = *depth
	case *nodes > 0:
		lim.Nodes = *nodes
	case limit.d > 0:
		lim.Deadline = start.Add(limit.d)
	default:
		if *level == 0 {
			*level = engine.MaxLevel
		}
		l, err := engine.LevelOf(*level)
		if err != nil {
			return "", usagef("bestmove: %v", err)
		}
		opts.Noise = l.Noise
		lim = l.Limits(start)
		if *level < engine.TablesLevel {
			opts.Tables = nil
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	r := engine.New(opts).Search(ctx, p, lim)
	elapsed := time.Since(start)
	var b strings.Builder
	fmt.Fprintf(&b, "bestmove %v\n", r.Move)
	if n, ok := engine.MatePlies(r.Score); ok {
		fmt.Fprintf(&b, "score mate %d\n", n)
	} else {
		fmt.Fprintf(&b, "score cp %d\n", r.Score)
	}
	pv := make([]string, len(r.PV))
	for i, m := range r.PV {
		pv[i] = m.String()
	}
	fmt.Fprintf(&b, "pv %s\n", strings.Join(pv, " "))
	if r.Tables {
		b.WriteString("info from the tables\n")
	}
	nps := int64(float64(r.Nodes) / max(elapsed.Seconds(), 1e-9))
	fmt.Fprintf(&b, "info depth %d nodes %d time %.3fs nps %d\n", r.Depth, r.Nodes, elapsed.Seconds(), nps)
	return b.String(), nil
}

func match(args []string, w io.Writer) error {
	fs := flags("match")
	a := fs.String("a", "", "")
	bName := fs.String("b", "", "")
	both := fs.String("tables", "", "")
	aTables := fs.String("a-tables", "", "")
	bTables := fs.String("b-tables", "", "")
	positions := fs.String("positions", "", "")
	games := fs.Int("games", 10, "")
	seed := fs.Uint64("seed", 1, "")
	opening := fs.Int("opening", 4, "")
	verbose := fs.Bool("v", false, "")
	if err := parseFlags("match", fs, args); err != nil {
		return err
	}
	if *a == "" || *bName == "" {
		return usagef("match wants -a and -b: a level 1-5, random or greedy")
	}
	if *games < 1 || *opening < 0 {
		return usagef("match: -games wants a whole number from 1, -opening from 0")
	}
	if *both != "" {
		*aTables, *bTables = cmp.Or(*aTables, *both), cmp.Or(*bTables, *both)
	}
	player := func(flag, name, dir string) (engine.Player, error) {
		if dir == "" {
			p, err := engine.NewPlayer(name, time.Now)
			if err != nil {
				return nil, usagef("match -%s: %v", flag, err)
			}
			return p, nil
		}
		ts, err := tablebase.Open(dir)
		if err != nil {
			return nil, err
		}
		p, err := engine.NewPlayerWithTables(name, time.Now, ts)
		if err != nil {
			return nil, usagef("match -%s: %v", flag, err)
		}
		return p, nil
	}
	pa, err := player("a", *a, *aTables)
	if err != nil {
		return err
	}
	pb, err := player("b", *bName, *bTables)
	if err != nil {
		return err
	}
	var starts []rules.Position
	if *positions != "" {
		if starts, err = readPositions(*positions); err != nil {
			return err
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var report func(int, engine.Game)
	if *verbose {
		report = func(i int, g engine.Game) {
			colour := "white"
			if !g.AWhite {
				colour = "black"
			}
			cut := ""
			if g.TimeCut > 0 {
				cut = fmt.Sprintf(" (%d moves stopped by the time cap)", g.TimeCut)
			}
			from := ""
			if len(starts) > 0 {
				from = fmt.Sprintf(" from %s", g.From)
			}
			fmt.Fprintf(w, "game %d%s: a %s, a scored %v, %d plies: %s%s\n", i+1, from, colour, g.Result, len(g.Moves), g.Reason, cut)
		}
	}
	res, err := engine.Match(ctx, pa, pb, engine.MatchOptions{Games: *games, Seed: *seed, OpeningPlies: *opening, Starts: starts}, time.Now, report)
	if res.Games() == 0 {
		return err
	}
	fmt.Fprintf(w, "a=%s b=%s games=%d wins=%d draws=%d losses=%d score=%.1f%%\n",
		*a, *bName, res.Games(), res.Wins, res.Draws, res.Losses, 100*res.Score())
	diff, margin := res.Elo()
	switch {
	case math.IsInf(diff, 1):
		fmt.Fprintf(w, "elo=+inf (95%%: at least %+.0f)\n", margin)
	case math.IsInf(diff, -1):
		fmt.Fprintf(w, "elo=-inf (95%%: at most %+.0f)\n", margin)
	default:
		fmt.Fprintf(w, "elo=%+.0f ±%.0f (95%%)\n", diff, margin)
	}
	return err
}
