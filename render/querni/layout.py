"""Where everything sits on Querni's card, and the static card (board, ranks and files, legend) drawn once."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engines.querni import HEIGHT, WIDTH
from i18n.catalog import pgettext
from render.draw import Grid, arrow_sprite, draw_grid, new_card, outline_box, player_row_height
from render.legend import Key, key_parts, shapes_theme
from render.querni.sprites import ghost_sprite
from render.text import draw_text, text_width
from render.theme import Theme

# Pieces take this share of a cell's side, leaving room for the outlines of the last move.
PIECE_SHARE = 0.84
# Room left of the board for the rank numbers (the board's right side needs none).
RANK_ROOM = 30
# How far below the legend's line of marks a marked board's line of colours goes, in pixels.
KEY_LINE = 44


@dataclass(frozen=True, slots=True)
class Layout:
    """Where each part of the card goes for one theme."""

    width: int
    height: int
    header_top: int
    status_top: int
    counter_top: int
    counter_bar: tuple[int, int, int, int]
    grid: Grid
    legend_mid: int


@functools.cache
def layout(theme: Theme, extra: int = 0, keys: bool = False) -> Layout:
    """Compute the card layout: the 10x7 board as wide as the card allows, the rank numbers on its left.

    ``extra`` pixels go under the status line when it wraps to a second line (a longer language): the card grows
    rather than let it run into the draw counter.  ``keys``: a marked board's legend has room for a second line,
    for its colours, whatever it marks.
    """
    width, pad = theme.width, theme.padding
    header_top = pad
    status_top = header_top + 2 * player_row_height(theme) + 6
    counter_top = status_top + theme.font_body + 12 + extra
    cell = (width - 2 * pad - RANK_ROOM) // WIDTH
    left = (width - RANK_ROOM - cell * WIDTH) // 2 + RANK_ROOM
    bar_top = counter_top + theme.font_small + 8
    counter_bar = (left, bar_top, left + cell * WIDTH, bar_top + 10)
    board_top = counter_bar[3] + 22
    grid = Grid(WIDTH, HEIGHT, cell, left, board_top)
    legend_mid = grid.bottom + theme.font_coordinate + 20 + 28
    height = legend_mid + 22 + pad + (KEY_LINE if keys else 0)
    return Layout(width, height, header_top, status_top, counter_top, counter_bar, grid, legend_mid)


def piece_size(theme: Theme) -> int:
    """Return the side of a piece sprite on the board."""
    return round(layout(theme).grid.cell * PIECE_SHARE)


@functools.lru_cache(maxsize=12)  # bounded: sizes x languages x themes in use (about 3-4 MB each)
def static_card(theme: Theme, locale: str = "en", extra: int = 0, legend: tuple[Key, ...] | None = None) -> Image.Image:
    """Return the parts of the card that never change: background, board, coordinates, legend.

    ``legend`` is a marked board's (see :mod:`render.legend`), None an ordinary board's.
    """
    lay = layout(theme, extra, legend is not None)
    card = new_card(lay.width, lay.height, theme)
    draw_grid(card, lay.grid, theme)
    _draw_legend(card, lay, theme, locale, legend)
    return card


def _draw_legend(
    card: Image.Image, lay: Layout, theme: Theme, locale: str = "en", legend: Sequence[Key] | None = None
) -> None:
    """Draw what the marks of the last move mean, as one centred line of icons and words.

    A marked board (``legend``) draws them in the colour of its first entry, and says on a second line what each
    of its colours means.
    """
    icon = 40
    icons = shapes_theme(legend, theme)
    start = Image.new("RGBA", (icon, icon), (0, 0, 0, 0))
    outline_box(ImageDraw.Draw(start), (0, 0, icon, icon), icons, 3, inset=2)
    arrow, _ = arrow_sprite(46, 0, 8, icons)
    parts = [
        (start, pgettext(locale, "board", "from")),
        (_end_sample(icons), pgettext(locale, "board", "to")),
        (arrow, pgettext(locale, "board", "path")),
        (ghost_sprite(0, 7, icon, theme), pgettext(locale, "board", "removed")),
    ]
    _legend_line(card, parts, lay.legend_mid, theme)
    if legend:
        _legend_line(card, key_parts(legend, locale, _end_sample), lay.legend_mid + KEY_LINE, theme)


def _end_sample(theme: Theme) -> Image.Image:
    """Return the legend's sample of where a move ends: a square lit in ``theme``'s mark colour."""
    icon = 40
    end = Image.new("RGBA", (icon, icon), (0, 0, 0, 0))
    _light_square(ImageDraw.Draw(end), (0, 0, icon, icon), theme)
    return end


def _legend_line(card: Image.Image, parts: Sequence[tuple[Image.Image, str]], y: int, theme: Theme) -> None:
    """Draw (icon, words) pairs as one centred line whose vertical middle is ``y``."""
    draw = ImageDraw.Draw(card)
    size = theme.font_small
    gap, spacing = 8, 24
    # A longer language may need the words a little smaller to keep the legend on one line.
    while size > 15 and sum(item.width + gap + text_width(text, size) + spacing for item, text in parts) > card.width:
        size -= 1
    widths = [item.width + gap + math.ceil(text_width(text, size)) for item, text in parts]
    x = (card.width - sum(widths) - spacing * (len(parts) - 1)) // 2
    for (item, text), part_width in zip(parts, widths, strict=True):
        card.paste(item, (x, y - item.height // 2), item)
        draw_text(draw, (x + item.width + gap, y), text, size, theme.text_muted, anchor="lm")
        x += part_width + spacing


def _light_square(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], theme: Theme, inset: int = 0) -> None:
    """Fill a square in the mark colour, edged in a dark line: where the last move ended (``inset`` pixels in)."""
    x0, y0, x1, y1 = box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset
    radius = max(4, (x1 - x0) // 9)
    draw.rounded_rectangle(
        (x0 + 3, y0 + 3, x1 - 4, y1 - 4), radius=radius, fill=theme.mark, outline=theme.mark_edge, width=2
    )
