// Package pgtest gives tests a PostgreSQL database of their own: a fresh
// schema on the server that CONGO_TEST_POSTGRES names (.ci/postgres
// starts one on loopback), dropped when the test ends.
package pgtest

import (
	"crypto/rand"
	"database/sql"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver
)

// Env is the environment variable that names the server, as a URL
// postgres://user:password@host:port/dbname?sslmode=disable.
const Env = "CONGO_TEST_POSTGRES"

// Server returns the URL of the test server; "" when there is none.
func Server() string { return os.Getenv(Env) }

// Skip skips the test when there is no test server, saying so loudly;
// under CI (CI=true), where .ci/run starts one, the test fails instead.
func Skip(t testing.TB) {
	t.Helper()
	if Server() != "" {
		return
	}
	msg := "SKIPPED on PostgreSQL: " + Env + " names no server (.ci/postgres start prints one); these tests ran on SQLite alone"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// URL creates a schema of its own for the test on the test server and
// returns the server's URL with that schema as its search_path; the
// schema is dropped when the test ends. It skips the test (Skip) when
// there is no server.
func URL(t testing.TB) string {
	t.Helper()
	Skip(t)
	base := Server()
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	name := "t_" + strings.ToLower(rand.Text()[:16])
	if _, err := admin.Exec("CREATE SCHEMA " + name); err != nil { // a name of letters and digits
		admin.Close()
		t.Fatalf("pgtest: create schema: %v", err)
	}
	t.Cleanup(func() {
		defer admin.Close()
		if _, err := admin.Exec("DROP SCHEMA " + name + " CASCADE"); err != nil {
			t.Errorf("pgtest: drop schema %s: %v", name, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("pgtest: %s: %v", Env, err)
	}
	q := u.Query()
	q.Set("search_path", name)
	u.RawQuery = q.Encode()
	return u.String()
}

// Name is a short name of the backend a test runs on, for messages.
func Name(dsn string) string {
	if strings.HasPrefix(dsn, "postgres") {
		return "PostgreSQL"
	}
	return fmt.Sprintf("SQLite (%s)", dsn)
}

// Run runs tests on PostgreSQL, as subtests of t in the order of their
// names: a package's TestPostgres, which skips (or under CI fails)
// without a server. Their DSN is then a schema of their own.
func Run(t *testing.T, tests map[string]func(*testing.T)) {
	Skip(t)
	names := make([]string, 0, len(tests))
	for name := range tests {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		t.Run(name, tests[name])
	}
}

// On reports whether t runs under a package's TestPostgres (Run).
func On(t testing.TB) bool { return strings.HasPrefix(t.Name(), "TestPostgres/") }

// Need skips a PostgreSQL test run on its own, outside TestPostgres.
func Need(t *testing.T) {
	t.Helper()
	if !On(t) {
		t.Skip("runs under TestPostgres")
	}
}

// DSN is a database for t alone: under TestPostgres a schema of its own
// on the test server (URL), else a SQLite file in a temporary directory.
func DSN(t testing.TB) string {
	t.Helper()
	if On(t) {
		return URL(t)
	}
	return filepath.Join(t.TempDir(), "congo.db")
}

// Placed fails t for each test function of the package's *_test.go
// files (TestMain aside) for which placed is false, naming where it is:
// a package's check that each of its tests runs on PostgreSQL too or is
// set apart, with the reason in why.
func Placed(t *testing.T, placed func(name string) bool, why string) {
	t.Helper()
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Test") || fn.Name.Name == "TestMain" {
				continue
			}
			if !placed(fn.Name.Name) {
				t.Errorf("%s: %s %s", fset.Position(fn.Pos()), fn.Name.Name, why)
			}
		}
	}
}
