package server

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"github.com/congobymail/congo/analyst"
	"github.com/congobymail/congo/config"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	netmail "net/mail"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/robot"
	"github.com/congobymail/congo/rules"
)

// testAnalysisNodes keeps the analyses of the tests quick, the race
// detector's included.
const testAnalysisNodes = 2000

// newAnalysisHarness is a harness whose analyses search few nodes, with
// alice, bob and carol registered.
func newAnalysisHarness(t *testing.T) *harness {
	t.Helper()
	h := newHarnessWith(t, Config{Settings: config.Settings{AnalysisNodes: testAnalysisNodes}})
	h.register("alice", "bob", "carol")
	return h
}

// playShortGame plays the game of "The game record" (docs/playing.md) between
// white and black to its end: black's lion falls on the third move.
func (h *harness) playShortGame(white, black string) int64 {
	h.t.Helper()
	id := h.startGame(white, black)
	for i, m := range []string{"d2-e3", "d6-c5", "d1xd7"} {
		who := []string{white, black}[i%2]
		h.sendProven(who, fmt.Sprintf("move congo %d %s", id, m))
	}
	h.deliver()
	if g := h.game(id); g.Status != db.Finished {
		h.t.Fatalf("game %d is %v after the short game, want finished", id, g.Status)
	}
	return id
}

// analyzeNext runs the worker's next analysis and reports whether there
// was one.
func (h *harness) analyzeNext(s *Server) bool {
	h.t.Helper()
	more, err := s.Analyses().Next(context.Background())
	if err != nil {
		h.t.Fatalf("analyseNext: %v", err)
	}
	return more
}

// requests returns the analysis requests of a game that wait.
func (h *harness) waiting(game int64) []db.AnalysisRequest {
	h.t.Helper()
	var reqs []db.AnalysisRequest
	h.inTx(func(ctx context.Context, tx *db.Tx) error {
		var err error
		reqs, err = tx.WaitingAnalysisRequests(ctx, game)
		return err
	})
	return reqs
}

// analysisMail is a mail with its text/html part.
type analysisMail struct {
	received
	HTML string
}

// deliverHTML is deliver, with the HTML part of each mail ("" for none).
func (h *harness) deliverHTML() []analysisMail {
	h.t.Helper()
	var out []analysisMail
	for _, s := range h.sendRaw() {
		m := analysisMail{received: h.parse(s)}
		msg, err := netmail.ReadMessage(bytes.NewReader(s.raw))
		if err != nil {
			h.t.Fatal(err)
		}
		if kind, params, _ := mime.ParseMediaType(msg.Header.Get("Content-Type")); kind == "multipart/alternative" {
			r := multipart.NewReader(msg.Body, params["boundary"])
			for {
				p, err := r.NextPart()
				if err != nil {
					break
				}
				if k, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type")); k == "text/html" {
					b, _ := io.ReadAll(p)
					m.HTML = string(b)
				}
			}
		}
		out = append(out, m)
	}
	return out
}

