package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/mailer"
	"github.com/congobymail/congo/mailmsg"
	"github.com/congobymail/congo/outbox"
	"github.com/congobymail/congo/server"
	"github.com/congobymail/congo/tablebase"
)

// shutdownGrace bounds how long the stages of a stop may take in all
// (M10 allows five seconds).
const shutdownGrace = 4 * time.Second

// serverClock is the time the server goes by (game clocks, reminders,
// digests); nil for the system clock. Tests set it.
var serverClock func() time.Time

// A loop is one of the daemon's goroutines: it runs until its context
// ends.
type loop struct {
	name string
	run  func(context.Context) error
}

// serve runs the daemon: the IMAP loop feeds the server, the outbox loop
// sends what the server queued, the clock and robot loops do what is due.
// It returns when ctx is done and every loop has stopped, in stages (see
// runStages), or when a loop fails.
func serve(ctx context.Context, cfg *settings, logger *slog.Logger) error {
	tlsConfig, err := cfg.tlsConfig()
	if err != nil {
		return err
	}
	store, err := db.Open(ctx, cfg.DB)
	if err != nil {
		return err
	}
	closeStore := true // false while a loop may still use the store, the sent log or SMTP
	defer func() {
		if closeStore {
			store.Close()
		}
	}()
	sentLog, err := store.OpenSentLog(cfg.DB + "-sent")
	if err != nil {
		return err
	}
	defer func() {
		if closeStore {
			sentLog.Close()
		}
	}()
	// The hand-over record is a file beside an SQLite database; on
	// PostgreSQL the daemon that takes over may run on another machine,
	// and goes without (see handOver).
	var hand *handOver
	if !store.Postgres() {
		if hand, err = openHandOver(cfg.DB+"-sending", cfg.Connections(), logger); err != nil {
			return err
		}
		defer func() {
			if closeStore {
				hand.Close()
			}
		}()
	}

	logger.Info("congod started", "version", version(), "address", cfg.Address, "db", db.RedactURL(cfg.DB))
	raiseOpenFiles(logger)
	if store.Postgres() {
		err = serveLeased(ctx, cfg, logger, store, sentLog, tlsConfig)
	} else {
		err = serveTerm(ctx, cfg, logger, store, sentLog, hand, tlsConfig, nil)
	}
	if errors.Is(err, errLoopsRunning) {
		closeStore = false // the process ends soon: better than closing under a loop
	}
	return err
}

// serveTerm runs the daemon's loops on store until ctx is done (see
// serve). maySend, when not nil, is asked before each mail is sent.
func serveTerm(ctx context.Context, cfg *settings, logger *slog.Logger, store *db.DB, sentLog *db.SentLog,
	hand *handOver, tlsConfig *tls.Config, maySend func() error) (err error) {
	inbox, err := mailer.NewInbox(mailer.InboxConfig{
		URL:        cfg.IMAP,
		TLS:        tlsConfig,
		Processed:  cfg.Processed,
		Quarantine: cfg.Quarantine,
		MaxTries:   cfg.MaxTries,
		MaxSize:    cfg.MaxSize,
		Poll:       cfg.Poll,
		Logger:     logger,
	})
	if err != nil {
		return fmt.Errorf("-imap: %w", redact(err))
	}
	smtp, err := mailer.NewSMTP(cfg.SMTP, tlsConfig)
	if err != nil {
		return fmt.Errorf("-smtp: %w", redact(err))
	}
	defer func() {
		if !errors.Is(err, errLoopsRunning) { // else a loop may still send
			smtp.Close()
		}
	}()
	mon := newMonitor(store, inbox.Status)
	mon.unapplied = sentLog.Unapplied

	hostname := cfg.HostName()
	smtp.LocalName, smtp.Logger, smtp.MaxIdle = hostname, logger, cfg.Connections()
	smtp.LoginBlock = cfg.smtpLoginBlock
	ob, err := outbox.New(outbox.Config{
		DB:              store,
		From:            strings.ToLower(cfg.Address),
		Hostname:        hostname,
		SentLog:         sentLog,
		MaxPerRecipient: cfg.MaxPerRecipient,
		MaxPerSender:    cfg.MaxPerSender,
		MaxPerHour:      cfg.MaxPerHour,
		OnCapped:        mon.mailCapped,
		OnDeferred:      mon.mailDeferred,
		MaySend:         maySend,
		Connections:     cfg.Connections(),
		Now:             serverClock,
		Logger:          logger,
	})
	if err != nil {
		return err
	}
	if cfg.WebOn() && cfg.web == nil {
		if cfg.web, err = cfg.openWeb(logger); err != nil {
			return err
		}
	}
	if cfg.web != nil {
		defer cfg.web.ln.Close()
	}
	deps := server.Config{DB: store, Logger: logger, Metrics: mon, Outbox: ob}
	if cfg.Tables != "" {
		began := time.Now()
		ts, err := tablebase.Open(cfg.Tables)
		if err != nil {
			return fmt.Errorf("tables: %w", err)
		}
		logger.Info("endgame tables read", "dir", cfg.Tables, "tables", len(ts.Materials()), "took", time.Since(began).Round(time.Millisecond))
		deps.Tables = ts
	}
	srv, err := newServer(cfg, deps)
	if err != nil {
		return err
	}
	now := time.Now
	if serverClock != nil {
		now = serverClock
	}
	if err := hand.settle(ctx, store, sentLog, now()); err != nil {
		return err
	}
	// Registered before the first mail is read, which may challenge it.
	if err := srv.EnsureRobot(ctx); err != nil {
		return err
	}

	// The batch in hand is finished whatever the stop: its handler does
	// not see it (runStages bounds the wait).
	handle := func(ctx context.Context, ms []*mailmsg.Incoming) []error {
		return srv.ProcessMails(context.WithoutCancel(ctx), ms)
	}
	watch := newSMTPWatch(smtp, store, ob, serverClock, logger)
	// The web pages stop with the mail: they only read.
	first := []loop{{"imap", func(ctx context.Context) error { return inbox.RunBatch(ctx, handle) }}}
	if cfg.web != nil {
		l, err := webLoop(cfg.web, store, cfg.Address, logger, mon)
		if err != nil {
			return err
		}
		first = append(first, l)
	}
	stages := [][]loop{
		first,
		{
			{"outbox", func(ctx context.Context) error { return ob.Run(ctx, mon.sender(watch.sender(hand.sender(smtp)))) }},
			{"smtp-watch", watch.run},
		},
		{{"clock", srv.Clock().Run}, {"robot", srv.Robot().Run}},
	}
	if cfg.HTTP != "" {
		ln, err := listenHTTP(cfg.HTTP, logger)
		if err != nil {
			return fmt.Errorf("-http: %w", err)
		}
		defer ln.Close()
		if cfg.httpReady != nil {
			cfg.httpReady(ln.Addr().String())
		}
		h := mon.handler(logger)
		stages = append(stages, []loop{{"http", func(ctx context.Context) error { return serveHTTP(ctx, ln, h, logger) }}})
	}
	return runStages(ctx, stages, shutdownGrace, logger)
}

