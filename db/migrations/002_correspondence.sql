-- Correspondence play: clocks and time controls, draw offers and takeback
-- requests, comments kept with moves, ratings (Glicko-2), notification
-- settings and vacations of players, observers, seeks and conditional
-- moves. Durations are whole seconds.

-- time_control is "days=N" or "bank=D+I" (M11). The mover's clock started
-- at clock_start (in the future while the mover is on vacation); the
-- mover's *_left is what was left then, and turn_time is the same, kept
-- for the reminders, of which the turn has had reminders.
ALTER TABLE games ADD COLUMN time_control TEXT NOT NULL DEFAULT 'days=3';
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1));
ALTER TABLE games ADD COLUMN white_left INTEGER NOT NULL DEFAULT 259200;
ALTER TABLE games ADD COLUMN black_left INTEGER NOT NULL DEFAULT 259200;
ALTER TABLE games ADD COLUMN clock_start TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN turn_time INTEGER NOT NULL DEFAULT 259200;
ALTER TABLE games ADD COLUMN reminders INTEGER NOT NULL DEFAULT 0;
-- The player who offers a draw, or asks to take back the last move; 0
-- for none.
ALTER TABLE games ADD COLUMN draw_offer INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN takeback INTEGER NOT NULL DEFAULT 0;
-- Games being played when this migration runs get their clocks started.
UPDATE games SET clock_start = updated WHERE status = 'active';

ALTER TABLE moves ADD COLUMN comment TEXT NOT NULL DEFAULT '';

ALTER TABLE players ADD COLUMN rating REAL NOT NULL DEFAULT 1500;
ALTER TABLE players ADD COLUMN deviation REAL NOT NULL DEFAULT 350;
ALTER TABLE players ADD COLUMN volatility REAL NOT NULL DEFAULT 0.06;
ALTER TABLE players ADD COLUMN rated_games INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN notify TEXT NOT NULL DEFAULT 'each' CHECK (notify IN ('each', 'digest', 'off'));
-- When the next digest is due; '' when notify is not digest.
ALTER TABLE players ADD COLUMN digest_at TEXT NOT NULL DEFAULT '';
-- Vacation: the allowance left as of vacation_accrued (M17), and the end
-- of the vacation being taken ('' for none).
ALTER TABLE players ADD COLUMN vacation_left INTEGER NOT NULL DEFAULT 864000;
ALTER TABLE players ADD COLUMN vacation_accrued TEXT NOT NULL DEFAULT '';
ALTER TABLE players ADD COLUMN vacation_until TEXT NOT NULL DEFAULT '';
UPDATE players SET vacation_accrued = created;

CREATE TABLE observers (
	game   INTEGER NOT NULL REFERENCES games (id),
	player INTEGER NOT NULL REFERENCES players (id),
	PRIMARY KEY (game, player)
) WITHOUT ROWID;

-- One open seek per player: it waits for a seek with the same time
-- control and rating from someone else.
CREATE TABLE seeks (
	player       INTEGER PRIMARY KEY REFERENCES players (id),
	time_control TEXT NOT NULL,
	rated        INTEGER NOT NULL CHECK (rated IN (0, 1)),
	created      TEXT NOT NULL
);

-- Conditional moves (M14): each row is one branch, the moves alternately
-- the opponent's and the player's, in canonical notation separated by
-- spaces, starting with the opponent's next move.
CREATE TABLE conditionals (
	id     INTEGER PRIMARY KEY,
	game   INTEGER NOT NULL REFERENCES games (id),
	player INTEGER NOT NULL REFERENCES players (id),
	moves  TEXT NOT NULL
);
CREATE INDEX conditionals_game ON conditionals (game, player);
