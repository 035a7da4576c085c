-- PostgreSQL version of ../002_ratings.sql.
ALTER TABLE matches ADD COLUMN rated BIGINT NOT NULL DEFAULT 1;

CREATE TABLE match_players (
    match_id     BIGINT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat         BIGINT NOT NULL,
    user_id      BIGINT NOT NULL,
    place        BIGINT,             -- finishing place (1 first, ties share) once finished
    mu_before    DOUBLE PRECISION,   -- rating before and after, when the match was rated
    sigma_before DOUBLE PRECISION,
    mu_after     DOUBLE PRECISION,
    sigma_after  DOUBLE PRECISION,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX match_players_by_user ON match_players (user_id, match_id);

CREATE TABLE ratings (
    guild_id   BIGINT  NOT NULL,
    game       TEXT    NOT NULL,
    user_id    BIGINT  NOT NULL,
    name       TEXT    NOT NULL,     -- last display name seen, kept after the player leaves
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL,
    ordinal    DOUBLE PRECISION NOT NULL, -- mu - 3 sigma: the conservative rating the ladder sorts by
    games      BIGINT  NOT NULL DEFAULT 0,
    wins       BIGINT  NOT NULL DEFAULT 0,
    losses     BIGINT  NOT NULL DEFAULT 0,
    draws      BIGINT  NOT NULL DEFAULT 0,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
);
CREATE INDEX ratings_ladder ON ratings (guild_id, game, ordinal DESC, user_id);

-- Matches that started before this migration get their players from the JSON column.
INSERT INTO match_players (match_id, seat, user_id)
SELECT matches.id, seat.position - 1, (seat.value ->> 'id')::BIGINT
FROM matches, jsonb_array_elements(matches.players::jsonb) WITH ORDINALITY AS seat (value, position)
WHERE matches.status IN ('active', 'finished');
