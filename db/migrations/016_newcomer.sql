-- A newcomer's first week (M61).

-- The lion guard (M61): the players who turned it off with "guard off".
-- Every other player has it on, the default.
CREATE TABLE guard_off (
	player INTEGER PRIMARY KEY REFERENCES players (id)
);
