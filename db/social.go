package db

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// AddObserver makes a player an observer of a game; it reports false when
// they were one already.
func (tx *Tx) AddObserver(ctx context.Context, game, player int64) (bool, error) {
	res, err := tx.exec(ctx, "INSERT INTO observers (game, player) VALUES (?, ?) ON CONFLICT DO NOTHING", game, player)
	if err != nil {
		return false, fmt.Errorf("observe game %d: %w", game, err)
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// DeleteObserver stops a player observing a game; it reports false when
// they were not observing it.
func (tx *Tx) DeleteObserver(ctx context.Context, game, player int64) (bool, error) {
	res, err := tx.exec(ctx, "DELETE FROM observers WHERE game = ? AND player = ?", game, player)
	if err != nil {
		return false, fmt.Errorf("unobserve game %d: %w", game, err)
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// Observers returns the observers of a game, in the order of their ids.
func (tx *Tx) Observers(ctx context.Context, game int64) ([]Player, error) {
	return tx.queryPlayers(ctx, fmt.Sprintf("observers of game %d", game),
		"SELECT "+playerColumns+" FROM players WHERE id IN (SELECT player FROM observers WHERE game = ?) ORDER BY id", game)
}

// Seek is a player's wish for a game with any opponent.
type Seek struct {
	Player      int64
	TimeControl string
	Rated       bool
	// RatingLow and RatingHigh are the range of the opponent's rating,
	// both in it (M75); 0 and 0 for any rating.
	RatingLow, RatingHigh int
	Created               time.Time
}

// SetSeek stores a player's seek, replacing their earlier one.
func (tx *Tx) SetSeek(ctx context.Context, s Seek) error {
	_, err := tx.exec(ctx,
		"INSERT INTO seeks (player, time_control, rated, rating_low, rating_high, created) VALUES (?, ?, ?, ?, ?, ?)"+
			" ON CONFLICT (player) DO UPDATE SET time_control = excluded.time_control, rated = excluded.rated,"+
			" rating_low = excluded.rating_low, rating_high = excluded.rating_high, created = excluded.created",
		s.Player, s.TimeControl, s.Rated, s.RatingLow, s.RatingHigh, formatTime(s.Created))
	if err != nil {
		return fmt.Errorf("seek of player %d: %w", s.Player, err)
	}
	return nil
}

// DeleteSeek removes a player's seek; it reports false when there was none.
func (tx *Tx) DeleteSeek(ctx context.Context, player int64) (bool, error) {
	res, err := tx.exec(ctx, "DELETE FROM seeks WHERE player = ?", player)
	if err != nil {
		return false, fmt.Errorf("delete seek of player %d: %w", player, err)
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// MatchSeek returns the oldest seek of another player than s.Player with
// the same time control and rating that matches s both ways (M75): the
// other player's rating is in s's range, if s has one, and s.Player's
// rating is in the other seek's range, if it has one. Ratings are
// compared as the mails show them, rounded. It fails with ErrNotFound
// when there is none.
func (tx *Tx) MatchSeek(ctx context.Context, s Seek) (Seek, error) {
	var m Seek
	var created string
	err := tx.queryRow(ctx,
		"SELECT s.player, s.time_control, s.rated, s.rating_low, s.rating_high, s.created FROM seeks AS s JOIN players AS p ON p.id = s.player"+
			" WHERE s.player <> ? AND s.time_control = ? AND s.rated = ?"+
			" AND (? = 0 OR ROUND(p.rating) BETWEEN ? AND ?)"+
			" AND (s.rating_high = 0 OR (SELECT ROUND(rating) FROM players WHERE id = ?) BETWEEN s.rating_low AND s.rating_high)"+
			" ORDER BY s.created, s.player LIMIT 1",
		s.Player, s.TimeControl, s.Rated, s.RatingHigh, s.RatingLow, s.RatingHigh, s.Player).
		Scan(&m.Player, &m.TimeControl, &m.Rated, &m.RatingLow, &m.RatingHigh, &created)
	if err != nil {
		return Seek{}, notFound(err, "matching seek")
	}
	m.Created, err = parseTime(created)
	return m, err
}

// AddConditional stores a branch of a player's conditional moves.
func (tx *Tx) AddConditional(ctx context.Context, game, player int64, moves []string) error {
	_, err := tx.exec(ctx, "INSERT INTO conditionals (game, player, moves) VALUES (?, ?, ?)",
		game, player, strings.Join(moves, " "))
	if err != nil {
		return fmt.Errorf("add conditional moves in game %d: %w", game, err)
	}
	return nil
}

// Conditionals returns the branches of a player's conditional moves in a
// game, in the order they were stored.
func (tx *Tx) Conditionals(ctx context.Context, game, player int64) ([][]string, error) {
	rows, err := tx.query(ctx,
		"SELECT moves FROM conditionals WHERE game = ? AND player = ? ORDER BY id", game, player)
	if err != nil {
		return nil, fmt.Errorf("conditional moves in game %d: %w", game, err)
	}
	defer rows.Close()
	var out [][]string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, fmt.Errorf("conditional moves in game %d: %w", game, err)
		}
		out = append(out, strings.Fields(s))
	}
	return out, rows.Err()
}

// DeleteConditionals removes a player's conditional moves in a game and
// returns how many branches there were.
func (tx *Tx) DeleteConditionals(ctx context.Context, game, player int64) (int, error) {
	res, err := tx.exec(ctx, "DELETE FROM conditionals WHERE game = ? AND player = ?", game, player)
	if err != nil {
		return 0, fmt.Errorf("clear conditional moves in game %d: %w", game, err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}
