-- PostgreSQL version of ../006_reminders_draws.sql.
-- The outbox learns a new kind (a reminder): PostgreSQL alters the CHECK in place, keeping the rows and the
-- identity counter (outbox ids are never reused: they are part of the message nonce).
ALTER TABLE outbox DROP CONSTRAINT outbox_kind_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_kind_check CHECK (kind IN ('start', 'turn', 'close', 'remind'));

CREATE TABLE match_reminders (
    match_id   BIGINT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    version    BIGINT NOT NULL,          -- the match version (the turn) reminded about
    user_id    BIGINT NOT NULL,          -- the player to move
    sent       BIGINT NOT NULL,          -- 1: a reminder was posted; 0: skipped
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (match_id, version)
);

CREATE TABLE user_reminders (
    user_id    BIGINT PRIMARY KEY,
    enabled    BIGINT NOT NULL,          -- 1: remind me; 0: don't
    updated_at DOUBLE PRECISION NOT NULL
);

CREATE TABLE draw_offers (
    match_id   BIGINT PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    version    BIGINT NOT NULL,          -- the match version when offered: any move makes the offer lapse
    seat       BIGINT NOT NULL,          -- who offered
    user_id    BIGINT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL
);

CREATE TABLE rematches (
    match_id   BIGINT PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    rematch_id BIGINT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    user_id    BIGINT NOT NULL,          -- who pressed
    created_at DOUBLE PRECISION NOT NULL
);
