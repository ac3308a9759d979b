-- As migrations/008_loops.sql for SQLite: mail without a command from one
-- address, counted, and the row DB.Check writes.
CREATE TABLE no_command (
	address TEXT COLLATE "C" PRIMARY KEY,
	since   TEXT COLLATE "C" NOT NULL,
	mails   INTEGER NOT NULL,
	told    TEXT COLLATE "C" NOT NULL DEFAULT ''
);

CREATE TABLE health (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	at TEXT COLLATE "C" NOT NULL
);
