"""Board images drawn off the event loop, in worker processes (see :mod:`bot.delivery.workers`)."""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from functools import cache
from typing import Any

from bot.delivery.workers import WorkerPool
from bot.storage.records import MatchRecord
from engines import GAMES, GameState
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


def board_alt(record: MatchRecord, state: GameState, language: str = DEFAULT) -> str:
    """The alt text of a board image of ``record`` showing ``state``, in the server's ``language``."""
    from i18n.describe import alt_text

    return alt_text(state, [seat.name for seat in record.players], language)


def draw_from_json(
    game: str, state_json: dict[str, Any], names: Sequence[str], language: str = DEFAULT
) -> tuple[bytes, str | None]:
    """:func:`draw_with_alt` of the state ``state_json`` holds (its exact JSON form), rebuilt in the worker.

    A state's JSON is plain lists and numbers, which pickle in C: the event loop hands a board over in a
    fraction of the time an engine's state object takes to pickle (a dataclass, its cached legal moves too).
    """
    return draw_with_alt(GAMES[game].from_json(state_json), names, language)


def draw_preview(
    game: str, state_json: dict[str, Any], move: str, names: Sequence[str], language: str = DEFAULT
) -> tuple[bytes, str]:
    """The position of ``state_json`` with ``move`` marked as the player's own (amber, "your move"), and the
    position's description: a move's private preview before it is played (runs in a worker)."""
    from i18n.describe import alt_text
    from render import render_marked

    state = GAMES[game].from_json(state_json)
    png = render_marked(state, played=move, meaning="preview", players=list(names), locale=language)
    return png, alt_text(state, list(names), language)


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
        if self.workers.processes <= 0:  # a thread: nothing to pickle
            return await self.workers.run(draw_with_alt, state, tuple(names), language)
        return await self.workers.run(draw_from_json, state.game, state.to_json(), tuple(names), language)

    async def preview(
        self, state: GameState, move: str, names: Sequence[str], language: str = DEFAULT
    ) -> tuple[bytes, str]:
        """The private preview of ``move`` in ``state`` and its description (the player waits: urgent)."""
        return await self.workers.run(
            draw_preview, state.game, state.to_json(), move, tuple(names), language, urgent=True
        )

    def close(self) -> None:
        """Stop the workers."""
        self.workers.close()
