"""Summer's colours and sprites: pieces with their weights, ghosts, plus and minus symbols, badges and flags."""

from __future__ import annotations

import functools
import math

from PIL import Image, ImageDraw

from render.draw import Ellipse, Layer, Poly, Shape, paint_sprite, with_opacity
from render.text import draw_text, fit_size, text_width
from render.theme import RGB, Theme

MINUS = "\u2212"  # a true minus sign: a hyphen reads as a dash at small sizes

# Cell colours.  Their lightness alone tells them apart (greyscale: plus ≈ 160, start rows ≈ 120,
# minus ≈ 90), between Black's pieces (≈ 35) and White's (≈ 240); the hues (green, slate, violet)
# stay apart for the common colour blindnesses, and each terrain cell also carries its symbol.
PLUS_FILL: RGB = (122, 186, 150)
PLUS_INK: RGB = (56, 112, 84)
MINUS_FILL: RGB = (100, 78, 128)
MINUS_INK: RGB = (170, 150, 200)
START_FILL: RGB = (108, 124, 138)
# Chips on occupied cells use strong ink, since they are small.
CHIP_INK: tuple[RGB, RGB] = ((20, 52, 36), (244, 236, 255))

# A piece's disc takes this share of the widest circle that fits in its cell: a little more on the hex board,
# whose pads are rounder, so that the weights on its smaller cells stay large enough to read.
PIECE_SHARE = 0.86
HEX_PIECE_SHARE = 0.96
# Pieces removed by the last ply are shown as ghosts at this opacity.
GHOST_OPACITY = 0.4

# Badges for what the last ply did on its target cell.
BADGE_MERGED = "merged"
BADGE_COLLIDED = "collided"


def _weight_size(text: str, diameter: int) -> int:
    """Return the largest type size at which a weight fits well inside a disc of ``diameter``."""
    return fit_size(text, max(8, round(diameter * 0.6)), diameter * 0.76, 8)


@functools.lru_cache(maxsize=2048)  # bounded: weights can grow large in long games
def piece_sprite(seat: int, weight: int, diameter: int, theme: Theme) -> Image.Image:
    """Return a piece: a disc in the seat's colours with its weight in large type; cached, never drawn into."""
    fill, edge, ink = theme.seat_fill[seat], theme.seat_edge[seat], theme.seat_text[seat]
    layers = [Layer((Ellipse(50, 50, 47, 47),), edge), Layer((Ellipse(50, 50, 41, 41),), fill)]
    sprite = paint_sprite(diameter, layers, theme.supersample)
    if weight:
        text = str(weight)
        size = _weight_size(text, diameter)
        draw_text(ImageDraw.Draw(sprite), (diameter / 2, diameter / 2 + 1), text, size, ink, anchor="mm")
    return sprite


@functools.lru_cache(maxsize=256)
def ghost_sprite(seat: int, weight: int, diameter: int, theme: Theme) -> Image.Image:
    """Return a faded piece, for one the last ply removed."""
    return with_opacity(piece_sprite(seat, weight, diameter, theme), GHOST_OPACITY)


def _bar(cx: float, cy: float, half_length: float, half_width: float, angle: float = 0.0) -> Poly:
    """Return a bar centred on ``(cx, cy)``, turned by ``angle`` degrees."""
    a = math.radians(angle)
    ux, uy, nx, ny = math.cos(a), math.sin(a), -math.sin(a), math.cos(a)
    corners = ((1, 1), (1, -1), (-1, -1), (-1, 1))
    return Poly(
        tuple(
            (cx + ux * half_length * s + nx * half_width * t, cy + uy * half_length * s + ny * half_width * t)
            for s, t in corners
        )
    )


def _symbol(plus: bool, half_length: float = 30, half_width: float = 8) -> tuple[Shape, ...]:
    """Return a plus or minus sign centred in the 100-unit box."""
    bars: tuple[Shape, ...] = (_bar(50, 50, half_length, half_width),)
    return (*bars, _bar(50, 50, half_length, half_width, 90)) if plus else bars


@functools.cache
def symbol_sprite(plus: bool, size: int, theme: Theme) -> Image.Image:
    """Return the large plus or minus sign printed on an empty terrain cell."""
    return paint_sprite(size, [Layer(_symbol(plus, 34, 9), PLUS_INK if plus else MINUS_INK)], theme.supersample)


@functools.cache
def chip_sprite(plus: bool, size: int, theme: Theme) -> Image.Image:
    """Return the small chip that shows a cell's sign beside the piece standing on it."""
    layers = [
        Layer((Ellipse(50, 50, 48, 48),), theme.mark_edge),
        Layer((Ellipse(50, 50, 40, 40),), PLUS_FILL if plus else MINUS_FILL),
        Layer(_symbol(plus, 26, 8), CHIP_INK[0 if plus else 1]),
    ]
    return paint_sprite(size, layers, theme.supersample)


