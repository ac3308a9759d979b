package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/mailer"
	"github.com/congobymail/congo/mailer/loopback"
	"github.com/congobymail/congo/rules"
)

// BenchmarkScale measures the daemon, the built binary as a child
// process, on a database of 100 and of 100,000 games being played: b.N
// moves spread over many of them (all 100 games, or every 100th of the
// 100,000), delivered to the loopback IMAP server with at most
// scaleWindow of them waiting at a time, each answered with a board to
// both players through an SMTP sink. It reports
//   - moves/s: moves answered a second, from the first answer to the last;
//   - first-answer-ms: from the start of the daemon's process to the
//     first answer sent, the first moves waiting in the INBOX at the start;
//   - max-stall-ms: the longest gap between two answers while moves
//     were waiting;
//   - rss-MiB and peak-rss-MiB: the daemon's resident memory at the end,
//     and the most it had;
//   - daemon-cpu-us/move and harness-cpu-us/move: the processor time the
//     daemon's process used for each move, from its start to the last
//     answer, and that the benchmark's own servers (IMAP, SMTP) and
//     delivery used meanwhile: on two cores, 1,000 moves/s needs their
//     sum under 2,000 (the daemon's alone when -scale.inprocess);
//   - answer-KiB: the mean size of an answer, which is larger early in a
//     game (more pieces on the board): the moves of games=100000 are the
//     first 10 of 1,000 games, those of games=100 the first 100 of 100.
//
// A tenth of the players pause their weekends (M64) in one of three time
// zones, and a tenth of the moves are theirs (-scale.weekends=false for
// none).
//
// Run it as
//
//	go test ./cmd/congod -run '^$' -bench Scale -benchtime 20000x -count 3
//
// (each run of 100,000 games first copies a database seeded once per
// process, which takes a minute or so the first time).
func BenchmarkScale(b *testing.B) {
	for _, games := range []int{100, 100000} {
		b.Run(fmt.Sprintf("games=%d", games), func(b *testing.B) { benchScale(b, games) })
	}
}

var scaleInProcess = flag.Bool("scale.inprocess", false,
	"BenchmarkScale runs the daemon in the test's process, for -cpuprofile (rss-MiB is then the test's)")

var scaleGaps = flag.Bool("scale.gaps", false, "BenchmarkScale logs every gap of more than 100 ms between answers")

var scaleWeekends = flag.Bool("scale.weekends", true,
	"BenchmarkScale has a tenth of the players pause their weekends (M64), in three time zones")

// scaleZones are the time zones of the players of BenchmarkScale who
// pause their weekends.
var scaleZones = [...]string{"Europe/Prague", "Asia/Tokyo", "America/New_York"}

// pausesWeekends reports whether the player of a side (0 white, 1 black)
// of game i of BenchmarkScale pauses weekends: a tenth of them, spread
// over the games by a hash, so that a tenth of the moves are theirs too.
func pausesWeekends(i, side int) bool {
	return *scaleWeekends && (uint64(2*i+side)*2654435761)%1000 < 100
}

// scaleWindow is how many moves wait to be answered at most.
const scaleWindow = 512

// scalePlayed is how many games the moves are spread over at most.
const scalePlayed = 1000

