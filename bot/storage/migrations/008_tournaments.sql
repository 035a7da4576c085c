-- Tournaments: a server's event, its entrants, and each round's pairings, byes and results.

-- One event.  Its writes are version-checked like a match's: two organisers pressing start at once start it once.
CREATE TABLE tournaments (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,          -- where sign-up, standings and the winner are posted
    name         TEXT    NOT NULL,
    game         TEXT    NOT NULL,
    options      TEXT    NOT NULL,          -- JSON: the game's start options for every game of the event
    format       TEXT    NOT NULL CHECK (format IN ('swiss', 'round_robin', 'double_round_robin', 'tables')),
    rounds       INTEGER NOT NULL,          -- 0 until started: then the rounds the field plays
    turn_seconds REAL,                      -- the event's time for a turn (NULL: the server's)
    starts_at    REAL,                      -- when it starts by itself (NULL: when the organiser says)
    status       TEXT    NOT NULL CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    round        INTEGER NOT NULL DEFAULT 0,  -- the round being played (0: not started)
    version      INTEGER NOT NULL DEFAULT 0,
    organiser_id INTEGER NOT NULL,
    message_id   INTEGER,                   -- the sign-up message (its Join / Leave buttons)
    created_at   REAL    NOT NULL,
    updated_at   REAL    NOT NULL,
    finished_at  REAL
);
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);

-- Who entered, in the order they joined (their starting number); a withdrawal keeps the row and its results.
CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    number        INTEGER NOT NULL,         -- starting number, 1 for the first to join
    withdrawn     INTEGER,                  -- the round after which they are paired no more (NULL: playing)
    joined_at     REAL    NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);

-- One game (or bye) of a round: its players in seat order, its match once opened, its result once over.
CREATE TABLE tournament_pairings (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    board         INTEGER NOT NULL,         -- 1, 2, … within the round
    players       TEXT    NOT NULL,         -- JSON user IDs in seat order (one: a bye)
    match_id      INTEGER REFERENCES matches (id) ON DELETE SET NULL,
    result        TEXT,                     -- JSON {"points": [...], "scores": [...], "places": [...]} once over
    PRIMARY KEY (tournament_id, round, board)
);
CREATE UNIQUE INDEX tournament_pairings_by_match ON tournament_pairings (match_id) WHERE match_id IS NOT NULL;
