"""Querni's colours and sprites: the numbered pieces of each seat, blank and ghosted, drawn once."""

from __future__ import annotations

import functools
import math
from dataclasses import replace

from PIL import Image, ImageDraw

from engines.querni import PIECES
from render.draw import Ellipse, Layer, Poly, Shape, paint_sprite, with_opacity
from render.text import draw_text, fit_size, text_width
from render.theme import RGB, Theme

# Seat colours: fill, edge, number ink.  Blue is light and red dark, so greyscale keeps them apart.
BLUE_FILL: RGB = (124, 184, 255)
BLUE_EDGE: RGB = (12, 26, 54)
BLUE_INK: RGB = (8, 20, 44)
RED_FILL: RGB = (178, 34, 44)
RED_EDGE: RGB = (252, 232, 222)
RED_INK: RGB = (255, 247, 240)
# Removed pieces are shown as ghosts at this opacity for one ply.
GHOST_OPACITY = 0.42
# Outline thickness of a piece, in units of its 100-unit sprite box.
OUTLINE = 4.5


@functools.cache
def querni_theme(theme: Theme) -> Theme:
    """Return ``theme`` with blue and red as its first two seats (name chips and pieces use them)."""
    return replace(
        theme,
        name=f"{theme.name}+querni",
        seat_fill=(BLUE_FILL, RED_FILL, *theme.seat_fill[2:]),
        seat_edge=(BLUE_EDGE, RED_EDGE, *theme.seat_edge[2:]),
        seat_text=(BLUE_INK, RED_INK, *theme.seat_text[2:]),
    )


def _rounded_square(half: float, radius: float, steps: int = 8) -> Poly:
    """Return a square of half-side ``half`` centred in the 100-unit box, its corners rounded by ``radius``."""
    points = []
    inner = half - radius
    # Corner centres clockwise from the bottom right (y points down), each arc a quarter turn further.
    for quarter, (sx, sy) in enumerate(((1, 1), (-1, 1), (-1, -1), (1, -1))):
        cx, cy = 50 + sx * inner, 50 + sy * inner
        for i in range(steps + 1):
            angle = math.pi / 2 * (quarter + i / steps)
            points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return Poly(tuple(points))


# Blue: a disc.  Red: a rounded square of about the same area, so neither looks bigger.
SHAPES: tuple[tuple[Shape, ...], tuple[Shape, ...]] = (
    (Ellipse(50, 50, 45, 45),),
    (_rounded_square(40, 11),),
)


def _number_size(size: int) -> int:
    """Return the font size at which the widest number fits inside a piece of ``size`` pixels."""
    widest = max((str(n) for n in range(1, PIECES + 1)), key=lambda text: text_width(text, 100))
    return fit_size(widest, round(size * 0.56), size * 0.7, 10)


@functools.cache
def blank_sprite(colour: int, size: int, theme: Theme) -> Image.Image:
    """Return a seat's piece without a number, ``size`` pixels square; cached, never drawn into."""
    return paint_sprite(
        size,
        [Layer(SHAPES[colour], theme.seat_edge[colour], OUTLINE), Layer(SHAPES[colour], theme.seat_fill[colour])],
        theme.supersample,
    )


@functools.cache
def piece_sprite(colour: int, number: int, size: int, theme: Theme) -> Image.Image:
    """Return ``colour``'s piece ``number`` at ``size`` pixels square; cached, never drawn into."""
    sprite = blank_sprite(colour, size, theme).copy()
    # The number is drawn at the final size rather than scaled down, so its strokes stay sharp.
    draw_text(
        ImageDraw.Draw(sprite),
        (size / 2, size / 2 + 1),
        str(number),
        _number_size(size),
        theme.seat_text[colour],
        anchor="mm",
    )
    return sprite


@functools.cache
def ghost_sprite(colour: int, number: int, size: int, theme: Theme) -> Image.Image:
    """Return the faded sprite of a piece removed in the last ply, its number still readable."""
    ghost = with_opacity(blank_sprite(colour, size, theme), GHOST_OPACITY)
    # The number keeps more strength than the body: it says which piece left.
    ink = with_opacity(piece_sprite(colour, number, size, theme), 0.85)
    mask = Image.new("L", (size, size), 0)
    draw_text(ImageDraw.Draw(mask), (size / 2, size / 2 + 1), str(number), _number_size(size), (255,), anchor="mm")
    ghost.paste(ink, (0, 0), mask)
    return ghost
