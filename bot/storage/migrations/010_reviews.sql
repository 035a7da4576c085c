-- The computer's reviews of finished matches: the judgements made so far, in order, as JSON (a review
-- interrupted by a restart goes on from where it stopped), and whether the review is complete.
CREATE TABLE reviews (
    match_id INTEGER PRIMARY KEY REFERENCES matches(id) ON DELETE CASCADE,
    budget INTEGER NOT NULL,               -- playouts per position (a review at another budget is made afresh)
    judgements TEXT NOT NULL,              -- JSON: ai.review.Judgement.to_json() of each move judged so far
    complete INTEGER NOT NULL DEFAULT 0,   -- 1 once every move is judged
    updated_at REAL NOT NULL
);
-- /tabula hints: 1 on, 0 off (NULL: on), hints in this server's practice games against the computer.
ALTER TABLE guild_settings ADD COLUMN hints INTEGER;
