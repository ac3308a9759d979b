-- A cost flat in the number of games (issue 16).

-- When the clock loop next has something to do in a game being played
-- (a reminder, a loss on time; a vacation moves both): no earlier, it
-- asks for the games due alone. '' for never (over, adjourned). Games
-- being played when this migration runs are looked at when their clock
-- started, which is never too late, and then get their time.
ALTER TABLE games ADD COLUMN clock_due TEXT NOT NULL DEFAULT '';
UPDATE games SET clock_due = clock_start WHERE status = 'active' AND adjourned = '';
CREATE INDEX games_clock_due ON games (clock_due) WHERE status = 'active' AND clock_due <> '';

-- The text of each outbox mail, apart from its status: a status change
-- rewrites a short row, not the whole mail.
CREATE TABLE outbox_text (
	id  INTEGER PRIMARY KEY REFERENCES outbox (id) ON DELETE CASCADE,
	raw BLOB NOT NULL
);
INSERT INTO outbox_text (id, raw) SELECT id, raw FROM outbox;
ALTER TABLE outbox DROP COLUMN raw;