func benchScale(b *testing.B, games int) {
	bin := ""
	if !*scaleInProcess {
		bin = buildDaemon(b)
	}
	dbPath := filepath.Join(b.TempDir(), "congo.db")
	seed := scaleSeed(b, games)
	copyFile(b, seed, dbPath)

	played := min(games, scalePlayed)
	plies := (b.N + played - 1) / played
	r := rand.New(rand.NewPCG(3, 4))
	type playedGame struct {
		id    int
		moves []string
	}
	var gs []playedGame
	for i := range played {
		id := 1 + i*(games/played)
		var moves []string
		for moves == nil {
			moves = randomGame(r, plies)
		}
		gs = append(gs, playedGame{id: id, moves: moves})
	}
	sys := congotest.StartMail(b, loopback.Config{})
	sink := startTimedSink(b)

	// The moves in the order they are sent: move k of every game, then
	// move k+1.
	var mails [][]byte
	for k := range plies {
		for _, g := range gs {
			if len(mails) == b.N {
				break
			}
			side := "w"
			if k%2 == 1 {
				side = "b"
			}
			from := fmt.Sprintf("players+%s%06d@example.org", side, g.id)
			to := fmt.Sprintf("congo+%s@example.org", scaleSecret(side, g.id))
			mails = append(mails, fmt.Appendf(nil, "From: %s\r\nTo: %s\r\nSubject: Re: Congo game %d\r\n"+
				"Message-ID: <s%d.%d@client.example.net>\r\n\r\nmove congo %d %s anyway\r\n",
				from, to, g.id, g.id, k, g.id, g.moves[k]))
		}
	}
	// Delivered over one SMTP session kept open, as an MTA that relays
	// much mail to one host does, so that the benchmark's own work does
	// not take from the daemon's share of the cores.
	mta, err := mailer.NewSMTP(sys.SMTPURL(), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { mta.Close() })
	deliver := func(i int) {
		if err := mta.Send(context.Background(), "players@example.org", []string{"congo@example.org"}, mails[i]); err != nil {
			b.Fatal(err)
		}
	}
	// The first window waits in the INBOX when the daemon starts.
	sent := 0
	for ; sent < min(scaleWindow, b.N); sent++ {
		deliver(sent)
	}

	args := []string{"-imap", sys.IMAPURL("congo"), "-smtp", "smtp://" + sink.addr,
		"-address", "congo@example.org", "-db", dbPath, "-log-level", "info",
		"-max-per-recipient", "-1", "-max-per-sender", "-1", "-max-per-hour", "-1"}
	b.ResetTimer()
	harnessCPU := processCPU(b)
	start := time.Now()
	var (
		pid  int
		stop func() error
	)
	if *scaleInProcess {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- run(ctx, args, func(string) string { return "" }, io.Discard, io.Discard) }()
		pid, stop = os.Getpid(), func() error { cancel(); return <-done }
	} else {
		d := newChild(b, bin, args...)
		d.logToFile()
		d.start()
		defer func() {
			if d.cmd != nil {
				d.kill()
			}
		}()
		pid, stop = d.cmd.Process.Pid, func() error { _, err := d.stop(); return err }
	}
	deadline := start.Add(10 * time.Minute)
	for answered := 0; answered < b.N; {
		answered = int(sink.count() / 2)
		for sent < b.N && sent-answered < scaleWindow {
			deliver(sent)
			sent++
		}
		if time.Now().After(deadline) {
			b.Fatalf("%d of %d moves answered after 10 minutes", answered, b.N)
		}
		sink.wait(200 * time.Millisecond)
	}
	b.StopTimer()
	harnessCPU = processCPU(b) - harnessCPU
	daemonCPU := time.Duration(0)
	if !*scaleInProcess {
		daemonCPU = childCPU(b, pid)
	}
	rss, peak := procMemory(b, pid)
	if err := stop(); err != nil {
		b.Error(err)
	}
	times := sink.times()
	first := times[0].Sub(start)
	var stall time.Duration
	for i := 1; i < len(times); i++ {
		stall = max(stall, times[i].Sub(times[i-1]))
		if g := times[i].Sub(times[i-1]); g > 100*time.Millisecond && *scaleGaps {
			b.Logf("gap %v before answer %d at %v", g, i, times[i].Sub(start))
		}
	}
	b.ReportMetric(float64(b.N)/times[len(times)-1].Sub(times[0]).Seconds(), "moves/s")
	b.ReportMetric(float64(first.Microseconds())/1000, "first-answer-ms")
	b.ReportMetric(float64(stall.Microseconds())/1000, "max-stall-ms")
	b.ReportMetric(rss/(1<<20), "rss-MiB")
	b.ReportMetric(peak/(1<<20), "peak-rss-MiB")
	if !*scaleInProcess {
		b.ReportMetric(float64(daemonCPU.Microseconds())/float64(b.N), "daemon-cpu-us/move")
	}
	b.ReportMetric(float64(harnessCPU.Microseconds())/float64(b.N), "harness-cpu-us/move")
	b.ReportMetric(float64(sink.bytes.Load())/float64(sink.count())/1024, "answer-KiB")
}

// processCPU is the processor time this process has used.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// childCPU is the processor time the process pid has used, from
// /proc/pid/stat (in clock ticks of 1/100 s).
func childCPU(b *testing.B, pid int) time.Duration {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Skipf("no /proc: %v", err)
	}
	// The fields after the command's name in parentheses: state is the
	// 3rd field of the line, utime the 14th and stime the 15th.
	_, after, _ := strings.Cut(string(stat), ") ")
	f := strings.Fields(after)
	var utime, stime int64
	if len(f) < 13 {
		b.Fatalf("/proc/%d/stat: %q", pid, stat)
	}
	fmt.Sscan(f[11], &utime)
	fmt.Sscan(f[12], &stime)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// scaleSecret is the secret of the personal address of the player of a
