package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/mailer"
	"github.com/congobymail/congo/server"
)

// shutdownGrace bounds how long the loops may take to finish the mail in
// hand once a stop is asked for (M10 allows five seconds in all).
const shutdownGrace = 4 * time.Second

// serverClock is the time the server goes by (game clocks, reminders,
// digests); nil for the system clock. Tests set it.
var serverClock func() time.Time

// serve runs the daemon: the IMAP loop feeds the server, the outbox loop
// sends what the server queued. It returns when ctx is done and both loops
// have stopped.
func serve(ctx context.Context, cfg *config, logger *slog.Logger) error {
	tlsConfig, err := cfg.tlsConfig()
	if err != nil {
		return err
	}
	store, err := db.Open(ctx, cfg.dbPath)
	if err != nil {
		return err
	}
	defer store.Close()
	sentLog, err := db.OpenSentLog(cfg.dbPath + "-sent")
	if err != nil {
		return err
	}
	defer sentLog.Close()

	inbox, err := mailer.NewInbox(mailer.InboxConfig{
		URL:        cfg.imapURL,
		TLS:        tlsConfig,
		Processed:  cfg.processed,
		Quarantine: cfg.quarantine,
		MaxTries:   cfg.maxTries,
		MaxSize:    cfg.maxSize,
		Poll:       cfg.poll,
		Logger:     logger,
	})
	if err != nil {
		return fmt.Errorf("-imap: %w", redact(err))
	}
	smtp, err := mailer.NewSMTP(cfg.smtpURL, tlsConfig)
	if err != nil {
		return fmt.Errorf("-smtp: %w", redact(err))
	}
	defer smtp.Close()
	mon := newMonitor(store, inbox.Status)

	hostname := cfg.hostname
	if hostname == "" {
		hostname = cfg.address[strings.LastIndex(cfg.address, "@")+1:]
	}
	srv, err := server.New(server.Config{
		DB:                store,
		Address:           cfg.address,
		Hostname:          hostname,
		TrustAuthServ:     cfg.trustAuthServ,
		Logger:            logger,
		Observer:          mon,
		Operator:          cfg.operator,
		Now:               serverClock,
		MaxRepliesPerHour: cfg.maxReplies,
		Robot:             cfg.robotHandle(),
		SentLog:           sentLog,
	})
	if err != nil {
		return err
	}
	// Registered before the first mail is read, which may challenge it.
	if err := srv.EnsureRobot(ctx); err != nil {
		return err
	}

	loops := []struct {
		name string
		run  func(context.Context) error
	}{
		{"imap", func(ctx context.Context) error { return inbox.RunBatch(ctx, srv.HandleMails) }},
		{"outbox", func(ctx context.Context) error { return srv.RunOutbox(ctx, mon.sender(smtp)) }},
		{"clock", srv.RunClock},
		{"robot", srv.RunRobot},
	}
	if cfg.httpAddr != "" {
		ln, err := net.Listen("tcp", cfg.httpAddr)
		if err != nil {
			return fmt.Errorf("-http: %w", err)
		}
		defer ln.Close()
		logger.Info("serving /healthz and /metrics", "addr", ln.Addr().String())
		if cfg.httpReady != nil {
			cfg.httpReady(ln.Addr().String())
		}
		h := mon.handler(logger)
		loops = append(loops, struct {
			name string
			run  func(context.Context) error
		}{"http", func(ctx context.Context) error { return serveHTTP(ctx, ln, h) }})
	}
	logger.Info("congod started", "version", version(), "address", cfg.address, "db", cfg.dbPath)
	// Both loops stop when either fails or ctx is done.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make(chan error, len(loops))
	var wg sync.WaitGroup
	for _, l := range loops {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := l.run(ctx)
			if err != nil && !errors.Is(err, context.Canceled) {
				err = fmt.Errorf("%s loop: %w", l.name, err)
				logger.Error("loop stopped", "loop", l.name, "err", err)
				errs <- err
			}
			cancel()
		}()
	}
	<-ctx.Done()
	logger.Info("stopping")
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(shutdownGrace):
		return errors.New("loops did not stop in time")
	}
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	logger.Info("stopped")
	return nil
}
