"""What Summer's card draws once and keeps: the static card (legend, flags) and each game's terrain."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from i18n.catalog import pgettext
from render.draw import FILE_LETTERS, Layer, Poly, draw_grid, new_card, outline_box, paint_sprite, paste_centered
from render.legend import Key, key_parts, shapes_theme
from render.summer.layout import LEGEND_LINE, Board, Layout, _sizes, hexagon_points, layout
from render.summer.sprites import (
    BADGE_COLLIDED,
    BADGE_MERGED,
    MINUS,
    MINUS_FILL,
    PLUS_FILL,
    START_FILL,
    badge_sprite,
    flag_sprite,
    removed_icon,
    swatch_sprite,
    symbol_sprite,
)
from render.text import draw_text, fit_size, text_width
from render.theme import RGB, Theme


def mode_line(mode: str, locale: str = "en") -> str:
    """Return the legend's line about the collision mode."""
    if mode == "field":
        return pgettext(locale, "board", "Field: on a + cell the mover always wins")
    return pgettext(locale, "board", "Classic: in a collision the heavier piece survives")


def move_line(hexagonal: bool, locale: str = "en") -> str:
    """Return the legend's line about how pieces move on this board."""
    if hexagonal:
        return pgettext(locale, "board", "A piece moves to one of 2 cells ahead or 2 beside it")
    return pgettext(locale, "board", "A piece moves forward, diagonally forward or sideways")


