-- The languages of the mails (M40): each player's, '' for the server's
-- default; and the language of a game's Subject for each player it was
-- mailed to, fixed by their first mail about the game (M22), so that a
-- reader's Subject of a game stays the same when they change language.
ALTER TABLE players ADD COLUMN language TEXT NOT NULL DEFAULT '';

CREATE TABLE game_subjects (
	game     INTEGER NOT NULL REFERENCES games (id),
	player   INTEGER NOT NULL REFERENCES players (id),
	language TEXT NOT NULL,
	PRIMARY KEY (game, player)
) WITHOUT ROWID;
