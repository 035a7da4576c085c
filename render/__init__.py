"""Tabula's board pictures: pure Pillow drawing, one module per game.

:func:`render` turns any game state into PNG bytes, dispatching on
``state.game``: a game registered in :data:`engines.GAMES` as ``name`` is drawn
by ``render_<name>`` of its module ``render/<name>.py`` (``GAMES[name].module("render")``; a large game's is a
package, ``render/<name>/``, by concern, its ``__init__`` holding ``render_<name>``), imported on first use
(see :func:`renderer_for`); adding a game's picture means adding that module.  Rendering is pure (same inputs, same
bytes), loads its font and sprites lazily and once, and is safe to call from
worker threads.  What never changes is drawn once and kept, within bounds: each game's static card per size,
options, language and theme (a dozen per game), and each line of text's rasterised mask (8 MiB, see
:mod:`render.masks`); a turn blends its pieces, marks and texts onto a copy of its static card.
Shared parts live in :mod:`render.theme` (colours, sizes),
:mod:`render.text` (font, text fitting), :mod:`render.draw` (sprites, board
grid, last-move marks, player rows, PNG encoding) and :mod:`render.legend` (what a marked board's colours mean).

>>> from engines import GAMES
>>> state = GAMES["pond"].new(seed=7).play("place b2")
>>> png = render(state, players=["Ana", "Bo"])
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n", png == render(state, players=["Ana", "Bo"])
(True, True)
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import cast

from PIL import Image

from engines import GAMES, GameState
from i18n import seat_labels
from i18n.catalog import locale_for
from render.draw import Picture, encode_png
from render.legend import better_theme, legend_for
from render.theme import DEFAULT_THEME, Theme

# A game renderer draws a state as a Picture (RGB image + PNG palette); its keywords are those of :func:`render`,
# and a marked board's ``marks`` (each move's event and mark theme) and ``legend`` (render.legend's keys, one per
# mark, in order; None on an ordinary board).
Renderer = Callable[..., Picture]


class NoRenderer(LookupError):
    """The game has no picture yet."""


def render_picture(
    state: GameState,
    *,
    players: Sequence[str] | None = None,
    last_move: bool = True,
    theme: Theme = DEFAULT_THEME,
    locale: str = "en",
) -> Picture:
    """Draw ``state`` as a :class:`~render.draw.Picture`: the RGB image :func:`render` encodes, and its palette.

    ``players`` are display names in seat order (default: the game's seat
    names, capitalised); ``last_move`` marks what the last ply did; ``locale`` is the language of every
    word on the card (``"en"``, ``"ru"``, ``"fr"``; any other reads English).
    """
    renderer = renderer_for(state.game)
    if players is None:
        players = seat_labels(state, locale)
    return renderer(state, players=tuple(players), last_move=last_move, theme=theme, locale=locale_for(locale))


def render(
    state: GameState,
    *,
    players: Sequence[str] | None = None,
    last_move: bool = True,
    theme: Theme = DEFAULT_THEME,
    locale: str = "en",
) -> bytes:
    """Return ``state``'s picture as PNG bytes (same inputs, same bytes)."""
    return encode_png(render_picture(state, players=players, last_move=last_move, theme=theme, locale=locale), theme)


def render_image(
    state: GameState,
    *,
    players: Sequence[str] | None = None,
    last_move: bool = True,
    theme: Theme = DEFAULT_THEME,
    locale: str = "en",
) -> Image.Image:
    """Draw ``state`` as an RGB image, before palette mapping (for previews and tests)."""
    return render_picture(state, players=players, last_move=last_move, theme=theme, locale=locale).image


def render_marked(
    before: GameState,
    *,
    played: object | None = None,
    better: object | None = None,
    meaning: str = "review",
    players: Sequence[str] | None = None,
    theme: Theme = DEFAULT_THEME,
    locale: str = "en",
) -> bytes:
    """Draw the position ``before`` with moves of it marked: ``played`` in the usual mark colour, ``better`` in blue.

    Moves are the engine's moves or their texts; either may be None.  Each is marked as the board marks a
    last move (what the renderer draws for the event the move would make), on the position before it.
    ``meaning`` says why, and the legend says it for each colour drawn (see :mod:`render.legend`): a
    ``"review"`` shows a costly move played (amber) and the better one (blue), a ``"hint"`` its suggested move
    (blue only), a ``"preview"`` the move a player is about to play (amber only), a ``"puzzle"`` a wrong answer
    (amber) and the solution (blue).  Raise ValueError for another
    meaning, or a move the meaning has no words for.  The picture has a palette of its own (adaptive), since the
    board's palette has no blue marks.
    """
    legend = legend_for(meaning, played=played is not None, better=better is not None, theme=theme)
    renderer = renderer_for(before.game)
    marks = []
    moves = [move for move in (played, better) if move is not None]  # in the legend's order, one key each
    for move, key in zip(moves, legend, strict=True):
        chosen = before.parse_move(move) if isinstance(move, str) else move
        marks.append((before.play(chosen).last_event, key.theme))
    if players is None:
        players = seat_labels(before, locale)
    picture = renderer(
        before,
        players=tuple(players),
        last_move=False,
        theme=theme,
        locale=locale_for(locale),
        marks=tuple(marks),
        legend=legend,
    )
    if better is None and picture.palette is not None:
        return encode_png(picture, theme)  # amber marks only: the board's own palette holds every colour drawn
    # An adaptive palette of the most colours a PNG palette holds: the board's own has no blue marks.
    return encode_png(Picture(picture.image, None), replace(theme, png_colours=256))


@functools.cache
def renderer_for(game: str) -> Renderer:
    """Return the renderer of a registered ``game``: ``render_<game>`` in its render module (``render/<game>``).

    The module is the one :meth:`engines.base.GameSpec.module` names for the layer ``render``.
    Raise :class:`NoRenderer` if the game is not registered or has no such module or function.
    """
    spec = GAMES.get(game)
    if spec is None:
        raise NoRenderer(f"There is no game called {game!r}.")
    name = spec.module(__name__)
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as missing:
        if not f"{name}.".startswith(f"{missing.name}."):  # the module, or its package, is not there
            raise
        raise NoRenderer(f"There is no picture for {game!r} yet.") from None
    renderer = getattr(module, f"render_{game}", None)
    if not callable(renderer):
        raise NoRenderer(f"{name} has no render_{game}().")
    return cast(Renderer, renderer)


def has_renderer(game: str) -> bool:
    """Tell whether ``game`` has a picture."""
    try:
        renderer_for(game)
    except NoRenderer:
        return False
    return True


__all__ = [
    "DEFAULT_THEME",
    "NoRenderer",
    "Theme",
    "better_theme",
    "has_renderer",
    "render",
    "render_image",
    "render_marked",
    "render_picture",
    "renderer_for",
]
