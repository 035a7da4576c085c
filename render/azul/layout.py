"""Where everything sits on Azul's card, and what is drawn once per size, language and theme.

The factories, the centre and one panel per player (:func:`layout`, :func:`panel_layout`); the static card (factory
discs, labels, the key) and each kind of player panel (its pattern lines, wall spaces and floor penalties) are drawn
once and kept.  The small box helpers (:func:`_ring`, :func:`_shift`, :func:`_paste`) are shared by every part
that draws on the card.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engines.azul import FACTORIES, FLOOR_PENALTIES, FLOOR_SPACES, LETTERS, WALL_COLOUR
from i18n.azul import colour_name
from i18n.catalog import pgettext
from render.azul.sprites import (
    DISC_EDGE,
    DISC_FILL,
    FAINT_FILL,
    FAINT_LETTER,
    FLOOR_DASH,
    GREY_SPACE,
    NUMBER_FONT,
    PENALTY_FONT,
    SLOT_EDGE,
    SLOT_FILL,
    TILE_FILL,
    _blend,
    _label_pill,
    _letter_size,
    disc_sprite,
    marker_sprite,
    tile_sprite,
)
from render.draw import blend_sprite, new_card, outline_box
from render.legend import Key, key_parts
from render.text import draw_text, text_width
from render.theme import RGB, Theme

Box = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class PanelLayout:
    """Where the parts of one player's panel go, relative to the panel's top left corner."""

    width: int
    height: int
    lines: tuple[tuple[Box, ...], ...]  # lines[row][i]: space i of pattern line row + 1, from the right (the wall side)
    wall: tuple[tuple[Box, ...], ...]  # wall[row][column]
    floor: tuple[Box, ...]
    column_left: int  # the right-hand column: name, score, tags, floor
    column_right: int
    name_mid: int
    score_mid: int
    tag_mid: int
    floor_label_mid: int


@dataclass(frozen=True, slots=True)
class Layout:
    """Where each part of the card goes for one number of players and theme."""

    width: int
    height: int
    status_top: int
    last_top: int
    factories: tuple[tuple[int, int], ...]  # disc centres
    disc: int  # disc diameter
    factory_tile: int
    centre_box: Box
    panel: PanelLayout
    panel_tops: tuple[int, ...]
    panel_left: int
    legend_mid: int


def _scaled(value: float, theme: Theme) -> int:
    return round(value * theme.width / 720)


@functools.cache
def panel_layout(theme: Theme) -> PanelLayout:
    """Compute one player's panel: pattern lines and wall side by side, the name, score and floor on the right."""
    width = theme.width - 2 * theme.padding
    inset, numbers, gap_mid, gap_col, right_inset = 12, 20, 12, 14, 10
    cell, gap = _scaled(36, theme), _scaled(4, theme)
    block = 5 * cell + 4 * gap
    top = 12
    lines_left = inset + numbers
    wall_left = lines_left + block + gap_mid
    column_left = wall_left + block + gap_col
    column_right = width - right_inset
    floor_gap = 2
    floor_cell = min(cell, (column_right - column_left - (FLOOR_SPACES - 1) * floor_gap) // FLOOR_SPACES)
    lines = []
    wall = []
    for row in range(5):
        y0 = top + row * (cell + gap)
        # Line row + 1 has row + 1 spaces, numbered from the right: space 0 is next to the wall.
        lines.append(
            tuple(
                (x0, y0, x0 + cell, y0 + cell) for x0 in (lines_left + (4 - i) * (cell + gap) for i in range(row + 1))
            )
        )
        wall.append(tuple((x0, y0, x0 + cell, y0 + cell) for x0 in (wall_left + c * (cell + gap) for c in range(5))))
    bottom = top + block
    floor_top = bottom - floor_cell
    floor_left = column_right - FLOOR_SPACES * floor_cell - (FLOOR_SPACES - 1) * floor_gap
    floor = tuple(
        (x0, floor_top, x0 + floor_cell, bottom)
        for x0 in (floor_left + i * (floor_cell + floor_gap) for i in range(FLOOR_SPACES))
    )
    name_mid = top + theme.font_body * 3 // 4 + 4
    score_mid = name_mid + 46
    tag_mid = score_mid + 38
    return PanelLayout(
        width, bottom + top, tuple(lines), tuple(wall), floor, column_left, column_right, name_mid, score_mid,
        tag_mid, floor_top - PENALTY_FONT // 2 - 6,
    )  # fmt: skip


FACTORY_ROWS = {5: (5,), 7: (4, 3), 9: (5, 4)}
# How far below the key to the tiles a marked board's line of colours goes, in pixels.
KEY_LINE = 40


@functools.cache
def layout(players: int, theme: Theme, extra: int = 0, keys: bool = False) -> Layout:
    """Compute the card layout for ``players`` players: factories in rows of up to five, then a panel per player.

    ``extra`` pixels are added above the factories when the status or the caption wraps to more lines (a longer
    language): the card grows rather than cut what they say.  ``keys``: a marked board has room under the key to the
    tiles for a line saying what its colours mean, whatever it marks.
    """
    width, pad = theme.width, theme.padding
    status_top = 14
    last_top = status_top + theme.font_body + 10
    factories_top = last_top + theme.font_small + 14 + extra
    disc = _scaled(124, theme)
    spacing = (width - 2 * pad - 5 * disc) // 4
    centres: list[tuple[int, int]] = []
    y = factories_top
    for count in FACTORY_ROWS[FACTORIES[players]]:
        row_width = count * disc + (count - 1) * spacing
        x0 = (width - row_width) // 2
        centres.extend((x0 + i * (disc + spacing) + disc // 2, y + disc // 2) for i in range(count))
        y += disc + 8
    centre_box = (pad, y, width - pad, y + _scaled(60, theme))
    panel = panel_layout(theme)
    top = centre_box[3] + 14
    tops = tuple(top + p * (panel.height + 10) for p in range(players))
    legend_mid = tops[-1] + panel.height + 30
    height = legend_mid + 22 + pad + (KEY_LINE if keys else 0)
    return Layout(
        width, height, status_top, last_top, tuple(centres), disc, _scaled(40, theme), centre_box, panel, tops,
        pad, legend_mid,
    )  # fmt: skip


def factory_tile_boxes(lay: Layout, number: int) -> tuple[Box, ...]:
    """Return the four tile places of factory ``number`` (from 1): top left, top right, bottom left, bottom right."""
    cx, cy = lay.factories[number - 1]
    size, gap = lay.factory_tile, 5
    x0, y0 = cx - size - gap // 2, cy - size - gap // 2
    return tuple((x, y, x + size, y + size) for y in (y0, y0 + size + gap) for x in (x0, x0 + size + gap))


@functools.lru_cache(maxsize=12)  # bounded: sizes x languages x themes in use (about 3-4 MB each)
def static_card(
    players: int, theme: Theme, locale: str = "en", extra: int = 0, legend: tuple[Key, ...] | None = None
) -> Image.Image:
    """Return the parts of the card that never change: background, factory discs and labels, the centre, the key.

    ``legend`` is a marked board's (see :mod:`render.legend`), None an ordinary board's.
    """
    lay = layout(players, theme, extra, legend is not None)
    card = new_card(lay.width, lay.height, theme)
    draw = ImageDraw.Draw(card)
    half = lay.disc // 2
    for number, (cx, cy) in enumerate(lay.factories, start=1):
        disc = disc_sprite(lay.disc, theme)
        card.paste(disc, (cx - half, cy - half), disc)
        _paste_label(card, lay, number, theme)
    x0, y0, _, y1 = lay.centre_box
    draw.rounded_rectangle(lay.centre_box, radius=(y1 - y0) // 2, fill=DISC_FILL, outline=DISC_EDGE, width=3)
    label = _label_pill(pgettext(locale, "board", "c"), theme)
    card.paste(label, (x0 + 12, (y0 + y1) // 2 - label.height // 2), label)
    _draw_key(card, lay, theme, locale)
    if legend:
        _draw_key_line(card, key_parts(legend, locale, _ring_sample), lay.legend_mid + KEY_LINE, theme)
    return card


def _draw_key(card: Image.Image, lay: Layout, theme: Theme, locale: str = "en") -> None:
    """Draw the key to the tile letters and the marker, as one centred line."""
    icon = 30
    parts: list[tuple[Image.Image, str]] = [(tile_sprite(k, icon, theme), colour_name(locale, k)) for k in range(5)]
    parts.append((marker_sprite(icon, theme), pgettext(locale, "board", "first player")))
    _draw_key_line(card, parts, lay.legend_mid, theme)


def _ring_sample(theme: Theme) -> Image.Image:
    """Return the legend's sample of a move's mark: an empty space ringed in ``theme``'s mark colour."""
    icon, grow = 30, 4
    sample = Image.new("RGBA", (icon, icon), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sample)
    draw.rounded_rectangle((grow + 1, grow + 1, icon - grow - 2, icon - grow - 2), radius=3, fill=SLOT_FILL)
    outline_box(draw, (0, 0, icon, icon), theme, 3)
    return sample


def _draw_key_line(card: Image.Image, parts: Sequence[tuple[Image.Image, str]], y: int, theme: Theme) -> None:
    """Draw (icon, words) pairs as one centred line whose vertical middle is ``y``, the words smaller if need be."""
    draw = ImageDraw.Draw(card)
    icon = 30
    width = card.width
    size, gap = theme.font_small, 6
    spacing = 16
    widths = [icon + gap + math.ceil(text_width(text, size)) for _, text in parts]
    while sum(widths) + spacing * (len(parts) - 1) > width - 2 * theme.padding and size > 14:
        size -= 1
        widths = [icon + gap + math.ceil(text_width(text, size)) for _, text in parts]
    x = (width - sum(widths) - spacing * (len(parts) - 1)) // 2
    for (sprite, text), part_width in zip(parts, widths, strict=True):
        card.paste(sprite, (x, y - icon // 2), sprite)
        draw_text(draw, (x + icon + gap, y), text, size, theme.text_muted, anchor="lm")
        x += part_width + spacing


PANEL_IDLE, PANEL_ACTIVE, PANEL_LEFT = "idle", "active", "left"


def _panel_fill(kind: str, theme: Theme) -> RGB:
    return {PANEL_IDLE: theme.panel, PANEL_ACTIVE: theme.panel_active, PANEL_LEFT: theme.background}[kind]


@functools.cache
def panel_base(kind: str, grey: bool, theme: Theme) -> Image.Image:
    """Return an empty player panel: its fill, line numbers, empty spaces, wall and floor with its penalties."""
    panel = panel_layout(theme)
    fill = _panel_fill(kind, theme)
    image = new_card(panel.width, panel.height, theme)
    draw = ImageDraw.Draw(image)
    edge = theme.text_muted if kind == PANEL_LEFT else fill
    draw.rounded_rectangle((0, 0, panel.width - 1, panel.height - 1), radius=14, fill=fill, outline=edge, width=1)
    if kind == PANEL_ACTIVE:
        # The same sign as the player rows of the other games: a solid bar on the left.
        draw.rounded_rectangle((0, 0, 8, panel.height - 1), radius=4, fill=theme.mark)
    cell = panel.wall[0][0][2] - panel.wall[0][0][0]
    radius = max(3, cell // 7)
    numbers = theme.text_muted
    for row in range(5):
        for x0, y0, x1, y1 in panel.lines[row]:
            draw.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius=radius, fill=SLOT_FILL, outline=SLOT_EDGE)
        x0, y0, _, y1 = panel.lines[row][-1]
        draw_text(draw, (x0 - 7, (y0 + y1) / 2 + 1), str(row + 1), NUMBER_FONT, numbers, anchor="rm")
        for column, (x0, y0, x1, y1) in enumerate(panel.wall[row]):
            if grey:
                space = _blend(fill, GREY_SPACE, 0.8)
                draw.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius=radius, fill=space)
                ink = _blend(space, theme.text, 0.35)
                draw_text(draw, ((x0 + x1) / 2, (y0 + y1) / 2 + 1), str(column + 1), NUMBER_FONT, ink, anchor="mm")
            else:
                colour = WALL_COLOUR[row][column]
                space = _blend(fill, TILE_FILL[colour], FAINT_FILL)
                draw.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius=radius, fill=space)
                ink = _blend(space, theme.text, FAINT_LETTER)
                draw_text(
                    draw, ((x0 + x1) / 2, (y0 + y1) / 2 + 1), LETTERS[colour].upper(), _letter_size(cell), ink,
                    anchor="mm",
                )  # fmt: skip
    for (x0, y0, x1, y1), penalty in zip(panel.floor, FLOOR_PENALTIES, strict=True):
        draw.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius=radius, fill=SLOT_FILL, outline=SLOT_EDGE)
        draw_text(
            draw, ((x0 + x1) / 2, panel.floor_label_mid), f"{FLOOR_DASH}{penalty}", PENALTY_FONT, numbers, anchor="mm"
        )
    return image


def _ring(draw: ImageDraw.ImageDraw, boxes: Sequence[Box], theme: Theme, *, grow: int = 5, width: int = 3) -> None:
    """Outline the smallest box holding ``boxes``, grown by ``grow`` pixels: the last ply's mark."""
    x0 = min(b[0] for b in boxes) - grow
    y0 = min(b[1] for b in boxes) - grow
    x1 = max(b[2] for b in boxes) + grow
    y1 = max(b[3] for b in boxes) + grow
    outline_box(draw, (x0, y0, x1, y1), theme, width)


def _shift(box: Box, dx: int, dy: int) -> Box:
    return (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)


def _paste(card: Image.Image, sprite: Image.Image, box: Box) -> None:
    """Paste ``sprite`` centred in ``box``."""
    x = (box[0] + box[2] - sprite.width) // 2
    y = (box[1] + box[3] - sprite.height) // 2
    blend_sprite(card, sprite, (x, y))


def _paste_label(card: Image.Image, lay: Layout, number: int, theme: Theme) -> None:
    """Paste factory ``number``'s label over the top left of its disc."""
    cx, cy = lay.factories[number - 1]
    half = lay.disc // 2
    label = _label_pill(f"f{number}", theme)
    card.paste(label, (cx - half - 8, cy - half - 6), label)
