-- Time as players ask for it (M63-M67).

-- A player's time zone (M64), an IANA name such as 'Europe/Prague'; ''
-- for UTC. weekends_from is when the player began to pause their
-- weekends ('' while they play them): their clock stands still from
-- Saturday 00:00 to Monday 00:00 in their time zone, in the weekends
-- that begin after it (a change of time zone sets it again).
ALTER TABLE players ADD COLUMN timezone TEXT NOT NULL DEFAULT '';
ALTER TABLE players ADD COLUMN weekends_from TEXT NOT NULL DEFAULT '';

-- Pauses by agreement (M63): the player who asks for one (0 for none),
-- since when the game is paused ('' while it is not), and how many
-- seconds its pauses that ended took (at most 30 days in all with the
-- one going on). given is the seconds players gave each other (M65), at
-- most 30 days; timeout_claim is set for a game whose time out is won
-- by a claim (M66).
ALTER TABLE games ADD COLUMN pause_asked INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN paused TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN paused_for INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN given INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN timeout_claim INTEGER NOT NULL DEFAULT 0 CHECK (timeout_claim IN (0, 1));

-- A tournament's options: its games may be paused by agreement (M63);
-- vacations do not stop its games' clocks (M67).
ALTER TABLE tournaments ADD COLUMN pauses INTEGER NOT NULL DEFAULT 0 CHECK (pauses IN (0, 1));
ALTER TABLE tournaments ADD COLUMN novacation INTEGER NOT NULL DEFAULT 0 CHECK (novacation IN (0, 1));
