-- The robot player (issue 6): the level each game against it is played
-- at, and the score of each of its searches, which decides when it
-- resigns.

CREATE TABLE robot_games (
	game  INTEGER PRIMARY KEY REFERENCES games (id),
	level INTEGER NOT NULL CHECK (level BETWEEN 1 AND 5)
);

CREATE TABLE robot_moves (
	game  INTEGER NOT NULL REFERENCES games (id),
	ply   INTEGER NOT NULL CHECK (ply > 0),
	score INTEGER NOT NULL,
	depth INTEGER NOT NULL,
	nodes INTEGER NOT NULL,
	PRIMARY KEY (game, ply)
) WITHOUT ROWID;