// errLoopsRunning is returned by runStages when loops did not stop in
// time.
var errLoopsRunning = errors.New("loops did not stop in time")

// runStages runs every loop of every stage until ctx is done or a loop
// fails, then stops them stage by stage, as mox does: the loops of a
// stage are asked to stop (their context ends) only once every loop of
// the stages before has returned. So the mail in hand is handled and
// filed before the outbox stops, the outbox finishes the send under way
// before the clock and robot stop, and so on; whoever returns, the
// database is used by none of them once runStages returns nil. The stop
// takes grace at most: after it runStages returns errLoopsRunning. A
// loop's error (other than its context's) is returned.
func runStages(ctx context.Context, stages [][]loop, grace time.Duration, logger *slog.Logger) error {
	failed := make(chan struct{})
	var once sync.Once
	errs := make(chan error, 16)
	type running struct {
		cancel context.CancelFunc
		wg     *sync.WaitGroup
	}
	var all []running
	for _, stage := range stages {
		sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		wg := &sync.WaitGroup{}
		for _, l := range stage {
			wg.Add(1)
			go func() {
				defer wg.Done()
				err := l.run(sctx)
				if err != nil && !errors.Is(err, context.Canceled) {
					err = fmt.Errorf("%s loop: %w", l.name, err)
					logger.Error("loop stopped", "loop", l.name, "err", err)
					select {
					case errs <- err:
					default:
					}
				}
				if sctx.Err() == nil {
					once.Do(func() { close(failed) }) // a loop ended by itself: stop them all
				}
			}()
		}
		all = append(all, running{cancel, wg})
	}
	select {
	case <-ctx.Done():
	case <-failed:
	}
	logger.Info("stopping")
	deadline := time.After(grace)
	for i, r := range all {
		r.cancel()
		done := make(chan struct{})
		go func() { r.wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-deadline:
			for _, later := range all[i+1:] {
				later.cancel()
			}
			return errLoopsRunning
		}
	}
	select {
	case err := <-errs:
		return err
	default:
	}
	logger.Info("stopped")
	return nil
}

// newServer is the server of a run, made the same way for serve and
// admin: the settings whole, with the address of the web pages resolved
// as the daemon's mails name them. deps are what it works with.
func newServer(cfg *settings, deps server.Config) (*server.Server, error) {
	deps.Settings = cfg.Settings
	deps.Hostname = cfg.HostName()
	deps.PublicURL = cfg.pages()
	deps.Now = serverClock
	return server.New(deps)
}
