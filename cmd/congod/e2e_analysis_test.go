package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/congobymail/congo/internal/pgtest"
	"github.com/congobymail/congo/mailmsg"
)

// shortGame plays README's game by mail in w to its end, alice white
// against bob, and returns alice's personal address and the last mail
// she got, the one with the result.
func shortGame(t *testing.T, w *world) (alicePA string, end *mailmsg.Incoming) {
	t.Helper()
	const server = "congo@example.org"
	alice, bob := "alice@example.org", "bob@example.org"
	w.send(alice, server, "", "register alice", "")
	alicePA = w.replyTo(w.expect("alice", 1)[0])
	w.send(bob, server, "", "register bob", "")
	bobPA := w.replyTo(w.expect("bob", 1)[0])
	w.send(bob, bobPA, "", "games", "") // confirms bob's address (M28)
	w.expect("bob", 1)
	w.send(alice, alicePA, "", "challenge congo bob", "")
	w.expect("alice", 1)
	w.send(bob, bobPA, "", "accept congo 1", w.expect("bob", 1)[0].MessageID)
	w.expect("alice", 1)
	w.expect("bob", 1)
	for i, m := range []string{"d2-e3", "d6-c5 anyway", "d1xd7"} {
		from, personal := alice, alicePA
		if i%2 == 1 {
			from, personal = bob, bobPA
		}
		w.send(from, personal, "", "move congo 1 "+m, "")
		end = w.expect("alice", 1)[0]
		w.expect("bob", 1)
	}
	wantContains(t, "the end", end, "You win")
	return alicePA, end
}

// expectWithin is expect, waiting up to d for the mails.
func (w *world) expectWithin(user string, n int, d time.Duration) []*mailmsg.Incoming {
	w.t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		raws, err := w.sys.Messages(user, "INBOX")
		if err != nil {
			w.t.Fatal(err)
		}
		if len(raws)-w.seen[user] >= n {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	return w.expect(user, n)
}

// wantAnalysis checks an analysis mail of the short game to alice, the
// answer to her mail asked, in the game's thread.
func wantAnalysis(t *testing.T, w *world, what string, m *mailmsg.Incoming, asked string) {
	t.Helper()
	wantSubject(t, what, m, "Re: Congo game 1: alice vs bob")
	wantContains(t, what, m, "The robot's analysis of your game 1", "200,000 positions", "d6-c5??", "lion lost: better",
		"you (white)", "bob (black)", "The evaluation after each move", "[Event \"Congo game 1\"]", "1. d2-e3 d6-c5?? {lion lost:")
	if !slices.Equal(m.InReplyTo, []string{asked}) || !slices.Contains(m.References, asked) {
		t.Errorf("%s: In-Reply-To %q, References %q, want the request %q", what, m.InReplyTo, m.References, asked)
	}
	raw := string(w.raw[m.MessageID])
	if !strings.Contains(raw, "Content-Type: text/html") || !strings.Contains(raw, "<svg") {
		t.Errorf("%s: no HTML part with the SVG graph", what)
	}
}

// TestEndToEndAnalysis plays a game by mail to its end, asks for its
// analysis and gets it, at the default node count, in its own mail; asked
// again, the stored analysis comes at once.
func TestEndToEndAnalysis(t *testing.T) {
	w := startWorld(t)
	alicePA, end := shortGame(t, w)
	const alice = "alice@example.org"

	asked := w.send(alice, alicePA, "Re: "+end.Subject, "analyze", end.MessageID)
	mails := w.expectWithin("alice", 2, time.Minute) // the answer, then the analysis
	wantSubject(t, "queued", mails[0], "Re: Congo game 1: alice vs bob")
	wantContains(t, "queued", mails[0], "The analysis of game 1 is queued: it is next.")
	wantAnalysis(t, w, "the analysis", mails[1], asked)
	w.expectNothing("bob")

	again := w.send(alice, alicePA, "", "analyse congo 1", "")
	m := w.expect("alice", 1)[0] // at once: no answer that it is queued
	wantAnalysis(t, w, "asked again", m, again)
	time.Sleep(200 * time.Millisecond)
	w.expectNothing("alice")
}

// TestEndToEndAnalysisRestart: a request queued when the daemon stops,
// in the middle of its analysis, is made after the restart and mailed
// once.
func TestEndToEndAnalysisRestart(t *testing.T) {
	sys := startSystem(t)
	dbPath := pgtest.DSN(t)
	// First an analysis that would take for ever: it is under way when
	// the daemon stops.
	d := startDaemon(t, sys, dbPath, func(c *settings) { c.AnalysisNodes = 1 << 40 })
	w := newWorld(t, sys)
	alicePA, end := shortGame(t, w)
	asked := w.send("alice@example.org", alicePA, "Re: "+end.Subject, "analyze", end.MessageID)
	wantContains(t, "queued", w.expect("alice", 1)[0], "is queued")
	eventually(t, "the analysis", func() string {
		if len(d.logs.records("analysis begun")) == 0 {
			return "not begun"
		}
		return ""
	})
	d.stop()
	w.expectNothing("alice")
	if n := len(d.logs.records("analysis made")); n != 0 {
		t.Fatalf("%d analyses made before the stop, want none", n)
	}

	d = startDaemon(t, sys, dbPath, nil)
	wantAnalysis(t, w, "after the restart", w.expectWithin("alice", 1, time.Minute)[0], asked)
	time.Sleep(500 * time.Millisecond)
	w.expectNothing("alice")
	if n := len(d.logs.records("analysis made")); n != 1 {
		t.Errorf("%d analyses made after the restart, want 1", n)
	}
}

// TestMetricsAnalysisAndRobot: /metrics counts the analyses, the games
// waiting for one, the robot's moves and those the time cap stopped.
func TestMetricsAnalysisAndRobot(t *testing.T) {
	sys := startSystem(t)
	d := startDaemon(t, sys, pgtest.DSN(t), func(c *settings) {
		c.Robot, c.AnalysisNodes = "robot", 5000
	})
	w := newWorld(t, sys)
	alicePA, end := shortGame(t, w)
	const alice = "alice@example.org"
	w.send(alice, alicePA, "Re: "+end.Subject, "analyze", end.MessageID)
	w.expectWithin("alice", 2, time.Minute) // queued, then the analysis
	w.send(alice, alicePA, "", "challenge congo robot level=1", "")
	board := w.expect("alice", 1)[0]
	w.send(alice, alicePA, "Re: "+board.Subject, playable(t, board, "b2-b3"), board.MessageID)
	wantContains(t, "the robot's answer", w.expect("alice", 1)[0], "robot: ")

	var fams map[string]*dto.MetricFamily
	eventually(t, "metrics", func() string {
		fams = d.scrape(t)
		for _, c := range []struct {
			name   string
			labels []string
			want   float64
		}{
			{"congod_analyses_total", []string{"outcome", "done"}, 1},
			{"congod_analyses_total", []string{"outcome", "failed"}, 0},
			{"congod_analysis_seconds", nil, 1},
			{"congod_analyses_waiting", nil, 0},
			{"congod_robot_moves_total", nil, 1},
			{"congod_robot_moves_capped_total", nil, 0},
		} {
			if got, ok := value(fams, c.name, c.labels...); !ok || got != c.want {
				return fmt.Sprintf("%s%q = %v (present %v), want %v", c.name, c.labels, got, ok, c.want)
			}
		}
		return ""
	})
}
