"""Colours and sizes shared by every game's picture.

A :class:`Theme` is a frozen value, so it can key the caches of pre-drawn
sprites and board bases.  The default theme is an opaque dark slate card: it
reads the same on Discord's light and dark modes, and its colours were chosen
to survive greyscale and the common colour blindnesses:

* seats differ first by *lightness* (cream pieces with a near-black outline,
  near-black pieces with a cream outline), so no hue is needed to tell them apart;
* marks of the last move are amber (the blue-yellow axis that deuteranopes and
  protanopes keep) and also differ by *shape* (outline, arrow, badge, pill);
* the board is a mid-lightness teal, halfway between the two seats in greyscale.

>>> DEFAULT_THEME.width, DEFAULT_THEME.seat_fill[0] != DEFAULT_THEME.seat_fill[1]
(720, True)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

RGB = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Theme:
    """Every colour and size a renderer may use; frozen so it can key caches."""

    name: str = "slate"
    # The whole card, and the panel behind the player rows.
    background: RGB = (38, 42, 49)
    panel: RGB = (52, 58, 67)
    panel_active: RGB = (70, 78, 90)
    text: RGB = (238, 238, 232)
    text_muted: RGB = (170, 176, 186)
    # Board: a frame of deep water, lighter "pads" for the cells.
    board_frame: RGB = (30, 84, 96)
    cell: RGB = (64, 134, 146)
    cell_alt: RGB = (58, 125, 137)
    cell_edge: RGB = (40, 100, 112)
    coordinate: RGB = (200, 206, 214)
    # The last move and what it caused.
    mark: RGB = (255, 184, 28)
    mark_edge: RGB = (26, 26, 26)
    # A review's better move (and a hint), marked beside the move played: blue against the amber, the pair
    # of hues that every common colour-vision deficiency keeps apart (Okabe–Ito's blue, lightened for the dark card).
    better_mark: RGB = (86, 180, 233)
    # Seats in order.  The first two are the pale/dark pair used by two-player
    # games; games for more seats add hues that keep distinct lightness.
    seat_fill: tuple[RGB, ...] = ((244, 239, 226), (32, 35, 41), (230, 120, 40), (80, 150, 230))
    seat_edge: tuple[RGB, ...] = ((24, 24, 26), (236, 230, 214), (40, 22, 8), (10, 26, 48))
    seat_text: tuple[RGB, ...] = ((24, 24, 26), (244, 239, 226), (24, 12, 4), (6, 16, 32))
    # Sizes, in output pixels.  A phone shows the card about 360 points wide, so
    # text under about 22 px becomes hard to read.
    width: int = 720
    padding: int = 18
    font_title: int = 30
    font_body: int = 25
    font_small: int = 21
    font_coordinate: int = 23
    # Sprites are drawn this many times larger, then scaled down, for smooth edges.
    supersample: int = 4
    # Colours in the PNG palette (the image is quantised before encoding).
    png_colours: int = 64
    # ISA-L's deflate level (0–3) for the PNG's scanlines (see render.png): 1 deflates a board in about 0.3 ms, a
    # sixth of zlib's level 3 then used, for 6 % more bytes (the pixels are the same: PNG is lossless).
    png_deflate_level: int = 1

    def with_width(self, width: int) -> Theme:
        """Return a copy of this theme for a card ``width`` pixels wide."""
        return replace(self, width=width)


DEFAULT_THEME = Theme()
