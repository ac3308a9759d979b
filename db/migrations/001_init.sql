-- The first schema: players, games and their moves, the mail handled and
-- the mail to send. Times are UTC text in the fixed layout of db.go, so
-- that they sort as they compare.

CREATE TABLE players (
	id      INTEGER PRIMARY KEY,
	handle  TEXT NOT NULL UNIQUE COLLATE NOCASE,
	address TEXT NOT NULL UNIQUE CHECK (address = lower(address)),
	secret  TEXT NOT NULL,
	created TEXT NOT NULL
);

CREATE TABLE games (
	id          INTEGER PRIMARY KEY AUTOINCREMENT,
	white       INTEGER NOT NULL REFERENCES players (id),
	black       INTEGER NOT NULL REFERENCES players (id),
	challenger  INTEGER NOT NULL REFERENCES players (id),
	status      TEXT NOT NULL CHECK (status IN ('challenged', 'declined', 'active', 'finished')),
	position    TEXT NOT NULL,
	result      TEXT NOT NULL DEFAULT '' CHECK (result IN ('', 'white', 'black', 'draw')),
	reason      TEXT NOT NULL DEFAULT '',
	thread_root TEXT NOT NULL DEFAULT '',
	created     TEXT NOT NULL,
	updated     TEXT NOT NULL,
	CHECK (white <> black),
	CHECK (challenger IN (white, black))
);
CREATE INDEX games_white ON games (white);
CREATE INDEX games_black ON games (black);

CREATE TABLE moves (
	game     INTEGER NOT NULL REFERENCES games (id),
	ply      INTEGER NOT NULL CHECK (ply > 0),
	move     TEXT NOT NULL,
	position TEXT NOT NULL,
	at       TEXT NOT NULL,
	PRIMARY KEY (game, ply)
) WITHOUT ROWID;

-- One row per incoming mail handled. A mail is known by its Message-ID, or
-- by UIDVALIDITY and UID when it has none.
CREATE TABLE processed (
	id          INTEGER PRIMARY KEY,
	message_id  TEXT NOT NULL,
	uidvalidity INTEGER NOT NULL,
	uid         INTEGER NOT NULL,
	at          TEXT NOT NULL,
	summary     TEXT NOT NULL
);
CREATE UNIQUE INDEX processed_message_id ON processed (message_id) WHERE message_id <> '';
CREATE UNIQUE INDEX processed_uid ON processed (uidvalidity, uid) WHERE message_id = '' AND uid <> 0;

-- The Message-IDs of the mails we sent, with the game each was about, so
-- that a reply names its game.
CREATE TABLE sent (
	message_id TEXT PRIMARY KEY,
	game       INTEGER REFERENCES games (id),
	at         TEXT NOT NULL
) WITHOUT ROWID;

-- Mail waiting to be sent, or sent, or given up. raw is the whole message,
-- composed once, so that every attempt sends the same bytes.
CREATE TABLE outbox (
	id           INTEGER PRIMARY KEY,
	created      TEXT NOT NULL,
	mail_from    TEXT NOT NULL,
	rcpt_to      TEXT NOT NULL,
	message_id   TEXT NOT NULL,
	raw          BLOB NOT NULL,
	attempts     INTEGER NOT NULL DEFAULT 0,
	next_attempt TEXT NOT NULL,
	last_error   TEXT NOT NULL DEFAULT '',
	sent_at      TEXT,
	failed_at    TEXT
);
CREATE INDEX outbox_due ON outbox (next_attempt) WHERE sent_at IS NULL AND failed_at IS NULL;
