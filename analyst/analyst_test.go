package analyst_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/congobymail/congo/analyst"
	"github.com/congobymail/congo/config"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/internal/congotest"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/robot"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/server/servertest"
)

// testAnalysisNodes keeps the analyses of the tests quick, the race
// detector's included.
const testAnalysisNodes = 2000

// newAnalysisWorld is a World whose analyses search few nodes, with
// alice, bob and carol registered.
func newAnalysisWorld(t *testing.T) *servertest.World {
	t.Helper()
	w := servertest.New(t, server.Config{Settings: config.Settings{AnalysisNodes: testAnalysisNodes}})
	w.Register("alice", "bob", "carol")
	return w
}

// playShortGame plays the game of "The game record" (docs/playing.md) between
// white and black to its end: black's lion falls on the third move,
// black's blunder played anyway, past the lion guard (M61).
func playShortGame(t *testing.T, w *servertest.World, white, black string) int64 {
	t.Helper()
	id := w.StartGame(white, black)
	for i, m := range []string{"d2-e3", "d6-c5 anyway", "d1xd7"} {
		who := []string{white, black}[i%2]
		w.SendProven(who, fmt.Sprintf("move congo %d %s", id, m))
	}
	w.Deliver()
	if g := w.Game(id); g.Status != db.Finished {
		t.Fatalf("game %d is %v after the short game, want finished", id, g.Status)
	}
	return id
}

// analyzeNext runs the worker's next analysis and reports whether there
// was one.
func analyzeNext(t *testing.T, s *server.Server) bool {
	t.Helper()
	more, err := s.Analyses().Next(context.Background())
	if err != nil {
		t.Fatalf("analyseNext: %v", err)
	}
	return more
}

// waiting returns the analysis requests of a game that wait.
func waiting(t *testing.T, w *servertest.World, game int64) []db.AnalysisRequest {
	t.Helper()
	var reqs []db.AnalysisRequest
	w.InTx(func(ctx context.Context, tx *db.Tx) error {
		var err error
		reqs, err = tx.WaitingAnalysisRequests(ctx, game)
		return err
	})
	return reqs
}

// analysisMail is a mail with its text/html part.
type analysisMail struct {
	servertest.Received
	HTML string
}

// deliverHTML is Deliver, with the HTML part of each mail ("" for none).
func deliverHTML(t *testing.T, w *servertest.World) []analysisMail {
	t.Helper()
	var out []analysisMail
	for _, s := range w.SendRaw() {
		out = append(out, analysisMail{Received: w.Parse(s), HTML: servertest.HTMLOf(t, s.Raw)})
	}
	return out
}

// onlyHTML is only for deliverHTML's mails.
func onlyHTML(t *testing.T, mails []analysisMail, handle string) analysisMail {
	t.Helper()
	var got []analysisMail
	for _, m := range mails {
		if m.To == congotest.Address(handle) {
			got = append(got, m)
		}
	}
	if len(got) != 1 {
		t.Fatalf("%d mails to %s, want 1", len(got), handle)
	}
	return got[0]
}

// wantAnalysisMail checks an analysis mail of game 1 (the short game)
// to a player, in reply to the mail that asked, in the game's thread.
func wantAnalysisMail(t *testing.T, m analysisMail, asked string, root string) {
	t.Helper()
	servertest.WantWords(t, m.Received, "The robot's analysis of", "alice (white) vs bob (black)",
		"d6-c5??", "lion lost: better", "How each played", "average loss", "The evaluation after each move",
		`[Event "Congo game 1"]`, "[Termination \"lion captured\"]", "1. d2-e3 d6-c5?? {lion lost: better")
	if m.Subject != "Re: Congo game 1: alice vs bob" {
		t.Errorf("analysis Subject = %q, want the game's answered (M22)", m.Subject)
	}
	if !slices.Equal(m.InReplyTo, []string{asked}) || len(m.References) == 0 || m.References[0] != root || !slices.Contains(m.References, asked) {
		t.Errorf("analysis In-Reply-To %q, References %q: want the request %q, in the thread of %q", m.InReplyTo, m.References, asked, root)
	}
	if !strings.Contains(m.HTML, "<svg") || !strings.Contains(m.HTML, "lion lost") {
		t.Errorf("analysis HTML part lacks the SVG graph or the marks:\n%.500s", m.HTML)
	}
}

