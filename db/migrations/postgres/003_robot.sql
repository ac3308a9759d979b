-- The robot player, as migrations/003_robot.sql for SQLite.

CREATE TABLE robot_games (
	game  BIGINT PRIMARY KEY REFERENCES games (id),
	level INTEGER NOT NULL CHECK (level BETWEEN 1 AND 5)
);

CREATE TABLE robot_moves (
	game  BIGINT NOT NULL REFERENCES games (id),
	ply   INTEGER NOT NULL CHECK (ply > 0),
	score INTEGER NOT NULL,
	depth INTEGER NOT NULL,
	nodes BIGINT NOT NULL,
	PRIMARY KEY (game, ply)
);
