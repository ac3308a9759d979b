package main

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/mailer/loopback"
	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// benchWorld is a daemon, in process, against loopback servers, with a
// game between white00 and black00 (players+...@example.org, whose mail
// is all in the players mailbox).
type benchWorld struct {
	sys    *loopback.System
	game   *crashGame
	stop   func()
	status *imapclient.Client
}

func startBench(b *testing.B) *benchWorld {
	b.Helper()
	sys, err := loopback.Start(context.Background(), loopback.Config{
		Domain: "example.org",
		Users:  []loopback.User{{Name: "congo", Password: "pw"}, {Name: "players", Password: "pw"}},
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(sys.Close)
	dbPath := filepath.Join(b.TempDir(), "congo.db")
	store, err := db.Open(context.Background(), dbPath)
	if err != nil {
		b.Fatal(err)
	}
	gs := seedGames(b, store, 1)
	store.Close()
	w := &benchWorld{sys: sys, game: gs[0]}
	cfg := &config{
		imapURL: sys.IMAPURL("congo"), smtpURL: sys.SMTPURL(), address: "congo@example.org",
		dbPath: dbPath, poll: time.Minute, processed: "Processed", logLevel: "error",
		maxReplies: -1,
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, cfg, slog.New(slog.DiscardHandler)) }()
	w.stop = func() { cancel(); <-done }
	b.Cleanup(w.stop)
	// The seeding's mails are sent first.
	w.waitMail(b, 6)
	return w
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

// waitMail waits until the players mailbox holds n mails. It asks for the
// count alone (STATUS), on one connection, so that the looking costs
// little.
func (w *benchWorld) waitMail(b *testing.B, n int) {
	b.Helper()
	if w.status == nil {
		c, err := imapclient.DialInsecure(w.sys.IMAPAddr, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := c.Login("players", "pw").Wait(); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { c.Close() })
		w.status = c
	}
	deadline := time.Now().Add(5 * time.Minute)
	for {
		st, err := w.status.Status("INBOX", &imap.StatusOptions{NumMessages: true}).Wait()
		if err != nil {
			b.Fatal(err)
		}
		if int(*st.NumMessages) >= n {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("%d mails after 5 minutes, want %d", *st.NumMessages, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// BenchmarkPipeline measures commands a second end to end: b.N commands
// delivered to the loopback IMAP server, read by the daemon (IDLE),
// handled in SQLite (a file, WAL), answered through the loopback SMTP
// server, the answers all in the players' mailbox.
func BenchmarkPipeline(b *testing.B) {
	w := startBench(b)
	msgs, _ := w.sys.Messages("players", "INBOX")
	base := len(msgs)
	b.ResetTimer()
	for i := range b.N {
		w.command(b, i)
	}
	w.waitMail(b, base+b.N)
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "commands/s")
}

// BenchmarkReplyLatency measures the time from the delivery of a command
// to the arrival of its answer, one command at a time, with IDLE.
func BenchmarkReplyLatency(b *testing.B) {
	w := startBench(b)
	msgs, _ := w.sys.Messages("players", "INBOX")
	n := len(msgs)
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