// onlyHTML is only for deliverHTML's mails.
func onlyHTML(t *testing.T, mails []analysisMail, handle string) analysisMail {
	t.Helper()
	var got []analysisMail
	for _, m := range mails {
		if m.To == addr(handle) {
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
	wantWords(t, m.received, "The robot's analysis of", "alice (white) vs bob (black)",
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
	h := newAnalysisHarness(t)
	id := h.playShortGame("alice", "bob")
	root := h.game(id).ThreadRoot
	h.sendProven("alice", "analyze congo 1")
	asked := h.last.MessageID
	queued := only(t, h.deliver(), "alice")
	wantWords(t, queued, "The analysis of game 1 is queued: it is next.")
	if queued.Subject != "Re: Congo game 1: alice vs bob" {
		t.Errorf("answer Subject = %q, want the game's (M22)", queued.Subject)
	}
	if !h.analyzeNext(h.s) {
		t.Fatalf("analyseNext found nothing to analyse")
	}
	mail := onlyHTML(t, h.deliverHTML(), "alice")
	wantAnalysisMail(t, mail, asked, root)
	wantWords(t, mail.received, "The robot's analysis of your game 1", "You win: bob's lion was captured.", "you (white)")
	if reqs := h.waiting(id); len(reqs) != 0 {
		t.Errorf("requests still waiting after the analysis: %+v", reqs)
	}
	if h.analyzeNext(h.s) {
		t.Errorf("analyseNext found another analysis to make")
	}

	// Asked again, in a reply to the analysis: the stored analysis at
	// once, and nothing else.
	h.sendProven("alice", "analyse") // not in the thread: which game?
	h.sendProven("alice", "analyse congo 1")
	again := h.deliverHTML()
	if len(again) != 2 {
		t.Fatalf("%d mails, want the answer to analyse without a game and the analysis", len(again))
	}
	wantWords(t, again[0].received, "analyze needs a game number")
	wantAnalysisMail(t, again[1], h.last.MessageID, root)
	if h.analyzeNext(h.s) {
		t.Errorf("the stored analysis was queued to be made again")
	}
	// Asked twice in one mail: one analysis.
	h.sendProven("alice", "analyze congo 1\nanalyze congo 1")
	if mails := h.deliver(); len(mails) != 1 {
		t.Errorf("%d mails for one mail asking twice, want 1", len(mails))
	}
	// A player of neither side may ask too: the moves are no secret.
	h.sendProven("carol", "analyze congo 1")
	m := onlyHTML(t, h.deliverHTML(), "carol")
	wantAnalysisMail(t, m, h.last.MessageID, root)
	wantNoWords(t, m.received, "your game")
	wantWords(t, m.received, "alice wins: bob's lion was captured.", "alice (white)", "bob (black)")
}

// TestAnalyzeReply: "analyze" alone in a reply about a finished game.
func TestAnalyzeReply(t *testing.T) {
	h := newAnalysisHarness(t)
	h.startGame("alice", "bob")
	h.sendProven("alice", "move congo 1 d2-e3")
	h.sendProven("bob", "move congo 1 d6-c5")
	h.sendProven("alice", "move congo 1 d1xd7")
	mails := to(h.deliver(), "bob")
	h.reply(mails[len(mails)-1], "Well played!\nanalyze")
	answer := only(t, h.deliver(), "bob")
	wantWords(t, answer, "The analysis of game 1 is queued")
	h.analyzeNext(h.s)
	m := only(t, h.deliver(), "bob")
	wantWords(t, m, "your game 1", "you (black)", "alice wins: your lion was captured")
}

// TestAnalyzeRefusals: unknown games, games not over, and games without
// moves are refused, each with its reason; and a forged mail is not
// carried out (TestForgedFromIsNeverApplied covers that too).
func TestAnalyzeRefusals(t *testing.T) {
	h := newAnalysisHarness(t)
	h.startGame("alice", "bob")                  // 1: being played
	h.sendProven("alice", "challenge congo bob") // 2: not accepted
	h.sendProven("alice", "challenge congo bob") // 3: declined
	h.sendProven("bob", "decline congo 3")
	h.sendProven("alice", "challenge congo bob") // 4: aborted before a move
	h.sendProven("bob", "accept congo 4")
	h.sendProven("alice", "abort congo 4")
	h.sendProven("alice", "challenge congo bob") // 5: white resigns before a move
	h.sendProven("bob", "accept congo 5")
	h.sendProven("alice", "resign congo 5")
	h.deliver()
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
		h.sendProven("carol", c.line)
		m := only(t, h.deliver(), "carol")
		wantWords(t, m, "> "+c.line, c.want)
		wantNoWords(t, m, "queued")
	}
	h.send("carol", "analyze congo 1")
	wantWords(t, only(t, h.deliver(), "carol"), "did not come to your personal address")
	if h.analyzeNext(h.s) {
		t.Errorf("a refused request was queued")
	}
}

// TestAnalyzeCap: five requests a player in a sliding day; the sixth is
// refused with the time to ask again, and is taken then. A game analysed
// before, or asked for again while it waits, does not count.
func TestAnalyzeCap(t *testing.T) {
	h := newAnalysisHarness(t)
	var games []int64
	for range config.DefaultAnalysesPerDay + 2 {
		games = append(games, h.playShortGame("alice", "bob"))
	}
	// Game 1 is analysed already, at bob's request.
	h.sendProven("bob", fmt.Sprintf("analyze congo %d", games[0]))
	h.analyzeNext(h.s)
	h.deliver()
	first := h.clock.Now()
	for i, id := range games[1 : config.DefaultAnalysesPerDay+1] {
		h.clock.Advance(time.Minute)
		h.sendProven("carol", fmt.Sprintf("analyze congo %d", id))
		ahead := "it is next"
		if i > 0 {
			ahead = fmt.Sprintf("with %d ", i)
		}
		wantWords(t, only(t, h.deliver(), "carol"), "is queued", ahead)
	}
	// Asking again for a game in the queue, or for one analysed: no count.
	h.sendProven("carol", fmt.Sprintf("analyze congo %d", games[2]))
	wantWords(t, only(t, h.deliver(), "carol"), "You asked for the analysis of game 3 before, and it is still in the queue, with 1 analysis ahead")
	h.sendProven("carol", fmt.Sprintf("analyze congo %d", games[0]))
	wantWords(t, only(t, h.deliver(), "carol"), "The robot's analysis of game 1")

	last := games[config.DefaultAnalysesPerDay+1]
	h.sendProven("carol", fmt.Sprintf("analyze congo %d", last))
	until := first.Add(time.Minute + 24*time.Hour).UTC().Format("2006-01-02 15:04 UTC")
	wantWords(t, only(t, h.deliver(), "carol"), "You have asked for 5 analyses in the last 24 hours", "You can ask again from "+until)
	if reqs := h.waiting(last); len(reqs) != 0 {
		t.Errorf("the request past the cap waits: %+v", reqs)
	}
	h.clock.Advance(24*time.Hour - 4*time.Minute) // the first request is a day old
	h.sendProven("carol", fmt.Sprintf("analyze congo %d", last))
	wantWords(t, only(t, h.deliver(), "carol"), "is queued, with 5 analyses ahead")
}

// TestAnalysisQueue: requests are made in the order they came, a game's
// once for all who asked; each gets the mail in their own words.
func TestAnalysisQueue(t *testing.T) {
	h := newAnalysisHarness(t)
	g1 := h.playShortGame("alice", "bob")
	g2 := h.playShortGame("bob", "alice")
	h.sendProven("alice", fmt.Sprintf("analyze congo %d", g1))
	h.sendProven("bob", fmt.Sprintf("analyze congo %d", g2))
	h.sendProven("carol", fmt.Sprintf("analyze congo %d", g1))
	mails := h.deliver()
	wantWords(t, only(t, mails, "alice"), "it is next")
	wantWords(t, only(t, mails, "bob"), "with 1 analysis ahead of it")
	wantWords(t, only(t, mails, "carol"), "it is next")

	h.analyzeNext(h.s)
	mails = h.deliver()
	if len(mails) != 2 {
		t.Fatalf("%d mails after the first analysis, want alice's and carol's", len(mails))
	}
	wantWords(t, only(t, mails, "alice"), "your game 1", "you (white)")
	wantWords(t, only(t, mails, "carol"), "The robot's analysis of game 1,", "alice (white)  ")
	h.analyzeNext(h.s)
	wantWords(t, only(t, h.deliver(), "bob"), "your game 2", "bob (white) vs alice (black)")
	if h.analyzeNext(h.s) {
		t.Errorf("a third analysis was made")
	}
}

// TestAnalysisAcrossRestart: a request queued before a stop is made after
// the restart, and mailed once; a restart after it sends nothing more.
func TestAnalysisAcrossRestart(t *testing.T) {
	h := newAnalysisHarness(t)
	h.playShortGame("alice", "bob")
	h.sendProven("alice", "analyze congo 1")
	asked := h.last.MessageID
	h.deliver()
	root := h.game(1).ThreadRoot
	h.db.Close() // the daemon stops before its worker came to it

	for run := range 2 {
		d, err := db.Open(context.Background(), h.dbPath)
		if err != nil {
			t.Fatal(err)
		}
		logger := slog.New(slog.NewTextHandler(io.Discard, nil))
		ob, err := outbox.New(outbox.Config{DB: d, From: ourAddress, Hostname: "example.org", Now: h.clock.Now, Logger: logger})
		if err != nil {
			t.Fatal(err)
		}
		s, err := New(Config{DB: d, Now: h.clock.Now, Logger: logger, Outbox: ob, Settings: config.Settings{Address: ourAddress, AnalysisNodes: testAnalysisNodes}})
		if err != nil {
			t.Fatal(err)
		}
		h.s, h.db = s, d
		did := h.analyzeNext(s)
		mails := h.deliverHTML()
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
	h := newAnalysisHarness(t)
	h.playShortGame("alice", "bob")
	h.sendProven("alice", "analyze congo 1")
	h.sendProven("carol", "analyze congo 1")
	h.deliver()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ob, err := outbox.New(outbox.Config{DB: h.db, From: ourAddress, Hostname: "example.org", Now: h.clock.Now,
		Logger: h.s.log, MaxPerHour: 1, OnDeferred: func(string) { cancel() }})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{DB: h.db, Now: h.clock.Now, Logger: h.s.log, Outbox: ob, Settings: config.Settings{Address: ourAddress, AnalysisNodes: testAnalysisNodes}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Analyses().Next(ctx); err == nil {
		t.Fatalf("analyseNext with its transaction cut short = nil, want an error")
	}
	if reqs := h.waiting(1); len(reqs) != 2 {
		t.Errorf("requests waiting after the failure: %+v, want alice's and carol's", reqs)
	}
	h.inTx(func(ctx context.Context, tx *db.Tx) error {
		if _, err := tx.Analysis(ctx, 1); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("analysis stored by a transaction cut short: %v", err)
		}
		return nil
	})
	if mails := h.deliver(); len(mails) != 0 {
		t.Errorf("%d mails queued by a transaction cut short, want none", len(mails))
	}
	h.analyzeNext(h.s)
	mails := h.deliver()
	if len(mails) != 2 {
		t.Fatalf("%d mails after the analysis made again, want alice's and carol's", len(mails))
	}
	wantWords(t, only(t, mails, "carol"), "The robot's analysis of game 1")
}

// TestAnalysisFailure: a game whose moves cannot be analysed is told to
// the one who asked, and leaves the queue.
func TestAnalysisFailure(t *testing.T) {
	h := newAnalysisHarness(t)
	h.playShortGame("alice", "bob")
	h.sendProven("alice", "analyze congo 1")
	h.deliver()
	raw, err := sql.Open("sqlite", "file:"+h.dbPath+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec("UPDATE moves SET move = 'a1-a7' WHERE game = 1 AND ply = 2"); err != nil {
		t.Fatal(err)
	}
	h.analyzeNext(h.s)
	wantWords(t, only(t, h.deliver(), "alice"), "could not be made, because of a fault")
	if h.analyzeNext(h.s) || len(h.waiting(1)) != 0 {
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

func (m *metricsRecorder) MailProcessed(Processed) {}
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
	msgs := make(chan string, 100)
	rec := &metricsRecorder{}
	h := newHarnessWith(t, Config{Metrics: rec, Logger: slog.New(signals{Handler: slog.NewTextHandler(io.Discard, nil), msgs: msgs}),
		Settings: config.Settings{Robot: config.DefaultRobot, AnalysisNodes: 1 << 40}})
	if err := h.s.EnsureRobot(context.Background()); err != nil {
		t.Fatal(err)
	}
	h.register("alice", "bob")
	h.playShortGame("alice", "bob")
	h.sendProven("alice", "challenge congo robot level=1") // game 2: alice to move
	h.sendProven("bob", "analyze congo 1")
	h.deliver()

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.s.Robot().Run(ctx) }()
	waitLog(t, msgs, "analysis begun")
	h.sendProven("alice", "move congo 2 b2-b3")
	m := h.waitMail("alice") // the robot's answer, long before the analysis could end
	wantWords(t, m, "You: b2-b3", "robot: ")
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
	if reqs := h.waiting(1); len(reqs) != 1 {
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

// TestRobotDrawByRepetition: the robot accepts a draw offer when a
// position of the game has occurred three times and it is not ahead.
func TestRobotDrawByRepetition(t *testing.T) {
	h := newRobotHarness(t)
	h.sendProven("alice", "challenge congo robot level=1") // alice white
	h.deliverChecked()
	// Both zebras go out and back twice: the start position a third time.
	h.inTx(func(ctx context.Context, tx *db.Tx) error {
		p := rules.Start()
		cycle := strings.Fields("g1-f3 g7-f5 f3-g1 f5-g7")
		for i, m := range append(cycle, cycle...) {
			next, _, err := p.Play(m)
			if err != nil {
				return err
			}
			p = next
			if err := tx.AddMove(ctx, db.Move{Game: 1, Ply: i + 1, Move: m, Position: p.String(), At: h.clock.Now()}); err != nil {
				return err
			}
		}
		g, err := tx.Game(ctx, 1)
		if err != nil {
			return err
		}
		g.Position = p.String()
		return tx.UpdateGame(ctx, g, h.clock.Now())
	})
	h.sendProven("alice", "draw congo 1")
	wantWords(t, only(t, h.deliverChecked(), "alice"), "Draw by agreement")
	if g := h.game(1); g.Status != db.Finished || g.Result != db.Draw {
		t.Errorf("game after the draw offer: %+v, want a draw", g)
	}
}

// wantWords is wantText for prose, which a mail wraps where it likes: the
// mail's words, and each of want's, are compared with their spaces and
// line breaks made one space.
func wantWords(t *testing.T, m received, want ...string) {
	t.Helper()
	text := strings.Join(strings.Fields(m.Text), " ")
	for _, w := range want {
		if !strings.Contains(text, strings.Join(strings.Fields(w), " ")) {
			t.Errorf("mail to %s %q does not say %q:\n%s", m.To, m.Subject, w, m.Text)
		}
	}
}

// wantNoWords is wantNoText for prose, as wantWords.
func wantNoWords(t *testing.T, m received, unwanted ...string) {
	t.Helper()
	text := strings.Join(strings.Fields(m.Text), " ")
	for _, w := range unwanted {
		if strings.Contains(text, strings.Join(strings.Fields(w), " ")) {
			t.Errorf("mail to %s %q says %q:\n%s", m.To, m.Subject, w, m.Text)
		}
	}
}
