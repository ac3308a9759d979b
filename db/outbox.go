package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Mail is a mail in the outbox.
type Mail struct {
	ID          int64
	Created     time.Time
	From        string // envelope sender
	To          string // envelope recipient
	MessageID   string // without angle brackets
	Raw         []byte // the whole message
	Attempts    int    // failed attempts so far
	NextAttempt time.Time
	LastError   string
	SentAt      time.Time // zero until sent
	FailedAt    time.Time // zero unless given up
}

// mailColumns are the columns of a Mail in mailFrom, the outbox (m) and
// its text (t), which lives apart from the status.
const (
	mailColumns = "m.id, m.created, m.mail_from, m.rcpt_to, m.message_id, t.raw, m.attempts, m.next_attempt," +
		" m.last_error, m.sent_at, m.failed_at"
	mailFrom = " FROM outbox AS m JOIN outbox_text AS t ON t.id = m.id"
)

// AddMail adds a mail to the outbox, due at once, or at its NextAttempt
// when that is later (a mail that waits for a cap). It uses Created,
// From, To, MessageID, Raw and NextAttempt of m and returns the new id.
func (tx *Tx) AddMail(ctx context.Context, m Mail) (int64, error) {
	var id int64
	err := tx.queryRow(ctx,
		"INSERT INTO outbox (created, mail_from, rcpt_to, message_id, next_attempt) VALUES (?, ?, ?, ?, ?) RETURNING id",
		formatTime(m.Created), m.From, m.To, m.MessageID, formatTime(latest(m.Created, m.NextAttempt))).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("enqueue mail %q: %w", m.MessageID, err)
	}
	if _, err := tx.exec(ctx, "INSERT INTO outbox_text (id, raw) VALUES (?, ?)", id, packText(m.Raw)); err != nil {
		return 0, fmt.Errorf("enqueue mail %q: %w", m.MessageID, err)
	}
	return id, nil
}

// latest returns the later of two times.
func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// Due returns up to limit mails waiting to be sent whose next attempt is
// not after now, in the order they were queued, but none queued after a
// mail to the same recipient that waits to be tried again: a recipient's
// mails go out in the order they were queued. A recipient's due mails
// come in their order, so that the sender sends them one after another
// and stops at the first that fails (the rest then wait behind it). The
// mails with the ids sent are taken as sent (SentLog.Unapplied).
//
// Its cost is bounded by limit and the mails skipped as sent, not by the
// mails waiting: each recipient's mails waiting to be tried again are
// found in the index outbox_pending_retry (migration 014).
func (tx *Tx) Due(ctx context.Context, now time.Time, limit int, sent ...int64) ([]Mail, error) {
	ids, err := jsonIDs(sent)
	if err != nil {
		return nil, fmt.Errorf("due mail: %w", err)
	}
	at := formatTime(now)
	rows, err := tx.query(ctx, tx.db.q.due, at, ids, at, ids, limit)
	if err != nil {
		return nil, fmt.Errorf("due mail: %w", err)
	}
	defer rows.Close()
	var mails []Mail
	for rows.Next() {
		m, err := scanMail(rows)
		if err != nil {
			return nil, fmt.Errorf("due mail: %w", err)
		}
		mails = append(mails, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("due mail: %w", err)
	}
	return mails, nil
}

// SetRetriesDue makes every mail waiting for a retry due at now, and returns how
// many: once a send works again after failures, the rest need not wait
// out their backoff.
func (tx *Tx) SetRetriesDue(ctx context.Context, now time.Time) (int64, error) {
	res, err := tx.exec(ctx,
		"UPDATE outbox SET next_attempt = ? WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt > ? AND attempts > 0",
		formatTime(now), formatTime(now))
	if err != nil {
		return 0, fmt.Errorf("retry mail now: %w", err)
	}
	return res.RowsAffected()
}

// jsonIDs is ids as a JSON array, bound as one parameter.
func jsonIDs(ids []int64) (string, error) {
	if len(ids) == 0 {
		return "[]", nil
	}
	b, err := json.Marshal(ids)
	return string(b), err
}

// NextDue returns when Due next has a mail to give, at now or later: now
// when one is due (and not held back behind another of its recipient's),
// else the earliest time a mail waiting to be tried again is due, which
// also frees the mails queued after it. ok is false when no mail waits.
// The mails with the ids sent are taken as sent.
func (tx *Tx) NextDue(ctx context.Context, now time.Time, sent ...int64) (next time.Time, ok bool, err error) {
	due, err := tx.Due(ctx, now, 1, sent...)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("next due mail: %w", err)
	}
	if len(due) > 0 {
		return now, true, nil
	}
	ids, err := jsonIDs(sent)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("next due mail: %w", err)
	}
	var s sql.NullString
	err = tx.queryRow(ctx, tx.db.q.nextRetry, formatTime(now), ids).Scan(&s)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("next due mail: %w", err)
	}
	if !s.Valid {
		return time.Time{}, false, nil
	}
	next, err = parseTime(s.String)
	return next, err == nil, err
}

