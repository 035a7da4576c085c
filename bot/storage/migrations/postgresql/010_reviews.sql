-- PostgreSQL version of ../010_reviews.sql.
CREATE TABLE reviews (
    match_id BIGINT PRIMARY KEY REFERENCES matches(id) ON DELETE CASCADE,
    budget BIGINT NOT NULL,                -- playouts per position (a review at another budget is made afresh)
    judgements TEXT NOT NULL,              -- JSON: ai.review.Judgement.to_json() of each move judged so far
    complete BIGINT NOT NULL DEFAULT 0,    -- 1 once every move is judged
    updated_at DOUBLE PRECISION NOT NULL
);
ALTER TABLE guild_settings ADD COLUMN hints BIGINT;  -- /tabula hints: 1 on, 0 off (NULL: on)
