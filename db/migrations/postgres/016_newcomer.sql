-- A newcomer's first week (M61), as migrations/016_newcomer.sql for
-- SQLite.

CREATE TABLE guard_off (
	player BIGINT PRIMARY KEY REFERENCES players (id)
);
