-- The web companion (M44), as migrations/011_web.sql for SQLite: the
-- games in progress and the results by their last change, the newest
-- first, and the rated results in the order they ended.
CREATE INDEX games_active_updated ON games (updated) WHERE status = 'active';
CREATE INDEX games_finished_updated ON games (updated) WHERE status = 'finished';
