package web

import (
	"context"
	"strings"
	"testing"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/game"
)

// TestGamePageTime: a game's page shows the clock of a player who pauses
// weekends as the mails do, "(weekends paused, Europe/Prague)" (M64), and
// a game paused by agreement (M63).
func TestGamePageTime(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h := w.handler(t)
	ctx := context.Background()
	set := func(fn func(tx *db.Tx) error) {
		t.Helper()
		if err := w.db.Tx(ctx, fn); err != nil {
			t.Fatal(err)
		}
	}
	set(func(tx *db.Tx) error { // dave, to move in game 2
		_, _, err := game.SetTime(ctx, tx, w.players["dave"], "Europe/Prague", true, now)
		return err
	})
	page := mustGet(t, h, "/games/2")
	if !strings.Contains(page, "2 days 2 hours left (weekends paused, Europe/Prague)") {
		t.Errorf("GET /games/2 does not say dave pauses weekends:\n%s", between(page, `<ul class="players"`, "</ul>"))
	}
	set(func(tx *db.Tx) error {
		st, err := game.Load(ctx, tx, 2, now)
		if err != nil {
			return err
		}
		if _, err := game.Pause(ctx, tx, &st, st.White); err != nil {
			return err
		}
		_, err = game.Pause(ctx, tx, &st, st.Black)
		return err
	})
	page = mustGet(t, h, "/games/2")
	if !strings.Contains(page, "Paused by agreement since 2026-03-02 18:00 UTC: nobody moves, and the clocks stand still.") {
		t.Errorf("GET /games/2 does not say the game is paused")
	}
}
