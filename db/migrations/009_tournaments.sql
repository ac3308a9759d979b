-- Tournaments by mail (M33-M39): round robins and Swiss events that the
-- server pairs, scores and announces. Their games are games like any
-- other, marked with the tournament and the round.

CREATE TABLE tournaments (
	id           INTEGER PRIMARY KEY AUTOINCREMENT,
	name         TEXT NOT NULL,
	system       TEXT NOT NULL CHECK (system IN ('roundrobin', 'swiss')),
	director     INTEGER NOT NULL REFERENCES players (id),
	status       TEXT NOT NULL CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
	-- rounds is the number of rounds of a Swiss (0 before the start: the
	-- default, decided then), double a round robin played twice.
	rounds       INTEGER NOT NULL DEFAULT 0,
	double       INTEGER NOT NULL DEFAULT 0 CHECK (double IN (0, 1)),
	time_control TEXT NOT NULL,
	rated        INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1)),
	-- round is the round being played: 0 before the start.
	round        INTEGER NOT NULL DEFAULT 0,
	created      TEXT NOT NULL,
	updated      TEXT NOT NULL
);
CREATE INDEX tournaments_status ON tournaments (status, id);

-- The players of a tournament, in the order they joined; withdrawn is
-- when one left after the start ('' while they play on).
CREATE TABLE tournament_players (
	tournament INTEGER NOT NULL REFERENCES tournaments (id),
	player     INTEGER NOT NULL REFERENCES players (id),
	joined     TEXT NOT NULL,
	withdrawn  TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (tournament, player)
) WITHOUT ROWID;
CREATE INDEX tournament_players_player ON tournament_players (player);

-- The player with no game in a round of a Swiss (an odd number).
CREATE TABLE tournament_byes (
	tournament INTEGER NOT NULL REFERENCES tournaments (id),
	round      INTEGER NOT NULL,
	player     INTEGER NOT NULL REFERENCES players (id),
	PRIMARY KEY (tournament, round)
) WITHOUT ROWID;

ALTER TABLE games ADD COLUMN tournament INTEGER REFERENCES tournaments (id);
ALTER TABLE games ADD COLUMN round INTEGER NOT NULL DEFAULT 0;
CREATE INDEX games_tournament ON games (tournament, round) WHERE tournament IS NOT NULL;
