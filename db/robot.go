package db

import (
	"context"
	"fmt"
)

// SetRobotLevel records the level the robot plays a game at.
func (tx *Tx) SetRobotLevel(ctx context.Context, game int64, level int) error {
	_, err := tx.exec(ctx,
		"INSERT INTO robot_games (game, level) VALUES (?, ?) ON CONFLICT (game) DO UPDATE SET level = excluded.level",
		game, level)
	if err != nil {
		return fmt.Errorf("set robot level of game %d: %w", game, err)
	}
	return nil
}

// RobotLevel returns the level the robot plays a game at. A game with
// none recorded is an error that wraps ErrNotFound.
func (tx *Tx) RobotLevel(ctx context.Context, game int64) (int, error) {
	var level int
	err := tx.queryRow(ctx, "SELECT level FROM robot_games WHERE game = ?", game).Scan(&level)
	if err != nil {
		return 0, notFound(err, fmt.Sprintf("robot level of game %d", game))
	}
	return level, nil
}

// RobotMove is what the robot's search found for one of its moves.
type RobotMove struct {
	Game  int64
	Ply   int
	Score int // for the robot
	Depth int
	Nodes int64
}

// AddRobotMove records the search of one of the robot's moves.
func (tx *Tx) AddRobotMove(ctx context.Context, m RobotMove) error {
	_, err := tx.exec(ctx,
		"INSERT INTO robot_moves (game, ply, score, depth, nodes) VALUES (?, ?, ?, ?, ?)",
		m.Game, m.Ply, m.Score, m.Depth, m.Nodes)
	if err != nil {
		return fmt.Errorf("add robot move %d of game %d: %w", m.Ply, m.Game, err)
	}
	return nil
}

// RobotScores returns the scores of the robot's moves in a game, oldest
// first.
func (tx *Tx) RobotScores(ctx context.Context, game int64) ([]int, error) {
	rows, err := tx.query(ctx, "SELECT score FROM robot_moves WHERE game = ? ORDER BY ply", game)
	if err != nil {
		return nil, fmt.Errorf("robot scores of game %d: %w", game, err)
	}
	defer rows.Close()
	var scores []int
	for rows.Next() {
		var s int
		if err := rows.Scan(&s); err != nil {
			return nil, fmt.Errorf("robot scores of game %d: %w", game, err)
		}
		scores = append(scores, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("robot scores of game %d: %w", game, err)
	}
	return scores, nil
}

// SetTournamentRobot records the robot player of a tournament, whose
// director added it (M60), and the level it plays its games there at.
func (tx *Tx) SetTournamentRobot(ctx context.Context, tournament, player int64, level int) error {
	_, err := tx.exec(ctx,
		"INSERT INTO tournament_robots (tournament, player, level) VALUES (?, ?, ?)"+
			" ON CONFLICT (tournament) DO UPDATE SET player = excluded.player, level = excluded.level",
		tournament, player, level)
	if err != nil {
		return fmt.Errorf("set the robot of tournament %d: %w", tournament, err)
	}
	return nil
}

// TournamentRobot returns the robot player of a tournament and the level
// it plays its games there at. A tournament the robot was not added to
// is an error that wraps ErrNotFound.
func (tx *Tx) TournamentRobot(ctx context.Context, tournament int64) (player int64, level int, err error) {
	err = tx.queryRow(ctx, "SELECT player, level FROM tournament_robots WHERE tournament = ?", tournament).Scan(&player, &level)
	if err != nil {
		return 0, 0, notFound(err, fmt.Sprintf("the robot of tournament %d", tournament))
	}
	return player, level, nil
}
