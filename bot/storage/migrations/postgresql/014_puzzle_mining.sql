-- PostgreSQL version of ../014_puzzle_mining.sql.
CREATE TABLE puzzle_mining (
    match_id   BIGINT PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    screened   BIGINT NOT NULL,            -- positions of the match looked at so far
    found      BIGINT NOT NULL,            -- puzzles found in them
    complete   BIGINT NOT NULL DEFAULT 0,  -- 1 once every position is looked at
    updated_at DOUBLE PRECISION NOT NULL
);
