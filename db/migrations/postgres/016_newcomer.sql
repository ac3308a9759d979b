-- A newcomer's first week (M60, M61), as migrations/016_newcomer.sql for
-- SQLite.

CREATE TABLE guard_off (
	player BIGINT PRIMARY KEY REFERENCES players (id)
);

CREATE TABLE tournament_robots (
	tournament BIGINT PRIMARY KEY REFERENCES tournaments (id),
	player     BIGINT NOT NULL REFERENCES players (id),
	level      INTEGER NOT NULL CHECK (level BETWEEN 1 AND 5)
);