// TestAnalyze asks for the analysis of a finished game: queued, then
// made and mailed in the game's thread; asked again, it comes at once,
// made no more.
func TestAnalyze(t *testing.T) {
	t.Parallel()
	w := newAnalysisWorld(t)
	id := playShortGame(t, w, "alice", "bob")
	root := w.Game(id).ThreadRoot
	w.SendProven("alice", "analyze congo 1")
	asked := w.Last.MessageID
	queued := servertest.Only(t, w.Deliver(), "alice")
	servertest.WantWords(t, queued, "The analysis of game 1 is queued: it is next.")
	if queued.Subject != "Re: Congo game 1: alice vs bob" {
		t.Errorf("answer Subject = %q, want the game's (M22)", queued.Subject)
	}
	if !analyzeNext(t, w.Server) {
		t.Fatalf("analyseNext found nothing to analyse")
	}
	mail := onlyHTML(t, deliverHTML(t, w), "alice")
	wantAnalysisMail(t, mail, asked, root)
	servertest.WantWords(t, mail.Received, "The robot's analysis of your game 1", "You win: bob's lion was captured.", "you (white)")
	if reqs := waiting(t, w, id); len(reqs) != 0 {
		t.Errorf("requests still waiting after the analysis: %+v", reqs)
	}
	if analyzeNext(t, w.Server) {
		t.Errorf("analyseNext found another analysis to make")
	}

	// Asked again, in a reply to the analysis: the stored analysis at
	// once, and nothing else.
	w.SendProven("alice", "analyse") // not in the thread: which game?
	w.SendProven("alice", "analyse congo 1")
	again := deliverHTML(t, w)
	if len(again) != 2 {
		t.Fatalf("%d mails, want the answer to analyse without a game and the analysis", len(again))
	}
	servertest.WantWords(t, again[0].Received, "analyze needs a game number")
	wantAnalysisMail(t, again[1], w.Last.MessageID, root)
	if analyzeNext(t, w.Server) {
		t.Errorf("the stored analysis was queued to be made again")
	}
	// Asked twice in one mail: one analysis.
	w.SendProven("alice", "analyze congo 1\nanalyze congo 1")
	if mails := w.Deliver(); len(mails) != 1 {
		t.Errorf("%d mails for one mail asking twice, want 1", len(mails))
	}
	// A player of neither side may ask too: the moves are no secret.
	w.SendProven("carol", "analyze congo 1")
	m := onlyHTML(t, deliverHTML(t, w), "carol")
	wantAnalysisMail(t, m, w.Last.MessageID, root)
	servertest.WantNoWords(t, m.Received, "your game")
	servertest.WantWords(t, m.Received, "alice wins: bob's lion was captured.", "alice (white)", "bob (black)")
}

// TestAnalyzeReply: "analyze" alone in a reply about a finished game.
func TestAnalyzeReply(t *testing.T) {
	t.Parallel()
	w := newAnalysisWorld(t)
	w.StartGame("alice", "bob")
	w.SendProven("alice", "move congo 1 d2-e3")
	w.SendProven("bob", "move congo 1 d6-c5 anyway")
	w.SendProven("alice", "move congo 1 d1xd7")
	mails := servertest.To(w.Deliver(), "bob")
	w.Reply(mails[len(mails)-1], "Well played!\nanalyze")
	answer := servertest.Only(t, w.Deliver(), "bob")
	servertest.WantWords(t, answer, "The analysis of game 1 is queued")
	analyzeNext(t, w.Server)
	m := servertest.Only(t, w.Deliver(), "bob")
	servertest.WantWords(t, m, "your game 1", "you (black)", "alice wins: your lion was captured")
}

