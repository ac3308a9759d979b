-- The robot's analyses of finished games (M49-M51): the requests, a queue
-- in the order they came, and each game's analysis, made once and kept.

-- A player's request for the analysis of a game. message_id is the mail
-- that asked, which the analysis mail answers; done is when that mail
-- was queued, in the same transaction ('' while the request waits).
CREATE TABLE analysis_requests (
	id         INTEGER PRIMARY KEY AUTOINCREMENT,
	game       INTEGER NOT NULL REFERENCES games (id),
	player     INTEGER NOT NULL REFERENCES players (id),
	message_id TEXT NOT NULL DEFAULT '',
	requested  TEXT NOT NULL,
	done       TEXT NOT NULL DEFAULT ''
);
-- The queue: the requests that wait, oldest first, and those of a game.
CREATE INDEX analysis_requests_waiting ON analysis_requests (id) WHERE done = '';
CREATE INDEX analysis_requests_game ON analysis_requests (game, id) WHERE done = '';
-- A player's requests by time, counted over the last day (M49).
CREATE INDEX analysis_requests_player ON analysis_requests (player, requested);

-- The analysis of a game, one: what the engine found in every position
-- (analysis.Encode), from which each mail is written for its reader.
CREATE TABLE analyses (
	game    INTEGER PRIMARY KEY REFERENCES games (id),
	nodes   INTEGER NOT NULL,
	data    TEXT NOT NULL,
	created TEXT NOT NULL
);
