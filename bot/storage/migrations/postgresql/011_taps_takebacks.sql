-- PostgreSQL version of ../011_taps_takebacks.sql.
CREATE TABLE user_settings (
    user_id       BIGINT PRIMARY KEY,
    confirm_moves BIGINT,                  -- 1 or NULL: show a move picked by taps before it is played; 0: don't
    updated_at    DOUBLE PRECISION NOT NULL
);
CREATE TABLE takeback_offers (
    match_id   BIGINT PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    version    BIGINT NOT NULL,            -- the match version asked at: any move makes the request lapse
    seat       BIGINT NOT NULL,            -- who asked
    user_id    BIGINT NOT NULL,
    keep       BIGINT NOT NULL,            -- how many log entries stay
    accepted   TEXT   NOT NULL,            -- JSON list of the seats that agreed so far
    created_at DOUBLE PRECISION NOT NULL
);
