package db

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/congobymail/congo/internal/pgtest"
)

// onPostgres are the tests of the package that run on PostgreSQL too,
// as subtests of TestPostgres: their openTest and testDSN give them a
// schema of their own on the test server.
var onPostgres = map[string]func(*testing.T){
	"TestBannedAndAdjourned":          TestBannedAndAdjourned,
	"TestGameReadsAdjourned":          TestGameReadsAdjourned,
	"TestAnalysisQueue":               TestAnalysisQueue,
	"TestStoredAnalysis":              TestStoredAnalysis,
	"TestOutboxStats":                 TestOutboxStats,
	"TestTxRollsBack":                 TestTxRollsBack,
	"TestSavepoint":                   TestSavepoint,
	"TestBeforeCommit":                TestBeforeCommit,
	"TestCountMail":                   TestCountMail,
	"TestConcurrentTx":                TestConcurrentTx,
	"TestGameLifeCycle":               TestGameLifeCycle,
	"TestCreateGameChecks":            TestCreateGameChecks,
	"TestGamesOf":                     TestGamesOf,
	"TestMoves":                       TestMoves,
	"TestSeen":                        TestSeen,
	"TestRecordProcessedTwice":        TestRecordProcessedTwice,
	"TestGameOfMessages":              TestGameOfMessages,
	"TestOutbox":                      TestOutbox,
	"TestOutboxTextCompressed":        TestOutboxTextCompressed,
	"TestPruneOutbox":                 TestPruneOutbox,
	"TestCreatePlayer":                TestCreatePlayer,
	"TestPlayerLookups":               TestPlayerLookups,
	"TestSetSecret":                   TestSetSecret,
	"TestRobotGames":                  TestRobotGames,
	"TestGuard":                       TestGuard,
	"TestTournamentRobot":             TestTournamentRobot,
	"TestSentLog":                     TestSentLog,
	"TestGameClocks":                  TestGameClocks,
	"TestNotes":                       TestNotes,
	"TestUpdatePlayer":                TestUpdatePlayer,
	"TestObserversSeeksConditionals":  TestObserversSeeksConditionals,
	"TestTournamentLife":              TestTournamentLife,
	"TestLadderPlaces":                TestLadderPlaces,
	"TestSeekRanges":                  TestSeekRanges,
	"TestPostgresOpenAndMigrate":      TestPostgresOpenAndMigrate,
	"TestPostgresTxNoSync":            TestPostgresTxNoSync,
	"TestPostgresBackup":              TestPostgresBackup,
	"TestPostgresTxAcrossProcesses":   TestPostgresTxAcrossProcesses,
	"TestLease":                       TestLease,
	"TestFence":                       TestFence,
	"TestSentLogDirect":               TestSentLogDirect,
	"TestReadTxRefusesWrites":         TestReadTxRefusesWrites,
	"TestReadTxBesideWriter":          TestReadTxBesideWriter,
	"TestWebQueries":                  TestWebQueries,
	"TestLanguages":                   TestLanguages,
	"TestDueKeepsEachRecipientsOrder": TestDueKeepsEachRecipientsOrder,
	"TestWaitingMail":                 TestWaitingMail,
	"TestTimeFields":                  TestTimeFields,
}

// sqliteOnly are the tests that are about SQLite alone, and why.
var sqliteOnly = map[string]string{
	"TestBackupWhileWriting":           "VACUUM INTO a file; TestPostgresBackup dumps with pg_dump",
	"TestBackupRefuses":                "a SQLite file that is missing or a backup file; TestPostgresBackup",
	"TestOpenMigratesAndReopens":       "user_version and WAL; TestPostgresOpenAndMigrate",
	"TestOpenRefusesNewerSchema":       "user_version; TestPostgresOpenAndMigrate",
	"TestOpenPathWithURICharacters":    "file names",
	"TestSavepointAfterSQLiteRollback": "a trigger's RAISE(ROLLBACK), which PostgreSQL does not have",
	"TestTxNoSync":                     "PRAGMA synchronous; TestPostgresTxNoSync",
	"TestStatusAndResultNames":         "no database",
	"TestFilesAreNotWorldReadable":     "files",
	"TestMigrateCorrespondence":        "a SQLite file of schema version 1",
	"TestSQLOnlyThroughParameters":     "reads the source",
	"TestPlayerColumnsP":               "reads the source",
	"TestMigrationsOfBothBackends":     "reads the migrations",
	"TestEveryTestOnPostgres":          "reads the source",
	"TestPostgres":                     "runs the others",
	"TestRebind":                       "no database",
	"TestGameColumnsG":                 "no database",
	"TestRedactURL":                    "no database",
}

