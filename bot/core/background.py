"""Background work that is bounded and fair: jobs queued in the database, done a slice at a time.

Work nobody's live game waits for — the computer's review of a finished game, later the mining of puzzles — is a
*job* in the database's queue (:mod:`bot.storage.job_store`), not a task started at once.  A
:class:`BackgroundRunner` takes the next job, runs **one slice** of it through the handler registered for its
kind, adds the slice's seconds to the job's served time and puts it back (or marks it done), then takes again.
Which job comes next is the store's fair order: priority class (asked work before unasked work), then the owner
with the fewest jobs waiting, then the one who had the least background work in the last day, then the oldest;
one running job per member.  So a member
who asks for fifty reviews has them made one after another, a slice at a time, and a member asking for one
afterwards is served at the next slice: about as fast as alone, not fifty times slower.

Handlers do a bounded piece of work and say whether the job is complete::

    async def handler(job: Job) -> bool: ...

A review's handler (:class:`bot.core.reviews.ReviewJobs`) judges up to eight positions from what is stored.  A
handler that raises is logged; its job is put back and fails for good after :data:`MAX_ATTEMPTS` (a lease that
ran out — the runner's process died — counts an attempt too); the runner goes on either way.

The API for the other parts:

* ``BackgroundRunner(jobs, handlers, *, limits=…, name=…, clock=…)`` — ``handlers`` maps each kind this
  runner does (``"review"``, ``"mine"``…) to its handler; a kind is registered by handing it in here, once.
  ``limits`` maps a kind to its :class:`DailyLimit` (what a member and a server may ask for in a day).
* ``await runner.submit(kind, guild_id, owner_id, subject, *, asked) -> Job`` — queue a job (``owner_id`` 0 and
  ``asked=False`` for work nobody asked for), or join the one of that kind and subject already queued or running.
  A new asked job over its daily limits raises :class:`~bot.storage.job_store.DailyLimitReached` and queues
  nothing.  The runner is woken at once.
* ``runner.follow(job_id)`` — an async iterator of the job as it stands, each time it may have changed (at
  once when this process did the work, else every :data:`POLL_SECONDS`), ending with it done or failed.
* ``await runner.ahead(job)`` — how many jobs go before it.
* ``await runner.start()`` / ``await runner.stop()`` — the bot's lifecycle: at start, the jobs a SQLite
  file's last process left running are put back and the queue is looked at; at stop, the slice in hand is
  abandoned (what it stored stays) and its job put back.  ``await runner.serve()`` is the loop of a process that
  only runs background work (``python -m bot worker``, :mod:`bot.ops.worker`).

Where it runs: the bot runs one runner, in its own process (:mod:`bot.app`); between slices it waits for nothing
but is woken by a submit, or by the sweeper when another process's job or an expired lease is there to take.  Its
work goes to the computer workers' niced background process, so it never delays a live game.  With PostgreSQL,
more processes (``python -m bot worker``, on other machines too) take jobs from the same queue at once.

Swiss pairing shares that background process without joining the queue: an event's pairing is an in-process
call that goes straight to the worker process (:mod:`bot.core.tournaments`), where calls are answered in order.
The runner runs one slice at a time and a slice hands the process one position at a time, so a pairing waits
behind at most one position's judgement — never behind a slice, let alone a backlog of reviews.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass

from bot.storage.job_store import ASKED, FAILED, UNASKED, Job, Jobs

log = logging.getLogger(__name__)

LEASE_SECONDS = 300.0  # a taken job's lease: far above a slice; past it, its runner is taken for dead
MAX_ATTEMPTS = 3  # failed slices (and lost leases) before a job fails for good
POLL_SECONDS = 2.0  # how often a waiter reads its job when the work is done in another process
SERVE_POLL_SECONDS = 2.0  # how often a worker process with nothing to do looks at the queue
# The bot's own runner rests this long after a slice of work nobody asked for (mining), so that the few reads,
# writes and hand-offs of each slice never crowd a live game's turn; a worker process (``python -m bot worker``)
# does not rest.  A Pond position is screened in ~0.1 s: this still mines a few positions a second.
UNASKED_REST = 1.0

# One slice of a job: do a bounded piece of it; return whether the job is complete.
Handler = Callable[[Job], Awaitable[bool]]


@dataclass(frozen=True, slots=True)
class DailyLimit:
    """How many new jobs of a kind one member, and one server, may ask for in a day."""

    member: int
    server: int


def runner_name() -> str:
    """A name no other runner has, saying where it runs: ``host:pid:random``."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class BackgroundRunner:
    """Takes background jobs fairly from the store and runs them a slice at a time (see the module's text)."""

    def __init__(
        self,
        jobs: Jobs,
        handlers: Mapping[str, Handler],
        *,
        limits: Mapping[str, DailyLimit] | None = None,
        name: str | None = None,
        clock: Callable[[], float] = time.time,
        timer: Callable[[], float] = time.perf_counter,
        lease_seconds: float = LEASE_SECONDS,
        max_attempts: int = MAX_ATTEMPTS,
        unasked_rest: float = 0.0,
    ) -> None:
        self.jobs = jobs
        self.handlers = dict(handlers)
        self.limits = dict(limits or {})
        self.name = name or runner_name()
        self.clock = clock  # the time written in the store (created, leases, the day's window)
        self.timer = timer  # the seconds a slice took
        self.lease_seconds = lease_seconds
        self.max_attempts = max_attempts
        self.unasked_rest = unasked_rest  # the pause after a slice of work nobody asked for (see drain)
        self.poll_seconds = POLL_SECONDS  # how often a follower reads a job another process may be doing
        self.slices = 0  # slices run (the tests and the benchmark read it)
        self._changed = asyncio.Event()  # set, and replaced, whenever a job of this process changed
        self._nudged = asyncio.Event()  # a worker process's loop waits on it
        self._woken = False  # woken since the drain last looked
        self._task: asyncio.Task[None] | None = None
        self._serving = False
        self._stopping = False

    @property
    def stopping(self) -> bool:
        """Whether :meth:`stop` was called (it takes no more jobs)."""
        return self._stopping

    @property
    def kinds(self) -> list[str]:
        """The kinds of job this runner does."""
        return sorted(self.handlers)

    # -- what other parts call ---------------------------------------------------------------------------------

    async def submit(self, kind: str, guild_id: int, owner_id: int, subject: int, *, asked: bool) -> Job:
        """Queue a job of ``kind`` about ``subject`` (or join the one queued or running) and wake the runner.

        ``asked``: a member asked for it (``owner_id``), and it goes before work nobody asked for; a new asked job
        over its kind's :class:`DailyLimit` raises :class:`~bot.storage.job_store.DailyLimitReached`.
        """
        limit = self.limits.get(kind) if asked else None
        job, _ = await self.jobs.submit(
            kind,
            guild_id,
            owner_id,
            subject,
            priority=ASKED if asked else UNASKED,
            now=self.clock(),
            member_limit=limit.member if limit is not None else None,
            server_limit=limit.server if limit is not None else None,
        )
        self._notify()
        if kind in self.handlers:
            self.wake()
        return job

    async def job(self, job_id: int) -> Job | None:
        """The job as stored now."""
        return await self.jobs.get(job_id)

    async def ahead(self, job: Job) -> int:
        """How many jobs go before ``job`` (running ones included)."""
        return await self.jobs.ahead(job, now=self.clock())

    async def follow(self, job_id: int, poll: float | None = None) -> AsyncIterator[Job]:
        """Yield the job as stored, then again each time it may have changed, until it is done or failed.

        A change this process made wakes the waiter at once; work done elsewhere is seen within ``poll`` seconds
        (default :attr:`poll_seconds`).  Ends at once if the job is not there.
        """
        poll = self.poll_seconds if poll is None else poll
        while True:
            changed = self._changed  # taken before the read: a change after it sets this event
            job = await self.jobs.get(job_id)
            if job is None:
                return
            yield job
            if job.finished:
                return
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(poll):
                    await changed.wait()

    async def next_due(self) -> float | None:
        """When a job of this runner's kinds is next there to take (the sweeper's look): now for a waiting one,
        the earliest lease to run out for running ones; None when there is none."""
        return await self.jobs.next_due(self.kinds)

    def _notify(self) -> None:
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    # -- running -----------------------------------------------------------------------------------------------

    def wake(self) -> None:
        """Look at the queue now: start taking jobs, unless already taking them (then look once more after)."""
        if self._stopping:
            return
        self._woken = True
        self._nudged.set()
        if self._serving:
            return  # the worker process's loop drains
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._drain(), name="tabula-background")

    async def start(self) -> None:
        """At the process's start: put back what a SQLite file's last process left running, then look."""
        self._stopping = False
        put_back = await self.jobs.release_orphans()
        if put_back:
            log.info("%d background jobs the last run left unfinished are queued again", put_back)
        self.wake()

    async def step(self) -> Job | None:
        """Take the next job and run one slice of it; return the job as it stands after, or None (nothing taken)."""
        job = await self.jobs.take(self.name, self.kinds, now=self.clock(), lease_seconds=self.lease_seconds)
        if job is None:
            return None
        self._notify()
        started = self.timer()
        try:
            complete = await self.handlers[job.kind](job)
        except Exception:
            seconds = self.timer() - started
            log.exception("a slice of background job %d (%s of %d) failed", job.id, job.kind, job.subject)
            after = await self.jobs.fail_slice(
                job, self.name, seconds, now=self.clock(), max_attempts=self.max_attempts
            )
            if after is not None and after.state == FAILED:
                log.error(
                    "background job %d (%s of %d) failed %d times and is given up",
                    job.id,
                    job.kind,
                    job.subject,
                    after.attempts,
                )
        else:
            seconds = self.timer() - started
            after = await self.jobs.finish_slice(job, self.name, seconds, complete, now=self.clock())
            if complete:
                await self.jobs.prune(now=self.clock())
        self.slices += 1
        self._notify()
        return after if after is not None else job

    async def drain(self) -> int:
        """Run slices until there is nothing to take (and nothing was submitted meanwhile); return how many.

        After a slice of work nobody asked for (mining), the runner rests ``unasked_rest`` (the bot's:
        :data:`UNASKED_REST`) before taking again, unless a submit wakes it: such work is never waited for, and
        each slice costs the bot's own process a few reads, writes and hand-offs, and its background process the
        core a live game's turn might want.
        """
        ran = 0
        while not self._stopping:
            self._woken = False
            done = await self.step()
            if done is None:
                if not self._woken:
                    return ran
                continue
            ran += 1
            if done.priority == UNASKED and self.unasked_rest > 0 and not self._woken:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(self.unasked_rest):
                        self._nudged.clear()
                        await self._nudged.wait()
        return ran

    async def _drain(self) -> None:
        try:
            await self.drain()
        except Exception:
            # The store failed (a lost connection): the sweeper wakes the runner again later.
            log.exception("the background runner stopped taking jobs; it looks again when woken")

    async def serve(self, poll: float = SERVE_POLL_SECONDS) -> None:
        """Take jobs until stopped: the loop of a process that runs only background work.  With nothing to take
        it looks again every ``poll`` seconds (other processes' submits do not wake it)."""
        self._serving = True
        self._task = asyncio.current_task()  # what stop() cancels: the slice in hand
        await self.start()
        while not self._stopping:
            self._nudged.clear()
            try:
                await self.drain()
            except Exception:
                log.exception("the background runner failed to take a job; trying again in %g s", poll)
            if self._stopping:
                return
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(poll):
                    await self._nudged.wait()

    async def stop(self) -> None:
        """Stop taking jobs: the slice in hand is abandoned (what it stored stays) and its job put back."""
        self._stopping = True
        self._nudged.set()
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        try:
            await self.jobs.release(self.name)
        except Exception:
            log.exception("the background jobs in hand could not be put back; their leases will run out")
        self._notify()