// Pending returns the number of mails waiting to be sent.
func (tx *Tx) Pending(ctx context.Context) (int, error) {
	var n int
	err := tx.queryRow(ctx,
		"SELECT count(*) FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL").Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count pending mail: %w", err)
	}
	return n, nil
}

// Mail returns the outbox mail with the given id.
func (tx *Tx) Mail(ctx context.Context, id int64) (Mail, error) {
	m, err := scanMail(tx.queryRow(ctx, "SELECT "+mailColumns+mailFrom+" WHERE m.id = ?", id))
	if err != nil {
		return Mail{}, notFound(err, fmt.Sprintf("outbox mail %d", id))
	}
	return m, nil
}

// WaitingMail returns the mail with the Message-ID id (without brackets)
// if it waits to be sent; ok is false when none does. It reads the
// waiting mails alone, and the text of that one.
func (tx *Tx) WaitingMail(ctx context.Context, id string) (m Mail, ok bool, err error) {
	m, err = scanMail(tx.queryRow(ctx, "SELECT "+mailColumns+mailFrom+
		" WHERE m.sent_at IS NULL AND m.failed_at IS NULL AND m.message_id = ? ORDER BY m.id LIMIT 1", id))
	if errors.Is(err, sql.ErrNoRows) {
		return Mail{}, false, nil
	}
	if err != nil {
		return Mail{}, false, fmt.Errorf("waiting mail %q: %w", id, err)
	}
	return m, true, nil
}

// SetSent records that a mail was sent.
func (tx *Tx) SetSent(ctx context.Context, id int64, at time.Time) error {
	res, err := tx.exec(ctx, "UPDATE outbox SET sent_at = ? WHERE id = ?", formatTime(at), id)
	if err != nil {
		return fmt.Errorf("mark outbox mail %d sent: %w", id, err)
	}
	return mustAffect(res, fmt.Sprintf("outbox mail %d", id))
}

// SetRetry records a failed attempt and when to try again.
func (tx *Tx) SetRetry(ctx context.Context, id int64, next time.Time, reason string) error {
	res, err := tx.exec(ctx,
		"UPDATE outbox SET attempts = attempts + 1, next_attempt = ?, last_error = ? WHERE id = ?",
		formatTime(next), reason, id)
	if err != nil {
		return fmt.Errorf("mark outbox mail %d for retry: %w", id, err)
	}
	return mustAffect(res, fmt.Sprintf("outbox mail %d", id))
}

// SetFailed records a failed attempt after which the mail is given up.
func (tx *Tx) SetFailed(ctx context.Context, id int64, at time.Time, reason string) error {
	res, err := tx.exec(ctx,
		"UPDATE outbox SET attempts = attempts + 1, failed_at = ?, last_error = ? WHERE id = ?",
		formatTime(at), reason, id)
	if err != nil {
		return fmt.Errorf("mark outbox mail %d failed: %w", id, err)
	}
	return mustAffect(res, fmt.Sprintf("outbox mail %d", id))
}

func scanMail(row scanner) (Mail, error) {
	var m Mail
	var created, next string
	var sent, failed sql.NullString
	err := row.Scan(&m.ID, &created, &m.From, &m.To, &m.MessageID, &m.Raw, &m.Attempts, &next,
		&m.LastError, &sent, &failed)
	if err != nil {
		return Mail{}, err
	}
	if m.Created, err = parseTime(created); err != nil {
		return Mail{}, err
	}
	if m.NextAttempt, err = parseTime(next); err != nil {
		return Mail{}, err
	}
	if m.SentAt, err = parseNullTime(sent); err != nil {
		return Mail{}, err
	}
	if m.FailedAt, err = parseNullTime(failed); err != nil {
		return Mail{}, err
	}
	if m.Raw, err = unpackText(m.Raw); err != nil {
		return Mail{}, fmt.Errorf("mail %d: %w", m.ID, err)
	}
	return m, nil
}

// recentWindow bounds the outbox rows that QueuedTo looks at: the newest
// ones, so that the count costs the same however long the outbox grows.
const recentWindow = 5000

// QueuedTo returns how many mails were queued to the address to since the
// given time, among the newest recentWindow mails of the outbox.
func (tx *Tx) QueuedTo(ctx context.Context, to string, since time.Time) (int, error) {
	var n int
	err := tx.queryRow(ctx,
		"SELECT count(*) FROM (SELECT rcpt_to, created FROM outbox ORDER BY id DESC LIMIT ?) AS recent"+
			" WHERE rcpt_to = ? AND created >= ?",
		recentWindow, to, formatTime(since)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count mail queued to %q: %w", to, err)
	}
	return n, nil
}

// DeleteOldMail deletes up to limit mails that were sent, or given up,
// before the given time (the oldest first), with their text, and returns
// how many it deleted. Mail still waiting is never deleted.
func (tx *Tx) DeleteOldMail(ctx context.Context, before time.Time, limit int) (int64, error) {
	res, err := tx.exec(ctx,
		"DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE created < ?"+
			" AND (sent_at IS NOT NULL OR failed_at IS NOT NULL) ORDER BY created, id LIMIT ?)",
		formatTime(before), limit)
	if err != nil {
		return 0, fmt.Errorf("prune outbox: %w", err)
	}
	return res.RowsAffected()
}
