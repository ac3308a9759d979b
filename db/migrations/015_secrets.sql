-- The secrets of the personal addresses, found by value: relayed words
-- are searched for any player's secret, in every form that reads as it
-- (M57).
CREATE INDEX players_secret ON players (secret);
