package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"
)

// MinuteOf is the minute of t, counted from the Unix epoch: mail is
// counted by the minute (CountMail).
func MinuteOf(t time.Time) int64 { return t.Unix() / 60 }

func minuteOf(t time.Time) int64 { return MinuteOf(t) }

// DayKey begins the keys whose counts are kept a day (PruneMailCounts),
// not two hours.
const DayKey = "day:"

// AddMailCount counts one mail queued at t under each of keys (M29).
func (tx *Tx) AddMailCount(ctx context.Context, at time.Time, keys ...string) error {
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

// CountMail returns how many mails were counted under key in the hour
// that ends at now, by the minute: the minute of now and the 59 before it.
func (tx *Tx) CountMail(ctx context.Context, key string, now time.Time) (int, error) {
	var n int
	err := tx.queryRow(ctx, "SELECT coalesce(sum(n), 0) FROM mail_counts WHERE key = ? AND minute > ? AND minute <= ?",
		key, minuteOf(now)-60, minuteOf(now)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("mail counted for %q: %w", key, err)
	}
	return n, nil
}

// MailCounts returns the mails counted under key by the minute (counted
// from the Unix epoch), from the minute from on, the minutes to come
// too (mail that waits for a cap is counted when it is due).
func (tx *Tx) MailCounts(ctx context.Context, key string, from int64) (map[int64]int, error) {
	rows, err := tx.query(ctx, "SELECT minute, n FROM mail_counts WHERE key = ? AND minute >= ?", key, from)
	if err != nil {
		return nil, fmt.Errorf("mail counted for %q: %w", key, err)
	}
	defer rows.Close()
	out := map[int64]int{}
	for rows.Next() {
		var m int64
		var n int
		if err := rows.Scan(&m, &n); err != nil {
			return nil, fmt.Errorf("mail counted for %q: %w", key, err)
		}
		out[m] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("mail counted for %q: %w", key, err)
	}
	return out, nil
}

// CountMailSince returns how many mails were counted under key from the
// minute of since on, the minutes to come too.
func (tx *Tx) CountMailSince(ctx context.Context, key string, since time.Time) (int, error) {
	var n int
	err := tx.queryRow(ctx, "SELECT coalesce(sum(n), 0) FROM mail_counts WHERE key = ? AND minute >= ?",
		key, minuteOf(since)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("mail counted for %q: %w", key, err)
	}
	return n, nil
}

// DeleteOldMailCounts deletes the counts of the minutes before a time, and
// those of the keys that begin with DayKey before dayBefore.
func (tx *Tx) DeleteOldMailCounts(ctx context.Context, before, dayBefore time.Time) error {
	_, err := tx.exec(ctx, "DELETE FROM mail_counts WHERE minute < ? AND (minute < ? OR key NOT LIKE 'day:%')",
		minuteOf(before), minuteOf(dayBefore))
	if err != nil {
		return fmt.Errorf("prune mail counts: %w", err)
	}
	return nil
}

// AddNoCommand counts a mail without a command from an address at now, in a
// window of the given length that begins at the first such mail, and
// returns the count in the window and when the address was last told it
// is not answered (zero for never).
func (tx *Tx) AddNoCommand(ctx context.Context, address string, now time.Time, window time.Duration) (int, time.Time, error) {
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

// SetNoCommandTold records that an address was told at a time that its mail
// without a command is not answered.
func (tx *Tx) SetNoCommandTold(ctx context.Context, address string, at time.Time) error {
	if _, err := tx.exec(ctx, "UPDATE no_command SET told = ? WHERE address = ?", formatTime(at), address); err != nil {
		return fmt.Errorf("tell %q: %w", address, err)
	}
	return nil
}
