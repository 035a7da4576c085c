"""Toy's picture: the status line, the pile as a row of stones, and what each player took."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PIL import ImageDraw

import i18n
from render.draw import Picture, draw_status, new_card, status_height
from render.legend import Key
from render.text import draw_text
from render.theme import DEFAULT_THEME, Theme
from tests.toy.engine import ToyEvent, ToyState

if TYPE_CHECKING:
    from render.gallery import Showcase

STONE = 30  # a stone's diameter, in pixels


def render_toy(
    state: ToyState,
    *,
    players: Sequence[str],
    last_move: bool = True,
    theme: Theme = DEFAULT_THEME,
    locale: str = "en",
    marks: Sequence[tuple[ToyEvent, Theme]] = (),
    legend: Sequence[Key] | None = None,
) -> Picture:
    """Draw the pile (the stones just taken outlined, when ``last_move``) under the status line.

    ``marks`` (a review's or a hint's moves, each with the theme of its colour): the stones each move would
    take are ringed in that theme's mark colour, the second ring inside the first.  The toy has no legend, so
    ``legend`` (what those colours mean) is taken and left unsaid.
    """
    status = i18n.status_text(state, players, locale)
    top = theme.padding + status_height(theme.width, status, theme) + theme.padding
    per_row = (theme.width - 2 * theme.padding) // (STONE + 6)
    rows = -(-state.start // per_row)
    height = top + rows * (STONE + 6) + theme.padding + theme.font_body + theme.padding
    image = new_card(theme.width, height, theme)
    draw_status(image, status, theme.padding, theme)
    draw = ImageDraw.Draw(image)
    took = state.last.took if last_move and state.last is not None else 0
    for index in range(state.stones + took):
        x = theme.padding + (index % per_row) * (STONE + 6)
        y = top + (index // per_row) * (STONE + 6)
        box = (x, y, x + STONE, y + STONE)
        if index < state.stones:
            draw.ellipse(box, fill=theme.text)
        else:  # just taken: an outline where it lay
            draw.ellipse(box, outline=theme.text_muted, width=3)
    for number, (event, mark_theme) in enumerate(marks):
        grow = 4 - 7 * number  # the first ring around the stone, the next one inside it
        for index in range(max(0, state.stones - event.took), state.stones):
            x = theme.padding + (index % per_row) * (STONE + 6)
            y = top + (index // per_row) * (STONE + 6)
            draw.ellipse((x - grow, y - grow, x + STONE + grow, y + STONE + grow), outline=mark_theme.mark, width=3)
    taken = " · ".join(f"{name} {count}" for name, count in zip(players, state.taken, strict=True))
    draw_text(draw, (theme.width / 2, height - theme.padding), taken, theme.font_body, theme.text, anchor="mb")
    return Picture(image)


def _gallery_kind(state: ToyState) -> str | None:
    """Name the situation a running position shows: how many stones its last ply took."""
    return None if state.last is None else f"last-take-{state.last.took}"


def gallery() -> Showcase:
    """Return Toy's boards in the gallery: a take of each size, and the end."""
    from render.gallery import Board, Showcase

    return Showcase(
        kind=_gallery_kind,  # type: ignore[arg-type]
        boards=(Board("standard", 2, {}, ("last-take-1", "last-take-3", "end-last_stone"), texts=True, quick=True),),
        limit=None,
        quick=("start", "last-take-3"),
        busy=("last-take-3",),
        ends=("end-last_stone", "end-forfeit"),
    )


# What the rendering benchmark (bench.render_speed) draws: (players, options).
BENCH_CONFIGS: tuple[tuple[int, dict[str, object]], ...] = ((2, {}),)
