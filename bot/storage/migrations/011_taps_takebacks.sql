-- Moves by taps: a player's own settings, and requests to take a move back.

-- A player's own settings (one row per user who chose one): whether a move picked by taps is shown for
-- confirmation before it is played (1, or NULL: yes; 0: played at once).
CREATE TABLE user_settings (
    user_id       INTEGER PRIMARY KEY,
    confirm_moves INTEGER,
    updated_at    REAL    NOT NULL
);

-- A pending request to take moves back, per match: valid only while the match stays at the version it was
-- asked at.  ``keep`` is how many log entries stay; ``accepted`` the seats that agreed so far (JSON list).
CREATE TABLE takeback_offers (
    match_id   INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL,
    seat       INTEGER NOT NULL,          -- who asked
    user_id    INTEGER NOT NULL,
    keep       INTEGER NOT NULL,
    accepted   TEXT    NOT NULL,
    created_at REAL    NOT NULL
);
