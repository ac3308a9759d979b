-- Administration by the operator: banned players, adjourned games. Each
-- column holds when it happened, '' when it did not.
ALTER TABLE players ADD COLUMN banned TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN adjourned TEXT NOT NULL DEFAULT '';
