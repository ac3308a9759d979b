-- The outbox's due mail without a cost in the mails waiting (Tx.Due):
-- the mails waiting, in the order they were queued, and each recipient's
-- mails waiting to be tried again, which hold back those queued after.
CREATE INDEX outbox_pending ON outbox (id) WHERE sent_at IS NULL AND failed_at IS NULL;
CREATE INDEX outbox_pending_retry ON outbox (rcpt_to, next_attempt) WHERE sent_at IS NULL AND failed_at IS NULL;
