-- Mail as people write it, and as attackers abuse it, as
-- migrations/007_abuse.sql for SQLite.
ALTER TABLE players ADD COLUMN confirmed BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE players ADD COLUMN welcomed TEXT COLLATE "C" NOT NULL DEFAULT '';

ALTER TABLE games ADD COLUMN white_rating DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN black_rating DOUBLE PRECISION;
CREATE INDEX games_challenger ON games (challenger, created);

CREATE TABLE sent_games (
	message_id TEXT COLLATE "C" NOT NULL,
	game       BIGINT NOT NULL REFERENCES games (id),
	PRIMARY KEY (message_id, game)
);

CREATE TABLE mail_counts (
	key    TEXT COLLATE "C" NOT NULL,
	minute BIGINT NOT NULL,
	n      INTEGER NOT NULL,
	PRIMARY KEY (key, minute)
);
CREATE TABLE cap_notices (
	cause TEXT COLLATE "C" PRIMARY KEY,
	at    TEXT COLLATE "C" NOT NULL
);
CREATE TABLE strangers (
	address TEXT COLLATE "C" PRIMARY KEY,
	at      TEXT COLLATE "C" NOT NULL
);

CREATE INDEX outbox_pending_rcpt ON outbox (rcpt_to, id) WHERE sent_at IS NULL AND failed_at IS NULL;