// TestPostgres runs the tests of onPostgres on PostgreSQL, each in a
// schema of its own (skipped, or under CI failed, without a server).
func TestPostgres(t *testing.T) { pgtest.Run(t, onPostgres) }

// TestEveryTestOnPostgres: every test of the package runs on PostgreSQL
// too, or says why not.
func TestEveryTestOnPostgres(t *testing.T) {
	t.Parallel()
	pgtest.Placed(t, func(name string) bool {
		_, pg := onPostgres[name]
		_, lite := sqliteOnly[name]
		return pg != lite
	}, "is in neither onPostgres nor sqliteOnly (or in both)")
}

// TestMigrationsOfBothBackends: every migration of SQLite has its
// PostgreSQL counterpart, of the same number and name.
func TestMigrationsOfBothBackends(t *testing.T) {
	t.Parallel()
	lite, err := migrations("migrations")
	if err != nil {
		t.Fatal(err)
	}
	pg, err := migrations("migrations/postgres")
	if err != nil {
		t.Fatal(err)
	}
	base := func(ms []migration) (names []string) {
		for _, m := range ms {
			names = append(names, path.Base(m.name))
		}
		return names
	}
	if got, want := base(pg), base(lite); !slices.Equal(got, want) {
		t.Errorf("PostgreSQL's migrations = %q, want SQLite's %q: port each to migrations/postgres", got, want)
	}
}

