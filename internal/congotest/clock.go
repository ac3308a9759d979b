package congotest

import (
	"sync"
	"time"
)

// Clock is a settable time source, safe for concurrent use; hand its Now
// to what takes a func() time.Time.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a Clock at T0.
func NewClock() *Clock {
	return &Clock{t: T0}
}

// Now is the Clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the Clock d on.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// Set sets the Clock to t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}
