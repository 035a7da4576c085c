-- Who played each match and how they placed, and one rating per server, game and player.
ALTER TABLE matches ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;

CREATE TABLE match_players (
    match_id     INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    place        INTEGER,            -- finishing place (1 first, ties share) once finished
    mu_before    REAL,               -- rating before and after, when the match was rated
    sigma_before REAL,
    mu_after     REAL,
    sigma_after  REAL,
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;
CREATE INDEX match_players_by_user ON match_players (user_id, match_id);

CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    name       TEXT    NOT NULL,     -- last display name seen, kept after the player leaves
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    ordinal    REAL    NOT NULL,     -- mu - 3 sigma: the conservative rating the ladder sorts by
    games      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    losses     INTEGER NOT NULL DEFAULT 0,
    draws      INTEGER NOT NULL DEFAULT 0,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
) WITHOUT ROWID;
CREATE INDEX ratings_ladder ON ratings (guild_id, game, ordinal DESC, user_id);

-- Matches that started before this migration get their players from the JSON column.
INSERT INTO match_players (match_id, seat, user_id)
SELECT matches.id, CAST(seat.key AS INTEGER), json_extract(seat.value, '$.id')
FROM matches, json_each(matches.players) AS seat
WHERE matches.status IN ('active', 'finished');