// TestAnalyzeRefusals: unknown games, games not over, and games without
// moves are refused, each with its reason; and a forged mail is not
// carried out (TestForgedFromIsNeverApplied covers that too).
func TestAnalyzeRefusals(t *testing.T) {
	t.Parallel()
	w := newAnalysisWorld(t)
	w.StartGame("alice", "bob")                  // 1: being played
	w.SendProven("alice", "challenge congo bob") // 2: not accepted
	w.SendProven("alice", "challenge congo bob") // 3: declined
	w.SendProven("bob", "decline congo 3")
	w.SendProven("alice", "challenge congo bob") // 4: aborted before a move
	w.SendProven("bob", "accept congo 4")
	w.SendProven("alice", "abort congo 4")
	w.SendProven("alice", "challenge congo bob") // 5: white resigns before a move
	w.SendProven("bob", "accept congo 5")
	w.SendProven("alice", "resign congo 5")
	w.Deliver()
	for _, c := range []struct {
		line string
		want string
	}{
		{"analyze congo 1", "Game 1 is still being played: analysis is for finished games."},
		{"analyze congo 2", "analysis is for finished games"},
		{"analyze congo 3", "Game 3 was a challenge that was declined"},
		{"analyze congo 4", "Game 4 was aborted before any move was made"},
		{"analyze congo 5", "Game 5 ended before any move was made"},
		{"analyze congo 9", "There is no game 9"},
	} {
		w.SendProven("carol", c.line)
		m := servertest.Only(t, w.Deliver(), "carol")
		servertest.WantWords(t, m, "> "+c.line, c.want)
		servertest.WantNoWords(t, m, "queued")
	}
	w.Send("carol", "analyze congo 1")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "carol"), "did not come to your personal address")
	if analyzeNext(t, w.Server) {
		t.Errorf("a refused request was queued")
	}
}

// TestAnalyzeCap: five requests a player in a sliding day; the sixth is
// refused with the time to ask again, and is taken then. A game analysed
// before, or asked for again while it waits, does not count.
func TestAnalyzeCap(t *testing.T) {
	t.Parallel()
	w := newAnalysisWorld(t)
	var games []int64
	for range config.DefaultAnalysesPerDay + 2 {
		games = append(games, playShortGame(t, w, "alice", "bob"))
	}
	// Game 1 is analysed already, at bob's request.
	w.SendProven("bob", fmt.Sprintf("analyze congo %d", games[0]))
	analyzeNext(t, w.Server)
	w.Deliver()
	first := w.Clock.Now()
	for i, id := range games[1 : config.DefaultAnalysesPerDay+1] {
		w.Clock.Advance(time.Minute)
		w.SendProven("carol", fmt.Sprintf("analyze congo %d", id))
		ahead := "it is next"
		if i > 0 {
			ahead = fmt.Sprintf("with %d ", i)
		}
		servertest.WantWords(t, servertest.Only(t, w.Deliver(), "carol"), "is queued", ahead)
	}
	// Asking again for a game in the queue, or for one analysed: no count.
	w.SendProven("carol", fmt.Sprintf("analyze congo %d", games[2]))
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "carol"), "You asked for the analysis of game 3 before, and it is still in the queue, with 1 analysis ahead")
	w.SendProven("carol", fmt.Sprintf("analyze congo %d", games[0]))
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "carol"), "The robot's analysis of game 1")

	last := games[config.DefaultAnalysesPerDay+1]
	w.SendProven("carol", fmt.Sprintf("analyze congo %d", last))
	until := first.Add(time.Minute + 24*time.Hour).UTC().Format("2006-01-02 15:04 UTC")
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "carol"), "You have asked for 5 analyses in the last 24 hours", "You can ask again from "+until)
	if reqs := waiting(t, w, last); len(reqs) != 0 {
		t.Errorf("the request past the cap waits: %+v", reqs)
	}
	w.Clock.Advance(24*time.Hour - 4*time.Minute) // the first request is a day old
	w.SendProven("carol", fmt.Sprintf("analyze congo %d", last))
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "carol"), "is queued, with 5 analyses ahead")
}

// TestAnalysisQueue: requests are made in the order they came, a game's
// once for all who asked; each gets the mail in their own words.
func TestAnalysisQueue(t *testing.T) {
	t.Parallel()
	w := newAnalysisWorld(t)
	g1 := playShortGame(t, w, "alice", "bob")
	g2 := playShortGame(t, w, "bob", "alice")
	w.SendProven("alice", fmt.Sprintf("analyze congo %d", g1))
	w.SendProven("bob", fmt.Sprintf("analyze congo %d", g2))
	w.SendProven("carol", fmt.Sprintf("analyze congo %d", g1))
	mails := w.Deliver()
	servertest.WantWords(t, servertest.Only(t, mails, "alice"), "it is next")
	servertest.WantWords(t, servertest.Only(t, mails, "bob"), "with 1 analysis ahead of it")
	servertest.WantWords(t, servertest.Only(t, mails, "carol"), "it is next")

	analyzeNext(t, w.Server)
	mails = w.Deliver()
	if len(mails) != 2 {
		t.Fatalf("%d mails after the first analysis, want alice's and carol's", len(mails))
	}
	servertest.WantWords(t, servertest.Only(t, mails, "alice"), "your game 1", "you (white)")
	servertest.WantWords(t, servertest.Only(t, mails, "carol"), "The robot's analysis of game 1,", "alice (white)  ")
	analyzeNext(t, w.Server)
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "bob"), "your game 2", "bob (white) vs alice (black)")
	if analyzeNext(t, w.Server) {
		t.Errorf("a third analysis was made")
	}
}

