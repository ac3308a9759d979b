-- The time the mover had left when a move was made, before the increment
-- it earned (nanoseconds; NULL for moves made before this column): a
-- takeback sets the clock back to it.
ALTER TABLE moves ADD COLUMN time_left INTEGER;

-- The outbox is pruned of old mail by the time it was queued.
CREATE INDEX IF NOT EXISTS outbox_created ON outbox (created);
