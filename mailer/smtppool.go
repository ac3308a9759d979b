package mailer

// The idle connections SMTP keeps for the next Send (MaxIdle,
// IdleTimeout).

import (
	"slices"
	"sync"
	"time"
)

func (s *SMTP) maxIdle() int {
	if s.MaxIdle == 0 {
		return DefaultMaxIdle
	}
	return s.MaxIdle
}

func (s *SMTP) idleTimeout() time.Duration {
	if s.IdleTimeout <= 0 {
		return DefaultIdleTimeout
	}
	return s.IdleTimeout
}

// takeIdle returns the most recently used idle connection that has not
// expired, or nil. Expired ones are closed.
func (s *SMTP) takeIdle() *smtpConn {
	s.mu.Lock()
	expired := s.expireLocked(time.Now())
	var pc *smtpConn
	if n := len(s.idle); n > 0 {
		pc = s.idle[n-1]
		s.idle[n-1] = nil
		s.idle = s.idle[:n-1]
	}
	if len(s.idle) == 0 && s.timer != nil {
		s.timer.Stop()
	}
	s.mu.Unlock()
	for _, old := range expired {
		s.quitLater(old)
	}
	return pc
}

// putIdle keeps pc for a later Send, closing the longest idle connection
// when there are too many.
func (s *SMTP) putIdle(pc *smtpConn) {
	pc.idleSince = time.Now()
	var evicted []*smtpConn
	s.mu.Lock()
	for len(s.idle) > 0 && len(s.idle) >= s.maxIdle() {
		evicted = append(evicted, s.idle[0])
		s.idle = slices.Delete(s.idle, 0, 1)
	}
	if s.maxIdle() > 0 {
		if len(s.idle) == 0 {
			if s.timer == nil {
				s.timer = time.AfterFunc(s.idleTimeout(), s.expire)
			} else {
				s.timer.Reset(s.idleTimeout())
			}
		}
		s.idle = append(s.idle, pc)
	} else {
		evicted = append(evicted, pc)
	}
	s.mu.Unlock()
	for _, old := range evicted {
		s.quitLater(old)
	}
}

// expire runs on the timer: it closes the idle connections that have
// expired and sets the timer for the next one.
func (s *SMTP) expire() {
	s.mu.Lock()
	now := time.Now()
	expired := s.expireLocked(now)
	if len(s.idle) > 0 {
		s.timer.Reset(s.idle[0].idleSince.Add(s.idleTimeout()).Sub(now))
	}
	s.mu.Unlock()
	for _, old := range expired {
		s.quitLater(old)
	}
}

// expireLocked removes from s.idle and returns the connections idle for
// IdleTimeout or longer.
func (s *SMTP) expireLocked(now time.Time) []*smtpConn {
	i := 0
	for i < len(s.idle) && now.Sub(s.idle[i].idleSince) >= s.idleTimeout() {
		i++
	}
	expired := slices.Clone(s.idle[:i])
	s.idle = slices.Delete(s.idle, 0, i)
	return expired
}

// quitLater closes pc with QUIT in the background.
func (s *SMTP) quitLater(pc *smtpConn) {
	go pc.quit()
}

// quit says QUIT and closes the connection, whatever the answer.
func (pc *smtpConn) quit() {
	pc.c.CommandTimeout = quitTimeout
	if err := pc.c.Quit(); err != nil {
		pc.c.Close()
	}
}

// Close closes the idle connections, saying QUIT on each, and returns when
// they are closed. It does not affect Sends in progress, and a later Send
// dials a new connection, so Close may be called at any time; call it at
// shutdown, once the last Send has returned, so that no connection stays
// open. A failed QUIT only closes the connection: Close always returns nil.
func (s *SMTP) Close() error {
	s.mu.Lock()
	idle := s.idle
	s.idle = nil
	if s.timer != nil {
		s.timer.Stop()
	}
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, pc := range idle {
		wg.Go(pc.quit)
	}
	wg.Wait()
	return nil
}
