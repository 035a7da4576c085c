"""Background work on time: wake for the next thing due, not on a fixed beat.

Five kinds of work fall due by the clock: a challenge expires, a turn's reminder is due (a quarter of
its time left), a turn is abandoned (its deadline passed by a turn time again), an announcement is due
a (re)try, a finished match's thread is due to be archived.  The :class:`Sweeper` asks the database when
each is next due (one query, :meth:`~bot.storage.extras_store.MatchExtras.next_due`, on this process's
shards), sleeps until the earliest, runs the kinds whose time has come, and asks again.  A write that
makes something due sooner (a new turn, a challenge, a retry) calls :meth:`Sweeper.due_at`, which wakes
it early; so a reminder of a 30-second turn is posted on time, and an idle bot with any number of open
matches wakes once per :data:`MAX_SLEEP` at most.

A kind that is still due after it ran (an item that failed and stays due) is left alone for
:data:`RETRY_SECONDS` instead of being tried again at once, so nothing ever turns into busy polling.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import fields
from typing import Any

log = logging.getLogger(__name__)

# An idle bot still looks once a minute (a clock that jumped, a write it was not told of).  It is also the
# horizon within which MatchExtras.next_due answers exactly (its default): keep the two equal.
MAX_SLEEP = 60.0
RETRY_SECONDS = 30.0  # a kind whose items stay due after running (failures) waits this long
SLACK = 0.001  # wake this much after a due time, so the work's own query (same formula, other rounding) sees it due


class Sweeper:
    """Run each kind of background work when it is due.

    ``next_due(now)`` returns a dataclass with one field per kind (the earliest time it is due, or None);
    ``work`` maps each field's name to the coroutine that does that kind's work.
    """

    def __init__(
        self,
        next_due: Callable[[float], Awaitable[Any]],
        work: Mapping[str, Callable[[], Awaitable[object]]],
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.next_due = next_due
        self.work = dict(work)
        self.clock = clock
        self.wake_at = 0.0  # when the loop means to wake next (by ``clock``)
        self._soonest = float("inf")  # the soonest time a write named since the last query began
        self.wakes = 0  # how many times it woke (for the idle-cost benchmark and the tests)
        self._ran: dict[str, float] = {}  # kind -> when it last ran
        self._resting: dict[str, float] = {}  # kind -> not before this time (its items kept failing)
        self._nudged = asyncio.Event()
        self._stopping = False
        self._task: asyncio.Task[None] | None = None

    def due_at(self, when: float) -> None:
        """Something is due at ``when``: wake then, if that is sooner than planned."""
        self._soonest = min(self._soonest, when)
        if when < self.wake_at:
            self.wake_at = when
            self._nudged.set()

    def start(self) -> None:
        """Start the loop (in the running event loop)."""
        if self._task is None or self._task.done():
            self._stopping = False
            self._task = asyncio.create_task(self.run(), name="tabula-sweeper")

    async def stop(self, timeout: float = 5.0) -> None:
        """Let the kind running now finish (up to ``timeout``), then end the loop."""
        self._stopping = True
        self._nudged.set()
        task, self._task = self._task, None
        if task is None:
            return
        done, _ = await asyncio.wait({task}, timeout=timeout)
        if not done:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def run(self) -> None:
        """Sweep until stopped."""
        while not self._stopping:
            try:
                delay = await self.step()
            except Exception:
                log.exception("the sweeper failed; trying again in %g s", RETRY_SECONDS)
                delay = RETRY_SECONDS
            if self._stopping:
                return
            await self._sleep(delay)

    async def step(self) -> float:
        """One wake: one query, the kinds due run; return how long to sleep before the next wake."""
        self.wakes += 1
        now = self.clock()
        self._soonest = float("inf")  # what is written from now on is either in the answer or named again
        due = await self.next_due(now)
        times = {field.name: getattr(due, field.name) for field in fields(due)}
        later: list[float] = []
        ran = False
        done: set[Callable[[], Awaitable[object]]] = set()
        for kind, when in times.items():
            if when is None:
                continue
            last = self._ran.get(kind)
            if last is not None and when <= last:
                # Still due from before it last ran: its items are failing; rest before trying again.
                self._resting[kind] = max(self._resting.get(kind, 0.0), last + RETRY_SECONDS)
            when = max(when, self._resting.get(kind, 0.0))
            if when > now:
                later.append(when + SLACK)
                continue
            job = self.work[kind]
            self._ran[kind] = now
            ran = True
            if job in done:  # one job may serve two kinds (reminders and endings)
                continue
            done.add(job)
            try:
                await job()
            except Exception:
                log.exception("the sweeper's %s work failed; it is tried again later", kind)
        if ran:
            return 0.0  # ask again at once: what ran may have made the next thing due
        for kind in list(self._resting):
            if self._resting[kind] <= now:
                del self._resting[kind]
        return max(0.0, min([*later, now + MAX_SLEEP]) - now)

    async def _sleep(self, delay: float) -> None:
        # A write during the last step may have named a time the query did not see yet.
        self.wake_at = min(self.clock() + delay, self._soonest)
        while not self._stopping:
            left = self.wake_at - self.clock()
            if left <= 0:
                return
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(left):  # in this task: no helper task for others to wait on
                    await self._nudged.wait()
            self._nudged.clear()
