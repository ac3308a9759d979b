package db

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// OutboxStats is the state of the outbox, for monitoring.
type OutboxStats struct {
	Pending int       // mails waiting to be sent
	Oldest  time.Time // when the oldest of them was queued; zero when none
	Failed  int       // mails given up
}

// OutboxStats returns the state of the outbox, the mails with the ids
// sent taken as sent (SentLog.Unapplied: sent, not carried into the
// outbox yet). It reads outside any transaction of DB.Tx, so it takes no
// write lock.
func (d *DB) OutboxStats(ctx context.Context, sent ...int64) (OutboxStats, error) {
	var (
		st     OutboxStats
		oldest sql.NullString
	)
	ids, err := jsonIDs(sent)
	if err != nil {
		return OutboxStats{}, fmt.Errorf("outbox stats: %w", err)
	}
	err = d.sql.QueryRowContext(ctx, d.rebind(d.q.pending), ids).Scan(&st.Pending, &oldest)
	if err != nil {
		return OutboxStats{}, fmt.Errorf("outbox stats: %w", err)
	}
	if st.Oldest, err = parseNullTime(oldest); err != nil {
		return OutboxStats{}, fmt.Errorf("outbox stats: %w", err)
	}
	err = d.sql.QueryRowContext(ctx, "SELECT count(*) FROM outbox WHERE failed_at IS NOT NULL").Scan(&st.Failed)
	if err != nil {
		return OutboxStats{}, fmt.Errorf("outbox stats: %w", err)
	}
	return st, nil
}
