-- Indexes for the lookups of every clock round and every metrics scrape,
-- as migrations/005_indexes.sql for SQLite.
CREATE INDEX games_active ON games (id) WHERE status = 'active';
CREATE INDEX players_digest ON players (digest_at) WHERE notify = 'digest' AND digest_at <> '';
CREATE INDEX outbox_failed ON outbox (id) WHERE failed_at IS NOT NULL;
