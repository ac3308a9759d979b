-- As migrations/006_takeback_pruning.sql for SQLite: the time the mover
-- had left when a move was made (nanoseconds), and the outbox pruned by
-- the time mail was queued.
ALTER TABLE moves ADD COLUMN time_left BIGINT;
CREATE INDEX IF NOT EXISTS outbox_created ON outbox (created);
