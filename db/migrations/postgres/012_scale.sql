-- A cost flat in the number of games (issue 16), as
-- migrations/012_scale.sql for SQLite; and the lease (M48), of
-- PostgreSQL alone.

ALTER TABLE games ADD COLUMN clock_due TEXT COLLATE "C" NOT NULL DEFAULT '';
UPDATE games SET clock_due = clock_start WHERE status = 'active' AND adjourned = '';
CREATE INDEX games_clock_due ON games (clock_due) WHERE status = 'active' AND clock_due <> '';

CREATE TABLE outbox_text (
	id  BIGINT PRIMARY KEY REFERENCES outbox (id) ON DELETE CASCADE,
	raw BYTEA NOT NULL
);
INSERT INTO outbox_text (id, raw) SELECT id, raw FROM outbox;
ALTER TABLE outbox DROP COLUMN raw;

-- The lease of M48: the one process that reads mail, runs the clock and
-- the robot, and sends. holder names it; it holds the lease until
-- expires (the server's clock), renewing it; epoch counts the holders.
CREATE TABLE lease (
	name    TEXT COLLATE "C" PRIMARY KEY,
	holder  TEXT COLLATE "C" NOT NULL,
	expires TIMESTAMPTZ NOT NULL,
	epoch   BIGINT NOT NULL DEFAULT 1
);
