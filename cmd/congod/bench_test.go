package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/congobymail/congo/config"
	"github.com/congobymail/congo/internal/congotest"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/mailer/loopback"
	"github.com/congobymail/congo/rules"
	"github.com/emersion/go-smtp"
)

// benchWorld is a daemon, in process, reading commands from a loopback
// IMAP server and sending its answers to an SMTP sink, with a game
// between white00 and black00.
type benchWorld struct {
	sys    *loopback.System
	sink   *smtpSink
	game   *crashGame
	games  []*crashGame
	dbPath string
	seeded int // the mails the seeding queued
	stop   func()
}

// smtpSink is an SMTP server that reads each mail whole and counts it.
type smtpSink struct {
	addr   string
	n      atomic.Int64
	bytes  atomic.Int64 // of the mails received
	onMail func()       // called for each mail, when not nil
}

func startSink(b *testing.B) *smtpSink {
	b.Helper()
	return startSinkFunc(b, nil)
}

// startSinkFunc is startSink with a function called for each mail.
func startSinkFunc(b testing.TB, onMail func()) *smtpSink {
	b.Helper()
	k := &smtpSink{onMail: onMail}
	srv := smtp.NewServer(k)
	srv.Domain = "sink.example.org"
	srv.AllowInsecureAuth = true
	srv.ErrorLog = log.New(io.Discard, "", 0) // connections cut as the daemon stops
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	k.addr = l.Addr().String()
	go srv.Serve(l)
	b.Cleanup(func() { srv.Close() })
	return k
}

func (k *smtpSink) NewSession(*smtp.Conn) (smtp.Session, error) { return sinkSession{k}, nil }

type sinkSession struct{ k *smtpSink }

func (sinkSession) Mail(string, *smtp.MailOptions) error { return nil }
func (sinkSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if strings.HasPrefix(to, "refused@") {
		return &smtp.SMTPError{Code: 550, Message: "no such user"}
	}
	return nil
}
func (sinkSession) Reset()        {}
func (sinkSession) Logout() error { return nil }

func (s sinkSession) Data(r io.Reader) error {
	n, err := io.Copy(io.Discard, r)
	if err != nil {
		return err
	}
	s.k.bytes.Add(n)
	s.k.n.Add(1)
	if s.k.onMail != nil {
		s.k.onMail()
	}
	return nil
}

func startBench(b *testing.B) *benchWorld {
	b.Helper()
	w := newBench(b)
	w.start(b)
	return w
}

// newBench is startBench without the daemon.
func newBench(b *testing.B) *benchWorld {
	b.Helper()
	return newBenchGames(b, 1)
}

// newBenchGames is newBench with n games (game is the first).
func newBenchGames(b *testing.B, n int) *benchWorld {
	b.Helper()
	sys := congotest.StartMail(b, loopback.Config{Users: congotest.Users("congo", "players")})
	dbPath := filepath.Join(b.TempDir(), "congo.db")
	store := congotest.OpenDB(b, dbPath)
	gs := seedGames(b, store, n)
	// The seeding's mails, which start waits for: not a fixed number a
	// game, since the players' plus addresses share one mailbox, whose
	// second unproven register of the day is not answered (M28).
	var seeded int
	if err := store.Tx(context.Background(), func(tx *db.Tx) (err error) {
		seeded, err = tx.Pending(context.Background())
		return err
	}); err != nil {
		b.Fatal(err)
	}
	store.Close()
	return &benchWorld{sys: sys, sink: startSink(b), game: gs[0], games: gs, dbPath: dbPath, seeded: seeded}
}

// start starts the daemon, and waits for the mails of the seeding.
func (w *benchWorld) start(b *testing.B) {
	b.Helper()
	sys, dbPath := w.sys, w.dbPath
	cfg := &settings{Settings: config.Settings{
		IMAP: sys.IMAPURL("congo"), SMTP: "smtp://" + w.sink.addr, Address: "congo@example.org",
		DB: dbPath, Poll: time.Minute, Processed: "Processed", LogLevel: "error",
		MaxPerRecipient: -1, MaxPerSender: -1, MaxPerHour: -1,
	}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, cfg, slog.New(slog.DiscardHandler)) }()
	w.stop = func() { cancel(); <-done }
	b.Cleanup(w.stop)
	// The seeding's mails are sent first.
	w.waitMail(b, w.seeded)
}

// command delivers the command board, which is answered with one mail.
func (w *benchWorld) command(b *testing.B, i int) {
	g := w.game
	raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: board\r\nMessage-ID: <bench%d@client.example.net>\r\n\r\nboard congo %d\r\n",
		g.white, g.whitePA, i, g.id)
	if err := w.sys.Deliver(context.Background(), g.white, []string{g.whitePA}, []byte(raw)); err != nil {
		b.Fatal(err)
	}
}

// waitMail waits until the sink has n mails.
func (w *benchWorld) waitMail(b *testing.B, n int) {
	b.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for w.sink.n.Load() < int64(n) {
		if time.Now().After(deadline) {
			b.Fatalf("%d mails after 5 minutes, want %d", w.sink.n.Load(), n)
		}
		time.Sleep(100 * time.Microsecond)
	}
}

// BenchmarkPipeline measures commands a second end to end: b.N commands
// delivered to the loopback IMAP server, read by the daemon (IDLE),
// handled in SQLite (a file, WAL), answered through the loopback SMTP
// server, the answers all in the players' mailbox.
func BenchmarkPipeline(b *testing.B) {
	w := startBench(b)
	base := int(w.sink.n.Load())
	b.ResetTimer()
	for i := range b.N {
		w.command(b, i)
	}
	w.waitMail(b, base+b.N)
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "commands/s")
}

