package main

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/congobymail/congo/analyst"
	"github.com/congobymail/congo/robot"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/mailer"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/server"
)

// monitor watches the daemon: it counts what the server and the outbox
// do and answers /metrics and /healthz.
type monitor struct {
	reg   *prometheus.Registry
	store *db.DB
	inbox func() mailer.InboxStatus
	now   func() time.Time
	// unapplied, when set, gives the mails sent whose record the sent
	// log has not carried into the outbox yet (db.SentLog.Unapplied):
	// they wait no more.
	unapplied func() []int64
	// sendFailed is set while the last attempt to send a mail failed.
	sendFailed atomic.Bool

	handled  *prometheus.CounterVec
	commands *prometheus.CounterVec
	latency  prometheus.Histogram
	sent     prometheus.Counter
	smtpErrs *prometheus.CounterVec
	capped   *prometheus.CounterVec
	deferred *prometheus.CounterVec
	pages    *prometheus.HistogramVec
	requests *prometheus.CounterVec

	robotMoves, robotCapped prometheus.Counter
	analyses                *prometheus.CounterVec
	analysisTime            prometheus.Histogram

	analysesWaiting *prometheus.Desc

	outboxDepth, outboxAge, outboxFailed  *prometheus.Desc
	imapConnected, imapLastPoll, imapErrs *prometheus.Desc
}

// outcomes are the values of the outcome label, present from the start.
var outcomes = []server.Outcome{server.Done, server.Refused, server.Ignored, server.Duplicate, server.Failed}

// newMonitor returns a monitor of the daemon whose database is store and
// whose IMAP loop reports its state by inbox.
func newMonitor(store *db.DB, inbox func() mailer.InboxStatus) *monitor {
	m := &monitor{
		reg:   prometheus.NewRegistry(),
		store: store,
		inbox: inbox,
		now:   time.Now,
		handled: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "congod_mails_handled_total",
			Help: "Incoming mails handled, by outcome: done, refused (a command refused or not understood), ignored (never answered), duplicate (handled before), failed (to be tried again).",
		}, []string{"outcome"}),
		commands: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "congod_commands_total",
			Help: "Commands found in incoming mail, by kind.",
		}, []string{"kind"}),
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "congod_mail_handling_seconds",
			Help:    "Time taken to handle one incoming mail (its database transaction).",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}),
		sent: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "congod_mails_sent_total",
			Help: "Mails accepted by the SMTP server.",
		}),
		smtpErrs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "congod_smtp_errors_total",
			Help: "Failed SMTP sends, by kind: temporary (tried again later) or permanent (5xx, given up).",
		}, []string{"kind"}),
		capped: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "congod_mails_capped_total",
			Help: "Answers to mail that proves nothing not queued because a cap was reached (M52), by cap: unproven (3 an address a day) or server (-max-per-hour).",
		}, []string{"cap"}),
		deferred: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "congod_mails_deferred_total",
			Help: "Mails that wait in the outbox for a cap to allow them (M53), by the cap they wait for: recipient, sender or server (-max-per-recipient, -max-per-sender, -max-per-hour).",
		}, []string{"cap"}),
		pages: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "congod_web_request_seconds",
			Help:    "Time taken to answer a request for a web page, by page: home, game, record, player, feed, ratings, tournament, static, robots, none (no such address).",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1},
		}, []string{"page"}),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "congod_web_requests_total",
			Help: "Requests for web pages, by page and status code.",
		}, []string{"page", "code"}),
		robotMoves: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "congod_robot_moves_total",
			Help: "Moves the robot chose (and resignations).",
		}),
		robotCapped: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "congod_robot_moves_capped_total",
			Help: "Moves of the robot's whose search the 10 s time cap stopped before the level's node limit: the level then plays differently from machine to machine. Should stay 0.",
		}),
		analyses: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "congod_analyses_total",
			Help: "Analyses of games (analyze congo <id>) by outcome: done (stored and mailed), interrupted (paused by a robot turn: it goes on where it stopped after it, M54), failed (the players were told).",
		}, []string{"outcome"}),
		analysisTime: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "congod_analysis_seconds",
			Help:    "Time taken to make one analysis of a game, from its start to its end (done or failed).",
			Buckets: []float64{.1, .25, .5, 1, 2.5, 5, 10, 25, 50, 100},
		}),
		analysesWaiting: prometheus.NewDesc("congod_analyses_waiting", "Games whose analysis is waiting in the queue, the one being made included.", nil, nil),
		outboxDepth:     prometheus.NewDesc("congod_outbox_depth", "Mails waiting in the outbox to be sent.", nil, nil),
		outboxAge:       prometheus.NewDesc("congod_outbox_oldest_age_seconds", "Age of the oldest mail waiting in the outbox; 0 when none waits.", nil, nil),
		outboxFailed:    prometheus.NewDesc("congod_outbox_failed", "Mails in the outbox given up for good.", nil, nil),
		imapConnected:   prometheus.NewDesc("congod_imap_connected", "1 while the IMAP session is up, else 0.", nil, nil),
		imapLastPoll:    prometheus.NewDesc("congod_imap_last_poll_timestamp_seconds", "Unix time of the last successful search of the mailbox; 0 before the first.", nil, nil),
		imapErrs:        prometheus.NewDesc("congod_imap_errors_total", "IMAP sessions that ended in an error (each is followed by a reconnection).", nil, nil),
	}
	for _, o := range outcomes {
		m.handled.WithLabelValues(string(o))
	}
	m.smtpErrs.WithLabelValues("temporary")
	m.smtpErrs.WithLabelValues("permanent")
	for _, c := range []string{"unproven", "server"} {
		m.capped.WithLabelValues(c)
	}
	for _, c := range []string{"recipient", "sender", "server"} {
		m.deferred.WithLabelValues(c)
	}
	for _, o := range []string{"done", "interrupted", "failed"} {
		m.analyses.WithLabelValues(o)
	}
	m.reg.MustRegister(m.handled, m.commands, m.latency, m.sent, m.smtpErrs, m.capped, m.deferred,
		m.robotMoves, m.robotCapped, m.analyses, m.analysisTime, m.pages, m.requests, m,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		collectors.NewBuildInfoCollector())
	return m
}

