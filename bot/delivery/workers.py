"""CPU work off the event loop: a small pool of worker processes, started on first use.

Drawing boards and searching for the computer's move are CPU work; in a thread
they would compete with the event loop for the GIL, so they run in worker
processes ("spawn": fresh interpreters, never forks of the bot's threads and
sockets).  ``processes=0`` runs the work in a thread instead (tests, tiny
machines).  If a worker dies, the pool is replaced and the call is retried.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")


class WorkerPool:
    """Run picklable functions in ``processes`` worker processes (or a thread when 0)."""

    def __init__(self, name: str, processes: int, initializer: Callable[[], None] | None = None) -> None:
        self.name = name
        self.processes = processes
        self._initializer = initializer
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(self.processes, mp_context=context, initializer=self._initializer)
        return self._pool

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """Return ``function(*args)``, computed in a worker."""
        if self.processes <= 0:
            return await asyncio.to_thread(function, *args)
        loop = asyncio.get_running_loop()
        pool = self._executor()
        try:
            return await loop.run_in_executor(pool, function, *args)
        except BrokenProcessPool:
            log.warning("a %s worker died; starting new ones and trying again", self.name)
            if self._pool is pool:
                self._pool = None
            pool.shutdown(wait=False, cancel_futures=True)
            return await loop.run_in_executor(self._executor(), function, *args)

    def close(self) -> None:
        """Stop the workers (work in progress is abandoned)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