@functools.cache
def swatch_sprite(plus: bool, size: int, theme: Theme) -> Image.Image:
    """Return a small plus or minus cell for the legend."""
    square = Poly(((6, 6), (94, 6), (94, 94), (6, 94)))
    layers = [
        Layer((square,), PLUS_FILL if plus else MINUS_FILL, 4),
        Layer(_symbol(plus, 30, 9), PLUS_INK if plus else MINUS_INK),
    ]
    return paint_sprite(size, layers, theme.supersample)


def _burst() -> Poly:
    """Return an eight-pointed burst, for a collision."""
    points = []
    for i in range(16):
        r = 30 if i % 2 == 0 else 14
        a = math.radians(i * 22.5 - 90)
        points.append((50 + r * math.cos(a), 50 + r * math.sin(a)))
    return Poly(tuple(points))


@functools.cache
def badge_sprite(kind: str, diameter: int, theme: Theme) -> Image.Image:
    """Return a round amber badge for what the last ply did: merged or collided."""
    layers = [Layer((Ellipse(50, 50, 47, 47),), theme.mark_edge), Layer((Ellipse(50, 50, 40, 40),), theme.mark)]
    if kind == BADGE_MERGED:
        # Two rings run together into one outline: two pieces became one.
        layers.append(Layer((Ellipse(39, 50, 15, 15), Ellipse(61, 50, 15, 15)), theme.mark_edge))
        layers.append(Layer((Ellipse(39, 50, 8, 8), Ellipse(61, 50, 8, 8)), theme.mark))
    else:
        layers.append(Layer((_burst(),), theme.mark_edge))
    return paint_sprite(diameter, layers, theme.supersample)


@functools.cache
def cross_sprite(size: int, theme: Theme) -> Image.Image:
    """Return a large amber cross drawn over the ghost of a removed piece."""
    bars = (_bar(50, 50, 36, 6, 45), _bar(50, 50, 36, 6, -45))
    return paint_sprite(size, [Layer(bars, theme.mark_edge, 3.5), Layer(bars, theme.mark)], theme.supersample)


@functools.cache
def removed_icon(size: int, theme: Theme) -> Image.Image:
    """Return the legend's icon for a removed piece: a White ghost crossed out."""
    icon = ghost_sprite(0, 0, size, theme).copy()
    cross = cross_sprite(round(size * 0.8), theme)
    icon.alpha_composite(cross, ((size - cross.width) // 2, (size - cross.height) // 2))
    return icon


@functools.cache
def flag_sprite(seat: int, size: int, theme: Theme) -> Image.Image:
    """Return a small flag in a seat's colours, marking the row that seat races to."""
    pole = Poly(((22, 8), (30, 8), (30, 94), (22, 94)))
    cloth = Poly(((30, 10), (88, 29), (30, 50)))
    return paint_sprite(
        size,
        [Layer((pole, cloth), theme.seat_edge[seat], 5), Layer((pole, cloth), theme.seat_fill[seat])],
        theme.supersample,
    )


@functools.cache
def ring_sprite(diameter: int, width: int, theme: Theme) -> Image.Image:
    """Return a mark-coloured ring edged in dark lines, ``diameter`` across, hollow: drawn around a piece."""
    unit = 100 / diameter  # one output pixel in box units
    outer = 50 - unit / 2
    layers = [
        Layer((Ellipse(50, 50, outer, outer),), theme.mark_edge),
        Layer((Ellipse(50, 50, outer - 2 * unit, outer - 2 * unit),), theme.mark),
        Layer((Ellipse(50, 50, outer - (2 + width) * unit, outer - (2 + width) * unit),), theme.mark_edge),
        # Painting transparency cuts the hole: the piece shows through.
        Layer((Ellipse(50, 50, outer - (4 + width) * unit, outer - (4 + width) * unit),), (0, 0, 0, 0)),
    ]
    return paint_sprite(diameter, layers, theme.supersample)


@functools.lru_cache(maxsize=2048)
def weight_box(weight: int, diameter: int) -> tuple[float, float]:
    """Return the half width and half height of a piece's weight as drawn on a disc of ``diameter`` (0: none)."""
    if not weight:
        return 0.0, 0.0
    text = str(weight)
    size = _weight_size(text, diameter)
    # Digits stand about 0.73 em tall in the bundled font.
    return text_width(text, size) / 2, size * 0.37 + 1
