-- Administration by the operator, as migrations/004_admin.sql for SQLite.
ALTER TABLE players ADD COLUMN banned TEXT COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN adjourned TEXT COLLATE "C" NOT NULL DEFAULT '';
