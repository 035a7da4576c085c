"""``python -m bot worker``: a process that only does background work, taken from the shared PostgreSQL queue.

The bot's own process runs one background runner (:mod:`bot.core.background`).  When reviews pile up, more
processes — on this machine or others — can take jobs from the same queue: each runs this command against the
same ``TABULA_DATABASE``, and the store's take (``SELECT … FOR UPDATE SKIP LOCKED``) gives every job to exactly
one of them, in the same fair order.  Nothing here touches Discord: a review is made from the database alone —
the match's positions rebuilt from its move log (:class:`~bot.core.positions.MatchPositions`), the judgements
made in this process's own niced worker process (``TABULA_AI_PROCESSES`` > 0; 0 judges in a thread) and
stored, where the member's waiting bot process reads them.

A SQLite file serves one process (its lock refuses a second), so on SQLite this command refuses at once and
says so: the bot's own runner does all the background work there.

SIGTERM and SIGINT stop it: the slice in hand is abandoned (what it stored stays), its job is put back for any
runner to take, the worker processes stop and the database is closed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from bot.core.background import BackgroundRunner
from bot.core.mining import MINE, PuzzleMiner
from bot.core.ports import Workers
from bot.core.positions import MatchPositions
from bot.core.reviews import REVIEW, ReviewJobs, ReviewMaker
from bot.delivery.workers import WorkerPool
from bot.lifecycle import on_stop_signals
from bot.settings import Settings
from bot.storage import MatchStore
from bot.storage.database import is_url, redact

log = logging.getLogger(__name__)


class WorkerRefused(Exception):
    """The worker cannot run with these settings; the message says why and what to do."""


def background_runner(
    store: MatchStore, workers: Workers, *, iterations: int | None = None, name: str | None = None
) -> BackgroundRunner:
    """The runner of a process that does only background work: every kind it can do without Discord."""
    maker = ReviewMaker(store.reviews, workers, iterations=iterations)
    matches = MatchPositions(store.matches, workers)
    miner = PuzzleMiner(store.mining, store.puzzles, matches.rebuilt, workers, iterations=iterations)
    return BackgroundRunner(store.jobs, {REVIEW: ReviewJobs(maker, matches.rebuilt), MINE: miner}, name=name)


def check_database(settings: Settings) -> None:
    """Refuse a SQLite database (:class:`WorkerRefused`): it serves one process, the bot."""
    if not is_url(settings.database):
        raise WorkerRefused(
            f"TABULA_DATABASE is the SQLite file {settings.database}, which serves one process: the bot itself "
            "does its background work there. Extra background workers need a shared PostgreSQL database "
            "(TABULA_DATABASE=postgresql://...)."
        )


async def run_worker(
    settings: Settings,
    *,
    iterations: int | None = None,
    started: Callable[[BackgroundRunner], None] | None = None,
) -> None:
    """Take background jobs from ``settings.database`` until SIGTERM or SIGINT (or until the runner is stopped).

    ``iterations`` fixes the reviews' budget (tests); ``started`` hears the runner once it serves (tests stop it).
    """
    check_database(settings)
    store = await MatchStore.open(settings.database, connections=min(2, settings.database_connections))
    workers = WorkerPool("background", settings.ai_processes)
    runner = background_runner(store, workers, iterations=iterations)
    stopping: list[asyncio.Task[None]] = []
    undo = on_stop_signals(lambda name: stopping.append(asyncio.ensure_future(runner.stop())))
    try:
        kinds = ", ".join(runner.kinds)
        log.info("background worker %s taking %s jobs from %s", runner.name, kinds, redact(settings.database))
        serving = asyncio.ensure_future(runner.serve())
        if started is not None:
            started(runner)
        try:
            await serving
        except asyncio.CancelledError:
            if not stopping and not runner.stopping:
                raise  # cancelled from outside, not stopped: pass it on
        await asyncio.gather(*stopping)
        log.info("background worker %s stopped after %d slices", runner.name, runner.slices)
    finally:
        undo()
        if not runner.stopping:
            await runner.stop()
        await asyncio.to_thread(workers.stop)
        await store.close()
