package db

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"sync"
	"time"
)

// SentLog records that outbox mails were sent in a file of its own beside
// the database: one write(2) of a fixed-size record per mail, without
// waiting for the database's lock or for the disk. A mail is sent twice
// only when the process dies between the SMTP server's acceptance and
// that record, so the record must be made at once; the records are then
// carried into the outbox (Apply) in one transaction, before the outbox
// is next read.
//
// A crash of the process loses no record (the operating system holds the
// written bytes); a crash of the machine may, which only sends those
// mails again. A record torn by a crash is ignored.
//
// Until they are carried into the outbox, the records are kept in memory
// too (Unapplied), so that the outbox can be read without waiting for
// the database's lock and still not send those mails again.
type SentLog struct {
	mu        sync.Mutex
	path      string
	f         *os.File
	buf       [sentRecordSize]byte
	unapplied map[int64]bool // the outbox ids recorded and not yet applied

	// direct, when set, is the PostgreSQL database each record goes to
	// at once, in a statement of its own, instead of a file: the
	// processes that share it may run on other hosts, and the statement
	// waits for no transaction.
	direct *DB
}

// OpenSentLog opens the sent log of d: for SQLite, the file at path
// (OpenSentLog); for PostgreSQL, none, each record made in the database
// at once.
func (d *DB) OpenSentLog(path string) (*SentLog, error) {
	if d.pg {
		return &SentLog{direct: d}, nil
	}
	return OpenSentLog(path)
}

// A record is the outbox id, the time the mail was queued and the time it
// was sent (Unix nanoseconds), little-endian, and the CRC-32 (IEEE) of
// those 24 bytes. The time queued tells the mail from another with the
// same id, as after a restore of the database.
const (
	sentRecordSize = 28
	sentDataSize   = 24
)

// OpenSentLog opens the log at path, creating it when missing (mode 0600,
// whatever the umask).
func OpenSentLog(path string) (*SentLog, error) {
	if err := createPrivate(path); err != nil {
		return nil, fmt.Errorf("open sent log: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open sent log: %w", err)
	}
	l := &SentLog{path: path, f: f, unapplied: map[int64]bool{}}
	recs, _, err := l.read()
	if err != nil {
		f.Close()
		return nil, err
	}
	for _, r := range recs {
		l.unapplied[r.id] = true
	}
	return l, nil
}

// Unapplied returns the outbox ids of the mails recorded and not yet
// carried into the outbox, in no order.
func (l *SentLog) Unapplied() []int64 {
	if l.direct != nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	ids := make([]int64, 0, len(l.unapplied))
	for id := range l.unapplied {
		ids = append(ids, id)
	}
	return ids
}

// Len returns the number of records not yet carried into the outbox.
func (l *SentLog) Len() int {
	if l.direct != nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.unapplied)
}

// sentRecord is one record of the log.
type sentRecord struct {
	id          int64
	created, at time.Time
}

// read reads the log's records; rest is set when bytes of a torn record
// follow them.
func (l *SentLog) read() (recs []sentRecord, rest bool, err error) {
	if _, err := l.f.Seek(0, io.SeekStart); err != nil {
		return nil, false, fmt.Errorf("read sent log: %w", err)
	}
	data, err := io.ReadAll(l.f)
	if err != nil {
		return nil, false, fmt.Errorf("read sent log: %w", err)
	}
	for len(data) >= sentRecordSize {
		r := data[:sentRecordSize]
		data = data[sentRecordSize:]
		if crc32.ChecksumIEEE(r[:sentDataSize]) != binary.LittleEndian.Uint32(r[sentDataSize:]) {
			rest = true
			continue // torn by a crash
		}
		recs = append(recs, sentRecord{
			id:      int64(binary.LittleEndian.Uint64(r[0:])),
			created: time.Unix(0, int64(binary.LittleEndian.Uint64(r[8:]))),
			at:      time.Unix(0, int64(binary.LittleEndian.Uint64(r[16:]))),
		})
	}
	return recs, rest || len(data) > 0, nil
}

