"""Tabula's board pictures: pure Pillow drawing, one module per game.

:func:`render` turns any game state into PNG bytes, dispatching on
``state.game`` through :data:`RENDERERS`; a new game adds its module beside
this one and one line to that dict.  Rendering is pure (same inputs, same
bytes), loads its font and sprites lazily and once, and is safe to call from
worker threads.  Shared parts live in :mod:`render.theme` (colours, sizes),
:mod:`render.text` (font, text fitting) and :mod:`render.draw` (sprites, board
grid, last-move marks, player rows, PNG encoding).

>>> from engines import GAMES
>>> state = GAMES["pond"].new(seed=7).play("place b2")
>>> png = render(state, players=["Ana", "Bo"])
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n", png == render(state, players=["Ana", "Bo"])
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import Image

from engines import GAMES, GameState
from render.azul import render_azul
from render.draw import Picture, encode_png
from render.pond import render_pond
from render.querni import render_querni
from render.summer import render_summer
from render.theme import DEFAULT_THEME, Theme

# A game renderer draws a state as a Picture (RGB image + PNG palette); its keywords are those of :func:`render`.
Renderer = Callable[..., Picture]

RENDERERS: dict[str, Renderer] = {
    "azul": render_azul,
    "pond": render_pond,
    "querni": render_querni,
    "summer": render_summer,
}


class NoRenderer(LookupError):
    """The game has no picture yet."""


def render_picture(
    state: GameState,
    *,
    players: Sequence[str] | None = None,
    last_move: bool = True,
    theme: Theme = DEFAULT_THEME,
) -> Picture:
    """Draw ``state`` as a :class:`~render.draw.Picture`: the RGB image :func:`render` encodes, and its palette.

    ``players`` are display names in seat order (default: the game's seat
    names, capitalised); ``last_move`` marks what the last ply did.
    """
    renderer = RENDERERS.get(state.game)
    if renderer is None:
        raise NoRenderer(f"There is no picture for {state.game!r} yet.")
    if players is None:
        players = [seat.capitalize() for seat in GAMES[state.game].seat_names(state.players)]
    return renderer(state, players=tuple(players), last_move=last_move, theme=theme)


def render(
    state: GameState,
    *,
    players: Sequence[str] | None = None,
    last_move: bool = True,
    theme: Theme = DEFAULT_THEME,
) -> bytes:
    """Return ``state``'s picture as PNG bytes (same inputs, same bytes)."""
    return encode_png(render_picture(state, players=players, last_move=last_move, theme=theme), theme)


def render_image(
    state: GameState,
    *,
    players: Sequence[str] | None = None,
    last_move: bool = True,
    theme: Theme = DEFAULT_THEME,
) -> Image.Image:
    """Draw ``state`` as an RGB image, before palette mapping (for previews and tests)."""
    return render_picture(state, players=players, last_move=last_move, theme=theme).image


def has_renderer(game: str) -> bool:
    """Tell whether ``game`` has a picture."""
    return game in RENDERERS


__all__ = [
    "DEFAULT_THEME",
    "RENDERERS",
    "NoRenderer",
    "Theme",
    "has_renderer",
    "render",
    "render_image",
    "render_picture",
]
