package db

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// AnalysisRequest is a player's request for the analysis of a game (M49).
type AnalysisRequest struct {
	ID        int64
	Game      int64
	Player    int64
	MessageID string // the mail that asked, which the analysis answers; "" for none
	Requested time.Time
	Done      time.Time // when the analysis was queued to the player; zero while it waits
}

const analysisRequestColumns = "id, game, player, message_id, requested, done"

// AddAnalysisRequest stores a request, waiting, and returns it with its
// id: the queue's order.
func (tx *Tx) AddAnalysisRequest(ctx context.Context, r AnalysisRequest) (AnalysisRequest, error) {
	r.Requested, r.Done = r.Requested.UTC(), time.Time{}
	err := tx.queryRow(ctx, "INSERT INTO analysis_requests (game, player, message_id, requested) VALUES (?, ?, ?, ?) RETURNING id",
		r.Game, r.Player, r.MessageID, formatTime(r.Requested)).Scan(&r.ID)
	if err != nil {
		return AnalysisRequest{}, fmt.Errorf("request analysis of game %d: %w", r.Game, err)
	}
	return r, nil
}

// NextAnalysisRequest returns the oldest request that waits. It fails
// with ErrNotFound when none does.
func (tx *Tx) NextAnalysisRequest(ctx context.Context) (AnalysisRequest, error) {
	r, err := scanAnalysisRequest(tx.queryRow(ctx,
		"SELECT "+analysisRequestColumns+" FROM analysis_requests WHERE done = '' ORDER BY id LIMIT 1"))
	if err != nil {
		return AnalysisRequest{}, notFound(err, "next analysis request")
	}
	return r, nil
}

// NextAnalysisRequestAfter returns the oldest waiting request of the
// first player, in the order of their ids, after the player after
// (round-robin, M54): after the last player, the first. It fails with
// ErrNotFound when none waits.
func (tx *Tx) NextAnalysisRequestAfter(ctx context.Context, after int64) (AnalysisRequest, error) {
	r, err := scanAnalysisRequest(tx.queryRow(ctx,
		"SELECT "+analysisRequestColumns+" FROM analysis_requests WHERE done = ''"+
			" ORDER BY CASE WHEN player > ? THEN 0 ELSE 1 END, player, id LIMIT 1", after))
	if err != nil {
		return AnalysisRequest{}, notFound(err, "next analysis request")
	}
	return r, nil
}

// WaitingAnalysisRequests returns the requests for a game's analysis that
// wait, oldest first.
func (tx *Tx) WaitingAnalysisRequests(ctx context.Context, game int64) ([]AnalysisRequest, error) {
	what := fmt.Sprintf("analysis requests of game %d", game)
	rows, err := tx.query(ctx,
		"SELECT "+analysisRequestColumns+" FROM analysis_requests WHERE game = ? AND done = '' ORDER BY id", game)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	var out []AnalysisRequest
	for rows.Next() {
		r, err := scanAnalysisRequest(rows)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}

// CountAnalysesAhead counts the games whose analyses come before a game's in
// the queue: those with a request that waits, older than the game's
// oldest waiting request (all that wait when the game has none).
func (tx *Tx) CountAnalysesAhead(ctx context.Context, game int64) (int, error) {
	var n int
	err := tx.queryRow(ctx,
		"SELECT count(DISTINCT game) FROM analysis_requests WHERE done = '' AND game <> ?"+
			" AND id < coalesce((SELECT min(id) FROM analysis_requests WHERE game = ? AND done = ''), 9223372036854775807)",
		game, game).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("analyses ahead of game %d: %w", game, err)
	}
	return n, nil
}

// CountAnalysisRequestsSince counts a player's requests made after a time,
// waiting or done, and returns when the oldest of them was made (zero for
// none).
func (tx *Tx) CountAnalysisRequestsSince(ctx context.Context, player int64, since time.Time) (int, time.Time, error) {
	var (
		n      int
		oldest sql.NullString
	)
	err := tx.queryRow(ctx, "SELECT count(*), min(requested) FROM analysis_requests WHERE player = ? AND requested > ?",
		player, formatTime(since)).Scan(&n, &oldest)
	if err != nil {
		return 0, time.Time{}, fmt.Errorf("analysis requests of player %d: %w", player, err)
	}
	at, err := parseNullTime(oldest)
	return n, at, err
}

// SetAnalysisRequestDone records that a request's analysis was queued to
// its player at a time.
func (tx *Tx) SetAnalysisRequestDone(ctx context.Context, id int64, at time.Time) error {
	res, err := tx.exec(ctx, "UPDATE analysis_requests SET done = ? WHERE id = ? AND done = ''", formatTime(at), id)
	if err != nil {
		return fmt.Errorf("finish analysis request %d: %w", id, err)
	}
	return mustAffect(res, fmt.Sprintf("waiting analysis request %d", id))
}

// WaitingAnalyses counts the games whose analysis is waiting to be made.
// It reads outside any transaction of DB.Tx, so it takes no write lock.
func (d *DB) WaitingAnalyses(ctx context.Context) (int, error) {
	var n int
	err := d.sql.QueryRowContext(ctx, "SELECT count(DISTINCT game) FROM analysis_requests WHERE done = ''").Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("waiting analyses: %w", err)
	}
	return n, nil
}

func scanAnalysisRequest(row scanner) (AnalysisRequest, error) {
	var (
		r               AnalysisRequest
		requested, done string
	)
	if err := row.Scan(&r.ID, &r.Game, &r.Player, &r.MessageID, &requested, &done); err != nil {
		return AnalysisRequest{}, err
	}
	var err error
	if r.Requested, err = parseTime(requested); err != nil {
		return AnalysisRequest{}, err
	}
	if r.Done, err = parseOptTime(done); err != nil {
		return AnalysisRequest{}, err
	}
	return r, nil
}

// StoredAnalysis is the analysis of a game, made once and kept: what the
// engine found (the analysis package's encoding), searching Nodes nodes
// in each position.
type StoredAnalysis struct {
	Game    int64
	Nodes   int64
	Data    []byte
	Created time.Time
}

// SetAnalysis stores a game's analysis, unless the game has one already;
// it reports whether it stored it.
func (tx *Tx) SetAnalysis(ctx context.Context, a StoredAnalysis) (bool, error) {
	res, err := tx.exec(ctx, "INSERT INTO analyses (game, nodes, data, created) VALUES (?, ?, ?, ?) ON CONFLICT (game) DO NOTHING",
		a.Game, a.Nodes, string(a.Data), formatTime(a.Created))
	if err != nil {
		return false, fmt.Errorf("store analysis of game %d: %w", a.Game, err)
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// Analysis returns a game's stored analysis. It fails with ErrNotFound
// when the game has none.
func (tx *Tx) Analysis(ctx context.Context, game int64) (StoredAnalysis, error) {
	var (
		a             StoredAnalysis
		data, created string
	)
	err := tx.queryRow(ctx, "SELECT game, nodes, data, created FROM analyses WHERE game = ?", game).
		Scan(&a.Game, &a.Nodes, &data, &created)
	if err != nil {
		return StoredAnalysis{}, notFound(err, fmt.Sprintf("analysis of game %d", game))
	}
	a.Data = []byte(data)
	if a.Created, err = parseTime(created); err != nil {
		return StoredAnalysis{}, err
	}
	return a, nil
}
