package main

import (
	"slices"
	"testing"

	"github.com/congobymail/congo/internal/pgtest"
)

// onPostgres are the end-to-end tests that run on PostgreSQL too, as
// subtests of TestPostgres: their testDB is a schema of their own on the
// test server (M47: the same tests on both).
var onPostgres = map[string]func(*testing.T){
	"TestAdmin":                        TestAdmin,
	"TestEndToEnd":                     TestEndToEnd,
	"TestEndToEndFeatures":             TestEndToEndFeatures,
	"TestEndToEndProse":                TestEndToEndProse,
	"TestEndToEndRobot":                TestEndToEndRobot,
	"TestEndToEndTournaments":          TestEndToEndTournaments,
	"TestEndToEndAnalysis":             TestEndToEndAnalysis,
	"TestEndToEndAnalysisRestart":      TestEndToEndAnalysisRestart,
	"TestMetricsAnalysisAndRobot":      TestMetricsAnalysisAndRobot,
	"TestHostileMail":                  TestHostileMail,
	"TestLogLines":                     TestLogLines,
	"TestMetrics":                      TestMetrics,
	"TestSMTPFailures":                 TestSMTPFailures,
	"TestHealthz":                      TestHealthz,
	"TestBackupPostgres":               TestBackupPostgres,
	"TestCheckConfigPostgres":          TestCheckConfigPostgres,
	"TestWebInDaemon":                  TestWebInDaemon,
	"TestEndToEndLanguages":            TestEndToEndLanguages,
	"TestMailCommand":                  TestMailCommand,
	"TestAdminLikeServe":               TestAdminLikeServe,
	"TestForgedFloodKeepsGameMail":     TestForgedFloodKeepsGameMail,
	"TestForgedMailIsNoLoop":           TestForgedMailIsNoLoop,
	"TestForgedSubjectNotReflected":    TestForgedSubjectNotReflected,
	"TestForgedRegisterCanBeTakenBack": TestForgedRegisterCanBeTakenBack,
	"TestLookalikeHandleRefused":       TestLookalikeHandleRefused,
	"TestSecretInEveryFormRemoved":     TestSecretInEveryFormRemoved,
	"TestWebConnectionsCapped":         TestWebConnectionsCapped,
	"TestEndToEndPlaying":              TestEndToEndPlaying,
}

// notOnPostgres are the other tests, which have no database or are about
// a SQLite file (or run PostgreSQL themselves: the two-daemon crash test).
var notOnPostgres = []string{
	"TestConfigPrecedence", "TestSubcommandArgs", "TestCheckConfigNamesBadKey", "TestCheckConfigOK",
	"TestExampleConfig", "TestPseudoRevision", "TestVersionFlag", "TestNewLogger",
	"TestConfigFileNumber", "TestRobotSetting", "TestREADMEQuickStart", "TestCrash", "TestCrashTwoDaemons",
	"TestDemoListensOnLoopbackOnly", "TestDemoRestart", "TestEndToEndDovecot", "TestHostileLargeMail",
	"TestHealthzHidesErrors", "TestHTTPWarnsWhenNotLoopback", "TestCleartextPasswordRefused",
	"TestBackupRestore", "TestDatabaseOutage", "TestRunStagesStopsInOrder", "TestRunStagesDeadline",
	"TestRunStagesLoopFails", "TestPostgres", "TestEveryTestPlaced", "TestStandbyWaits", "TestLeaseLoop", "TestLanguageSetting",
	// Postfix and the hand-over file are about SMTP and a file beside a
	// SQLite database; the demo runs on SQLite.
	"TestCheckConfigConnects", "TestDemoWeb", "TestHandOverSettles", "TestHandOverLanes", "TestSMTPOutagePostfix",
	"TestSMTPLoginRefusedPostfix", "TestSMTPLoginFixedPostfix", "TestCrashPostfix", "TestTLSServerNameAndEHLO",
}

// TestPostgres runs the tests of onPostgres on PostgreSQL (skipped, or
// under CI failed, without a server).
func TestPostgres(t *testing.T) { pgtest.Run(t, onPostgres) }

// TestEveryTestPlaced: every test of the package runs on PostgreSQL too,
// or is named in notOnPostgres.
func TestEveryTestPlaced(t *testing.T) {
	pgtest.Placed(t, func(name string) bool {
		_, pg := onPostgres[name]
		return pg != slices.Contains(notOnPostgres, name)
	}, "is in neither onPostgres nor notOnPostgres (or in both)")
}