// PageServed counts a request for a web page and its time; it makes
// monitor a web.Metrics.
func (m *monitor) PageServed(page string, status int, d time.Duration) {
	m.pages.WithLabelValues(page).Observe(d.Seconds())
	m.requests.WithLabelValues(page, strconv.Itoa(status)).Inc()
}

// mailCapped counts a mail held back by a cap (outbox.Config.OnCapped).
func (m *monitor) mailCapped(cap string) { m.capped.WithLabelValues(cap).Inc() }

// sentUnapplied is the mails sent not yet recorded as sent in the outbox.
func (m *monitor) sentUnapplied() []int64 {
	if m.unapplied == nil {
		return nil
	}
	return m.unapplied()
}

// mailDeferred counts a mail that waits for a cap (outbox.Config.OnDeferred).
func (m *monitor) mailDeferred(cap string) { m.deferred.WithLabelValues(cap).Inc() }

// MailProcessed counts a handled mail; it makes monitor a server.Metrics.
func (m *monitor) MailProcessed(h server.Processed) {
	m.handled.WithLabelValues(string(h.Outcome)).Inc()
	for _, k := range h.Commands {
		m.commands.WithLabelValues(k).Inc()
	}
	m.latency.Observe(h.Duration.Seconds())
}

// RobotMoved counts a move of the robot's; it makes monitor a
// server.Metrics.
func (m *monitor) RobotMoved(r robot.Moved) {
	m.robotMoves.Inc()
	if r.TimedOut {
		m.robotCapped.Inc()
	}
}

// Analyzed counts an analysis; it makes monitor a server.Metrics.
func (m *monitor) Analyzed(a analyst.Done) {
	switch {
	case a.Interrupted:
		m.analyses.WithLabelValues("interrupted").Inc()
		return
	case a.Failed:
		m.analyses.WithLabelValues("failed").Inc()
	default:
		m.analyses.WithLabelValues("done").Inc()
	}
	m.analysisTime.Observe(a.Duration.Seconds())
}

// Describe and Collect make monitor a prometheus.Collector of the
// metrics read when scraped: the outbox, the analyses waiting and the
// IMAP loop.
func (m *monitor) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{m.outboxDepth, m.outboxAge, m.outboxFailed, m.analysesWaiting, m.imapConnected, m.imapLastPoll, m.imapErrs} {
		ch <- d
	}
}

func (m *monitor) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if st, err := m.store.OutboxStats(ctx, m.sentUnapplied()...); err != nil {
		ch <- prometheus.NewInvalidMetric(m.outboxDepth, err)
	} else {
		ch <- prometheus.MustNewConstMetric(m.outboxDepth, prometheus.GaugeValue, float64(st.Pending))
		ch <- prometheus.MustNewConstMetric(m.outboxAge, prometheus.GaugeValue, m.age(st.Oldest).Seconds())
		ch <- prometheus.MustNewConstMetric(m.outboxFailed, prometheus.GaugeValue, float64(st.Failed))
	}
	if n, err := m.store.WaitingAnalyses(ctx); err != nil {
		ch <- prometheus.NewInvalidMetric(m.analysesWaiting, err)
	} else {
		ch <- prometheus.MustNewConstMetric(m.analysesWaiting, prometheus.GaugeValue, float64(n))
	}
	in := m.inbox()
	ch <- prometheus.MustNewConstMetric(m.imapConnected, prometheus.GaugeValue, boolValue(in.Connected))
	var last float64
	if !in.LastPoll.IsZero() {
		last = float64(in.LastPoll.UnixNano()) / 1e9
	}
	ch <- prometheus.MustNewConstMetric(m.imapLastPoll, prometheus.GaugeValue, last)
	ch <- prometheus.MustNewConstMetric(m.imapErrs, prometheus.CounterValue, float64(in.Errors))
}

