package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/congobymail/congo/config"
	"github.com/congobymail/congo/internal/congotest"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/mailer/loopback"
	"github.com/congobymail/congo/mailmsg"
	"github.com/congobymail/congo/rules"
	"github.com/congobymail/congo/server"
)

var crashFull = flag.Bool("crash.full", false, "run the full crash test: 1,000 moves in 50 games, 20 SIGKILLs")

// buildDaemon builds congod into a temporary directory and returns the
// path of the binary. Under -race the daemon is built with -race too (it
// then shares the test's compiled packages, and its races are found).
func buildDaemon(t testing.TB) string {
	t.Helper()
	return buildDaemonWith(t, raceEnabled)
}

// buildDaemonWith builds congod, with the race detector or without it.
func buildDaemonWith(t testing.TB, race bool) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool to build congod with")
	}
	bin := filepath.Join(t.TempDir(), "congod")
	args := []string{"build", "-o", bin}
	if race {
		args = append(args, "-race")
	}
	cmd := exec.Command(goTool, append(args, ".")...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// child is the daemon run as a separate process, so that SIGKILL is real.
type child struct {
	t      testing.TB
	bin    string
	args   []string
	cmd    *exec.Cmd
	exited chan struct{}
	logs   *bytes.Buffer // every run's stderr
	mu     *sync.Mutex
	runs   int
	// logFile, when set, takes the runs' output instead of logs, written
	// by the daemon itself: the test's process copies nothing (a
	// benchmark's daemon logs a line for each mail).
	logFile *os.File
}

// logToFile has the daemon's output go to a file of the test's
// directory, not through the test's process.
func (c *child) logToFile() {
	c.t.Helper()
	f, err := os.CreateTemp(c.t.TempDir(), "congod-*.log")
	if err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() { f.Close() })
	c.logFile = f
}

func newChild(t testing.TB, bin string, args ...string) *child {
	c := &child{t: t, bin: bin, args: args, logs: &bytes.Buffer{}, mu: &sync.Mutex{}}
	t.Cleanup(func() {
		if c.cmd != nil {
			c.kill()
		}
		if t.Failed() {
			log := c.log()
			// A race report is printed whole: the tail below may not hold it.
			for _, r := range raceReports(log) {
				t.Logf("daemon race report:\n%s", r)
			}
			if len(log) > 20000 {
				log = "...\n" + log[len(log)-20000:]
			}
			t.Logf("daemon logs:\n%s", log)
		}
	})
	return c
}

