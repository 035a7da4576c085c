"""Board images drawn off the event loop, in worker processes (see :mod:`bot.workers`)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.workers import WorkerPool
from engines import GameState


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
        self.workers = WorkerPool("render", processes, _warm)

    async def png(self, state: GameState, names: Sequence[str]) -> bytes:
        """Return the board image of ``state`` with the players' ``names``."""
        return await self.workers.run(draw, state, tuple(names))

    def close(self) -> None:
        """Stop the workers."""
        self.workers.close()
