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
// (-smtp-connections), in lanes (outbox.Lane): the file has a record for
// each lane. A lane's mail sent stays marked until the lane's next mail
// is handed over, by when the outbox has recorded it: so there is no
// moment at which a mail the server took is neither marked nor recorded.
// A mail the server refused is cleared at once. (A send from no lane
// uses the record after the lanes', cleared when it returns.)
//
// A nil *handOver records nothing: on PostgreSQL the process that takes
// over may run on another machine, which could not read this file, and
// the gap stays (see docs/operating.md, Beyond one machine).
type handOver struct {
	mu    sync.Mutex // for the file's size: writes to records are apart
	f     *os.File
	lanes int        // the records of lanes, 0 to lanes-1; then one for other sends
	other sync.Mutex // held by a send from no lane
	log   *slog.Logger
}

// openHandOver opens the hand-over file at path, creating it (mode 0600)
// when missing, for an outbox of lanes lanes.
func openHandOver(path string, lanes int, log *slog.Logger) (*handOver, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open hand-over file: %w", err)
	}
	return &handOver{f: f, lanes: max(lanes, 1), log: log}, nil
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
	id, ok := outbox.MessageID(ctx)
	if !ok {
		id = messageID(msg)
	}
	if id == "" {
		return hs.s.Send(ctx, from, to, msg)
	}
	rec, ok := outbox.Lane(ctx)
	if !ok || rec >= hs.h.lanes {
		hs.h.other.Lock()
		defer hs.h.other.Unlock()
		rec = hs.h.lanes
		defer hs.h.clear(rec)
	}
	err := hs.s.Send(mailer.WithHandOver(ctx, func() { hs.h.mark(rec, id) }), from, to, msg)
	if err != nil {
		hs.h.clear(rec) // refused, or cut short: not the server's to deliver
	}
	return err
}

// messageID is the Message-ID of the raw mail msg, without brackets; ""
// when it has none. Only the header is read. (The outbox's sends say it:
// outbox.MessageID.)
func messageID(msg []byte) string {
	head, _, _ := bytes.Cut(msg, []byte("\r\n\r\n"))
	m, err := netmail.ReadMessage(bytes.NewReader(append(head, "\r\n\r\n"...)))
	if err != nil {
		return ""
	}
	return strings.Trim(strings.TrimSpace(m.Header.Get("Message-ID")), "<>")
}

// mark records in record rec that the mail id is in the server's hands.
func (h *handOver) mark(rec int, id string) {
	if len(id) >= handOverSize || strings.ContainsAny(id, "\n\x00") {
		return
	}
	var buf [handOverSize]byte
	copy(buf[:], id+"\n")
	if _, err := h.f.WriteAt(buf[:], int64(rec)*handOverSize); err != nil {
		h.log.Warn("hand-over file: a mail may be sent twice should the daemon die now", "message_id", id, "err", err)
	}
}

// clear forgets the mail handed over in record rec.
func (h *handOver) clear(rec int) {
	var zero [handOverSize]byte
	if _, err := h.f.WriteAt(zero[:], int64(rec)*handOverSize); err != nil {
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
	recorded := map[int64]bool{} // sent, in the sent log: the usual end of a lane's last mail
	for _, id := range sentLog.Unapplied() {
		recorded[id] = true
	}
	var found []db.Mail
	err = store.Tx(ctx, func(tx *db.Tx) error {
		for _, id := range ids {
			m, ok, err := tx.WaitingMail(ctx, id)
			if err != nil {
				return err
			}
			if ok && !recorded[m.ID] {
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