// TestAnalysisAcrossRestart: a request queued before a stop is made after
// the restart, and mailed once; a restart after it sends nothing more.
func TestAnalysisAcrossRestart(t *testing.T) {
	t.Parallel()
	w := newAnalysisWorld(t)
	playShortGame(t, w, "alice", "bob")
	w.SendProven("alice", "analyze congo 1")
	asked := w.Last.MessageID
	w.Deliver()
	root := w.Game(1).ThreadRoot
	w.DB.Close() // the daemon stops before its worker came to it

	for run := range 2 {
		d, err := db.Open(context.Background(), w.DBPath)
		if err != nil {
			t.Fatal(err)
		}
		logger := slog.New(slog.NewTextHandler(io.Discard, nil))
		ob, err := outbox.New(outbox.Config{DB: d, From: servertest.ServerAddress, Hostname: "example.org", Now: w.Clock.Now, Logger: logger})
		if err != nil {
			t.Fatal(err)
		}
		s, err := server.New(server.Config{DB: d, Now: w.Clock.Now, Logger: logger, Outbox: ob, Settings: config.Settings{Address: servertest.ServerAddress, AnalysisNodes: testAnalysisNodes}})
		if err != nil {
			t.Fatal(err)
		}
		w.Server, w.DB = s, d
		did := analyzeNext(t, s)
		mails := deliverHTML(t, w)
		switch {
		case run == 0 && (!did || len(mails) != 1):
			t.Fatalf("after the restart: analysis made %v, %d mails; want it made and mailed once", did, len(mails))
		case run == 0:
			wantAnalysisMail(t, mails[0], asked, root)
		case did || len(mails) != 0:
			t.Errorf("after a second restart: analysis made %v, %d mails; want nothing", did, len(mails))
		}
		d.Close()
	}
}

