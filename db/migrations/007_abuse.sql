-- Mail as people write it, and as attackers abuse it.

-- A player is confirmed once a mail from them proves their address (M28):
-- until then they get their welcome mail and nothing else. Players who
-- registered before this column played already: they are confirmed.
-- welcomed is when they were last sent their personal address (the
-- welcome, or a register again), so that a second one within a day is
-- not mailed.
ALTER TABLE players ADD COLUMN confirmed INTEGER NOT NULL DEFAULT 1 CHECK (confirmed IN (0, 1));
ALTER TABLE players ADD COLUMN welcomed TEXT NOT NULL DEFAULT '';

-- The players' ratings when a rated game ended, for its record and its
-- past boards; NULL while it goes on, for unrated games, and for games
-- that ended before this column.
ALTER TABLE games ADD COLUMN white_rating REAL;
ALTER TABLE games ADD COLUMN black_rating REAL;
-- Challenges a player made in the last day are counted (M29).
CREATE INDEX games_challenger ON games (challenger, created);

-- The games a mail we sent listed, when it listed several (a digest), so
-- that a reply to it may play in them (M24).
CREATE TABLE sent_games (
	message_id TEXT NOT NULL,
	game       INTEGER NOT NULL REFERENCES games (id),
	PRIMARY KEY (message_id, game)
) WITHOUT ROWID;

-- The mails queued, counted by the minute against their recipient, the
-- player or address whose mail caused them, and the whole server (M29):
-- key is 'to:<address>' (lowercased, +tag stripped), 'by:<cause>' or
-- '*'. The counts of the last 60 minutes make the sliding hour.
CREATE TABLE mail_counts (
	key    TEXT NOT NULL,
	minute INTEGER NOT NULL,
	n      INTEGER NOT NULL,
	PRIMARY KEY (key, minute)
) WITHOUT ROWID;
-- When the one who caused mail past a cap was last told so: once an
-- hour at most.
CREATE TABLE cap_notices (
	cause TEXT PRIMARY KEY,
	at    TEXT NOT NULL
) WITHOUT ROWID;
-- Addresses not registered that were answered, so that a forged sender
-- gets one answer a day at most (M28, M31).
CREATE TABLE strangers (
	address TEXT PRIMARY KEY,
	at      TEXT NOT NULL
) WITHOUT ROWID;

-- A recipient's mails are sent in the order they were queued: a mail
-- waits while an older one to the same recipient does.
CREATE INDEX outbox_pending_rcpt ON outbox (rcpt_to, id) WHERE sent_at IS NULL AND failed_at IS NULL;
