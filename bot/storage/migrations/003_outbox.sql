-- The outbox: what must be announced about a match, written in the transaction that changed it,
-- and posted by the delivery step until Discord has it (or will never take it).
CREATE TABLE outbox (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: the id is part of the message nonce
    match_id     INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    channel_id   INTEGER NOT NULL,
    guild_id     INTEGER NOT NULL,
    kind         TEXT    NOT NULL CHECK (kind IN ('start', 'turn', 'close')),
    version      INTEGER NOT NULL,          -- the match version announced
    seq          INTEGER NOT NULL,          -- log entries played in the state shown (the board is drawn from it)
    mentions     TEXT    NOT NULL,          -- JSON snowflakes to ping
    board        INTEGER NOT NULL,          -- 1: attach the board image, drawn when posting
    detail       TEXT    NOT NULL,          -- JSON details for the text (e.g. who declined)
    status       TEXT    NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts     INTEGER NOT NULL DEFAULT 0,
    next_at      REAL    NOT NULL,          -- unix seconds: when to try again
    error        TEXT,                      -- the last failure, in words
    message_id   INTEGER,                   -- the posted message
    created_at   REAL    NOT NULL,
    delivered_at REAL
);
CREATE INDEX outbox_pending ON outbox (next_at) WHERE status = 'pending';
CREATE INDEX outbox_by_match ON outbox (match_id, status);