// TestAnalysisAllOrNothing: the analysis is stored, its mails queued and
// its requests marked done in one transaction, so that a failure (or a
// crash) on the way leaves nothing of it: here the first mail meets the
// server's cap, whose wait cuts the transaction short, as a crash would.
func TestAnalysisAllOrNothing(t *testing.T) {
	t.Parallel()
	w := newAnalysisWorld(t)
	playShortGame(t, w, "alice", "bob")
	w.SendProven("alice", "analyze congo 1")
	w.SendProven("carol", "analyze congo 1")
	w.Deliver()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ob, err := outbox.New(outbox.Config{DB: w.DB, From: servertest.ServerAddress, Hostname: "example.org", Now: w.Clock.Now,
		Logger: w.Logger, MaxPerHour: 1, OnDeferred: func(string) { cancel() }})
	if err != nil {
		t.Fatal(err)
	}
	s, err := server.New(server.Config{DB: w.DB, Now: w.Clock.Now, Logger: w.Logger, Outbox: ob, Settings: config.Settings{Address: servertest.ServerAddress, AnalysisNodes: testAnalysisNodes}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Analyses().Next(ctx); err == nil {
		t.Fatalf("analyseNext with its transaction cut short = nil, want an error")
	}
	if reqs := waiting(t, w, 1); len(reqs) != 2 {
		t.Errorf("requests waiting after the failure: %+v, want alice's and carol's", reqs)
	}
	w.InTx(func(ctx context.Context, tx *db.Tx) error {
		if _, err := tx.Analysis(ctx, 1); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("analysis stored by a transaction cut short: %v", err)
		}
		return nil
	})
	if mails := w.Deliver(); len(mails) != 0 {
		t.Errorf("%d mails queued by a transaction cut short, want none", len(mails))
	}
	analyzeNext(t, w.Server)
	mails := w.Deliver()
	if len(mails) != 2 {
		t.Fatalf("%d mails after the analysis made again, want alice's and carol's", len(mails))
	}
	servertest.WantWords(t, servertest.Only(t, mails, "carol"), "The robot's analysis of game 1")
}

// TestAnalysisFailure: a game whose moves cannot be analysed is told to
// the one who asked, and leaves the queue.
func TestAnalysisFailure(t *testing.T) {
	t.Parallel()
	w := newAnalysisWorld(t)
	playShortGame(t, w, "alice", "bob")
	w.SendProven("alice", "analyze congo 1")
	w.Deliver()
	raw, err := sql.Open("sqlite", "file:"+w.DBPath+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec("UPDATE moves SET move = 'a1-a7' WHERE game = 1 AND ply = 2"); err != nil {
		t.Fatal(err)
	}
	analyzeNext(t, w.Server)
	servertest.WantWords(t, servertest.Only(t, w.Deliver(), "alice"), "could not be made, because of a fault")
	if analyzeNext(t, w.Server) || len(waiting(t, w, 1)) != 0 {
		t.Errorf("the failed analysis is still in the queue")
	}
}

// signals is a slog.Handler that sends on a channel the messages it is
// given, past those it drops.
type signals struct {
	slog.Handler
	msgs chan string
}

func (s signals) Handle(ctx context.Context, r slog.Record) error {
	select {
	case s.msgs <- r.Message:
	default:
	}
	return nil
}

// metricsRecorder is Metrics that keeps what it is told.
type metricsRecorder struct {
	mu       sync.Mutex
	robot    []robot.Moved
	analyses []analyst.Done
}

func (m *metricsRecorder) MailProcessed(server.Processed) {}

func (m *metricsRecorder) RobotMoved(r robot.Moved) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.robot = append(m.robot, r)
}

func (m *metricsRecorder) Analyzed(a analyst.Done) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.analyses = append(m.analyses, a)
}

// TestAnalysisGivesWayToRobot: while the worker makes a long analysis, a
// move against the robot is answered at once: the analysis pauses for
// it, and goes on where it stopped after it (M54).
func TestAnalysisGivesWayToRobot(t *testing.T) {
	t.Parallel()
	msgs := make(chan string, 100)
	rec := &metricsRecorder{}
	w := servertest.New(t, server.Config{Metrics: rec, Logger: slog.New(signals{Handler: slog.NewTextHandler(io.Discard, nil), msgs: msgs}),
		Settings: config.Settings{Robot: config.DefaultRobot, AnalysisNodes: 1 << 40}})
	if err := w.Server.EnsureRobot(context.Background()); err != nil {
		t.Fatal(err)
	}
	w.Register("alice", "bob")
	playShortGame(t, w, "alice", "bob")
	w.SendProven("alice", "challenge congo robot level=1") // game 2: alice to move
	w.SendProven("bob", "analyze congo 1")
	w.Deliver()

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Server.Robot().Run(ctx) }()
	waitLog(t, msgs, "analysis begun")
	w.SendProven("alice", "move congo 2 b2-b3")
	m := w.WaitMail("alice") // the robot's answer, long before the analysis could end
	servertest.WantWords(t, m, "You: b2-b3", "robot: ")
	waitLog(t, msgs, "analysis goes on") // where it stopped, not from the start (M54)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("RunRobot = %v, want context.Canceled", err)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.analyses) != 1 || !rec.analyses[0].Interrupted || rec.analyses[0].Game != 1 {
		t.Errorf("analyses told to the metrics: %+v, want game 1 interrupted", rec.analyses)
	}
	if len(rec.robot) != 1 || rec.robot[0].Game != 2 || rec.robot[0].TimedOut {
		t.Errorf("robot moves told to the metrics: %+v, want one in game 2, not stopped by the time cap", rec.robot)
	}
	if reqs := waiting(t, w, 1); len(reqs) != 1 {
		t.Errorf("requests waiting after the stop: %+v, want bob's", reqs)
	}
}

// waitLog waits for the server to log msg.
func waitLog(t *testing.T, msgs <-chan string, msg string) {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case m := <-msgs:
			if m == msg {
				return
			}
		case <-timeout:
			t.Fatalf("the server did not log %q", msg)
		}
	}
}
