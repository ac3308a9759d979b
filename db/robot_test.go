package db

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

func TestRobotGames(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	alice, bob := twoPlayers(t, d)
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		g, err := tx.AddGame(ctx, Game{White: alice.ID, Black: bob.ID, Challenger: alice.ID, Status: Active, Position: start}, t0)
		if err != nil {
			return err
		}
		if _, err := tx.RobotLevel(ctx, g.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("RobotLevel of a game without one = %v, want ErrNotFound", err)
		}
		for _, level := range []int{2, 5} {
			if err := tx.SetRobotLevel(ctx, g.ID, level); err != nil {
				return err
			}
			if got, err := tx.RobotLevel(ctx, g.ID); err != nil || got != level {
				t.Errorf("RobotLevel = %d, %v, want %d", got, err, level)
			}
		}
		// In savepoints, as the server's work is: after an error
		// PostgreSQL takes no more of the transaction until it is undone.
		if err := tx.Savepoint(ctx, func() error { return tx.SetRobotLevel(ctx, g.ID, 6) }); err == nil {
			t.Errorf("SetRobotLevel(6) succeeded, want an error")
		}
		if scores, err := tx.RobotScores(ctx, g.ID); err != nil || scores != nil {
			t.Errorf("RobotScores before any move = %v, %v, want none", scores, err)
		}
		for _, m := range []RobotMove{{Game: g.ID, Ply: 4, Score: -30}, {Game: g.ID, Ply: 2, Score: 15, Depth: 3, Nodes: 900}} {
			if err := tx.AddRobotMove(ctx, m); err != nil {
				return err
			}
		}
		if err := tx.Savepoint(ctx, func() error { return tx.AddRobotMove(ctx, RobotMove{Game: g.ID, Ply: 2}) }); err == nil {
			t.Errorf("AddRobotMove of a ply twice succeeded, want an error")
		}
		if scores, err := tx.RobotScores(ctx, g.ID); err != nil || !reflect.DeepEqual(scores, []int{15, -30}) {
			t.Errorf("RobotScores = %v, %v, want [15 -30], in the order of the plies", scores, err)
		}
		return nil
	})
}

// TestTournamentRobot: the robot of a tournament and its level there are
// kept (M60).
func TestTournamentRobot(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	alice, bob := twoPlayers(t, d)
	inTx(t, d, func(ctx context.Context, tx *Tx) error {
		tt, err := tx.AddTournament(ctx, Tournament{Name: "Cup", System: "roundrobin", Director: alice.ID, TimeControl: "days=3", Rated: true}, t0)
		if err != nil {
			return err
		}
		if _, _, err := tx.TournamentRobot(ctx, tt.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("TournamentRobot of a tournament without the robot = %v, want ErrNotFound", err)
		}
		for _, level := range []int{3, 1} {
			if err := tx.SetTournamentRobot(ctx, tt.ID, bob.ID, level); err != nil {
				return err
			}
			if p, got, err := tx.TournamentRobot(ctx, tt.ID); err != nil || p != bob.ID || got != level {
				t.Errorf("TournamentRobot = %d, %d, %v, want %d, %d", p, got, err, bob.ID, level)
			}
		}
		if err := tx.Savepoint(ctx, func() error { return tx.SetTournamentRobot(ctx, tt.ID, bob.ID, 6) }); err == nil {
			t.Errorf("SetTournamentRobot(6) succeeded, want an error")
		}
		return nil
	})
}