func (m *monitor) age(t time.Time) time.Duration {
	if t.IsZero() {
		return 0
	}
	return max(m.now().Sub(t), 0)
}

func boolValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// sender wraps the SMTP sender and counts what it does.
func (m *monitor) sender(s outbox.Sender) outbox.Sender {
	return countingSender{s: s, m: m}
}

type countingSender struct {
	s outbox.Sender
	m *monitor
}

func (c countingSender) Send(ctx context.Context, from string, to []string, msg []byte) error {
	err := c.s.Send(ctx, from, to, msg)
	switch {
	case err == nil:
		c.m.sent.Inc()
		c.m.sendFailed.Store(false)
	case ctx.Err() != nil:
		// cut short by shutdown: not the server's fault
	case mailer.IsPermanent(err):
		c.m.smtpErrs.WithLabelValues("permanent").Inc()
		c.m.sendFailed.Store(true)
	default:
		c.m.smtpErrs.WithLabelValues("temporary").Inc()
		c.m.sendFailed.Store(true)
	}
	return err
}

// health is the answer of /healthz.
type health struct {
	OK                    bool       `json:"ok"`
	IMAPConnected         bool       `json:"imap_connected"`
	LastPoll              *time.Time `json:"last_poll"`
	OutboxDepth           int        `json:"outbox_depth"`
	OutboxOldestAgeSecond float64    `json:"outbox_oldest_age_seconds"`
	// Down names the parts that are down, "database", "imap" and
	// "smtp", never with an error's text: anyone who reaches the page may
	// read it. The error goes to the log.
	Down []string `json:"down,omitempty"`
}

// healthz answers 200 when the daemon works: the database takes a write,
// the IMAP session is up, and the last attempt to send a mail did not
// fail (or no mail waits); else 503. Its JSON body says what it found.
func (m *monitor) healthz(w http.ResponseWriter, r *http.Request, logger *slog.Logger) {
	in := m.inbox()
	h := health{IMAPConnected: in.Connected}
	if !in.LastPoll.IsZero() {
		t := in.LastPoll.UTC()
		h.LastPoll = &t
	}
	st, err := m.store.OutboxStats(r.Context(), m.sentUnapplied()...)
	if err == nil {
		h.OutboxDepth = st.Pending
		h.OutboxOldestAgeSecond = m.age(st.Oldest).Seconds()
		err = m.store.Check(r.Context(), m.now().UTC())
	}
	if err != nil || in.HandlerDown {
		logger.Warn("health check: the database takes no write", "err", err)
		h.Down = append(h.Down, "database")
	}
	if !in.Connected {
		h.Down = append(h.Down, "imap")
	}
	if m.sendFailed.Load() && h.OutboxDepth > 0 {
		h.Down = append(h.Down, "smtp")
	}
	h.OK = len(h.Down) == 0
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	if !h.OK {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(h)
}

// handler serves /metrics and /healthz.
func (m *monitor) handler(logger *slog.Logger) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{
		ErrorLog:      slog.NewLogLogger(logger.Handler(), slog.LevelError),
		ErrorHandling: promhttp.ContinueOnError,
	}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { m.healthz(w, r, logger) })
	return mux
}

// msgHTTPNotLoopback is the warning logged when -http is reachable from
// other machines.
const msgHTTPNotLoopback = "/metrics and /healthz are open to the network: anyone who reaches the address can read them"

// listenHTTP listens on addr for /healthz and /metrics, and warns when
// the address it is bound to is not loopback.
func listenHTTP(addr string, logger *slog.Logger) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	logger.Info("serving /healthz and /metrics", "addr", ln.Addr().String())
	if !boundToLoopback(ln.Addr()) {
		logger.Warn(msgHTTPNotLoopback, "addr", ln.Addr().String(), "setting", "http")
	}
	return ln, nil
}

// boundToLoopback reports whether a listener's address is a loopback
// address, reached from this machine alone.
func boundToLoopback(a net.Addr) bool {
	ta, ok := a.(*net.TCPAddr)
	return ok && ta.AddrPort().Addr().Unmap().IsLoopback()
}

// serveHTTP serves h on ln until ctx is done, then shuts down: the
// requests under way get a second to finish. The timeouts bound what a
// slow or idle client holds.
func serveHTTP(ctx context.Context, ln net.Listener, h http.Handler, logger *slog.Logger) error {
	hs := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		hs.Close()
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return ctx.Err()
}
