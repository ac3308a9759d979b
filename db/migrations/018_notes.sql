-- Private notes (M68): what a player wrote for themselves about a game,
-- kept with the move it was written at (its ply, counting both sides'
-- moves from 1; 0 for the start), for them alone.
CREATE TABLE notes (
	id     INTEGER PRIMARY KEY,
	game   INTEGER NOT NULL REFERENCES games (id),
	player INTEGER NOT NULL REFERENCES players (id),
	ply    INTEGER NOT NULL CHECK (ply >= 0),
	text   TEXT NOT NULL,
	at     TEXT NOT NULL
);
CREATE INDEX notes_game ON notes (game, player);

-- Games from a position (M72): the position a game began from, in R21
-- notation; '' for the start of every other game (R3).
ALTER TABLE games ADD COLUMN start TEXT NOT NULL DEFAULT '';
