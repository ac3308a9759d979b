package db

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestReadTxRefusesWrites checks that a read transaction reads, and that
// every kind of write in it fails with ErrReadOnly and changes nothing:
// an UPDATE (exec), an INSERT ... RETURNING (queryRow) and a DELETE.
func TestReadTxRefusesWrites(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	alice, bob := twoPlayers(t, d)
	ctx := context.Background()
	err := d.ReadTx(ctx, func(tx *Tx) error {
		p, err := tx.Player(ctx, alice.ID)
		if err != nil {
			return err
		}
		if p.Handle != "alice" {
			t.Errorf("Player(%d) in ReadTx = %q, want alice", alice.ID, p.Handle)
		}
		if err := tx.SetSecret(ctx, alice.ID, "stolen"); !errors.Is(err, ErrReadOnly) {
			t.Errorf("SetSecret in ReadTx = %v, want ErrReadOnly", err)
		}
		if _, err := tx.AddPlayer(ctx, "mallory", "m@example.org", "s3", t0); !errors.Is(err, ErrReadOnly) {
			t.Errorf("CreatePlayer in ReadTx = %v, want ErrReadOnly", err)
		}
		if _, err := tx.AddGame(ctx, Game{White: alice.ID, Black: bob.ID, Challenger: alice.ID, Status: Active, Position: start}, t0); !errors.Is(err, ErrReadOnly) {
			t.Errorf("CreateGame in ReadTx = %v, want ErrReadOnly", err)
		}
		if err := tx.DeleteLastMove(ctx, 1); !errors.Is(err, ErrReadOnly) {
			t.Errorf("DeleteLastMove in ReadTx = %v, want ErrReadOnly", err)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("ReadTx: %v", err)
	}
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		p, err := tx.Player(ctx, alice.ID)
		if err != nil {
			return err
		}
		if p.Secret != "s1" {
			t.Errorf("secret after the refused write = %q, want s1", p.Secret)
		}
		if _, err := tx.PlayerByHandle(ctx, "mallory"); !errors.Is(err, ErrNotFound) {
			t.Errorf("PlayerByHandle(mallory) after the refused insert = %v, want ErrNotFound", err)
		}
		return nil
	})
}

// TestReadTxBesideWriter checks that a read transaction neither waits for
// a writer that holds the write lock nor sees what the writer has not
// committed, and that one begun before a commit keeps its snapshot.
func TestReadTxBesideWriter(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	alice, _ := twoPlayers(t, d)
	ctx := context.Background()
	locked, release, written := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		written <- d.Tx(ctx, func(tx *Tx) error {
			if err := tx.SetSecret(ctx, alice.ID, "s9"); err != nil {
				return err
			}
			close(locked)
			<-release
			return nil
		})
	}()
	<-locked
	readSecret := func() string {
		t.Helper()
		var secret string
		rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		err := d.ReadTx(rctx, func(tx *Tx) error {
			p, err := tx.Player(rctx, alice.ID)
			secret = p.Secret
			return err
		})
		if err != nil {
			t.Fatalf("ReadTx while a writer holds the lock: %v", err)
		}
		return secret
	}
	if s := readSecret(); s != "s1" {
		t.Errorf("a reader beside the writer sees secret %q, want the committed s1", s)
	}

	// A reader whose snapshot was taken before the commit.
	snapshot, commit, seen := make(chan struct{}), make(chan struct{}), make(chan string, 1)
	go func() {
		var s string
		d.ReadTx(ctx, func(tx *Tx) error {
			p, err := tx.Player(ctx, alice.ID)
			if err != nil {
				close(snapshot)
				return err
			}
			close(snapshot)
			<-commit
			p, err = tx.Player(ctx, alice.ID)
			s = p.Secret
			return err
		})
		seen <- s
	}()
	<-snapshot
	close(release)
	if err := <-written; err != nil {
		t.Fatalf("Tx: %v", err)
	}
	close(commit)
	if s := <-seen; s != "s1" {
		t.Errorf("a reader begun before the commit sees secret %q after it, want its snapshot's s1", s)
	}
	if s := readSecret(); s != "s9" {
		t.Errorf("a reader after the commit sees secret %q, want s9", s)
	}
}
