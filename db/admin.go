package db

import (
	"context"
	"fmt"
	"time"
)

// SetBanned bans the player (at a time not zero) or lifts the ban (at
// zero).
func (tx *Tx) SetBanned(ctx context.Context, player int64, at time.Time) error {
	res, err := tx.exec(ctx, "UPDATE players SET banned = ? WHERE id = ?", formatOptTime(at), player)
	if err != nil {
		return fmt.Errorf("ban player %d: %w", player, err)
	}
	return mustAffect(res, fmt.Sprintf("player %d", player))
}

// Banned reports whether the player is banned.
func (tx *Tx) Banned(ctx context.Context, player int64) (bool, error) {
	var at string
	if err := tx.queryRow(ctx, "SELECT banned FROM players WHERE id = ?", player).Scan(&at); err != nil {
		return false, notFound(err, fmt.Sprintf("player %d", player))
	}
	return at != "", nil
}

// SetAdjourned adjourns the game (at a time not zero) or resumes it (at
// zero).
func (tx *Tx) SetAdjourned(ctx context.Context, game int64, at time.Time) error {
	res, err := tx.exec(ctx, "UPDATE games SET adjourned = ? WHERE id = ?", formatOptTime(at), game)
	if err != nil {
		return fmt.Errorf("adjourn game %d: %w", game, err)
	}
	return mustAffect(res, fmt.Sprintf("game %d", game))
}

// Adjourned reports whether the game is adjourned.
func (tx *Tx) Adjourned(ctx context.Context, game int64) (bool, error) {
	var at string
	if err := tx.queryRow(ctx, "SELECT adjourned FROM games WHERE id = ?", game).Scan(&at); err != nil {
		return false, notFound(err, fmt.Sprintf("game %d", game))
	}
	return at != "", nil
}
