"""The queue of background work, one row per job in ``background_jobs`` (migration 012).

A job is a piece of work someone may wait for but no live game does: the computer's review of a finished match,
later the mining of puzzles.  It names its ``kind`` (which handler does it), its ``subject`` (a review: the
match's id), the server, and its ``owner`` (the member who asked; 0 for work nobody asked for).  Jobs are done a
*slice* at a time by background runners (:mod:`bot.core.background`), in this process or in others sharing a
PostgreSQL database, and this module decides which job a runner takes next:

1. the lowest priority class first (:data:`ASKED` before :data:`UNASKED`: asked reviews before mining);
2. then the owner with the fewest jobs waiting or running, so a member who asked for one review goes before one
   who asked for fifty at every slice (between the two, a slice each would make the one review take twice its
   time alone);
3. then the owner with the least *usage* — the seconds of background work their jobs had in the last
   :data:`DAY` — so among owners asking alike, who had least goes first;
4. then the oldest job.

An owner has at most one job running at a time (a partial unique index holds it, whichever process takes), so
fifty asks of one member are worked one after another.  A taken job carries a lease (``taken_by``,
``lease_until``): a job whose lease ran out — its runner died — is taken again.  After each slice the job goes
back to ``queued`` (or ``done``) with the slice's seconds added to ``served``, so the next take can choose a
fairer job.  A slice that failed, or a lease that ran out, counts an attempt; after ``max_attempts`` the job is
``failed``.

On PostgreSQL the take reads the candidate with ``SELECT … FOR UPDATE OF j SKIP LOCKED``: runners on several
machines take jobs at once without waiting for each other, never the same one; two takes of one owner's jobs
at the same moment meet at the unique index, and the second tries again.  On SQLite the one process's
transactions already run one at a time.

Submitting the same kind and subject as a job already queued or running joins that job (another partial unique
index).  A new job asked for may be refused by the daily limits (:class:`DailyLimitReached`): how many jobs of
its kind one member, or one server, may ask for in the last :data:`DAY`.  Joining is never refused and never
counts.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.database import POSTGRESQL, SQLITE, Database, Handle, IntegrityError, Row, StorageError

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
ACTIVE = (QUEUED, RUNNING)
#: Priority classes, taken lowest first.  Work that must pass every asked review (Swiss pairing) does not go
#: through the table at all today: it goes straight to the worker process (see :mod:`bot.core.background`).
ASKED, UNASKED = 1, 2
DAY = 86_400.0  # the window of an owner's usage and of the daily limits, in seconds
KEEP_SECONDS = 2 * DAY  # finished jobs are kept this long (the usage and the limits look back one day)
TAKE_TRIES = 5  # a take that met another process's take of the same owner's job tries again this often

_COLUMNS = (
    "id, kind, guild_id, owner_id, subject, priority, state, created_at, taken_by, lease_until, served, attempts, "
    "finished_at"
)


@dataclass(frozen=True, slots=True)
class Job:
    """One row of ``background_jobs``."""

    id: int
    kind: str
    guild_id: int
    owner_id: int
    subject: int
    priority: int
    state: str
    created_at: float
    taken_by: str | None
    lease_until: float | None
    served: float
    attempts: int
    finished_at: float | None

    @property
    def finished(self) -> bool:
        """Done or failed: nothing more will be done for it."""
        return self.state in (DONE, FAILED)


def _job(row: Row) -> Job:
    (job_id, kind, guild, owner, subject, priority, state, created, taken_by, lease, served, attempts, finished) = row
    return Job(
        int(job_id),
        str(kind),
        int(guild),
        int(owner),
        int(subject),
        int(priority),
        str(state),
        float(created),
        None if taken_by is None else str(taken_by),
        None if lease is None else float(lease),
        float(served),
        int(attempts),
        None if finished is None else float(finished),
    )


class DailyLimitReached(StorageError):
    """A new job was refused: its member (``scope`` ``"member"``) or server (``"server"``) already asked for
    ``limit`` jobs of its kind in the last day; the oldest of them leaves the window at ``again_at``."""

    def __init__(self, scope: str, limit: int, again_at: float) -> None:
        super().__init__(f"the {scope}'s daily limit of {limit} is reached until {again_at:.0f}")
        self.scope = scope
        self.limit = limit
        self.again_at = again_at


# The owner's usage: the seconds their jobs were served, over the jobs still waiting or running and those that
# finished within the last day.  ?1 is now, ?2 a day ago.
# The owner's demand: their jobs waiting or running now.
_DEMAND = (
    "(SELECT COUNT(*) FROM background_jobs AS d WHERE d.owner_id = j.owner_id AND d.state IN ('queued', 'running'))"
)
_USAGE = (
    "(SELECT COALESCE(SUM(u.served), 0) FROM background_jobs AS u "
    "WHERE u.owner_id = j.owner_id AND COALESCE(u.finished_at, ?1) >= ?2)"
)


class Jobs:
    """The queue of background jobs on a shared :class:`~bot.storage.database.Database`.

    Every method is handed the time (``now``, by the runner's clock), so the windows and leases follow one clock.
    """

    def __init__(self, database: Database) -> None:
        self.database = database

    async def get(self, job_id: int) -> Job | None:
        """The job ``job_id`` as stored now, or None (pruned, or never made)."""
        rows = await self.database.rows(f"SELECT {_COLUMNS} FROM background_jobs WHERE id = ?", (job_id,))
        return _job(rows[0]) if rows else None

    async def submit(
        self,
        kind: str,
        guild_id: int,
        owner_id: int,
        subject: int,
        *,
        priority: int,
        now: float,
        member_limit: int | None = None,
        server_limit: int | None = None,
    ) -> tuple[Job, bool]:
        """Queue a job, or join the one of the same kind and subject already queued or running.

        Return the job and whether it was joined.  A new job is refused with :class:`DailyLimitReached` when its
        owner already asked for ``member_limit`` jobs of ``kind`` in the last day, or its server for
        ``server_limit``; nothing is written then.
        """
        async with self.database.transaction() as db:
            # One submit at a time, across processes: the join, the limits and the insert see one another.
            await db.serialize("background-jobs:submit")
            joined = await self._active(db, kind, subject)
            if joined is not None:
                return joined, True
            since = now - DAY
            checks = (("member", "owner_id", owner_id, member_limit), ("server", "guild_id", guild_id, server_limit))
            for scope, column, value, limit in checks:
                if limit is None:
                    continue
                rows = await db.execute_fetchall(
                    f"SELECT COUNT(*), MIN(created_at) FROM background_jobs "
                    f"WHERE {column} = ? AND kind = ? AND priority = ? AND created_at > ?",
                    (value, kind, priority, since),
                )
                count, oldest = rows[0]
                if int(count) >= limit:
                    again = float(oldest) + DAY if oldest is not None else now
                    raise DailyLimitReached(scope, limit, again)
            rows = await db.execute_fetchall(
                "INSERT INTO background_jobs (kind, guild_id, owner_id, subject, priority, state, created_at) "
                f"VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING {_COLUMNS}",
                (kind, guild_id, owner_id, subject, priority, QUEUED, now),
            )
            return _job(rows[0]), False

    async def queue_within(self, db: Handle, kind: str, guild_id: int, subject: int, *, now: float) -> None:
        """Queue a job nobody asked for (owner 0, the lowest class) inside the caller's transaction ``db``, unless
        one of that kind and subject is already queued or running: work a change makes due commits with it (a
        finished match's mining with its finish), so a crash between the two cannot lose it."""
        await db.execute(
            "INSERT INTO background_jobs (kind, guild_id, owner_id, subject, priority, state, created_at) "
            "SELECT ?, ?, 0, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM background_jobs "
            "WHERE kind = ? AND subject = ? AND state IN (?, ?))",
            (kind, guild_id, subject, UNASKED, QUEUED, now, kind, subject, *ACTIVE),
        )

    @staticmethod
    async def _active(db: Handle, kind: str, subject: int) -> Job | None:
        rows = await db.execute_fetchall(
            f"SELECT {_COLUMNS} FROM background_jobs WHERE kind = ? AND subject = ? AND state IN (?, ?)",
            (kind, subject, *ACTIVE),
        )
        return _job(rows[0]) if rows else None

    async def take(self, worker: str, kinds: Sequence[str], *, now: float, lease_seconds: float) -> Job | None:
        """Take the next job of one of ``kinds`` for ``worker``, leased until ``now + lease_seconds``; None if
        there is none to take (none waiting, or only jobs whose owner already has one running)."""
        if not kinds:
            return None
        for _ in range(TAKE_TRIES):
            try:
                return await self._take(worker, kinds, now, lease_seconds)
            except IntegrityError:
                # Another process took one of this owner's jobs at the same moment (the running-owner index):
                # look again, and that owner is no longer a candidate.
                await asyncio.sleep(0)
        return None

    async def _take(self, worker: str, kinds: Sequence[str], now: float, lease_seconds: float) -> Job | None:
        marks = ", ".join(f"?{number}" for number in range(4, 4 + len(kinds)))
        skip = " FOR UPDATE OF j SKIP LOCKED" if self.database.dialect == POSTGRESQL else ""
        async with self.database.transaction() as db:
            rows = await db.execute_fetchall(
                "SELECT j.id, j.state FROM background_jobs AS j "
                f"WHERE (j.state = ?3 OR (j.state = 'running' AND j.lease_until <= ?1)) AND j.kind IN ({marks}) "
                "AND (j.owner_id = 0 OR NOT EXISTS (SELECT 1 FROM background_jobs AS r "
                "WHERE r.owner_id = j.owner_id AND r.state = 'running' AND r.id <> j.id)) "
                f"ORDER BY j.priority, {_DEMAND}, {_USAGE}, j.created_at, j.id LIMIT 1{skip}",
                (now, now - DAY, QUEUED, *kinds),
            )
            if not rows:
                return None
            job_id, state = rows[0]
            lost = 1 if state == RUNNING else 0  # its runner's lease ran out: that counts as an attempt
            taken = await db.execute_fetchall(
                "UPDATE background_jobs SET state = ?, taken_by = ?, lease_until = ?, attempts = attempts + ? "
                f"WHERE id = ? RETURNING {_COLUMNS}",
                (RUNNING, worker, now + lease_seconds, lost, job_id),
            )
            return _job(taken[0])

    async def finish_slice(self, job: Job, worker: str, seconds: float, complete: bool, *, now: float) -> Job | None:
        """A slice of ``job`` ran for ``seconds``: add them to its served time, and put it back to be taken again,
        or mark it done when ``complete``.  None when ``worker`` no longer held it (its lease ran out and another
        runner took it: what the slice stored stays, the other runner's account of the job wins)."""
        rows = await self.database.rows(
            "UPDATE background_jobs SET served = served + ?, state = ?, taken_by = NULL, lease_until = NULL, "
            f"finished_at = ? WHERE id = ? AND state = ? AND taken_by = ? RETURNING {_COLUMNS}",
            (seconds, DONE if complete else QUEUED, now if complete else None, job.id, RUNNING, worker),
        )
        return _job(rows[0]) if rows else None

    async def fail_slice(self, job: Job, worker: str, seconds: float, *, now: float, max_attempts: int) -> Job | None:
        """A slice of ``job`` failed after ``seconds``: count the attempt, and put the job back, or mark it failed
        once it has failed ``max_attempts`` times.  None when ``worker`` no longer held it."""
        rows = await self.database.rows(
            "UPDATE background_jobs SET served = served + ?1, attempts = attempts + 1, taken_by = NULL, "
            "lease_until = NULL, state = CASE WHEN attempts + 1 >= ?2 THEN ?3 ELSE ?4 END, "
            "finished_at = CASE WHEN attempts + 1 >= ?2 THEN CAST(?5 AS DOUBLE PRECISION) END "
            f"WHERE id = ?6 AND state = ?7 AND taken_by = ?8 RETURNING {_COLUMNS}",
            (seconds, max_attempts, FAILED, QUEUED, now, job.id, RUNNING, worker),
        )
        return _job(rows[0]) if rows else None

    async def release(self, worker: str) -> int:
        """Put back the jobs ``worker`` holds (it is stopping: no attempt is counted); return how many."""
        rows = await self.database.rows(
            "UPDATE background_jobs SET state = ?, taken_by = NULL, lease_until = NULL "
            "WHERE state = ? AND taken_by = ? RETURNING id",
            (QUEUED, RUNNING, worker),
        )
        return len(rows)

    async def release_orphans(self) -> int:
        """At the start of the one process a SQLite file serves, put back every job left running: whoever held
        it died with the last process.  PostgreSQL's jobs may be held by live processes elsewhere: their leases
        say when they are orphans, and nothing is done here.  Each counts an attempt; return how many."""
        if self.database.dialect != SQLITE:
            return 0
        rows = await self.database.rows(
            "UPDATE background_jobs SET state = ?, taken_by = NULL, lease_until = NULL, attempts = attempts + 1 "
            "WHERE state = ? RETURNING id",
            (QUEUED, RUNNING),
        )
        return len(rows)

    async def ahead(self, job: Job, *, now: float) -> int:
        """How many jobs are before ``job``: those running, and those waiting that a take would choose first."""
        rows = await self.database.rows(
            f"SELECT j.id, j.state, j.priority, {_DEMAND}, {_USAGE}, j.created_at FROM background_jobs AS j "
            "WHERE j.state IN (?3, ?4) AND j.kind = ?5",
            (now, now - DAY, *ACTIVE, job.kind),
        )
        order: dict[int, tuple[Any, ...]] = {}
        running = 0
        for job_id, state, priority, demand, usage, created in rows:
            if int(job_id) != job.id and state == RUNNING:
                running += 1
            else:
                order[int(job_id)] = (int(priority), int(demand), float(usage), float(created), int(job_id))
        mine = order.get(job.id)
        if mine is None:
            return running
        return running + sum(1 for key in order.values() if key < mine)

    async def usage(self, owner_id: int, *, now: float) -> float:
        """The seconds of background work ``owner_id``'s jobs had in the last day (waiting and running ones too)."""
        rows = await self.database.rows(
            "SELECT COALESCE(SUM(served), 0) FROM background_jobs WHERE owner_id = ? AND COALESCE(finished_at, ?) >= ?",
            (owner_id, now, now - DAY),
        )
        return float(rows[0][0])

    async def next_due(self, kinds: Sequence[str]) -> float | None:
        """When a job of ``kinds`` is next there to take: the oldest waiting one's creation, or the earliest lease
        to run out; None when there is no job at all (the sweeper's look for other processes' work)."""
        if not kinds:
            return None
        marks = ", ".join("?" for _ in kinds)
        rows = await self.database.rows(
            "SELECT MIN(CASE WHEN state = ? THEN created_at ELSE lease_until END) FROM background_jobs "
            f"WHERE state IN (?, ?) AND kind IN ({marks})",
            (QUEUED, *ACTIVE, *kinds),
        )
        return None if rows[0][0] is None else float(rows[0][0])

    async def prune(self, *, now: float) -> int:
        """Forget the jobs that finished more than :data:`KEEP_SECONDS` ago; return how many."""
        rows = await self.database.rows(
            "DELETE FROM background_jobs WHERE state IN (?, ?) AND finished_at < ? RETURNING id",
            (DONE, FAILED, now - KEEP_SECONDS),
        )
        return len(rows)
