package db

import (
	"context"
	"fmt"
)

// SetGuard turns the lion guard of a player on or off (M61): on, the
// default, a move that lets the opponent take the player's lion is not
// played unless they say anyway.
func (tx *Tx) SetGuard(ctx context.Context, player int64, on bool) error {
	var err error
	if on {
		_, err = tx.exec(ctx, "DELETE FROM guard_off WHERE player = ?", player)
	} else {
		_, err = tx.exec(ctx, "INSERT INTO guard_off (player) VALUES (?) ON CONFLICT (player) DO NOTHING", player)
	}
	if err != nil {
		return fmt.Errorf("set the guard of player %d: %w", player, err)
	}
	return nil
}

// Guarded reports whether the lion guard of a player is on (M61).
func (tx *Tx) Guarded(ctx context.Context, player int64) (bool, error) {
	var n int
	if err := tx.queryRow(ctx, "SELECT COUNT(*) FROM guard_off WHERE player = ?", player).Scan(&n); err != nil {
		return false, fmt.Errorf("the guard of player %d: %w", player, err)
	}
	return n == 0, nil
}
