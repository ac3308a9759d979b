-- Ladders and knockouts, and seeks with a rating range (M73-M75), as
-- migrations/019_ladders.sql for SQLite.

ALTER TABLE tournaments DROP CONSTRAINT tournaments_system_check;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_system_check
	CHECK (system IN ('roundrobin', 'swiss', 'ladder', 'knockout'));

ALTER TABLE tournaments ADD COLUMN games INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN closed TEXT COLLATE "C" NOT NULL DEFAULT '';

ALTER TABLE tournament_players ADD COLUMN place INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournament_players ADD COLUMN seed INTEGER NOT NULL DEFAULT 0;
CREATE INDEX tournament_players_place ON tournament_players (tournament, place) WHERE place > 0;

ALTER TABLE seeks ADD COLUMN rating_low INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seeks ADD COLUMN rating_high INTEGER NOT NULL DEFAULT 0;
