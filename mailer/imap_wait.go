package mailer

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// wait returns when new mail may have come: on a new message announced
// during IDLE, or after Poll; or after retry, when it is not 0, to try
// again a mail that failed.
func (b *Inbox) wait(ctx context.Context, cn *conn, wake <-chan struct{}, retry time.Duration) error {
	d := b.poll
	if retry > 0 {
		d = min(d, retry)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	cn.bye.arm(true)
	defer cn.bye.arm(false)
	var idle *imapclient.IdleCommand
	if cn.caps.Has(imap.CapIdle) {
		if err := cn.do(ctx, "idle", func() (err error) {
			idle, err = cn.c.Idle()
			return err
		}); err != nil {
			return err
		}
	} else {
		wake = nil // new mail is announced only during IDLE: poll
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-cn.c.Closed():
		return errors.New("imap: connection closed by the server")
	case <-cn.bye.bye:
		return errServerBye
	case <-wake:
	case <-t.C:
	}
	if idle == nil {
		return nil
	}
	return cn.do(ctx, "idle done", func() error {
		if err := idle.Close(); err != nil {
			return err
		}
		return idle.Wait()
	})
}

// errServerBye is an untagged BYE while waiting: the server is shutting
// down and will not close the connection at once.
var errServerBye = errors.New("imap: the server said BYE")

// byeWatch sees the bytes of an IMAP connection, both ways (it is the
// client's DebugWriter), and notices an untagged BYE while armed: go-imap
// does not act on one, and a server that shuts down may wait for the
// client to hang up. It is armed only while waiting for new mail, when no
// message text (which could hold such a line) is on the wire.
type byeWatch struct {
	mu    sync.Mutex
	armed bool
	tail  []byte // the last bytes seen, for a line split between writes
	bye   chan struct{}
	once  sync.Once
}

func (w *byeWatch) arm(on bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.armed = on
	w.tail = w.tail[:0]
}

func (w *byeWatch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.armed {
		return len(p), nil
	}
	w.tail = append(w.tail, p...)
	if bytes.HasPrefix(w.tail, []byte("* BYE")) || bytes.Contains(w.tail, []byte("\n* BYE")) {
		w.once.Do(func() { close(w.bye) })
	}
	if len(w.tail) > 8 {
		w.tail = append(w.tail[:0], w.tail[len(w.tail)-8:]...)
	}
	return len(p), nil
}
