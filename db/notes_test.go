package db

import (
	"context"
	"slices"
	"testing"
)

// TestNotes stores notes of two players in a game from a position (M68,
// M72): each reads their own, by move, and a takeback keeps those of the
// moves taken back with the last move still played.
func TestNotes(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	alice, bob := twoPlayers(t, d)
	const from = "3l3/7/7/7/7/7/3L3 b 12"
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		g, err := tx.AddGame(ctx, Game{White: alice.ID, Black: bob.ID, Challenger: alice.ID, Status: Active,
			Position: from, Start: from}, t0)
		if err != nil {
			return err
		}
		if got, err := tx.Game(ctx, g.ID); err != nil || got.Start != from || got.StartPosition() != from {
			t.Errorf("Game(%d).Start = %q (%v), want %q", g.ID, got.Start, err, from)
		}
		if s := (Game{}).StartPosition(); s != start {
			t.Errorf("StartPosition() of a game without Start = %q, want %q", s, start)
		}
		for _, n := range []Note{
			{Game: g.ID, Player: alice.ID, Ply: 3, Text: "later", At: t0},
			{Game: g.ID, Player: alice.ID, Ply: 0, Text: "at the start", At: t0},
			{Game: g.ID, Player: bob.ID, Ply: 1, Text: "bob's own", At: t0},
			{Game: g.ID, Player: alice.ID, Ply: 3, Text: "and more", At: t0},
		} {
			if err := tx.AddNote(ctx, n); err != nil {
				return err
			}
		}
		notes, err := tx.Notes(ctx, g.ID, alice.ID)
		if err != nil {
			return err
		}
		var got []string
		for _, n := range notes {
			if n.Player != alice.ID || n.Game != g.ID || !n.At.Equal(t0) {
				t.Errorf("Notes() holds %+v, not alice's in game %d", n, g.ID)
			}
			got = append(got, n.Text)
		}
		if want := []string{"at the start", "later", "and more"}; !slices.Equal(got, want) {
			t.Errorf("Notes(alice) = %q, want %q", got, want)
		}
		if n, chars, err := tx.NotesSize(ctx, g.ID, alice.ID); err != nil || n != 3 || chars != len("at the startlaterand more") {
			t.Errorf("NotesSize(alice) = %d, %d, %v; want 3 and %d", n, chars, err, len("at the startlaterand more"))
		}
		if err := tx.NotesBack(ctx, g.ID, 1); err != nil {
			return err
		}
		notes, err = tx.Notes(ctx, g.ID, alice.ID)
		if err != nil {
			return err
		}
		if len(notes) != 3 || notes[0].Ply != 0 || notes[1].Ply != 1 || notes[2].Ply != 1 {
			t.Errorf("Notes(alice) after NotesBack(1) = %+v, want plies 0, 1, 1", notes)
		}
		return nil
	})
}
