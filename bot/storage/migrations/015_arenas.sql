-- Arenas: an event that runs for a set time, players joining, pausing and coming back whenever they like.
--
-- tournaments.format gains 'arena'.  SQLite cannot change a CHECK constraint, so the table is rebuilt, and its
-- two children with it: the migration runs in one transaction, where foreign_keys cannot be switched off, and
-- dropping a parent that still has children would delete their rows (ON DELETE CASCADE), while renaming it would
-- take their REFERENCES along.  So the new tables are filled first, the old children dropped before the old
-- parent, and the new ones renamed into place (their references follow the rename).
CREATE TABLE tournaments_new (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,          -- where sign-up, standings and the winner are posted
    name         TEXT    NOT NULL,
    game         TEXT    NOT NULL,
    options      TEXT    NOT NULL,          -- JSON: the game's start options for every game of the event
    format       TEXT    NOT NULL CHECK (format IN ('swiss', 'round_robin', 'double_round_robin', 'tables', 'arena')),
    rounds       INTEGER NOT NULL,          -- 0 until started: then the rounds the field plays (arena: 0)
    turn_seconds REAL,                      -- the event's time for a turn (NULL: the server's)
    starts_at    REAL,                      -- when it starts by itself (NULL: when the organiser says)
    status       TEXT    NOT NULL CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    round        INTEGER NOT NULL DEFAULT 0,  -- the round being played (0: not started; arena: pairings made)
    version      INTEGER NOT NULL DEFAULT 0,
    organiser_id INTEGER NOT NULL,
    message_id   INTEGER,                   -- the sign-up message (its Join / Leave buttons)
    created_at   REAL    NOT NULL,
    updated_at   REAL    NOT NULL,
    finished_at  REAL,
    duration     REAL,                      -- an arena's length in seconds (NULL: not an arena)
    ends_at      REAL,                      -- when a running arena ends: no pairing after it
    standings_id INTEGER                    -- an arena's live standings message, edited as games end
);
INSERT INTO tournaments_new (id, guild_id, channel_id, name, game, options, format, rounds, turn_seconds, starts_at,
                             status, round, version, organiser_id, message_id, created_at, updated_at, finished_at)
SELECT id, guild_id, channel_id, name, game, options, format, rounds, turn_seconds, starts_at,
       status, round, version, organiser_id, message_id, created_at, updated_at, finished_at
  FROM tournaments;

-- An arena's entrant may pause (leave while it runs: not paired until they join again, their points kept), and
-- waits for a game from free_since (joining, coming back, or the end of their last game).
CREATE TABLE tournament_entrants_new (
    tournament_id INTEGER NOT NULL REFERENCES tournaments_new (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    number        INTEGER NOT NULL,         -- starting number, 1 for the first to join
    withdrawn     INTEGER,                  -- the round after which they are paired no more (NULL: playing)
    joined_at     REAL    NOT NULL,
    paused        INTEGER NOT NULL DEFAULT 0,  -- arena: 1 while paused
    free_since    REAL,                     -- arena: waiting for a game since (NULL: never free yet)
    PRIMARY KEY (tournament_id, user_id)
);
INSERT INTO tournament_entrants_new (tournament_id, user_id, name, number, withdrawn, joined_at)
SELECT tournament_id, user_id, name, number, withdrawn, joined_at FROM tournament_entrants;

CREATE TABLE tournament_pairings_new (
    tournament_id INTEGER NOT NULL REFERENCES tournaments_new (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,         -- 1, 2, … (an arena: each look that paired anyone)
    board         INTEGER NOT NULL,         -- 1, 2, … within the round
    players       TEXT    NOT NULL,         -- JSON user IDs in seat order (one: a bye)
    match_id      INTEGER REFERENCES matches (id) ON DELETE SET NULL,
    result        TEXT,                     -- JSON {"places": [...], "scores": [...], "at": finish time} once over
    PRIMARY KEY (tournament_id, round, board)
);
INSERT INTO tournament_pairings_new SELECT tournament_id, round, board, players, match_id, result
  FROM tournament_pairings;

DROP TABLE tournament_pairings;
DROP TABLE tournament_entrants;
DROP TABLE tournaments;
ALTER TABLE tournaments_new RENAME TO tournaments;
ALTER TABLE tournament_entrants_new RENAME TO tournament_entrants;
ALTER TABLE tournament_pairings_new RENAME TO tournament_pairings;
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);
CREATE UNIQUE INDEX tournament_pairings_by_match ON tournament_pairings (match_id) WHERE match_id IS NOT NULL;
-- An arena's open games (no result yet): who is busy, looked at every few seconds while it runs.
CREATE INDEX tournament_pairings_open ON tournament_pairings (tournament_id) WHERE result IS NULL;
