-- As migrations/014_outbox_order.sql for SQLite: the outbox's due mail
-- without a cost in the mails waiting (Tx.Due).
CREATE INDEX outbox_pending ON outbox (id) WHERE sent_at IS NULL AND failed_at IS NULL;
CREATE INDEX outbox_pending_retry ON outbox (rcpt_to, next_attempt) WHERE sent_at IS NULL AND failed_at IS NULL;
