package db

import (
	"context"
	"fmt"
	"time"
)

// Note is what a player wrote for themselves about a game (M68): kept
// with the move it was written at, shown to them alone.
type Note struct {
	Game   int64
	Player int64
	// Ply is the move the note was written at: the number of moves
	// (both sides') played then, so the ply of the last one; 0 for the
	// start.
	Ply  int
	Text string
	At   time.Time
}

// AddNote stores a note.
func (tx *Tx) AddNote(ctx context.Context, n Note) error {
	_, err := tx.exec(ctx, "INSERT INTO notes (game, player, ply, text, at) VALUES (?, ?, ?, ?, ?)",
		n.Game, n.Player, n.Ply, n.Text, formatTime(n.At))
	if err != nil {
		return fmt.Errorf("add a note in game %d: %w", n.Game, err)
	}
	return nil
}

// Notes returns a player's notes in a game, by the move they were
// written at, then in the order they were written.
func (tx *Tx) Notes(ctx context.Context, game, player int64) ([]Note, error) {
	rows, err := tx.query(ctx,
		"SELECT ply, text, at FROM notes WHERE game = ? AND player = ? ORDER BY ply, id", game, player)
	if err != nil {
		return nil, fmt.Errorf("notes in game %d: %w", game, err)
	}
	defer rows.Close()
	var out []Note
	for rows.Next() {
		n := Note{Game: game, Player: player}
		var at string
		if err := rows.Scan(&n.Ply, &n.Text, &at); err != nil {
			return nil, fmt.Errorf("notes in game %d: %w", game, err)
		}
		if n.At, err = parseTime(at); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("notes in game %d: %w", game, err)
	}
	return out, nil
}

// NotesSize returns how many notes a player has in a game, and how many
// characters of text they hold.
func (tx *Tx) NotesSize(ctx context.Context, game, player int64) (count, chars int, err error) {
	err = tx.queryRow(ctx, "SELECT count(*), coalesce(sum(length(text)), 0) FROM notes WHERE game = ? AND player = ?",
		game, player).Scan(&count, &chars)
	if err != nil {
		return 0, 0, fmt.Errorf("notes in game %d: %w", game, err)
	}
	return count, chars, nil
}

// NotesBack keeps the notes of a game written at moves after ply (moves
// taken back) with move ply instead, the last move still played.
func (tx *Tx) NotesBack(ctx context.Context, game int64, ply int) error {
	if _, err := tx.exec(ctx, "UPDATE notes SET ply = ? WHERE game = ? AND ply > ?", ply, game, ply); err != nil {
		return fmt.Errorf("notes in game %d: %w", game, err)
	}
	return nil
}
