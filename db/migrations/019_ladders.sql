-- Ladders and knockouts, and seeks with a rating range (M73-M75).

-- A tournament's system may now be a ladder or a knockout. SQLite keeps
-- a column's CHECK with the column, so the column is made anew with the
-- wider one, and keeps its name.
ALTER TABLE tournaments ADD COLUMN kind TEXT NOT NULL DEFAULT 'roundrobin'
	CHECK (kind IN ('roundrobin', 'swiss', 'ladder', 'knockout'));
UPDATE tournaments SET kind = system;
ALTER TABLE tournaments DROP COLUMN system;
ALTER TABLE tournaments RENAME COLUMN kind TO system;

-- games is the number of games of a knockout's match (M74; 0 for the
-- other systems); closed is when the director closed a ladder (M73): ''
-- while it takes challenges.
ALTER TABLE tournaments ADD COLUMN games INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN closed TEXT NOT NULL DEFAULT '';

-- place is a ladder player's place, from 1 at the top (0 for none: a
-- player who left it, and the players of other systems); seed is a
-- knockout player's seed, from 1, given at the start.
ALTER TABLE tournament_players ADD COLUMN place INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournament_players ADD COLUMN seed INTEGER NOT NULL DEFAULT 0;
CREATE INDEX tournament_players_place ON tournament_players (tournament, place) WHERE place > 0;

-- A seek's range of the opponent's rating, both ends in it (M75); 0 and
-- 0 for any rating.
ALTER TABLE seeks ADD COLUMN rating_low INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seeks ADD COLUMN rating_high INTEGER NOT NULL DEFAULT 0;
