package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	netmail "net/mail"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/mailer"
	"github.com/congobymail/congo/outbox"
)

// handOverSize is the size of one record of the hand-over file: a
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
// The outbox sends as many mails at once as it has connections
// (-smtp-connections): the file has a record for each, and each send
// takes a free one.
//
// A nil *handOver records nothing: on PostgreSQL the process that takes
// over may run on another machine, which could not read this file, and
// the gap stays (see README, Beyond one machine).
type handOver struct {
	mu    sync.Mutex // for the file's size: writes to records are apart
	f     *os.File
	slots chan int // the records free, by number
	log   *slog.Logger
}

// openHandOver opens the hand-over file at path, creating it (mode 0600)
// when missing, for sends sends at once.
func openHandOver(path string, sends int, log *slog.Logger) (*handOver, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open hand-over file: %w", err)
	}
	h := &handOver{f: f, slots: make(chan int, max(sends, 1)), log: log}
	for i := range cap(h.slots) {
		h.slots <- i
	}
	return h, nil
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
	slot := <-hs.h.slots
	defer func() { hs.h.slots <- slot }()
	err := hs.s.Send(mailer.WithHandOver(ctx, func() { hs.h.mark(slot, id) }), from, to, msg)
	hs.h.clear(slot)
	return err
}

// messageID is the Message-ID of the raw mail msg, without brackets; ""
// when it has none. Only the header is read.
func messageID(msg []byte) string {
	head, _, _ := bytes.Cut(msg, []byte("\r\n\r\n"))
	m, err := netmail.ReadMessage(bytes.NewReader(append(head, "\r\n\r\n"...)))
	if err != nil {
		return ""
	}
	return strings.Trim(strings.TrimSpace(m.Header.Get("Message-ID")), "<>")
}

// mark records in record slot that the mail id is in the server's hands.
func (h *handOver) mark(slot int, id string) {
	if len(id) >= handOverSize || strings.ContainsAny(id, "\n\x00") {
		return
	}
	var buf [handOverSize]byte
	copy(buf[:], id+"\n")
	if _, err := h.f.WriteAt(buf[:], int64(slot)*handOverSize); err != nil {
		h.log.Warn("hand-over file: a mail may be sent twice should the daemon die now", "message_id", id, "err", err)
	}
}

// clear forgets the mail handed over in record slot: its outcome is the
// outbox's to record.
func (h *handOver) clear(slot int) {
	var zero [handOverSize]byte
	if _, err := h.f.WriteAt(zero[:], int64(slot)*handOverSize); err != nil {
		h.log.Warn("hand-over file", "err", err)
	}
}

// left returns the Message-IDs the file holds, in the order of its
// records: none when it is empty.
func (h *handOver) left() ([]string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	b, err := io.ReadAll(io.NewSectionReader(h.f, 0, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("read hand-over file: %w", err)
	}
	var ids []string
	for rec := range slices.Chunk(b, handOverSize) {
		if id, _, ok := bytes.Cut(rec, []byte("\n")); ok && len(id) > 0 {
			ids = append(ids, string(id))
		} // else none, or torn
	}
	return ids, nil
}

// settle records as sent, in sentLog, the mails left in the server's
// hands when the daemon died, those that still wait in the outbox, and
// empties the file. It must run before the outbox starts.
func (h *handOver) settle(ctx context.Context, store *db.DB, sentLog *db.SentLog, now time.Time) error {
	if h == nil {
		return nil
	}
	ids, err := h.left()
	if err != nil || len(ids) == 0 {
		return err
	}
	var found []db.Mail
	err = store.Tx(ctx, func(tx *db.Tx) error {
		for _, id := range ids {
			m, ok, err := tx.WaitingMail(ctx, id)
			if err != nil {
				return err
			}
			if ok {
				found = append(found, m)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("settle the mails handed over: %w", err)
	}
	for _, m := range found {
		if err := sentLog.Record(m, now); err != nil {
			return err
		}
		h.log.Warn("the daemon died while the SMTP server took this mail: recorded as sent, not sent again",
			"id", m.ID, "message_id", m.MessageID, "to", m.To)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.f.Truncate(0); err != nil {
		return fmt.Errorf("empty hand-over file: %w", err)
	}
	return nil
}