// BenchmarkPipelineMoves is BenchmarkPipeline with moves: b.N legal
// moves in 50 games (random games, a move of each game in turn), each
// answered with a board to both players; the figure is moves a second.
func BenchmarkPipelineMoves(b *testing.B) {
	const games = 50
	w := newBenchGames(b, games)
	r := rand.New(rand.NewPCG(1, 2))
	plies := (b.N + games - 1) / games
	for _, g := range w.games {
		for g.moves == nil {
			g.moves = randomGame(r, plies)
		}
	}
	w.start(b)
	base := int(w.sink.n.Load())
	b.ResetTimer()
	n := 0
	for k := 0; n < b.N; k++ {
		for _, g := range w.games {
			if n == b.N {
				break
			}
			from, to := g.white, g.whitePA
			if k%2 == 1 {
				from, to = g.black, g.blackPA
			}
			raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: Congo game %d\r\nMessage-ID: <m%d.%d@client.example.net>\r\n\r\nmove congo %d %s anyway\r\n",
				from, to, g.id, g.id, k, g.id, g.moves[k])
			if err := w.sys.Deliver(context.Background(), from, []string{to}, []byte(raw)); err != nil {
				b.Fatal(err)
			}
			n++
		}
	}
	w.waitMail(b, base+2*b.N)
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
}

// BenchmarkBacklog is BenchmarkPipeline without the cost of delivering
// the commands: b.N commands wait in the INBOX when the daemon starts,
// and the time is that of reading, handling and answering them all.
func BenchmarkBacklog(b *testing.B) {
	w := newBench(b)
	for i := range b.N {
		w.command(b, i)
	}
	b.ResetTimer()
	w.start(b)
	w.waitMail(b, 6+b.N)
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "commands/s")
}

// BenchmarkReplyLatency measures the time from the delivery of a command
// to the arrival of its answer, one command at a time, with IDLE.
func BenchmarkReplyLatency(b *testing.B) {
	w := startBench(b)
	n := int(w.sink.n.Load())
	var lat []time.Duration
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		w.command(b, i)
		n++
		w.waitMail(b, n)
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-ms")
}

// BenchmarkDaemonMemory measures the resident memory of the daemon, the
// built binary as a child process, with 10,000 games being played: the
// games are put in the database, the daemon answers 200 board commands
// about them, and its RSS (and peak RSS) is read from /proc.
func BenchmarkDaemonMemory(b *testing.B) {
	const games = 10000
	for range b.N {
		bin := buildDaemon(b)
		sys := congotest.StartMail(b, loopback.Config{Users: congotest.Users("congo", "players")})
		dbPath := filepath.Join(b.TempDir(), "congo.db")
		gs := seedManyGames(b, dbPath, games)
		sink := startSink(b)
		d := newChild(b, bin, "-imap", sys.IMAPURL("congo"), "-smtp", "smtp://"+sink.addr,
			"-address", "congo@example.org", "-db", dbPath, "-log-level", "info")
		d.start()
		w := &benchWorld{sys: sys, sink: sink}
		for i := range 200 {
			w.game = gs[i*(games/200)]
			w.command(b, i)
		}
		w.waitMail(b, 200)
		time.Sleep(time.Second) // the clock loop's first round
		rss, peak := procMemory(b, d.cmd.Process.Pid)
		if _, err := d.stop(); err != nil {
			b.Error(err)
		}
		sys.Close()
		b.ReportMetric(rss/(1<<20), "RSS-MiB")
		b.ReportMetric(peak/(1<<20), "peak-RSS-MiB")
	}
}

// seedManyGames writes n active games between 2n players straight into
// the database, their clocks running from now.
func seedManyGames(b *testing.B, dbPath string, n int) []*crashGame {
	b.Helper()
	ctx := context.Background()
	store, err := db.Open(ctx, dbPath)
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	now := time.Now().UTC()
	var gs []*crashGame
	err = store.Tx(ctx, func(tx *db.Tx) error {
		for i := range n {
			var p [2]db.Player
			for j, side := range []string{"w", "b"} {
				h := fmt.Sprintf("%s%05d", side, i)
				p[j], err = tx.AddPlayer(ctx, h, "players+"+h+"@example.org", fmt.Sprintf("secret%s%05d", side, i), now)
				if err != nil {
					return err
				}
			}
			g, err := tx.AddGame(ctx, db.Game{White: p[0].ID, Black: p[1].ID, Challenger: p[0].ID,
				Status: db.Active, Position: rules.Start().String(), TimeControl: db.DefaultTimeControl,
				WhiteLeft: 72 * time.Hour, BlackLeft: 72 * time.Hour, ClockStart: now, TurnTime: 72 * time.Hour}, now)
			if err != nil {
				return err
			}
			gs = append(gs, &crashGame{id: g.ID, white: p[0].Address, whitePA: "congo+" + p[0].Secret + "@example.org"})
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return gs
}

// procMemory returns the resident and the peak resident memory of a
// process, in bytes.
func procMemory(b *testing.B, pid int) (rss, peak float64) {
	b.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Skipf("no /proc: %v", err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		var kb float64
		if _, err := fmt.Sscanf(line, "VmRSS: %f kB", &kb); err == nil {
			rss = kb * 1024
		}
		if _, err := fmt.Sscanf(line, "VmHWM: %f kB", &kb); err == nil {
			peak = kb * 1024
		}
	}
	return rss, peak
}
