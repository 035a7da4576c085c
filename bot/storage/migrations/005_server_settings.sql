-- Server settings beyond the language (NULL: the bot's default from the environment), and matches
-- played in a thread of their own, many from one channel.
ALTER TABLE guild_settings ADD COLUMN turn_seconds INTEGER;       -- time for a turn
ALTER TABLE guild_settings ADD COLUMN challenge_seconds INTEGER;  -- how long a challenge stays open
ALTER TABLE guild_settings ADD COLUMN reminders INTEGER;          -- 1 on, 0 off: turn reminders in this server
ALTER TABLE guild_settings ADD COLUMN threads INTEGER;            -- 1 on, 0 off: a thread per match

-- Where a match is played.  thread_mode NULL: where it was challenged (a channel or a thread), one open
-- match there at a time.  'thread': in a public thread opened from the challenge message once accepted
-- (thread_id, recorded as soon as Discord made it).  'channel': a thread was wanted but Discord refused
-- it, so the match is played in the challenge's channel, beside others of its kind.
ALTER TABLE matches ADD COLUMN thread_mode TEXT CHECK (thread_mode IN ('thread', 'channel'));
ALTER TABLE matches ADD COLUMN thread_id INTEGER;
ALTER TABLE matches ADD COLUMN archive_at REAL;                   -- unix seconds: archive the finished thread

DROP INDEX matches_one_open_per_channel;
CREATE UNIQUE INDEX matches_one_open_per_channel ON matches (channel_id)
    WHERE status IN ('challenge', 'active') AND thread_mode IS NULL;
CREATE INDEX matches_by_thread ON matches (thread_id) WHERE thread_id IS NOT NULL;
CREATE INDEX matches_archive_due ON matches (archive_at) WHERE archive_at IS NOT NULL;

-- Things said once per channel (why its matches are not played in threads).
CREATE TABLE channel_notes (
    channel_id INTEGER NOT NULL,
    note       TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (channel_id, note)
);
