"""Board images off the event loop: in worker processes, or in a thread.

Drawing and encoding a board is CPU work.  In a thread it would compete with
the event loop for the GIL; worker processes let it use the machine's other
cores while the bot goes on answering.  ``processes=0`` renders in a thread
(tests, tiny machines).  A worker that dies is replaced, and the image is drawn
in a thread meanwhile, so a move's board is never lost to a broken pool.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from engines import GameState

log = logging.getLogger(__name__)


def draw(state: GameState, names: Sequence[str]) -> bytes:
    """Render one board as PNG bytes (runs in a worker process or thread)."""
    from render import render

    return render(state, players=list(names))


def _warm() -> None:
    """Load the renderer's modules in a new worker so its first board is not slow."""
    import render  # noqa: F401


class BoardRenderer:
    """Render boards in a small process pool (or a thread when ``processes`` is 0)."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor | None:
        if self.processes <= 0:
            return None
        if self._pool is None:
            # "spawn": a fresh interpreter, never a fork of the bot's threads and sockets.
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(self.processes, mp_context=context, initializer=_warm)
        return self._pool

    async def png(self, state: GameState, names: Sequence[str]) -> bytes:
        """Return the board image of ``state`` with the players' ``names``."""
        pool = self._executor()
        if pool is not None:
            try:
                return await asyncio.get_running_loop().run_in_executor(pool, draw, state, tuple(names))
            except BrokenProcessPool:
                log.warning("a render worker died; starting new ones and drawing this board in a thread")
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
        return await asyncio.to_thread(draw, state, tuple(names))

    def close(self) -> None:
        """Stop the workers."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
