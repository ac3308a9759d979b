package db

import (
	"context"
	"slices"
	"testing"
)

func TestSeen(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		for _, p := range []Processed{
			{MessageID: "m1@example.org", UIDValidity: 7, UID: 1, At: t0, Summary: "register alice"},
			{MessageID: "", UIDValidity: 7, UID: 2, At: t0, Summary: "help"},
			{MessageID: "", UIDValidity: 0, UID: 0, At: t0, Summary: "nowhere"},
			{MessageID: "", UIDValidity: 0, UID: 0, At: t0, Summary: "nowhere again"},
		} {
			if err := tx.AddProcessed(ctx, p); err != nil {
				return err
			}
		}
		return nil
	})
	tests := []struct {
		messageID   string
		uidValidity uint32
		uid         uint32
		want        bool
	}{
		{"m1@example.org", 7, 1, true},
		{"m1@example.org", 8, 99, true}, // the same mail, moved or re-delivered
		{"m2@example.org", 7, 1, false}, // a Message-ID decides when present
		{"", 7, 2, true},
		{"", 8, 2, false}, // a new UIDVALIDITY: another mailbox life
		{"", 7, 3, false},
		{"", 0, 0, false}, // nothing to recognise it by
	}
	for _, tt := range tests {
		inTx(t, d, func(ctx context.Context, tx *Tx) error {
			got, err := tx.Seen(ctx, tt.messageID, tt.uidValidity, tt.uid)
			if err != nil {
				return err
			}
			if got != tt.want {
				t.Errorf("Seen(%q, %d, %d) = %v, want %v", tt.messageID, tt.uidValidity, tt.uid, got, tt.want)
			}
			return nil
		})
	}
}

func TestRecordProcessedTwice(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	p := Processed{MessageID: "m1@example.org", UIDValidity: 7, UID: 1, At: t0}
	inTx(t, d, func(ctx context.Context, tx *Tx) error { return tx.AddProcessed(ctx, p) })
	err := d.Tx(context.Background(), func(tx *Tx) error { return tx.AddProcessed(context.Background(), p) })
	if err == nil {
		t.Errorf("RecordProcessed(%q) twice succeeded, want an error", p.MessageID)
	}
}

func TestGameOfMessages(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	alice, bob := twoPlayers(t, d)
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		for range 2 {
			if _, err := tx.AddGame(ctx, Game{White: alice.ID, Black: bob.ID, Challenger: alice.ID, Status: Active, Position: start}, t0); err != nil {
				return err
			}
		}
		for id, game := range map[string]int64{"g1@x": 1, "g2@x": 2, "none@x": 0} {
			if err := tx.AddSent(ctx, id, game, t0); err != nil {
				return err
			}
		}
		return nil
	})
	tests := []struct {
		ids  []string
		want int64
	}{
		{nil, 0},
		{[]string{"g1@x"}, 1},
		{[]string{"g2@x", "g1@x"}, 2},
		{[]string{"unknown@x", "g1@x"}, 1},
		{[]string{"none@x", "g2@x"}, 2},
		{[]string{"none@x", "unknown@x"}, 0},
		{[]string{"it's \"quoted\"", "g2@x"}, 2},
		{append(slices.Repeat([]string{"unknown@x"}, 40000), "g1@x", "g2@x"), 1}, // past SQLite's parameter limit: one parameter
	}
	for _, tt := range tests {
		inTx(t, d, func(ctx context.Context, tx *Tx) error {
			got, err := tx.GameOfMessages(ctx, tt.ids...)
			if err != nil {
				return err
			}
			if got != tt.want {
				t.Errorf("GameOfMessages(%q) = %d, want %d", tt.ids, got, tt.want)
			}
			return nil
		})
	}
}
