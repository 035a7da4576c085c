"""CPU work off the event loop: a small pool of worker processes, started on first use.

Drawing boards and searching for the computer's move are CPU work; in a thread
they would compete with the event loop for the GIL, so they run in worker
processes ("spawn": fresh interpreters, never forks of the bot's threads and
sockets).  ``processes=0`` runs the work in a thread instead (tests, tiny
machines).  If a worker dies, the pool is replaced and the call is retried.

No orphans: a worker never outlives the bot.  On Linux the kernel kills it when its parent dies
(``PR_SET_PDEATHSIG``); everywhere, a watcher thread in the worker ends it within
:data:`WATCH_SECONDS` of its parent's death (SIGKILL included).  Workers ignore SIGINT: a Ctrl-C in a
terminal reaches the whole process group, and it is the bot that stops its workers, after the work in
flight (:meth:`WorkerPool.stop`).

Urgent work jumps the queue: a call made with ``urgent=True`` (a replay step button someone is waiting
for) runs in a process of its own, started on the first such call, so it never waits behind the backlog
of turn boards; ordinary calls are handed to their processes at most ``processes + 1`` at a time (the
rest wait on the event loop, in order).  Background work (``background=True``: a game's review) runs in
another process of its own, started on the first such call at the lowest CPU priority (``nice`` 19): it
never takes a place in the queue, and the operating system gives it only the time the live work leaves.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import ctypes
import functools
import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")
WATCH_SECONDS = 1.0  # how often a worker checks that its parent is alive
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
BACKGROUND_NICENESS = 19  # the background process's CPU priority: the lowest


def _die_with(parent: int) -> None:
    """End this worker process when ``parent`` (the bot) dies, however it dies."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no prctl: the watcher below still works
            pass
    if os.getppid() != parent:  # the bot died before the worker got this far
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="tabula-parent-watch", daemon=True).start()


