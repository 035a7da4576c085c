-- Puzzles: positions with one clearly best move, mined from a server's finished games (or shipped with Tabula),
-- the players who solve them, each try (so a puzzle half solved survives a restart), and the daily puzzle.

-- One puzzle of one server (guild 0: the shipped set, shown everywhere; a server's own are shown only there).
CREATE TABLE puzzles (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    key         TEXT    NOT NULL,          -- ai.puzzles.Puzzle.key: the same position and line, the same key
    game        TEXT    NOT NULL,
    puzzle      TEXT    NOT NULL,          -- JSON: ai.puzzles.Puzzle.to_json()
    match_id    INTEGER,                   -- the game it was found in (NULL: shipped)
    ply         INTEGER,                   -- the position's ply in that game
    players     TEXT,                      -- JSON: the players' names when the game was played
    blunderer   INTEGER,                   -- who made the move before the position (NULL: shipped)
    rating      REAL    NOT NULL,          -- the puzzle's Glicko-2 rating, deviation and volatility
    rd          REAL    NOT NULL,
    volatility  REAL    NOT NULL,
    plays       INTEGER NOT NULL DEFAULT 0, -- first tries
    solves      INTEGER NOT NULL DEFAULT 0, -- first tries that solved it
    created_at  REAL    NOT NULL,
    UNIQUE (guild_id, key)
);
CREATE INDEX puzzles_by_rating ON puzzles (game, rating);

-- A player's puzzle rating and record, per server and game.
CREATE TABLE puzzle_players (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    rating      REAL    NOT NULL,
    rd          REAL    NOT NULL,
    volatility  REAL    NOT NULL,
    attempts    INTEGER NOT NULL DEFAULT 0,
    solved      INTEGER NOT NULL DEFAULT 0,
    streak      INTEGER NOT NULL DEFAULT 0,  -- puzzles solved in a row (first tries)
    best_streak INTEGER NOT NULL DEFAULT 0,
    last_at     REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id, game)
);

-- One try at a puzzle: the solver's moves made so far, and how it ended.  Only a player's first try is rated.
CREATE TABLE puzzle_attempts (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    puzzle_id   INTEGER NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
    step        INTEGER NOT NULL DEFAULT 0,
    status      TEXT    NOT NULL CHECK (status IN ('playing', 'solved', 'failed')),
    rated       INTEGER NOT NULL,
    started_at  REAL    NOT NULL,
    finished_at REAL
);
CREATE INDEX puzzle_attempts_by_user ON puzzle_attempts (user_id, guild_id, puzzle_id);

-- The daily puzzle of a server: chosen once a UTC day, posted (and retried) until Discord has it.
CREATE TABLE daily_puzzles (
    guild_id    INTEGER NOT NULL,
    day         TEXT    NOT NULL,          -- the UTC date, 2027-01-15
    puzzle_id   INTEGER REFERENCES puzzles (id) ON DELETE SET NULL,  -- NULL: there was no puzzle to post
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER,
    solvers     INTEGER NOT NULL DEFAULT 0, -- first tries that solved it in this server since it was posted
    status      TEXT    NOT NULL CHECK (status IN ('pending', 'posted', 'failed')),
    attempts    INTEGER NOT NULL DEFAULT 0,
    next_at     REAL    NOT NULL,          -- when to (re)try the post
    error       TEXT,
    created_at  REAL    NOT NULL,
    PRIMARY KEY (guild_id, day)
);

-- /tabula puzzles: the channel of the daily puzzle (NULL: none).
ALTER TABLE guild_settings ADD COLUMN puzzle_channel INTEGER;
