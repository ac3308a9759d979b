-- The languages of the mails (M40), as migrations/013_languages.sql for
-- SQLite: each player's, '' for the server's default; and the language of
-- a game's Subject for each player it was mailed to (M22).
ALTER TABLE players ADD COLUMN language TEXT COLLATE "C" NOT NULL DEFAULT '';

CREATE TABLE game_subjects (
	game     BIGINT NOT NULL REFERENCES games (id),
	player   BIGINT NOT NULL REFERENCES players (id),
	language TEXT COLLATE "C" NOT NULL,
	PRIMARY KEY (game, player)
);