def _start_worker(parent: int, initializer: Callable[[], None] | None, niceness: int = 0) -> None:
    """Set up a new worker process: die with the bot, leave Ctrl-C to the bot, yield the CPU by ``niceness``,
    then warm up."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if niceness and hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(niceness)
    _die_with(parent)
    if initializer is not None:
        initializer()


class WorkerPool:
    """Run picklable functions in ``processes`` worker processes (or a thread when 0)."""

    def __init__(self, name: str, processes: int, initializer: Callable[[], None] | None = None) -> None:
        self.name = name
        self.processes = processes
        self._initializer = initializer
        self._pool: ProcessPoolExecutor | None = None
        self._urgent: ProcessPoolExecutor | None = None  # one process of its own for urgent work, on first use
        self.waiting = 0  # calls submitted and not yet answered (the metrics' queue depth)
        self.handed = 0  # ordinary calls handed to the processes and not yet answered
        self._queued: collections.deque[asyncio.Future[None]] = collections.deque()  # ordinary calls waiting
        self._background: ProcessPoolExecutor | None = None  # one niced process for background work, on first use

    def _new(self, processes: int, niceness: int = 0) -> ProcessPoolExecutor:
        context = multiprocessing.get_context("spawn")
        start = functools.partial(_start_worker, os.getpid(), self._initializer, niceness)
        return ProcessPoolExecutor(processes, mp_context=context, initializer=start)

    def _executor(self, urgent: bool = False, background: bool = False) -> ProcessPoolExecutor:
        if background:
            if self._background is None:
                self._background = self._new(1, BACKGROUND_NICENESS)
            return self._background
        if urgent:
            if self._urgent is None:
                self._urgent = self._new(1)
            return self._urgent
        if self._pool is None:
            self._pool = self._new(self.processes)
        return self._pool

    def pids(self) -> list[int]:
        """The worker processes running now (none before the first call)."""
        found = []
        for pool in (self._pool, self._urgent, self._background):
            processes = getattr(pool, "_processes", None) or {}
            found += [process.pid for process in processes.values() if process.pid is not None]
        return sorted(found)

    async def run(self, function: Callable[..., T], *args: Any, urgent: bool = False, background: bool = False) -> T:
        """Return ``function(*args)``, computed in a worker; ``urgent`` work passes the ordinary calls waiting,
        ``background`` work runs in a process of its own at the lowest CPU priority, beside the others."""
        self.waiting += 1
        try:
            if self.processes <= 0:
                return await self._run(function, *args)
            if background:
                return await self._run(function, *args, background=True)
            if urgent:
                return await self._run(function, *args, urgent=True)
            await self._turn()
            try:
                return await self._run(function, *args)
            finally:
                self._release()
        finally:
            self.waiting -= 1

    async def _turn(self) -> None:
        """Wait until fewer than ``processes + 1`` ordinary calls are in the processes' hands."""
        if self.handed <= self.processes and not self._queued:
            self.handed += 1
            return
        ticket = asyncio.get_running_loop().create_future()
        self._queued.append(ticket)
        try:
            await ticket  # the slot is counted for us by whoever woke us
        except BaseException:
            if ticket.done() and not ticket.cancelled():
                self._release()  # woken and cancelled at once: pass the slot on
            else:
                with contextlib.suppress(ValueError):
                    self._queued.remove(ticket)
            raise

    def _release(self) -> None:
        """An ordinary call is answered: hand its slot to the next one waiting."""
        while self._queued:
            ticket = self._queued.popleft()
            if not ticket.done():
                ticket.set_result(None)  # the slot passes on: ``handed`` stays
                return
        self.handed -= 1

    async def _run(self, function: Callable[..., T], *args: Any, urgent: bool = False, background: bool = False) -> T:
        if self.processes <= 0:
            return await asyncio.to_thread(function, *args)
        loop = asyncio.get_running_loop()
        pool = self._executor(urgent, background)
        try:
            return await loop.run_in_executor(pool, function, *args)
        except BrokenProcessPool:
            log.warning("a %s worker died; starting new ones and trying again", self.name)
            if self._pool is pool:
                self._pool = None
            if self._urgent is pool:
                self._urgent = None
            if self._background is pool:
                self._background = None
            pool.shutdown(wait=False, cancel_futures=True)
            return await loop.run_in_executor(self._executor(urgent, background), function, *args)

    def close(self) -> None:
        """Stop the workers (work in progress is abandoned)."""
        pools = (self._pool, self._urgent, self._background)
        self._pool = self._urgent = self._background = None
        for pool in pools:
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the workers and wait until they are gone: they are told to stop, then killed after ``timeout``.

        Called when the bot stops, after the work in flight was finished or given up.
        """
        pools = [pool for pool in (self._pool, self._urgent, self._background) if pool is not None]
        self._pool = self._urgent = self._background = None
        processes = [process for pool in pools for process in (getattr(pool, "_processes", None) or {}).values()]
        # Each pool's thread joins (reaps) the processes it started; ``shutdown`` forgets it, so keep it first.
        threads = [thread for pool in pools if (thread := getattr(pool, "_executor_manager_thread", None))]
        for pool in pools:
            pool.shutdown(wait=False, cancel_futures=True)
        deadline = time.monotonic() + timeout
        # A process has exited when its sentinel is ready. ``is_alive()`` is not a safe test here: the executor's
        # own thread reaps the same processes, and a process it is reaping still reads as alive for a moment.
        running = {process.sentinel: process for process in processes}
        while running and time.monotonic() < deadline:
            for sentinel in multiprocessing.connection.wait(list(running), max(0.0, deadline - time.monotonic())):
                running.pop(sentinel)  # type: ignore[call-overload]
        for process in running.values():
            process.kill()  # cannot be ignored: wait for it to end (a loaded machine may take seconds)
        if running:
            multiprocessing.connection.wait(list(running), 5.0)
        for thread in threads:
            thread.join(max(1.0, deadline - time.monotonic()))
