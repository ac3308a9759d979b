package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/internal/pgtest"
	"github.com/congobymail/congo/mailer/loopback"
)

// TestCrashTwoDaemons runs two daemons, child processes, on one
// PostgreSQL database and one mailbox (M48), feeds them moves, and
// SIGKILLs whichever holds the lease, again and again, restarting it
// each time (it then waits as the other did). In the end every game
// holds exactly the moves sent, every mail queued was delivered (the
// copies delivered twice are counted), and each time the other daemon
// took the lease over within 20 s of the kill. Then the holder is paused
// (SIGSTOP) until the other took over, and goes on: it must find its
// lease lost and do nothing more. -crash.full kills five times, over 500
// moves in 25 games; the short version once, over 60 moves in 10.
func TestCrashTwoDaemons(t *testing.T) {
	games, plies, kills := 10, 6, 1
	if *crashFull {
		games, plies, kills = 25, 20, 5
	}
	if testing.Short() && !*crashFull {
		t.Skip("builds and runs two daemons, and waits for the lease to pass")
	}
	dbURL := pgtest.URL(t)
	bin := buildDaemon(t)
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d: %d games of %d moves, %d kills of the holder", seed, games, plies, kills)
	r := rand.New(rand.NewPCG(seed, 2))

	sys := congotest.StartMail(t, loopback.Config{Users: congotest.Users("congo", "players")})
	store := congotest.OpenDB(t, dbURL)
	gs := seedGames(t, store, games)
	for _, g := range gs {
		for g.moves == nil {
			g.moves = randomGame(r, plies)
		}
	}
	// The seeding's mails are queued, not sent: the daemons send them.

	// The players are plus addresses of one mailbox, which the caps of
	// one recipient would hold back: no caps.
	args := []string{"-imap", sys.IMAPURL("congo"), "-smtp", sys.SMTPURL(),
		"-address", "congo@example.org", "-db", dbURL, "-poll", "200ms", "-log-level", "info",
		"-max-per-recipient", "-1", "-max-per-sender", "-1"}
	ds := [2]*child{newChild(t, bin, args...), newChild(t, bin, args...)}
	lease := store.Lease(leaseName, "the test")
	// holder returns which daemon holds the lease now, -1 for none.
	holder := func() int {
		who, until, ok, err := lease.Holder(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !ok || !until.After(time.Now()) {
			return -1
		}
		for i, d := range ds {
			if d.cmd != nil && strings.Contains(who, "/"+strconv.Itoa(d.cmd.Process.Pid)+"/") {
				return i
			}
		}
		return -1
	}
	waitHolder := func(not int, within time.Duration) (int, time.Duration) {
		t.Helper()
		start := time.Now()
		for time.Since(start) < within {
			if h := holder(); h >= 0 && h != not {
				return h, time.Since(start)
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatalf("no daemon took the lease within %v", within)
		return -1, 0
	}
	ds[0].start()
	ds[0].waitStarted()
	waitHolder(-1, 30*time.Second)
	ds[1].start()
	ds[1].waitStarted()

	// The feeder spreads the moves over the time the kills take.
	total := games * plies
	pace := time.Duration(kills+1) * 18 * time.Second / time.Duration(total)
	fed := make(chan error, 1)
	go func() {
		for k := range plies {
			for _, g := range gs {
				from, to := g.white, g.whitePA
				if k%2 == 1 {
					from, to = g.black, g.blackPA
				}
				raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: Congo game %d\r\nMessage-ID: <two%d.%d@client.example.net>\r\n"+
					"Date: %s\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nmove congo %d %s anyway\r\n",
					from, to, g.id, g.id, k, time.Now().Format(time.RFC1123Z), g.id, g.moves[k])
				if err := sys.Deliver(context.Background(), from, []string{to}, []byte(raw)); err != nil {
					fed <- err
					return
				}
				time.Sleep(pace)
			}
		}
		fed <- nil
	}()

	var takeovers []time.Duration
	for range kills {
		time.Sleep(2*time.Second + rand.N(4*time.Second)) // the holder at work
		h := holder()
		if h < 0 {
			h, _ = waitHolder(-1, 30*time.Second)
		}
		ds[h].kill()
		next, took := waitHolder(h, 30*time.Second)
		takeovers = append(takeovers, took)
		if took > 20*time.Second {
			t.Errorf("daemon %d took the lease over %v after daemon %d was killed, want within 20 s (M48)", next, took, h)
		}
		ds[h].start() // it waits for the lease now
		ds[h].waitStarted()
	}
	// A holder paused (SIGSTOP) past its lease while moves come: the
	// other takes over, and once the paused one goes on it finds its
	// lease lost, commits and sends nothing more, and waits.
	time.Sleep(2 * time.Second)
	h := holder()
	if h < 0 {
		h, _ = waitHolder(-1, 30*time.Second)
	}
	paused := ds[h]
	runs := paused.runs
	if err := paused.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	next, took := waitHolder(h, 30*time.Second)
	takeovers = append(takeovers, took)
	if took > 20*time.Second {
		t.Errorf("daemon %d took the lease over %v after daemon %d was paused, want within 20 s", next, took, h)
	}
	if err := paused.cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the paused daemon finds its lease lost", func() string {
		log := paused.log()
		if i := strings.LastIndex(log, fmt.Sprintf("--- run %d\n", runs)); i >= 0 && strings.Contains(log[i:], "lease lost") {
			return ""
		}
		return "no \"lease lost\" in its log"
	})
	if err := <-fed; err != nil {
		t.Fatalf("feed: %v", err)
	}

	deadline := time.Now().Add(90 * time.Second)
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
			t.Fatalf("not done after 90 s: games done %v, %d mails in the INBOX", done, len(inbox))
		}
		time.Sleep(100 * time.Millisecond)
	}
	// The holder stops on SIGTERM and lets the lease go: the other takes
	// it at once.
	h = holder()
	if h >= 0 {
		if took, err := ds[h].stop(); err != nil || took > 5*time.Second {
			t.Errorf("SIGTERM of the holder: stopped after %v (%v), want within 5 s", took, err)
		}
		if _, took := waitHolder(h, 10*time.Second); took > 3*time.Second {
			t.Errorf("the lease passed %v after the holder stopped, want at once (it is released)", took)
		}
	}
	for _, d := range ds {
		if d.cmd != nil {
			if _, err := d.stop(); err != nil {
				t.Errorf("SIGTERM: %v", err)
			}
		}
	}

	wantMovesSent(t, store, gs)
	queued, got, missing, dups := deliveries(t, sys, store, 0)
	if missing > 0 {
		t.Errorf("%d of %d mails queued were never delivered", missing, queued)
	}
	slices.Sort(takeovers)
	t.Logf("%d moves in %d games, %d SIGKILLs and a SIGSTOP of the holder: taken over after %v; %d mails queued, %d delivered, %d duplicate deliveries",
		total, games, kills, takeovers, queued, got, dups)
}
