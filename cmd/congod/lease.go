package main

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync/atomic"
	"time"

	"github.com/congobymail/congo/db"
)

// The lease of M48: one of the processes that share a PostgreSQL
// database holds it, renewing it every leaseRenew; it is lost after
// leaseTTL without a renewal, and the others look for it every leasePoll.
const (
	leaseName  = "congod"
	leaseTTL   = 15 * time.Second
	leaseRenew = 5 * time.Second
	leasePoll  = time.Second
	// leaseMargin is how long before the lease runs out, by this
	// process's clock, it stops sending: the database's clock decides
	// who holds it, and the renewal's answer took its time to come.
	leaseMargin = time.Second
)

// serveLeased runs the daemon on PostgreSQL, which other congod
// processes may share (M48): it waits for the lease, then runs the
// daemon's loops (serveTerm) while it holds it; when it loses the lease
// it stops them and waits again, and when ctx is done it stops them and
// lets the lease go, so that another takes over at once. Every
// transaction checks the lease (db.DB.Fence), and every mail is sent
// only while the lease holds by this process's clock, so that a holder
// that lost it (paused, cut off) commits and sends nothing after another
// took over.
func serveLeased(ctx context.Context, cfg *settings, logger *slog.Logger, store *db.DB, sentLog *db.SentLog, tlsConfig *tls.Config) error {
	holder := leaseHolder()
	lease := store.Lease(leaseName, holder)
	store.Fence(lease)
	log := logger.With("holder", holder)
	for {
		epoch, until, err := waitLease(ctx, lease, log)
		if err != nil {
			return err
		}
		log.Info("lease taken: this process reads the mail, runs the clock and the robot, and sends", "epoch", epoch)
		var valid atomic.Pointer[time.Time]
		valid.Store(&until)
		maySend := func() error {
			if !time.Now().Before(*valid.Load()) {
				return db.ErrLeaseLost
			}
			return nil
		}
		term, lost := context.WithCancelCause(ctx)
		renewed := make(chan struct{})
		go func() {
			defer close(renewed)
			keepLease(term, lease, &valid, lost, log)
		}()
		err = serveTerm(term, cfg, logger, store, sentLog, nil, tlsConfig, maySend)
		cause := context.Cause(term)
		lost(nil)
		<-renewed
		switch {
		case ctx.Err() != nil:
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
			if err := lease.Release(rctx); err != nil {
				log.Warn("lease not released; another process takes it over once it lapses", "err", err)
			} else {
				log.Info("lease released")
			}
			cancel()
			return err
		case errors.Is(cause, db.ErrLeaseLost) && !errors.Is(err, errLoopsRunning):
			log.Error("lease lost: the loops are stopped; waiting to take the lease again")
			continue
		case err == nil:
			err = errors.New("the loops stopped")
		}
		return err
	}
}

// waitLease takes the lease, trying every leasePoll, and returns its
// epoch and until when it holds by this process's clock. It logs once
// that it waits, and who holds the lease.
func waitLease(ctx context.Context, lease *db.Lease, log *slog.Logger) (epoch int64, until time.Time, err error) {
	timer := time.NewTimer(0)
	defer timer.Stop()
	told := false
	for {
		select {
		case <-ctx.Done():
			return 0, time.Time{}, ctx.Err()
		case <-timer.C:
		}
		start := time.Now()
		epoch, ok, err := lease.Acquire(ctx, leaseTTL)
		switch {
		case ok:
			return epoch, start.Add(leaseTTL - leaseMargin), nil
		case err != nil && ctx.Err() != nil:
			return 0, time.Time{}, ctx.Err()
		case err != nil:
			log.Warn("the lease cannot be read; trying again", "err", err)
		case !told:
			told = true
			who, exp, _, _ := lease.Holder(ctx)
			log.Info("waiting for the lease: another process holds it", "held_by", who, "until", exp)
		}
		timer.Reset(leasePoll)
	}
}

// keepLease renews the lease every leaseRenew until ctx is done, moving
// valid on; when the lease is lost, or its time runs out by this
// process's clock before a renewal went through, it calls lost with
// db.ErrLeaseLost.
func keepLease(ctx context.Context, lease *db.Lease, valid *atomic.Pointer[time.Time], lost context.CancelCauseFunc, log *slog.Logger) {
	ticker := time.NewTicker(leaseRenew)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
		start := time.Now()
		rctx, cancel := context.WithTimeout(ctx, leaseRenew)
		err := lease.Renew(rctx, leaseTTL)
		cancel()
		switch {
		case err == nil:
			until := start.Add(leaseTTL - leaseMargin)
			valid.Store(&until)
		case ctx.Err() != nil:
			return
		case errors.Is(err, db.ErrLeaseLost):
			lost(db.ErrLeaseLost)
			return
		case !time.Now().Before(*valid.Load()):
			log.Error("the lease could not be renewed in time", "err", err)
			lost(db.ErrLeaseLost)
			return
		default:
			log.Warn("the lease could not be renewed; trying again", "err", err)
		}
	}
}

// leaseHolder names this process among those that share the database:
// its host, its process id and a random part.
func leaseHolder() string {
	host, err := os.Hostname()
	if err != nil {
		host = "unknown"
	}
	return fmt.Sprintf("%s/%d/%s", host, os.Getpid(), rand.Text()[:8])
}
