-- Matches and their append-only move log.
CREATE TABLE matches (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    options     TEXT    NOT NULL,             -- JSON object of game options
    seed        INTEGER NOT NULL,
    players     TEXT    NOT NULL,             -- JSON [{"id": snowflake, "name": str}], seat order once started
    invited     TEXT    NOT NULL DEFAULT '[]',-- JSON snowflakes who still have to accept a challenge
    status      TEXT    NOT NULL CHECK (status IN ('challenge', 'active', 'finished', 'cancelled', 'declined', 'expired')),
    state       TEXT,                         -- JSON engine state; NULL while a challenge is pending
    version     INTEGER NOT NULL DEFAULT 0,   -- bumped by every write: stale writes are refused
    deadline    REAL,                         -- unix seconds: challenge expiry or turn deadline
    message_id  INTEGER,                      -- the challenge message, to edit when it ends
    result      TEXT,                         -- JSON outcome once finished
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL,
    finished_at REAL
);

-- At most one open (pending or running) match per channel, enforced by the database itself.
CREATE UNIQUE INDEX matches_one_open_per_channel ON matches (channel_id) WHERE status IN ('challenge', 'active');
CREATE INDEX matches_by_status_deadline ON matches (status, deadline);
CREATE INDEX matches_by_guild ON matches (guild_id, game, status);

CREATE TABLE moves (
    match_id   INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,              -- 1, 2, 3 ... per match
    kind       TEXT    NOT NULL CHECK (kind IN ('move', 'forfeit')),
    seat       INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    text       TEXT    NOT NULL,              -- the move's canonical text, or the forfeit's reason
    created_at REAL    NOT NULL,
    PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;

CREATE TABLE bot_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
