package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Processed is an incoming mail that was handled.
type Processed struct {
	MessageID   string // without angle brackets; empty when the mail had none
	UIDValidity uint32
	UID         uint32
	At          time.Time
	Summary     string // what was done, for the log and for people
}

// Seen reports whether the mail was handled before: a mail with a
// Message-ID is known by it, one without by its UIDVALIDITY and UID.
// A mail with neither can never be recognised.
func (tx *Tx) Seen(ctx context.Context, messageID string, uidValidity, uid uint32) (bool, error) {
	var row scanner
	switch {
	case messageID != "":
		// The conditions of the partial indexes are repeated word for
		// word, so that SQLite uses them (checkPlans).
		row = tx.queryRow(ctx, "SELECT 1 FROM processed WHERE message_id = ? AND message_id <> ''", messageID)
	case uid != 0:
		row = tx.queryRow(ctx,
			"SELECT 1 FROM processed WHERE message_id = '' AND uid <> 0 AND uidvalidity = ? AND uid = ?", uidValidity, uid)
	default:
		return false, nil
	}
	var one int
	err := row.Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("look up mail %q (uid %d/%d): %w", messageID, uidValidity, uid, err)
	}
	return true, nil
}

// AddProcessed records that a mail was handled.
func (tx *Tx) AddProcessed(ctx context.Context, p Processed) error {
	_, err := tx.exec(ctx,
		"INSERT INTO processed (message_id, uidvalidity, uid, at, summary) VALUES (?, ?, ?, ?, ?)",
		p.MessageID, p.UIDValidity, p.UID, formatTime(p.At), p.Summary)
	if err != nil {
		return fmt.Errorf("record mail %q (uid %d/%d): %w", p.MessageID, p.UIDValidity, p.UID, err)
	}
	return nil
}

// AddSent records the Message-ID of a mail we send and the game it is
// about (0 for none).
func (tx *Tx) AddSent(ctx context.Context, messageID string, game int64, at time.Time) error {
	g := sql.NullInt64{Int64: game, Valid: game != 0}
	_, err := tx.exec(ctx, "INSERT INTO sent (message_id, game, at) VALUES (?, ?, ?)",
		messageID, g, formatTime(at))
	if err != nil {
		return fmt.Errorf("record sent mail %q: %w", messageID, err)
	}
	return nil
}

// GameOfMessages returns the game of the first of the Message-IDs that
// names a mail we sent about a game, or 0 when none does. It is one
// query, however many the ids: they are bound as one JSON array.
func (tx *Tx) GameOfMessages(ctx context.Context, messageIDs ...string) (int64, error) {
	if len(messageIDs) == 0 {
		return 0, nil
	}
	ids, err := json.Marshal(messageIDs)
	if err != nil {
		return 0, fmt.Errorf("game of mails: %w", err)
	}
	var game int64
	err = tx.queryRow(ctx, tx.db.q.gameOfMessages, string(ids)).Scan(&game)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("game of mails: %w", err)
	}
	return game, nil
}

// AddSentGames records the games a mail we sent listed, when it listed
// several (a digest), so that a reply to it may play in them (M24).
func (tx *Tx) AddSentGames(ctx context.Context, messageID string, games []int64) error {
	for _, g := range games {
		if _, err := tx.exec(ctx, "INSERT INTO sent_games (message_id, game) VALUES (?, ?) ON CONFLICT DO NOTHING", messageID, g); err != nil {
			return fmt.Errorf("record the games of sent mail %q: %w", messageID, err)
		}
	}
	return nil
}

// GamesOfMessages returns the games listed (RecordSentGames) by the
// first of the mails we sent with the Message-IDs that listed any; none
// when none did. At most the first 40 ids are looked up.
func (tx *Tx) GamesOfMessages(ctx context.Context, messageIDs ...string) ([]int64, error) {
	for _, id := range messageIDs[:min(len(messageIDs), 40)] {
		games, err := tx.GamesOfMessage(ctx, id)
		if err != nil || len(games) > 0 {
			return games, err
		}
	}
	return nil, nil
}

// GamesOfMessage returns the games the mail we sent with the Message-ID
// listed (RecordSentGames), in order; none for a mail that listed none.
func (tx *Tx) GamesOfMessage(ctx context.Context, messageID string) ([]int64, error) {
	rows, err := tx.query(ctx, "SELECT game FROM sent_games WHERE message_id = ? ORDER BY game", messageID)
	if err != nil {
		return nil, fmt.Errorf("games of sent mail %q: %w", messageID, err)
	}
	defer rows.Close()
	var games []int64
	for rows.Next() {
		var g int64
		if err := rows.Scan(&g); err != nil {
			return nil, fmt.Errorf("games of sent mail %q: %w", messageID, err)
		}
		games = append(games, g)
	}
	return games, rows.Err()
}
