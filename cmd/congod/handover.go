package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	netmail "net/mail"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/mailer"
	"github.com/congobymail/congo/outbox"
)

// handOverSize is the size of the one record of the hand-over file: a
// Message-ID, a newline, and zeros.
const handOverSize = 512

// handOver closes the gap through which a mail was sent twice: the SMTP
// server answers the end of a mail only once it has written the mail to
// its disk (Postfix fsyncs its queue file first), milliseconds during
// which the outbox can only wait; a daemon killed then has not recorded
// the mail as sent, though the server has it and delivers it, and the
// next start sent it again. So the moment the server has the whole mail
// (mailer.WithHandOver), its Message-ID is written to a file beside the
// database (one pwrite, no wait for the disk), and it is cleared when the
// send returns, whose outcome the outbox records. At the next start a
// Message-ID left there names a mail the server took (unless it refused
// it at that very moment): it is recorded as sent (in the sent log,
// before the outbox reads the outbox) instead of being sent again.
//
// The outbox sends one mail at a time, so the file holds one record.
//
// A nil *handOver records nothing: on PostgreSQL the process that takes
// over may run on another machine, which could not read this file, and
// the gap stays (see README, Beyond one machine).
type handOver struct {
	mu  sync.Mutex
	f   *os.File
	buf [handOverSize]byte
	log *slog.Logger
}

// openHandOver opens the hand-over file at path, creating it (mode 0600)
// when missing.
func openHandOver(path string, log *slog.Logger) (*handOver, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open hand-over file: %w", err)
	}
	return &handOver{f: f, log: log}, nil
}

// Close closes the file.
func (h *handOver) Close() error { return h.f.Close() }

// sender wraps s, the outbox's sender, to record each mail as it is
// handed over.
func (h *handOver) sender(s outbox.Sender) outbox.Sender {
	if h == nil {
		return s
	}
	return handOverSender{s: s, h: h}
}

type handOverSender struct {
	s outbox.Sender
	h *handOver
}

func (hs handOverSender) Send(ctx context.Context, from string, to []string, msg []byte) error {
	id := messageID(msg)
	if id == "" {
		return hs.s.Send(ctx, from, to, msg)
	}
	err := hs.s.Send(mailer.WithHandOver(ctx, func() { hs.h.mark(id) }), from, to, msg)
	hs.h.clear()
	return err
}

// messageID is the Message-ID of the raw mail msg, without brackets; ""
// when it has none.
func messageID(msg []byte) string {
	m, err := netmail.ReadMessage(bytes.NewReader(msg))
	if err != nil {
		return ""
	}
	return strings.Trim(strings.TrimSpace(m.Header.Get("Message-ID")), "<>")
}

// mark records that the mail id is in the server's hands.
func (h *handOver) mark(id string) {
	if len(id) >= handOverSize || strings.ContainsAny(id, "\n\x00") {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	clear(h.buf[:])
	copy(h.buf[:], id+"\n")
	if _, err := h.f.WriteAt(h.buf[:], 0); err != nil {
		h.log.Warn("hand-over file: a mail may be sent twice should the daemon die now", "message_id", id, "err", err)
	}
}

// clear forgets the mail handed over: its outcome is the outbox's to
// record.
func (h *handOver) clear() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.f.Truncate(0); err != nil {
		h.log.Warn("hand-over file", "err", err)
	}
}

// left returns the Message-ID the file holds, "" when none.
func (h *handOver) left() (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	b, err := io.ReadAll(io.NewSectionReader(h.f, 0, handOverSize))
	if err != nil {
		return "", fmt.Errorf("read hand-over file: %w", err)
	}
	id, _, ok := bytes.Cut(b, []byte("\n"))
	if !ok {
		return "", nil // none, or torn
	}
	return string(id), nil
}

// settle records as sent, in sentLog, the mail left in the server's
// hands when the daemon died, if it still waits in the outbox, and
// empties the file. It must run before the outbox starts.
func (h *handOver) settle(ctx context.Context, store *db.DB, sentLog *db.SentLog, now time.Time) error {
	if h == nil {
		return nil
	}
	id, err := h.left()
	if err != nil || id == "" {
		return err
	}
	var found *db.Mail
	err = store.Tx(ctx, func(tx *db.Tx) error {
		m, ok, err := tx.WaitingMail(ctx, id)
		if ok {
			found = &m
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("settle the mail handed over: %w", err)
	}
	if found != nil {
		if err := sentLog.Record(*found, now); err != nil {
			return err
		}
		h.log.Warn("the daemon died while the SMTP server took this mail: recorded as sent, not sent again",
			"id", found.ID, "message_id", id, "to", found.To)
	}
	h.clear()
	return nil
}
