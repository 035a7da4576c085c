-- PostgreSQL version of ../005_server_settings.sql.
ALTER TABLE guild_settings ADD COLUMN turn_seconds BIGINT;       -- time for a turn
ALTER TABLE guild_settings ADD COLUMN challenge_seconds BIGINT;  -- how long a challenge stays open
ALTER TABLE guild_settings ADD COLUMN reminders BIGINT;          -- 1 on, 0 off: turn reminders in this server
ALTER TABLE guild_settings ADD COLUMN threads BIGINT;            -- 1 on, 0 off: a thread per match

ALTER TABLE matches ADD COLUMN thread_mode TEXT CHECK (thread_mode IN ('thread', 'channel'));
ALTER TABLE matches ADD COLUMN thread_id BIGINT;
ALTER TABLE matches ADD COLUMN archive_at DOUBLE PRECISION;      -- unix seconds: archive the finished thread

DROP INDEX matches_one_open_per_channel;
CREATE UNIQUE INDEX matches_one_open_per_channel ON matches (channel_id)
    WHERE status IN ('challenge', 'active') AND thread_mode IS NULL;
CREATE INDEX matches_by_thread ON matches (thread_id) WHERE thread_id IS NOT NULL;
CREATE INDEX matches_archive_due ON matches (archive_at) WHERE archive_at IS NOT NULL;

CREATE TABLE channel_notes (
    channel_id BIGINT NOT NULL,
    note       TEXT   NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (channel_id, note)
);
