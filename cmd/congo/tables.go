package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/tablebase"
)

// tablesEnv names the directory of the endgame tables when -tables does
// not.
const tablesEnv = "CONGO_TABLES"

// defaultTables returns the directory of the tables when neither -tables
// nor CONGO_TABLES names one: congo-tables in the user's cache directory.
func defaultTables() (string, error) {
	if dir := os.Getenv(tablesEnv); dir != "" {
		return dir, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no directory for the endgame tables: give -tables DIR or set %s (%v)", tablesEnv, err)
	}
	return filepath.Join(cache, "congo-tables"), nil
}

// tables builds the endgame tables into a directory: every material of
// four men, or the materials named after it (with those they lead to).
func tables(args []string, w io.Writer) error {
	var dir string
	var named []string
	for _, a := range args {
		switch {
		case strings.HasPrefix(a, "-"):
			return usagef("tables: unknown flag %q", a)
		case dir == "":
			dir = a
		default:
			named = append(named, a)
		}
	}
	if dir == "" {
		var err error
		if dir, err = defaultTables(); err != nil {
			return usagef("tables wants a directory: %v", err)
		}
	}
	var o tablebase.BuildOptions
	for _, name := range named {
		m, err := tablebase.ParseMaterial(name)
		if err != nil {
			return usagef("tables: %v", err)
		}
		o.Materials = append(o.Materials, m)
	}
	return buildTables(dir, o, w, true)
}

// buildTables builds the tables of o into dir, made if missing, writing a
// line per table when verbose, and a total line.
func buildTables(dir string, o tablebase.BuildOptions, w io.Writer, verbose bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	start := time.Now()
	if verbose {
		o.Progress = func(st tablebase.Stats) {
			fmt.Fprintf(w, "%-8v %9d positions: %8d won, %8d lost, %8d drawn; longest win %3d (%s); %.1f s\n",
				st.Material, st.Positions, st.Wins, st.Losses, st.Draws, st.Longest, st.LongestAt, st.Took.Seconds())
		}
	}
	stats, err := tablebase.Build(dir, o)
	if err != nil {
		return err
	}
	positions, bytes := 0, 0
	for _, st := range stats {
		positions += st.Positions
		bytes += st.Bytes
	}
	fmt.Fprintf(w, "%d tables, %d positions, %d bytes in %s, %.1f s\n", len(stats), positions, bytes, dir, time.Since(start).Seconds())
	return nil
}

// probe prints what the endgame tables say of a position (M76): win N,
// loss N, draw, or unknown.
func probe(p rules.Position, rest []string, stderr io.Writer) (string, error) {
	fs := flags("probe")
	dir := fs.String("tables", "", "")
	if err := parseFlags("probe", fs, rest); err != nil {
		return "", err
	}
	ts, err := openTables(*dir, stderr)
	if err != nil {
		return "", err
	}
	return ts.Probe(p).String() + "\n", nil
}

// openTables opens the tables of dir, or of the default directory when
// dir is "": there, when those of four men are not all built yet, it
// builds them first (keeping those it finds).
func openTables(dir string, stderr io.Writer) (*tablebase.Tables, error) {
	if dir != "" {
		return tablebase.Open(dir)
	}
	dir, err := defaultTables()
	if err != nil {
		return nil, err
	}
	ts, err := tablebase.Open(dir)
	whole := err == nil && len(ts.Materials()) >= len(tablebase.Materials(tablebase.FourMen))
	if !whole && (err == nil || errors.Is(err, fs.ErrNotExist) || errors.Is(err, tablebase.ErrNoTables)) {
		fmt.Fprintf(stderr, "congo: building the endgame tables in %s, once (under a minute)\n", dir)
		if err := buildTables(dir, tablebase.BuildOptions{}, stderr, false); err != nil {
			return nil, err
		}
		ts, err = tablebase.Open(dir)
	}
	return ts, err
}