// Close closes the log.
func (l *SentLog) Close() error {
	if l.direct != nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f.Close()
}

// Record records that the outbox mail m was sent at the given time.
func (l *SentLog) Record(m Mail, at time.Time) error {
	if l.direct != nil {
		return l.direct.markSent(context.Background(), m, at)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	binary.LittleEndian.PutUint64(l.buf[0:], uint64(m.ID))
	binary.LittleEndian.PutUint64(l.buf[8:], uint64(m.Created.UnixNano()))
	binary.LittleEndian.PutUint64(l.buf[16:], uint64(at.UnixNano()))
	binary.LittleEndian.PutUint32(l.buf[sentDataSize:], crc32.ChecksumIEEE(l.buf[:sentDataSize]))
	if _, err := l.f.Write(l.buf[:]); err != nil {
		// A part written (a full disk) would shift every later record:
		// cut it off.
		if fi, serr := l.f.Stat(); serr == nil && fi.Size()%sentRecordSize != 0 {
			l.f.Truncate(fi.Size() - fi.Size()%sentRecordSize)
		}
		return fmt.Errorf("record mail %d sent: %w", m.ID, err)
	}
	l.unapplied[m.ID] = true
	return nil
}

// Apply marks the mails the log records as sent, in one transaction of
// d, and then empties the log. It returns how many records it applied.
// Applying a record twice (the process died before the log was emptied)
// changes nothing.
func (l *SentLog) Apply(ctx context.Context, d *DB) (int, error) {
	n, _, err := l.apply(ctx, d, false)
	return n, err
}

// TryApply is Apply when the database's lock is free at once; ok is false
// when it was not, and nothing was done.
func (l *SentLog) TryApply(ctx context.Context, d *DB) (n int, ok bool, err error) {
	return l.apply(ctx, d, true)
}

func (l *SentLog) apply(ctx context.Context, d *DB, try bool) (int, bool, error) {
	if l.direct != nil {
		return 0, true, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	recs, rest, err := l.read()
	if err != nil {
		return 0, false, err
	}
	if len(recs) > 0 {
		// Like the log itself, the marks need not wait for the disk.
		mark := func(tx *Tx) error {
			for _, r := range recs {
				// A mail no longer in the outbox, or another one with its
				// id, is left alone.
				_, err := tx.exec(ctx, "UPDATE outbox SET sent_at = ? WHERE id = ? AND created = ?",
					formatTime(r.at), r.id, formatTime(r.created))
				if err != nil {
					return fmt.Errorf("mark outbox mail %d sent: %w", r.id, err)
				}
			}
			return nil
		}
		if try {
			ran, err := d.tryTxNoSync(ctx, mark)
			if !ran || err != nil {
				return 0, ran, err
			}
		} else if err := d.TxNoSync(ctx, mark); err != nil {
			return 0, false, fmt.Errorf("apply sent log: %w", err)
		}
	}
	if len(recs) == 0 && !rest {
		return 0, true, nil
	}
	if err := l.f.Truncate(0); err != nil {
		return 0, true, fmt.Errorf("empty sent log: %w", err)
	}
	clear(l.unapplied)
	return len(recs), true, nil
}

// markSent records at once that m was sent, in a transaction of its own
// that neither waits for the disk nor for another transaction: it
// touches the mail's row alone, which no other transaction changes.
func (d *DB) markSent(ctx context.Context, m Mail, at time.Time) error {
	t, err := d.sql.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("record mail %d sent: %w", m.ID, err)
	}
	return d.run(ctx, t, false, func(tx *Tx) error {
		if _, err := tx.tx.ExecContext(ctx, "SET LOCAL synchronous_commit = off"); err != nil {
			return fmt.Errorf("record mail %d sent: %w", m.ID, err)
		}
		_, err := tx.exec(ctx, "UPDATE outbox SET sent_at = ? WHERE id = ? AND created = ?",
			formatTime(at), m.ID, formatTime(m.Created))
		if err != nil {
			return fmt.Errorf("record mail %d sent: %w", m.ID, err)
		}
		return nil
	})
}
