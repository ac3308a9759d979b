-- A newcomer's first week (M60, M61).

-- The lion guard (M61): the players who turned it off with "guard off".
-- Every other player has it on, the default.
CREATE TABLE guard_off (
	player INTEGER PRIMARY KEY REFERENCES players (id)
);

-- The robot of the tournaments its director added it to (M60), and its
-- level in the games it plays in them.
CREATE TABLE tournament_robots (
	tournament INTEGER PRIMARY KEY REFERENCES tournaments (id),
	player     INTEGER NOT NULL REFERENCES players (id),
	level      INTEGER NOT NULL CHECK (level BETWEEN 1 AND 5)
);
