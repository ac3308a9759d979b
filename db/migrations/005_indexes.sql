-- Indexes for the lookups of every clock round and every metrics scrape,
-- which read the active games, the players with a digest due and the
-- failed mails: without them each reads every game, player or mail there
-- ever was. The queries repeat the conditions word for word, so that
-- SQLite uses these partial indexes.
CREATE INDEX games_active ON games (id) WHERE status = 'active';
CREATE INDEX players_digest ON players (digest_at) WHERE notify = 'digest' AND digest_at <> '';
CREATE INDEX outbox_failed ON outbox (id) WHERE failed_at IS NOT NULL;
