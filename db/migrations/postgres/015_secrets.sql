-- The secrets of the personal addresses, found by value (M57), as
-- migrations/015_secrets.sql for SQLite.
CREATE INDEX players_secret ON players (secret);