func TestRebind(t *testing.T) {
	t.Parallel()
	d := &DB{pg: true}
	for _, tt := range []struct{ in, want string }{
		{"SELECT 1", "SELECT 1"},
		{"SELECT a FROM t WHERE b = ? AND c = ?", "SELECT a FROM t WHERE b = $1 AND c = $2"},
		{"SELECT '?' || ?", "SELECT '?' || $1"},
		{"SELECT ?::json", "SELECT $1::json"},
	} {
		if got := d.rebind(tt.in); got != tt.want {
			t.Errorf("rebind(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestPostgresOpenAndMigrate: a new schema is brought to the last
// version; opened again it stays there; a newer version is refused; two
// processes opening a new database at once migrate it once.
func TestPostgresOpenAndMigrate(t *testing.T) {
	t.Parallel()
	pgtest.Need(t)
	ctx := context.Background()
	dsn := pgtest.DSN(t)
	ms, err := migrations("migrations/postgres")
	if err != nil {
		t.Fatal(err)
	}
	opened := make(chan error, 2)
	var ds [2]*DB
	for i := range ds {
		go func() {
			var err error
			ds[i], err = Open(ctx, dsn)
			opened <- err
		}()
	}
	for range ds {
		if err := <-opened; err != nil {
			t.Fatalf("Open at once: %v", err)
		}
	}
	for _, d := range ds {
		if v, err := d.SchemaVersion(ctx); err != nil || v != lastVersion(ms) {
			t.Errorf("SchemaVersion() = %d, %v, want %d", v, err, lastVersion(ms))
		}
	}
	inTx(t, ds[0], func(ctx context.Context, tx *Tx) error {
		_, err := tx.AddPlayer(ctx, "Alice", "alice@example.org", "s1", t0)
		return err
	})
	inTx(t, ds[1], func(ctx context.Context, tx *Tx) error {
		p, err := tx.PlayerByHandle(ctx, "ALICE")
		if err != nil || p.Handle != "Alice" {
			t.Errorf("PlayerByHandle(ALICE) = %+v, %v, want Alice", p, err)
		}
		if _, err := tx.AddPlayer(ctx, "alice", "other@example.org", "s2", t0); !errors.Is(err, ErrHandleTaken) {
			t.Errorf("CreatePlayer(alice) = %v, want ErrHandleTaken", err)
		}
		return nil
	})
	for _, d := range ds {
		d.Close()
	}
	d, err := Open(ctx, dsn)
	if err != nil {
		t.Fatalf("Open again: %v", err)
	}
	if _, err := d.sql.Exec("UPDATE schema_version SET version = 999"); err != nil {
		t.Fatal(err)
	}
	d.Close()
	if d, err := Open(ctx, dsn); err == nil {
		d.Close()
		t.Error("Open(schema version 999) succeeded, want an error")
	}
}

// TestPostgresTxNoSync: TxNoSync's commit does not wait for the disk,
// Tx's does.
func TestPostgresTxNoSync(t *testing.T) {
	t.Parallel()
	pgtest.Need(t)
	d := openTest(t)
	ctx := context.Background()
	setting := func(tx *Tx) string {
		var v string
		if err := tx.tx.QueryRowContext(ctx, "SHOW synchronous_commit").Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	for range 2 {
		if err := d.TxNoSync(ctx, func(tx *Tx) error {
			if got := setting(tx); got != "off" {
				t.Errorf("synchronous_commit in TxNoSync = %q, want off", got)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		inTx(t, d, func(ctx context.Context, tx *Tx) error {
			if got := setting(tx); got != "on" {
				t.Errorf("synchronous_commit in Tx = %q, want on", got)
			}
			return nil
		})
	}
}

// TestPostgresBackup dumps a database with pg_dump while it is written,
// refuses to overwrite a file, and leaves no temporary file.
func TestPostgresBackup(t *testing.T) {
	t.Parallel()
	pgtest.Need(t)
	if _, err := exec.LookPath("pg_dump"); err != nil {
		t.Skipf("SKIPPED: no pg_dump: %v", err)
	}
	dsn := pgtest.DSN(t)
	ctx := context.Background()
	d, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		_, err := tx.AddPlayer(ctx, "alice", "alice@example.org", "s1", t0)
		return err
	})
	dir := t.TempDir()
	dest := filepath.Join(dir, "congo.dump")
	if err := Backup(ctx, dsn, dest); err != nil {
		t.Fatalf("Backup: %v", err)
	}
	fi, err := os.Stat(dest)
	if err != nil || fi.Size() == 0 || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the dump: %v, %v; want a file of mode 0600", fi, err)
	}
	if err := d.Backup(ctx, dest); !errors.Is(err, ErrBackupExists) {
		t.Errorf("Backup over a file = %v, want ErrBackupExists", err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*"))
	if len(left) > 0 {
		t.Errorf("Backup left temporary files: %q", left)
	}
}

// TestPostgresTxAcrossProcesses: transactions of two DBs on one database
// (as of two processes) run one at a time: a read-then-write of each
// sees the other's write.
func TestPostgresTxAcrossProcesses(t *testing.T) {
	t.Parallel()
	pgtest.Need(t)
	dsn := pgtest.DSN(t)
	ctx := context.Background()
	var ds [2]*DB
	for i := range ds {
		d, err := Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		ds[i] = d
	}
	const each = 20
	errs := make(chan error, 2*each)
	for _, d := range ds {
		go func() {
			for range each {
				errs <- d.Tx(ctx, func(tx *Tx) error {
					n, err := tx.Pending(ctx)
					if err != nil {
						return err
					}
					_, err = tx.AddMail(ctx, Mail{Created: t0, From: "a", To: "b", MessageID: strings.Repeat("x", n+1), Raw: []byte("x")})
					return err
				})
			}
		}()
	}
	for range 2 * each {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	inTx(t, ds[0], func(ctx context.Context, tx *Tx) error {
		seen := map[string]bool{}
		for id := int64(1); id <= 2*each; id++ {
			m, err := tx.Mail(ctx, id)
			if err != nil {
				return err
			}
			if seen[m.MessageID] {
				t.Errorf("two transactions read the same count %d", len(m.MessageID)-1)
			}
			seen[m.MessageID] = true
		}
		return nil
	})
}

// TestRedactURL: no password of a database URL reaches a log or an
// error, whether in its user part or as a parameter, nor the text of a
// URL that does not parse.
func TestRedactURL(t *testing.T) {
	t.Parallel()
	for _, dsn := range []string{
		"postgres://congo:s3cret@db.example.org/congo",
		"postgres://db.example.org/congo?user=congo&password=s3cret&sslmode=require",
		"postgresql://congo:s3cret@db.example.org/congo?password=s3cret",
	} {
		if got := RedactURL(dsn); strings.Contains(got, "s3cret") || !strings.Contains(got, "db.example.org") {
			t.Errorf("RedactURL(%q) = %q", dsn, got)
		}
		err := redactErr(errors.New("connect to "+dsn+" failed"), dsn)
		if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("redactErr for %q = %q", dsn, err)
		}
	}
	bad := "postgres://congo:s3cr%zzet@db.example.org/congo"
	if err := redactErr(errors.New("parse "+bad+": invalid URL escape"), bad); strings.Contains(err.Error(), "s3cr") {
		t.Errorf("redactErr for an unparsable URL = %q", err)
	}
	if got := RedactURL("congo.db"); got != "congo.db" {
		t.Errorf("RedactURL(a path) = %q", got)
	}
}
