-- Background work (the computer's reviews, later puzzle mining) as a queue in the database, taken fairly a
-- slice at a time by any process running a background runner (bot/core/background.py).
CREATE TABLE background_jobs (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: a waiter follows its job by id
    kind        TEXT    NOT NULL,            -- which handler does it: 'review', 'mine', ...
    guild_id    INTEGER NOT NULL,
    owner_id    INTEGER NOT NULL,            -- the member who asked; 0: work nobody asked for
    subject     INTEGER NOT NULL,            -- what it is about (a review: the match's id)
    priority    INTEGER NOT NULL,            -- its class, taken lowest first: 1 asked for, 2 nobody asked
    state       TEXT    NOT NULL,            -- queued, running, done or failed
    created_at  REAL    NOT NULL,
    taken_by    TEXT,                        -- the runner working on it (while running)
    lease_until REAL,                        -- past this a running job's runner is taken for dead
    served      REAL    NOT NULL DEFAULT 0,  -- seconds of work it has had so far
    attempts    INTEGER NOT NULL DEFAULT 0,  -- slices that failed, and leases that ran out
    finished_at REAL
);
-- One job at a time per piece of work: asking for it again joins the job already waiting or running.
CREATE UNIQUE INDEX background_jobs_active ON background_jobs (kind, subject) WHERE state IN ('queued', 'running');
-- At most one running job per member who asked (work nobody asked for is not bound by this).
CREATE UNIQUE INDEX background_jobs_running_owner ON background_jobs (owner_id) WHERE state = 'running' AND owner_id <> 0;
-- The take: the waiting jobs; each owner's usage (their jobs of the last day); the daily limits.
CREATE INDEX background_jobs_waiting ON background_jobs (state, priority, created_at);
CREATE INDEX background_jobs_owner ON background_jobs (owner_id, created_at);
CREATE INDEX background_jobs_guild ON background_jobs (guild_id, kind, created_at);