// raceReports returns the race detector's reports in a daemon's log.
func raceReports(log string) []string {
	const start, end = "WARNING: DATA RACE", "=================="
	var reports []string
	for {
		i := strings.Index(log, start)
		if i < 0 {
			return reports
		}
		log = log[i:]
		j := strings.Index(log, end)
		if j < 0 {
			j = len(log)
		}
		reports = append(reports, log[:j])
		log = log[j:]
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (c *child) log() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.logFile != nil {
		b, _ := os.ReadFile(c.logFile.Name())
		return c.logs.String() + string(b)
	}
	return c.logs.String()
}

// start runs the daemon.
func (c *child) start() {
	c.t.Helper()
	c.runs++
	fmt.Fprintf(lockedWriter{c.mu, c.logs}, "--- run %d\n", c.runs)
	c.cmd = exec.Command(c.bin, c.args...)
	c.cmd.Stderr = lockedWriter{c.mu, c.logs}
	c.cmd.Stdout = lockedWriter{c.mu, c.logs}
	if c.logFile != nil {
		c.cmd.Stderr, c.cmd.Stdout = c.logFile, c.logFile
	}
	if err := c.cmd.Start(); err != nil {
		c.t.Fatalf("start congod: %v", err)
	}
	c.exited = make(chan struct{})
	go func(cmd *exec.Cmd, exited chan struct{}) { cmd.Wait(); close(exited) }(c.cmd, c.exited)
}

// waitStarted waits until the current run has logged its start, so that
// its signal handler is in place: a SIGTERM before that ends any Go
// program at once, by the runtime's default.
func (c *child) waitStarted() {
	c.t.Helper()
	mark := fmt.Sprintf("--- run %d\n", c.runs)
	deadline := time.Now().Add(30 * time.Second)
	for {
		log := c.log()
		if i := strings.LastIndex(log, mark); i >= 0 && strings.Contains(log[i:], "congod started") {
			return
		}
		select {
		case <-c.exited:
			return
		default:
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("congod run %d did not start in 30 s", c.runs)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// kill ends the daemon with SIGKILL.
func (c *child) kill() {
	c.cmd.Process.Kill()
	<-c.exited
	c.cmd = nil
}

// stop ends the daemon with SIGTERM and returns how long it took to exit
// and its exit status.
func (c *child) stop() (time.Duration, error) {
	c.waitStarted()
	start := time.Now()
	c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-c.exited:
	case <-time.After(10 * time.Second):
		c.kill()
		return time.Since(start), errors.New("still running 10 s after SIGTERM; killed")
	}
	took := time.Since(start)
	err := c.cmd.ProcessState
	c.cmd = nil
	if !err.Success() {
		return took, fmt.Errorf("exit status %v", err)
	}
	return took, nil
}

// randomGame returns plies legal moves from the start that neither end the
// game nor repeat a position, or nil when the game got stuck. They are
// mailed with anyway after them: a random move may well let a lion be
// taken, which the lion guard (M61) would otherwise hold back.
func randomGame(r *rand.Rand, plies int) []string {
	p := rules.Start()
	seen := map[string]bool{p.String(): true}
	var moves []string
	for len(moves) < plies {
		legal := p.Legal()
		r.Shuffle(len(legal), func(i, j int) { legal[i], legal[j] = legal[j], legal[i] })
		found := false
		for _, m := range legal {
			next, _ := p.Apply(m)
			key, _, _ := strings.Cut(next.String(), " ")
			if next.Outcome().State != rules.Playing || seen[key] {
				continue
			}
			seen[key] = true
			moves = append(moves, m.String())
			p, found = next, true
			break
		}
		if !found {
			return nil
		}
	}
	return moves
}

// crashGame is a game of the crash test.
type crashGame struct {
	id           int64
	white, black string // registered addresses
	whitePA      string // personal addresses
	blackPA      string
	moves        []string
}

// seedGames registers 2n players and starts n games between them, by
// handing mail to the server in process, as the daemon would.
func seedGames(t testing.TB, store *db.DB, n int) []*crashGame {
	t.Helper()
	ctx := context.Background()
	// The players are plus addresses of one mailbox, as for the daemon
	// the tests run: no caps, or the answers of the seeding past a
	// recipient's cap would wait an hour in the outbox (M53).
	srv, err := server.New(server.Config{DB: store, Logger: slog.New(slog.DiscardHandler), Settings: config.Settings{
		Address: "congo@example.org", MaxPerRecipient: -1, MaxPerSender: -1}})
	if err != nil {
		t.Fatal(err)
	}
	seq := 0
	hand := func(from, to, text string) {
		t.Helper()
		seq++
		m := &mailmsg.Incoming{MessageID: fmt.Sprintf("seed%d@test", seq), From: from,
			HeaderRecipients: []string{to}, Subject: "seed", Text: text}
		if err := srv.ProcessMail(ctx, m); err != nil {
			t.Fatalf("seed %q: %v", text, err)
		}
	}
	personal := func(handle string) (db.Player, string) {
		t.Helper()
		var p db.Player
		err := store.Tx(ctx, func(tx *db.Tx) (err error) {
			p, err = tx.PlayerByHandle(ctx, handle)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return p, "congo+" + p.Secret + "@example.org"
	}
	var games []*crashGame
	for i := range n {
		wh, bh := fmt.Sprintf("white%02d", i), fmt.Sprintf("black%02d", i)
		g := &crashGame{white: "players+" + wh + "@example.org", black: "players+" + bh + "@example.org"}
		hand(g.white, "congo@example.org", "register "+wh)
		hand(g.black, "congo@example.org", "register "+bh)
		var wp db.Player
		wp, g.whitePA = personal(wh)
		_, g.blackPA = personal(bh)
		hand(g.black, g.blackPA, "games") // confirms the address (M28)
		hand(g.white, g.whitePA, "challenge congo "+bh+" white")
		err := store.Tx(ctx, func(tx *db.Tx) error {
			gs, err := tx.GamesOf(ctx, wp.ID)
			if err == nil && len(gs) != 1 {
				err = fmt.Errorf("%s has %d games, want 1", wh, len(gs))
			}
			if err == nil {
				g.id = gs[0].ID
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		hand(g.black, g.blackPA, fmt.Sprintf("accept congo %d", g.id))
		games = append(games, g)
	}
	return games
}

// TestCrash feeds move commands to the daemon, a child process, and
// SIGKILLs it at random moments, restarting it each time. In the end every
// game holds exactly the moves sent, every mail the server queued was
// delivered, and the mails delivered twice are counted. Then SIGTERM stops
// it within 5 s (M10). -crash.full runs 1,000 moves in 50 games with 20
// kills; the short version runs in a few seconds.
func TestCrash(t *testing.T) {
	games, plies, kills := 5, 10, 4
	if *crashFull {
		games, plies, kills = 50, 20, 21
	}
	if testing.Short() && !*crashFull {
		t.Skip("builds and runs the daemon")
	}
	sys := congotest.StartMail(t, loopback.Config{Users: congotest.Users("congo", "players")})
	crashTest(t, sys, []string{"-imap", sys.IMAPURL("congo"), "-smtp", sys.SMTPURL()}, games, plies, kills)
}

// crashTest is TestCrash against sys, a mail system with the users congo
// and players, which the daemon reaches with the settings args (-imap,
// -smtp and what they need): games games of plies moves, and kills
// SIGKILLs (and a SIGTERM after every three). It returns how many mails
// were queued and how many of them were delivered twice.
func crashTest(t *testing.T, sys mailSystem, args []string, games, plies, kills int) (queued, dups int) {
	t.Helper()
	bin := buildDaemon(t)
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d: %d games of %d moves, %d kills", seed, games, plies, kills)
	r := rand.New(rand.NewPCG(seed, 1))

	dbPath := filepath.Join(t.TempDir(), "congo.db")
	seedStore := congotest.OpenDB(t, dbPath)
	gs := seedGames(t, seedStore, games)
	seedStore.Close()
	for _, g := range gs {
		for g.moves == nil {
			g.moves = randomGame(r, plies)
		}
	}

	// The players are plus addresses of one mailbox, which the caps of
	// one recipient would cut short: no caps.
	d := newChild(t, bin, append(args, "-address", "congo@example.org", "-db", dbPath, "-poll", "200ms", "-log-level", "info",
		"-max-per-recipient", "-1", "-max-per-sender", "-1")...)
	d.start()

	// The feeder sends the moves round by round (move k of every game,
	// then move k+1), spread over the time the kills take, so that the
	// daemon dies while it reads, handles, files and sends.
	total := games * plies
	meanUp := 300 * time.Millisecond
	pace := time.Duration(kills) * (meanUp + 50*time.Millisecond) / time.Duration(total)
	fed := make(chan error, 1)
	go func() {
		for k := range plies {
			for _, g := range gs {
				from, to, raw := moveMail(g, k)
				if err := sys.Deliver(context.Background(), from, []string{to}, raw); err != nil {
					fed <- err
					return
				}
				time.Sleep(pace)
			}
			// An MTA delivers mails side by side, in any order: a game's
			// next move goes once its last is in the mailbox.
			if s, ok := sys.(interface{ delivered(n int) error }); ok {
				if err := s.delivered((k + 1) * len(gs)); err != nil {
					fed <- err
					return
				}
			}
		}
		fed <- nil
	}()
	// Every fourth stop is a SIGTERM, in the middle of the work: it must
	// take less than 5 s (M10), and lose nothing either.
	terms := 0
	for i := range kills + kills/3 {
		time.Sleep(meanUp/4 + rand.N(meanUp*3/2))
		if i%4 == 3 {
			terms++
			if took, err := d.stop(); err != nil || took > 5*time.Second {
				t.Errorf("SIGTERM under load: stopped after %v (%v), want within 5 s", took, err)
			}
		} else {
			d.kill()
		}
		d.start()
	}
	if err := <-fed; err != nil {
		t.Fatalf("feed: %v", err)
	}

	// Wait for the daemon to finish: every game at its last move, the
	// INBOX empty, the outbox sent.
	store := congotest.OpenDB(t, dbPath)
	deadline := time.Now().Add(60 * time.Second)
	for {
		done, err := crashDone(store, gs, plies)
		if err != nil {
			t.Fatal(err)
		}
		inbox, err := sys.Messages("congo", "INBOX")
		if err != nil {
			t.Fatal(err)
		}
		if done && len(inbox) == 0 {
			break
		}
		if time.Now().After(deadline) {
			for _, m := range outboxMails(t, store) {
				if m.SentAt.IsZero() {
					t.Logf("mail %d to %s not sent: %d attempts, next %v, last error %q", m.ID, m.To, m.Attempts, m.NextAttempt, m.LastError)
				}
			}
			d.cmd.Process.Signal(syscall.SIGQUIT) // its goroutines, into the log shown
			time.Sleep(time.Second)
			for _, g := range gs {
				store.Tx(context.Background(), func(tx *db.Tx) error {
					ms, err := tx.Moves(context.Background(), g.id)
					if len(ms) < plies {
						t.Logf("game %d has %d moves of %d (%v)", g.id, len(ms), plies, err)
					}
					return nil
				})
			}
			t.Fatalf("not done after 60 s: games done %v, %d mails in the INBOX", done, len(inbox))
		}
		time.Sleep(50 * time.Millisecond)
	}
	took, err := d.stop()
	if err != nil {
		t.Errorf("SIGTERM: %v", err)
	}
	if took > 5*time.Second {
		t.Errorf("SIGTERM: stopped after %v, want within 5 s (M10)", took)
	}

	// Every game holds the moves sent, each once.
	wantMovesSent(t, store, gs)

	// Every mail queued was delivered, at least once: at once in process,
	// within seconds through a real MTA, which delivers on its own time.
	queued, got, missing, dups := deliveries(t, sys, store, 20*time.Second)
	if missing > 0 {
		t.Errorf("%d of %d mails queued were never delivered", missing, queued)
	}
	t.Logf("%d moves in %d games, %d SIGKILLs and %d SIGTERMs: %d mails queued, %d delivered, %d duplicate deliveries; "+
		"%d mails left in the SMTP server's hands by a death recorded as sent at the next start",
		total, games, kills+kills/3-terms, terms+1, queued, got, dups,
		strings.Count(d.log(), "the daemon died while the SMTP server took this mail"))
	return queued, dups
}

// crashDone reports whether every game has all its moves and the outbox
// is empty.
func crashDone(store *db.DB, gs []*crashGame, plies int) (bool, error) {
	ctx := context.Background()
	done := true
	err := store.Tx(ctx, func(tx *db.Tx) error {
		for _, g := range gs {
			moves, err := tx.Moves(ctx, g.id)
			if err != nil {
				return err
			}
			if len(moves) < plies {
				done = false
				return nil
			}
		}
		n, err := tx.Pending(ctx)
		done = n == 0
		return err
	})
	return done, err
}

// outboxIDs returns the Message-IDs of the outbox's mails, oldest first.
func outboxIDs(t *testing.T, store *db.DB) []string {
	t.Helper()
	var ids []string
	for _, m := range outboxMails(t, store) {
		ids = append(ids, m.MessageID)
	}
	return ids
}

// wantMovesSent fails t for each game of gs whose moves in store are not
// exactly the moves sent.
func wantMovesSent(t *testing.T, store *db.DB, gs []*crashGame) {
	t.Helper()
	for _, g := range gs {
		var moves []db.Move
		err := store.Tx(context.Background(), func(tx *db.Tx) (err error) {
			moves, err = tx.Moves(context.Background(), g.id)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range moves {
			got = append(got, m.Move)
		}
		if !slices.Equal(got, g.moves) {
			t.Errorf("game %d moves = %q, want %q", g.id, got, g.moves)
		}
	}
}

// deliveries waits up to wait (once at least) for every mail of store's
// outbox to be in the players' INBOX of sys, and returns how many mails
// were queued, how many are in the INBOX, how many queued are missing
// there, and how many deliveries were copies of one before.
func deliveries(t *testing.T, sys mailSystem, store *db.DB, wait time.Duration) (queued, got, missing, dups int) {
	t.Helper()
	ids := outboxIDs(t, store)
	var delivered map[string]int
	deadline := time.Now().Add(wait)
	for {
		msgs, err := sys.Messages("players", "INBOX")
		if err != nil {
			t.Fatal(err)
		}
		delivered, got = map[string]int{}, len(msgs)
		for _, raw := range msgs {
			m, _ := mailmsg.Parse(raw)
			delivered[m.MessageID]++
		}
		missing = 0
		for _, id := range ids {
			if delivered[id] == 0 {
				missing++
			}
		}
		if missing == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, id := range ids {
		if n := delivered[id]; n > 1 {
			dups += n - 1
		}
	}
	return len(ids), got, missing, dups
}
