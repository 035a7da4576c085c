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


def draw_with_alt(state: GameState, names: Sequence[str], language: str = DEFAULT) -> tuple[bytes, str | None]:
    """Render one board and describe it for screen readers (:func:`i18n.describe.alt_text`), in one worker trip.

    The description is pure text from the same state and names: made beside the picture, it costs the event
    loop nothing.  ``None`` if describing failed (the caller describes it again, and meets the error itself).
    """
    png = draw(state, names, language)
    try:
        from i18n.describe import alt_text

        alt: str | None = alt_text(state, list(names), language)
    except Exception:
        alt = None
    return png, alt


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

    async def board(self, state: GameState, names: Sequence[str], language: str = DEFAULT) -> tuple[bytes, str | None]:
        """Return the board image and its description (``None`` if describing failed), drawn in one worker trip."""
        return await self.workers.run(draw_with_alt, state, tuple(names), language)

    def close(self) -> None:
        """Stop the workers."""
        self.workers.close()
