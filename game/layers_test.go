package game

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/congobymail/congo"

// deps returns the project packages that the package in dir (relative to
// the module's root) depends on, directly or not, by reading the imports
// of its non-test files.
func deps(t *testing.T, dir string) []string {
	t.Helper()
	seen := map[string]bool{}
	var walk func(dir string)
	walk = func(dir string) {
		files, err := filepath.Glob(filepath.Join("..", dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			af, err := parser.ParseFile(token.NewFileSet(), f, src, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, im := range af.Imports {
				p, _ := strconv.Unquote(im.Path.Value)
				if rest, ok := strings.CutPrefix(p, module+"/"); ok && !seen[rest] {
					seen[rest] = true
					walk(rest)
				}
			}
		}
	}
	walk(dir)
	var out []string
	for p := range seen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// TestLayers: game and director know nothing of mail or wording; rating
// and pairing nothing of the project; parser and rules are pure too (but
// for the languages' codes); and no room knows the server, which
// dispatches to them.
func TestLayers(t *testing.T) {
	t.Parallel()
	for _, p := range deps(t, "game") {
		if slices.Contains([]string{"mailer", "mailmsg", "templates", "server", "outbox"}, p) || strings.HasPrefix(p, "mailer/") {
			t.Errorf("game depends on %s", p)
		}
	}
	for _, pure := range []string{"rating", "pairing", "rules"} {
		if d := deps(t, pure); len(d) > 0 {
			t.Errorf("%s depends on %v, want no project package", pure, d)
		}
	}
	if d := deps(t, "parser"); !slices.Equal(d, []string{"lang", "rules"}) {
		t.Errorf("parser depends on %v, want lang and rules alone", d)
	}
	for _, room := range []string{"account", "lobby", "play", "tournament", "robot", "analyst", "operator", "tell", "command"} {
		if slices.Contains(deps(t, room), "server") {
			t.Errorf("%s depends on server", room)
		}
	}
	for _, p := range deps(t, "director") {
		if slices.Contains([]string{"mailer", "mailmsg", "templates", "server", "outbox"}, p) {
			t.Errorf("director depends on %s", p)
		}
	}
}

// TestSizes: no file of code over 500 lines, and server/, the
// dispatcher, at most 2,000: a feature goes to its room (docs/
// architecture.md), a long file splits by what it does.
func TestSizes(t *testing.T) {
	serverLines := 0
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n := strings.Count(string(b), "\n")
		if n > 500 {
			t.Errorf("%s has %d lines, more than 500", path, n)
		}
		if filepath.Dir(path) == filepath.Join("..", "server") {
			serverLines += n
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if serverLines > 2000 {
		t.Errorf("server/ has %d lines of code, more than 2,000", serverLines)
	}
}
