-- The web companion (M44): its pages list the games in progress and the
-- results by their last change, the newest first, and replay the rated
-- results in the order they ended (for the players' rating charts).
-- Partial indexes, so that the other lookups of games by status keep
-- theirs: a query uses one only when it repeats its condition.
CREATE INDEX games_active_updated ON games (updated) WHERE status = 'active';
CREATE INDEX games_finished_updated ON games (updated) WHERE status = 'finished';
