package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"
)

// minuteOf is the minute of t, counted from the Unix epoch.
func minuteOf(t time.Time) int64 { return t.Unix() / 60 }

// CountMail counts one mail queued at t under each of keys (M29).
func (tx *Tx) CountMail(ctx context.Context, at time.Time, keys ...string) error {
	m := minuteOf(at)
	keys = slices.Compact(slices.Sorted(slices.Values(keys))) // a row is changed once a statement
	args := make([]any, 0, 2*len(keys))
	for _, k := range keys {
		args = append(args, k, m)
	}
	var err error
	// One statement for the two or three keys of a mail; each statement
	// is a constant (TestSQLOnlyThroughParameters), so one for each count.
	switch len(keys) {
	case 0:
	case 2:
		_, err = tx.exec(ctx, countMail+", (?, ?, 1)"+countMailConflict, args...)
	case 3:
		_, err = tx.exec(ctx, countMail+", (?, ?, 1), (?, ?, 1)"+countMailConflict, args...)
	default:
		for i := range keys {
			if _, err = tx.exec(ctx, countMail+countMailConflict, args[2*i:2*i+2]...); err != nil {
				break
			}
		}
	}
	if err != nil {
		return fmt.Errorf("count mail for %q: %w", keys, err)
	}
	return nil
}

// countMail and countMailConflict count a mail under keys (CountMail).
const (
	countMail         = "INSERT INTO mail_counts (key, minute, n) VALUES (?, ?, 1)"
	countMailConflict = " ON CONFLICT (key, minute) DO UPDATE SET n = mail_counts.n + 1"
)

// MailCount returns how many mails were counted under key in the hour
// before now, by the minute: the minute of now and the 59 before it.
func (tx *Tx) MailCount(ctx context.Context, key string, now time.Time) (int, error) {
	var n int
	err := tx.queryRow(ctx, "SELECT coalesce(sum(n), 0) FROM mail_counts WHERE key = ? AND minute > ?",
		key, minuteOf(now)-60).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("mail counted for %q: %w", key, err)
	}
	return n, nil
}

// PruneMailCounts deletes the counts of the minutes before a time.
func (tx *Tx) PruneMailCounts(ctx context.Context, before time.Time) error {
	if _, err := tx.exec(ctx, "DELETE FROM mail_counts WHERE minute < ?", minuteOf(before)); err != nil {
		return fmt.Errorf("prune mail counts: %w", err)
	}
	return nil
}

// CapNoticeAt returns when the one who caused mail past a cap was last
// told so; zero when never.
func (tx *Tx) CapNoticeAt(ctx context.Context, cause string) (time.Time, error) {
	var at string
	err := tx.queryRow(ctx, "SELECT at FROM cap_notices WHERE cause = ?", cause).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("cap notice of %q: %w", cause, err)
	}
	return parseTime(at)
}

// SetCapNotice records that the one who caused mail past a cap was told
// so at a time.
func (tx *Tx) SetCapNotice(ctx context.Context, cause string, at time.Time) error {
	_, err := tx.exec(ctx, "INSERT INTO cap_notices (cause, at) VALUES (?, ?) ON CONFLICT (cause) DO UPDATE SET at = excluded.at", cause, formatTime(at))
	if err != nil {
		return fmt.Errorf("cap notice of %q: %w", cause, err)
	}
	return nil
}

// NoCommand counts a mail without a command from an address at now, in a
// window of the given length that begins at the first such mail, and
// returns the count in the window and when the address was last told it
// is not answered (zero for never).
func (tx *Tx) NoCommand(ctx context.Context, address string, now time.Time, window time.Duration) (int, time.Time, error) {
	var since, told string
	var n int
	err := tx.queryRow(ctx, "SELECT since, mails, told FROM no_command WHERE address = ?", address).Scan(&since, &n, &told)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		since, n = formatTime(now), 0
	case err != nil:
		return 0, time.Time{}, fmt.Errorf("mail without a command from %q: %w", address, err)
	}
	start, err := parseTime(since)
	if err != nil {
		return 0, time.Time{}, err
	}
	if now.Sub(start) > window {
		since, n = formatTime(now), 0
	}
	n++
	_, err = tx.exec(ctx, "INSERT INTO no_command (address, since, mails, told) VALUES (?, ?, ?, ?)"+
		" ON CONFLICT (address) DO UPDATE SET since = excluded.since, mails = excluded.mails, told = excluded.told",
		address, since, n, told)
	if err != nil {
		return 0, time.Time{}, fmt.Errorf("mail without a command from %q: %w", address, err)
	}
	at, err := parseOptTime(told)
	return n, at, err
}

// ToldNoCommand records that an address was told at a time that its mail
// without a command is not answered.
func (tx *Tx) ToldNoCommand(ctx context.Context, address string, at time.Time) error {
	if _, err := tx.exec(ctx, "UPDATE no_command SET told = ? WHERE address = ?", formatTime(at), address); err != nil {
		return fmt.Errorf("tell %q: %w", address, err)
	}
	return nil
}
