package outbox

import (
	"errors"
	"testing"
	"time"
)

// TestOutboxOutage: the SMTP server answers 4xx, then is down, for hours,
// while mail keeps coming; one mail meanwhile is refused for good (5xx).
// Nothing is lost or sent twice: once the server is back, every mail but
// the refused one goes out exactly once, and the refused one blocks none.
func TestOutboxOutage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	const n = 30
	for range n {
		h.queue("alice")
	}
	// Every attempt fails for a while: 4xx, then no connection.
	var errs []error
	for i := range 5000 { // more than 30 mails can use in six hours
		if i%2 == 0 {
			errs = append(errs, errTemporary)
		} else {
			errs = append(errs, errors.New("dial tcp 127.0.0.1:25: connection refused"))
		}
	}
	h.sink.FailNext(errs...)
	for range 6 * 60 { // six hours, a minute at a time
		h.sendDue()
		h.clock.Advance(time.Minute)
		if h.sink.Failing() == 0 {
			t.Fatal("the outage ended before the test meant it to")
		}
	}
	h.queue("bob") // queued during the outage
	h.sink.FailNext(errPermanent)
	// Back: within the longest backoff (an hour and a half with jitter)
	// everything goes out.
	sent := 0
	for range 2 * 60 {
		sent += h.sendDue()
		h.clock.Advance(time.Minute)
	}
	if sent != n {
		t.Errorf("%d mails sent once the server was back, want %d (all but the refused one)", sent, n)
	}
	seen := map[string]int{}
	for _, m := range h.sink.Take() {
		seen[messageID(t, m.Raw)]++
	}
	for id, c := range seen {
		if c != 1 {
			t.Errorf("mail %s sent %d times", id, c)
		}
	}
	if len(seen) != n {
		t.Errorf("%d distinct mails sent, want %d", len(seen), n)
	}
}
