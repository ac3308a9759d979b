package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/congobymail/congo/internal/pgtest"
)

// onPostgres are the end-to-end tests that run on PostgreSQL too, as
// subtests of TestPostgres: their testDB is a schema of their own on the
// test server (M47: the same tests on both).
var onPostgres = map[string]func(*testing.T){
	"TestAdmin":                   TestAdmin,
	"TestEndToEnd":                TestEndToEnd,
	"TestEndToEndFeatures":        TestEndToEndFeatures,
	"TestEndToEndProse":           TestEndToEndProse,
	"TestEndToEndRobot":           TestEndToEndRobot,
	"TestEndToEndTournaments":     TestEndToEndTournaments,
	"TestEndToEndAnalysis":        TestEndToEndAnalysis,
	"TestEndToEndAnalysisRestart": TestEndToEndAnalysisRestart,
	"TestMetricsAnalysisAndRobot": TestMetricsAnalysisAndRobot,
	"TestHostileMail":             TestHostileMail,
	"TestLogLines":                TestLogLines,
	"TestMetrics":                 TestMetrics,
	"TestSMTPFailures":            TestSMTPFailures,
	"TestHealthz":                 TestHealthz,
	"TestBackupPostgres":          TestBackupPostgres,
	"TestCheckConfigPostgres":     TestCheckConfigPostgres,
	"TestWebInDaemon":             TestWebInDaemon,
	"TestEndToEndLanguages":       TestEndToEndLanguages,
}

// notOnPostgres are the other tests, which have no database or are about
// a SQLite file (or run PostgreSQL themselves: the two-daemon crash test).
var notOnPostgres = []string{
	"TestConfigPrecedence", "TestSubcommandArgs", "TestCheckConfigNamesBadKey", "TestCheckConfigOK",
	"TestExampleConfig", "TestREADMESettings", "TestPseudoRevision", "TestVersionFlag", "TestNewLogger",
	"TestConfigFileNumber", "TestRobotSetting", "TestREADMEQuickStart", "TestCrash", "TestCrashTwoDaemons",
	"TestDemoListensOnLoopbackOnly", "TestDemoRestart", "TestEndToEndDovecot", "TestHostileLargeMail",
	"TestHealthzHidesErrors", "TestHTTPWarnsWhenNotLoopback", "TestCleartextPasswordRefused",
	"TestBackupRestore", "TestDatabaseOutage", "TestRunStagesStopsInOrder", "TestRunStagesDeadline",
	"TestRunStagesLoopFails", "TestPostgres", "TestEveryTestPlaced", "TestStandbyWaits", "TestLeaseLoop", "TestLanguageSetting",
	// Postfix and the hand-over file are about SMTP and a file beside a
	// SQLite database; the demo runs on SQLite.
	"TestCheckConfigConnects", "TestDemoWeb", "TestHandOverSettles", "TestSMTPOutagePostfix",
	"TestSMTPLoginRefusedPostfix", "TestCrashPostfix", "TestTLSServerNameAndEHLO",
}

// TestPostgres runs the tests of onPostgres on PostgreSQL (skipped, or
// under CI failed, without a server).
func TestPostgres(t *testing.T) {
	pgtest.Skip(t)
	names := make([]string, 0, len(onPostgres))
	for name := range onPostgres {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		t.Run(name, onPostgres[name])
	}
}

// onPG reports whether t runs under TestPostgres.
func onPG(t testing.TB) bool { return strings.HasPrefix(t.Name(), "TestPostgres/") }

// testDB is the -db of a test's daemon: a SQLite file in a temporary
// directory, or under TestPostgres a PostgreSQL schema of its own.
func testDB(t testing.TB) string {
	t.Helper()
	if onPG(t) {
		return pgtest.URL(t)
	}
	return filepath.Join(t.TempDir(), "congo.db")
}

// needPG skips a PostgreSQL test run on its own, outside TestPostgres.
func needPG(t *testing.T) {
	t.Helper()
	if !onPG(t) {
		t.Skip("runs under TestPostgres")
	}
}

// TestEveryTestPlaced: every test of the package runs on PostgreSQL too,
// or is named in notOnPostgres.
func TestEveryTestPlaced(t *testing.T) {
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
			_, pg := onPostgres[fn.Name.Name]
			if other := slices.Contains(notOnPostgres, fn.Name.Name); pg == other {
				t.Errorf("%s: %s is in neither onPostgres nor notOnPostgres (or in both)", fset.Position(fn.Pos()), fn.Name.Name)
			}
		}
	}
}
