-- PostgreSQL version of ../015_arenas.sql (here a CHECK constraint is simply replaced).
ALTER TABLE tournaments DROP CONSTRAINT tournaments_format_check;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_format_check
    CHECK (format IN ('swiss', 'round_robin', 'double_round_robin', 'tables', 'arena'));
ALTER TABLE tournaments ADD COLUMN duration DOUBLE PRECISION;     -- an arena's length in seconds
ALTER TABLE tournaments ADD COLUMN ends_at DOUBLE PRECISION;      -- when a running arena ends
ALTER TABLE tournaments ADD COLUMN standings_id BIGINT;           -- an arena's live standings message

ALTER TABLE tournament_entrants ADD COLUMN paused BIGINT NOT NULL DEFAULT 0;
ALTER TABLE tournament_entrants ADD COLUMN free_since DOUBLE PRECISION;
CREATE INDEX tournament_pairings_open ON tournament_pairings (tournament_id) WHERE result IS NULL;
