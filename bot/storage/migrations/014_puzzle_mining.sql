-- How far the mining of each finished match for puzzles got: the positions screened so far (in order of
-- play), the puzzles found, and whether it is done.  Mining goes a slice at a time in the background worker,
-- so a restart goes on from the next position instead of starting again.
CREATE TABLE puzzle_mining (
    match_id   INTEGER PRIMARY KEY REFERENCES matches(id) ON DELETE CASCADE,
    screened   INTEGER NOT NULL,            -- positions of the match looked at so far
    found      INTEGER NOT NULL,            -- puzzles found in them
    complete   INTEGER NOT NULL DEFAULT 0,  -- 1 once every position is looked at
    updated_at REAL    NOT NULL
);
