package congotest

import (
	"testing"
	"time"
)

// WaitFor waits for cond, done in another goroutine (a worker, a server),
// to hold: it tries it every 10 ms, and fails the test when it does not
// hold within the time given.
func WaitFor(t testing.TB, what string, within time.Duration, cond func() bool) {
	t.Helper()
	if !Poll(within, cond) {
		t.Fatalf("no %s within %v", what, within)
	}
}

// Poll tries cond every 10 ms until it holds, and reports whether it did
// within the time given.
func Poll(within time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(within)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		<-tick.C
	}
	return true
}
