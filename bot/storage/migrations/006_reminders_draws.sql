-- Reminders, automatic endings, draw offers and rematches.

-- The outbox learns two new kinds: a reminder to the player to move, and the note that closes a draw offer.
-- A CHECK constraint cannot be altered in place, so the table is rebuilt with the same columns and rows.
CREATE TABLE outbox_next (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id     INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    channel_id   INTEGER NOT NULL,
    guild_id     INTEGER NOT NULL,
    kind         TEXT    NOT NULL CHECK (kind IN ('start', 'turn', 'close', 'remind')),
    version      INTEGER NOT NULL,
    seq          INTEGER NOT NULL,
    mentions     TEXT    NOT NULL,
    board        INTEGER NOT NULL,
    detail       TEXT    NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts     INTEGER NOT NULL DEFAULT 0,
    next_at      REAL    NOT NULL,
    error        TEXT,
    message_id   INTEGER,
    created_at   REAL    NOT NULL,
    delivered_at REAL
);
INSERT INTO outbox_next (id, match_id, channel_id, guild_id, kind, version, seq, mentions, board, detail, status,
                         attempts, next_at, error, message_id, created_at, delivered_at)
SELECT id, match_id, channel_id, guild_id, kind, version, seq, mentions, board, detail, status,
       attempts, next_at, error, message_id, created_at, delivered_at
FROM outbox;
-- Outbox IDs are never reused (they are part of the message nonce): carry the counter over.
DELETE FROM sqlite_sequence WHERE name = 'outbox_next';
INSERT INTO sqlite_sequence (name, seq) SELECT 'outbox_next', seq FROM sqlite_sequence WHERE name = 'outbox';
DROP TABLE outbox;
ALTER TABLE outbox_next RENAME TO outbox;
CREATE INDEX outbox_pending ON outbox (next_at) WHERE status = 'pending';
CREATE INDEX outbox_by_match ON outbox (match_id, status);

-- One row per turn (match version) whose reminder was handled: sent (an outbox row was written in the
-- same transaction) or skipped (computer seat, reminders off).  Its primary key makes "at most once" hold.
CREATE TABLE match_reminders (
    match_id   INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL,          -- the match version (the turn) reminded about
    user_id    INTEGER NOT NULL,          -- the player to move
    sent       INTEGER NOT NULL,          -- 1: a reminder was posted; 0: skipped
    created_at REAL    NOT NULL,
    PRIMARY KEY (match_id, version)
);

-- Players who turned their own reminders off (or back on): one row per user who chose.
CREATE TABLE user_reminders (
    user_id    INTEGER PRIMARY KEY,
    enabled    INTEGER NOT NULL,          -- 1: remind me; 0: don't
    updated_at REAL    NOT NULL
);

-- A pending draw offer per match: valid only while the match is still at the version it was made at.
CREATE TABLE draw_offers (
    match_id   INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL,          -- the match version when offered: any move makes the offer lapse
    seat       INTEGER NOT NULL,          -- who offered
    user_id    INTEGER NOT NULL,
    created_at REAL    NOT NULL
);

-- A finished match's rematch: the challenge (or game) its Rematch button started.
CREATE TABLE rematches (
    match_id   INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    rematch_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,          -- who pressed
    created_at REAL    NOT NULL
);
