-- Mail without a command from one address, counted over ten minutes, so
-- that a loop with a broken automatic responder is found and stopped:
-- since is when the count began, told when the address was last told it
-- is not answered.
CREATE TABLE no_command (
	address TEXT PRIMARY KEY,
	since   TEXT NOT NULL,
	mails   INTEGER NOT NULL,
	told    TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;

-- One row, written by DB.Check to see that the database takes a write.
CREATE TABLE health (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	at TEXT NOT NULL
);