// side ("w" or "b") in game id of BenchmarkScale's database.
func scaleSecret(side string, id int) string { return fmt.Sprintf("secret%s%06d", side, id) }

var scaleSeeds struct {
	sync.Mutex
	dir   string
	paths map[int]string
}

// scaleSeed returns the path of a database with n games being played,
// game i between the players w<i> and b<i> (six digits), made once per
// process and size, through the db package.
func scaleSeed(b *testing.B, n int) string {
	b.Helper()
	scaleSeeds.Lock()
	defer scaleSeeds.Unlock()
	if p, ok := scaleSeeds.paths[n]; ok {
		return p
	}
	if scaleSeeds.dir == "" {
		dir, err := os.MkdirTemp("", "congo-scale-")
		if err != nil {
			b.Fatal(err)
		}
		scaleSeeds.dir, scaleSeeds.paths = dir, map[int]string{}
		// Left for the process's end: the seeds serve every run.
	}
	path := filepath.Join(scaleSeeds.dir, fmt.Sprintf("seed%d-%v.db", n, *scaleWeekends))
	ctx := context.Background()
	store, err := db.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	now := time.Now().UTC()
	const chunk = 5000
	for from := 1; from <= n; from += chunk {
		err = store.Tx(ctx, func(tx *db.Tx) error {
			for i := from; i < from+chunk && i <= n; i++ {
				var p [2]db.Player
				for j, side := range []string{"w", "b"} {
					h := fmt.Sprintf("%s%06d", side, i)
					p[j], err = tx.AddPlayer(ctx, h, "players+"+h+"@example.org", scaleSecret(side, i), now)
					if err != nil {
						return err
					}
					if err := tx.SetConfirmed(ctx, p[j].ID); err != nil {
						return err
					}
					if pausesWeekends(i, j) {
						if err := tx.SetTime(ctx, p[j].ID, scaleZones[i%len(scaleZones)], now); err != nil {
							return err
						}
					}
				}
				g, err := tx.AddGame(ctx, db.Game{White: p[0].ID, Black: p[1].ID, Challenger: p[0].ID,
					Status: db.Active, Position: rules.Start().String(), TimeControl: db.DefaultTimeControl, Rated: true,
					WhiteLeft: 72 * time.Hour, BlackLeft: 72 * time.Hour, ClockStart: now, TurnTime: 72 * time.Hour,
					ClockDue: now.Add(36 * time.Hour)}, now) // the first reminder
				if err != nil {
					return err
				}
				if g.ID != int64(i) {
					return fmt.Errorf("game %d has id %d", i, g.ID)
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	scaleSeeds.paths[n] = path
	return path
}

// copyFile copies the file at from to to.
func copyFile(b *testing.B, from, to string) {
	b.Helper()
	src, err := os.Open(from)
	if err != nil {
		b.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		b.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		b.Fatal(err)
	}
}

// timedSink is an SMTP sink that notes when each mail arrived.
type timedSink struct {
	*smtpSink
	mu   sync.Mutex
	at   []time.Time
	bell chan struct{}
}

func startTimedSink(b *testing.B) *timedSink {
	b.Helper()
	k := &timedSink{bell: make(chan struct{}, 1)}
	k.smtpSink = startSinkFunc(b, func() {
		k.mu.Lock()
		k.at = append(k.at, time.Now())
		k.mu.Unlock()
		select {
		case k.bell <- struct{}{}:
		default:
		}
	})
	return k
}

// count is the number of mails received.
func (k *timedSink) count() int64 {
	k.mu.Lock()
	defer k.mu.Unlock()
	return int64(len(k.at))
}

// wait waits for the next mail, or d.
func (k *timedSink) wait(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-k.bell:
	case <-t.C:
	}
}

// times returns when each mail arrived.
func (k *timedSink) times() []time.Time {
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]time.Time(nil), k.at...)
}

func TestMain(m *testing.M) {
	code := m.Run()
	if scaleSeeds.dir != "" {
		os.RemoveAll(scaleSeeds.dir)
	}
	os.Exit(code)
}