@functools.lru_cache(maxsize=12)  # bounded: sizes x languages x themes in use (about 3-4 MB each)
def static_card(
    size: int,
    hexagonal: bool,
    mode: str,
    theme: Theme,
    locale: str = "en",
    extra: int = 0,
    legend: tuple[Key, ...] | None = None,
) -> Image.Image:
    """Return what never changes in a game: background, coordinates, goal flags and legend.

    ``legend`` is a marked board's (see :mod:`render.legend`), None an ordinary board's.
    """
    lay = layout(size, hexagonal, theme, extra, legend is not None)
    card = new_card(lay.width, lay.height, theme)
    board = lay.board
    draw = ImageDraw.Draw(card)
    text_size, colour = theme.font_coordinate, theme.coordinate
    frame = board.frame
    if hexagonal:
        ImageDraw.Draw(card).rounded_rectangle(
            (board.left - frame, board.top - frame, board.right + frame - 1, board.bottom + frame - 1),
            radius=frame * 2,
            fill=theme.board_frame,
        )
        # Letters under rank 1 and over rank N, on each row's own cells: hex columns slant.
        for file in range(size):
            x, _ = board.centers[file]
            draw_text(draw, (x, board.bottom + frame + 6), FILE_LETTERS[file], text_size, colour, anchor="mt")
            x, _ = board.centers[(size - 1) * size + file]
            draw_text(draw, (x, board.top - frame - 6), FILE_LETTERS[file], text_size, colour, anchor="mb")
        for rank in range(size):
            _, y = board.centers[rank * size]
            draw_text(draw, (board.left - frame - 10, y), str(rank + 1), text_size, colour, anchor="rm")
    else:
        draw_grid(card, board.grid, theme)
    flag_px = max(22, min(34, round(board.radius)))
    for seat, rank in ((0, size - 1), (1, 0)):  # White races to rank N, Black to rank 1
        _, y = board.centers[rank * size]
        flag = flag_sprite(seat, flag_px, theme)
        card.paste(flag, (board.right + frame + 6, y - flag.height // 2), flag)
    _draw_legend(card, lay, mode, theme, locale, legend)
    return card


def _draw_legend(
    card: Image.Image, lay: Layout, mode: str, theme: Theme, locale: str = "en", legend: Sequence[Key] | None = None
) -> None:
    """Draw what the cells, flags and marks mean, the collision mode and how pieces move.

    An ordinary board's marks are its last move's; a marked board (``legend``) says on a line of its own what each
    of its colours means, and shows the badges of its marks in the colour of its first, without the removed piece
    (a marked board shows what a move would meet, not what it would remove).
    """
    icon = 30
    y = lay.legend_top + LEGEND_LINE // 2
    icons = shapes_theme(legend, theme)
    marks: list[tuple[tuple[Image.Image, ...], str]] = [
        ((badge_sprite(BADGE_MERGED, icon, icons),), pgettext(locale, "board", "merged")),
        ((badge_sprite(BADGE_COLLIDED, icon, icons),), pgettext(locale, "board", "collided")),
    ]
    keys: list[list[tuple[tuple[Image.Image, ...], str]]] = []
    if legend is None:
        marks.insert(0, ((_mark_sample(theme),), pgettext(locale, "board", "last move")))
        marks.append(((removed_icon(icon, theme),), pgettext(locale, "board", "removed")))
    elif legend:
        keys = [[((sample,), words) for sample, words in key_parts(legend, locale, _mark_sample)]]
    lines: list[list[tuple[tuple[Image.Image, ...], str]]] = [
        [
            ((swatch_sprite(True, icon, theme),), pgettext(locale, "board", "plus: +1")),
            ((swatch_sprite(False, icon, theme),), pgettext(locale, "board", "minus: {minus}1", minus=MINUS)),
            ((flag_sprite(0, icon, theme), flag_sprite(1, icon, theme)), pgettext(locale, "board", "goal rows")),
        ],
        *keys,
        marks,
        [((), mode_line(mode, locale))],
        [((), move_line(lay.board.hexagonal, locale))],
    ]
    for parts in lines:
        _legend_line(card, parts, y, theme)
        y += LEGEND_LINE


def _mark_sample(theme: Theme) -> Image.Image:
    """Return the legend's sample of a move's mark: a cell outline in ``theme``'s mark colour."""
    icon = 30
    outline = Image.new("RGBA", (icon, icon), (0, 0, 0, 0))
    outline_box(ImageDraw.Draw(outline), (0, 0, icon, icon), theme, 3, inset=1)
    return outline


def _legend_line(card: Image.Image, parts: Sequence[tuple[tuple[Image.Image, ...], str]], y: int, theme: Theme) -> None:
    """Draw (icons, text) pairs as one centred line whose vertical middle is ``y``."""
    draw = ImageDraw.Draw(card)
    gap, spacing = 6, 24
    room = card.width - 2 * theme.padding
    size = theme.font_small
    if len(parts) == 1 and not parts[0][0]:
        size = fit_size(parts[0][1], size, room, 16)

    def width_of(icons: tuple[Image.Image, ...], text: str) -> int:
        return sum(i.width + gap for i in icons) + math.ceil(text_width(text, size))

    # A longer language may need the words a little smaller to keep a line of icons on the card.
    while size > 15 and sum(width_of(icons, text) for icons, text in parts) + spacing * (len(parts) - 1) > room:
        size -= 1

    widths = [width_of(icons, text) for icons, text in parts]
    x = (card.width - sum(widths) - spacing * (len(parts) - 1)) // 2
    for (icons, text), width in zip(parts, widths, strict=True):
        start = x
        for icon in icons:
            card.paste(icon, (x, y - icon.height // 2), icon)
            x += icon.width + gap
        draw_text(draw, (x, y), text, size, theme.text_muted, anchor="lm")
        x = start + width + spacing


@functools.cache
def hex_pad_sprite(kind: int, pitch: int, theme: Theme) -> Image.Image:
    """Return one hex cell pad (plus, minus or start row), smooth-edged, to paste at each cell of its kind."""
    side = math.ceil(2 * pitch / math.sqrt(3)) + 2
    unit = 100 / side  # 100-unit box units per pixel
    gap = max(2.0, pitch / 40)
    pad = Poly(tuple((50 + x * unit, 50 + y * unit) for x, y in hexagon_points(pitch / math.sqrt(3) - gap - 1)))
    fill = PLUS_FILL if kind > 0 else MINUS_FILL if kind < 0 else START_FILL
    return paint_sprite(side, [Layer((pad,), theme.cell_edge, 1), Layer((pad,), fill)], theme.supersample)


def _hex_cells(card: Image.Image, board: Board, terrain: tuple[int, ...], theme: Theme) -> None:
    """Paste the hex board's cell pads, one ready sprite per kind of cell."""
    pads = {kind: hex_pad_sprite(kind, board.pitch, theme) for kind in (-1, 0, 1)}
    for cell, kind in enumerate(terrain):
        paste_centered(card, pads[kind], board.centers[cell])


@functools.lru_cache(maxsize=32)  # one entry per game being shown: the terrain is fixed for a whole game
def terrain_card(
    size: int,
    hexagonal: bool,
    mode: str,
    terrain: tuple[int, ...],
    theme: Theme,
    locale: str = "en",
    extra: int = 0,
    legend: tuple[Key, ...] | None = None,
) -> Image.Image:
    """Return the static card with this game's cells painted: plus, minus and start rows (``legend``: a marked
    board's, see :func:`static_card`)."""
    lay = layout(size, hexagonal, theme, extra, legend is not None)
    card = static_card(size, hexagonal, mode, theme, locale, extra, legend).copy()
    board = lay.board
    if hexagonal:
        _hex_cells(card, board, terrain, theme)
    else:

        def fill(file: int, rank: int) -> RGB:
            kind = terrain[rank * size + file]
            return PLUS_FILL if kind > 0 else MINUS_FILL if kind < 0 else START_FILL

        draw_grid(card, board.grid, theme, coordinates=False, fill=fill)
    _, symbol_px, _, _, _ = _sizes(size, hexagonal, theme)
    signs = (symbol_sprite(False, symbol_px, theme), symbol_sprite(True, symbol_px, theme))
    for cell, kind in enumerate(terrain):
        if kind:
            paste_centered(card, signs[kind > 0], board.centers[cell])
    return card
