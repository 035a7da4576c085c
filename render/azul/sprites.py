"""Azul's colours and sprites: tiles, the first-player marker, factory discs, rings and pills, each drawn once."""

from __future__ import annotations

import functools
import math
from dataclasses import replace

from PIL import Image, ImageDraw

from engines.azul import LETTERS
from render.draw import Ellipse, Layer, Poly, paint_sprite, pill_sprite, with_opacity
from render.text import draw_text
from render.theme import RGB, Theme

# Tile colours in engine order (blue, yellow, red, black, white).  Their lightness differs as well as their hue
# (greyscale ~83, 196, 130, 30, 238), and each tile also carries its letter.
TILE_FILL: tuple[RGB, ...] = ((30, 90, 190), (246, 200, 46), (232, 92, 60), (30, 30, 34), (240, 238, 228))
TILE_INK: tuple[RGB, ...] = ((250, 250, 250), (30, 24, 6), (36, 10, 4), (236, 236, 236), (30, 30, 34))
# Black and blue need a light edge to stand out on the dark panels; the others a darker shade of themselves.
TILE_EDGE: tuple[RGB, ...] = ((120, 160, 230), (150, 112, 10), (120, 36, 20), (150, 150, 158), (120, 118, 108))
MARKER_FILL: RGB = (250, 246, 236)
MARKER_EDGE: RGB = (24, 24, 26)
MARKER_INK: RGB = (24, 24, 26)
# The factory discs and the centre's tray.
DISC_FILL: RGB = (40, 100, 112)
DISC_EDGE: RGB = (24, 68, 78)
# Empty spaces: pattern lines and floor, and the grey wall.
SLOT_FILL: RGB = (33, 36, 42)
SLOT_EDGE: RGB = (84, 90, 100)
GREY_SPACE: RGB = (92, 96, 104)
# How strongly an empty coloured-wall space shows its colour, and its letter.
FAINT_FILL = 0.2
FAINT_LETTER = 0.3
# Ghosts of the tiles taken in the last ply.
GHOST_OPACITY = 0.38
# The card has room for more shades than the default palette: five tiles, their faint and ghost forms.
PNG_COLOURS = 128
DASH = "\u2212"  # a real minus sign: '-' looks like a hyphen next to digits
# Font sizes: pills (points, tags), factory and centre labels, pattern-line and column numbers, floor penalties.
PILL_FONT = 20
LABEL_FONT = 21
NUMBER_FONT = 20
PENALTY_FONT = 20
# Over the floor's narrow spaces the penalties take an en dash: U+2212 is too wide for "−2" to fit with a gap.
FLOOR_DASH = "\u2013"


@functools.cache
def azul_theme(theme: Theme) -> Theme:
    """Return ``theme`` with a palette large enough for the tiles, their faint spaces and ghosts."""
    return replace(theme, name=f"{theme.name}+azul", png_colours=max(theme.png_colours, PNG_COLOURS))


def _blend(a: RGB, b: RGB, t: float) -> RGB:
    """Return the colour ``t`` of the way from ``a`` to ``b``."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def _rounded_square(half: float, radius: float, steps: int = 6) -> Poly:
    """Return a square of half-side ``half`` centred in the 100-unit box, its corners rounded by ``radius``."""
    points = []
    inner = half - radius
    for quarter, (sx, sy) in enumerate(((1, 1), (-1, 1), (-1, -1), (1, -1))):
        cx, cy = 50 + sx * inner, 50 + sy * inner
        for i in range(steps + 1):
            angle = math.pi / 2 * (quarter + i / steps)
            points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return Poly(tuple(points))


TILE_SHAPE = (_rounded_square(47, 13),)


def _letter_size(size: int) -> int:
    return max(12, round(size * 0.56))


@functools.cache
def tile_sprite(colour: int, size: int, theme: Theme) -> Image.Image:
    """Return a tile of ``colour`` with its letter, ``size`` pixels square; cached, never drawn into."""
    sprite = paint_sprite(
        size,
        [Layer(TILE_SHAPE, TILE_EDGE[colour]), Layer((_rounded_square(41, 9),), TILE_FILL[colour])],
        theme.supersample,
    )
    # The letter is drawn at the final size rather than scaled down, so its strokes stay sharp.
    draw_text(
        ImageDraw.Draw(sprite), (size / 2, size / 2 + 1), LETTERS[colour].upper(), _letter_size(size),
        TILE_INK[colour], anchor="mm",
    )  # fmt: skip
    return sprite


@functools.cache
def ghost_sprite(colour: int, size: int, theme: Theme) -> Image.Image:
    """Return a faded tile: one taken from here in the last ply."""
    return with_opacity(tile_sprite(colour, size, theme), GHOST_OPACITY)


@functools.cache
def marker_sprite(size: int, theme: Theme) -> Image.Image:
    """Return the first-player marker: a round cream token marked ``1`` (round, so never taken for a tile)."""
    sprite = paint_sprite(
        size, [Layer((Ellipse(50, 50, 48, 48),), MARKER_EDGE), Layer((Ellipse(50, 50, 42, 42),), MARKER_FILL)],
        theme.supersample,
    )  # fmt: skip
    draw_text(ImageDraw.Draw(sprite), (size / 2, size / 2 + 1), "1", _letter_size(size), MARKER_INK, anchor="mm")
    return sprite


@functools.cache
def ghost_marker_sprite(size: int, theme: Theme) -> Image.Image:
    """Return a faded marker: taken from the centre in the last ply."""
    return with_opacity(marker_sprite(size, theme), GHOST_OPACITY)


@functools.cache
def disc_sprite(diameter: int, theme: Theme) -> Image.Image:
    """Return a factory display: a disc with a darker rim."""
    return paint_sprite(
        diameter, [Layer((Ellipse(50, 50, 49, 49),), DISC_EDGE), Layer((Ellipse(50, 50, 45.5, 45.5),), DISC_FILL)],
        theme.supersample,
    )  # fmt: skip


@functools.cache
def ring_sprite(diameter: int, width: int, theme: Theme) -> Image.Image:
    """Return an amber ring edged in dark lines, ``diameter`` across: the last ply's source display."""
    unit = 100 / diameter  # one output pixel in box units
    outer = 50 - unit / 2
    layers = [
        Layer((Ellipse(50, 50, outer, outer),), theme.mark_edge),
        Layer((Ellipse(50, 50, outer - 2 * unit, outer - 2 * unit),), theme.mark),
        Layer((Ellipse(50, 50, outer - (2 + width) * unit, outer - (2 + width) * unit),), theme.mark_edge),
        # Painting transparency cuts the hole: the disc and its tiles show through.
        Layer((Ellipse(50, 50, outer - (4 + width) * unit, outer - (4 + width) * unit),), (0, 0, 0, 0)),
    ]
    return paint_sprite(diameter, layers, theme.supersample)


def _gain_pill(text: str, theme: Theme, size: int = PILL_FONT) -> Image.Image:
    """Return an amber pill for points gained (``+5``, ``+19 bonus``)."""
    return pill_sprite(text, size, theme.mark, theme.mark_edge, theme.mark_edge, theme)


def _plain_pill(text: str, theme: Theme, size: int = PILL_FONT) -> Image.Image:
    """Return a dark pill with light text (``−2 floor``, ``2nd``, ``left``)."""
    return pill_sprite(text, size, theme.background, theme.text, theme.text_muted, theme)


def _label_pill(text: str, theme: Theme) -> Image.Image:
    """Return the label of a factory or the centre (``f3``, ``c``), in the move notation."""
    return pill_sprite(text, LABEL_FONT, theme.text, theme.background, theme.background, theme)
