"""Board images drawn off the event loop, in worker processes (see :mod:`bot.delivery.workers`)."""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from functools import cache

from bot.delivery.workers import WorkerPool
from engines import GameState
from i18n.catalog import DEFAULT


@cache
def render_takes_locale() -> bool:
    """Tell whether :func:`render.render` draws its labels in a language (``locale=``)."""
    from render import render

    return "locale" in inspect.signature(render).parameters


def draw(state: GameState, names: Sequence[str], language: str = DEFAULT) -> bytes:
    """Render one board as PNG bytes, its labels in ``language`` (runs in a worker process or thread)."""
    from render import render

    if render_takes_locale():
        return render(state, players=list(names), locale=language)  # type: ignore[call-arg, unused-ignore]
    return render(state, players=list(names))


def _warm() -> None:
    """Load the renderer's modules in a new worker so its first board is not slow."""
    import render  # noqa: F401


class BoardRenderer:
    """Render boards in a small process pool (or a thread when ``processes`` is 0)."""

    def __init__(self, processes: int) -> None:
        self.workers = WorkerPool("render", processes, _warm)

    async def png(self, state: GameState, names: Sequence[str], language: str = DEFAULT) -> bytes:
        """Return the board image of ``state`` with the players' ``names``, labelled in ``language``."""
        return await self.workers.run(draw, state, tuple(names), language)

    def close(self) -> None:
        """Stop the workers."""
        self.workers.close()
