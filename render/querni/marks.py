"""Moves marked on Querni's board (a review's played and better moves, a hint): paths under the pieces, chains over."""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from engines.querni import WIDTH, QuerniEvent
from render.draw import Grid, half_outline_box, outline_box, paste_arrow, paste_centered
from render.querni.layout import _light_square, piece_size
from render.querni.sprites import ghost_sprite
from render.theme import Theme


def _shared(segments: Sequence[Sequence[frozenset[int]]], index: int, segment: frozenset[int]) -> float:
    """Return how far aside (in widths) mark ``index`` draws ``segment``: 0 unless another mark draws it too."""
    if not any(segment in other for i, other in enumerate(segments) if i != index):
        return 0.0
    return (index - (len(segments) - 1) / 2) * 1.6


def _aside(a: tuple[int, int], b: tuple[int, int], shift: float) -> tuple[int, int]:
    """Return the offset that moves a line between the points ``a`` and ``b`` by ``shift`` pixels across it.

    The side is that of the points in order, so two marks' lines between the same squares go apart whichever way
    each runs.
    """
    if not shift:
        return (0, 0)
    sign = 1 if (a, b) == tuple(sorted((a, b))) else -1
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    return (round(-dy / length * shift * sign), round(dx / length * shift * sign))


def _draw_moves_under(card: Image.Image, grid: Grid, marks: Sequence[tuple[QuerniEvent, Theme]]) -> None:
    """Draw under the pieces each move's start outline, path arrows, end square and chain links, in its colour."""
    draw = ImageDraw.Draw(card)
    cell_px = grid.cell
    insets: dict[int, int] = {}  # end square -> where the next outline or lit square on it starts, in from its edge
    starts: set[int] = set()

    def center(cell: int) -> tuple[int, int]:
        return grid.center(cell % WIDTH, cell // WIDTH)

    def box(cell: int) -> tuple[int, int, int, int]:
        return grid.box(cell % WIDTH, cell // WIDTH)

    steps = [[frozenset(pair) for pair in itertools.pairwise(event.path)] for event, _ in marks]
    links = [[frozenset((a, b)) for (_, a), (_, b) in itertools.pairwise(event.removed)] for event, _ in marks]
    for index, (event, mark_theme) in enumerate(marks):
        path = event.path
        if path:
            # On a start already outlined the piece leaves no room for a second outline inside: half of one, over it.
            outline = (
                functools.partial(half_outline_box, card) if path[0] in starts else functools.partial(outline_box, draw)
            )
            outline(box(path[0]), mark_theme, max(3, cell_px // 40), inset=3)
            starts.add(path[0])
            width = max(7, cell_px // 9)
            for i, (a, b) in enumerate(itertools.pairwise(path)):
                start, end = center(a), center(b)
                sx, sy = _aside(start, end, _shared(steps, index, frozenset((a, b))) * width)
                dx, dy = end[0] - start[0], end[1] - start[1]
                back = cell_px * (0.38 if i == len(path) - 2 else 0.2) / math.hypot(dx, dy)
                tip = (round(end[0] - dx * back) + sx, round(end[1] - dy * back) + sy)
                paste_arrow(card, (start[0] + sx, start[1] + sy), tip, width, mark_theme)
            inset = insets.get(path[-1], 0)
            if any(number == event.piece for number, _ in event.removed):
                # The piece would go on to leave in the chain: its ghost will show inside a thick outline.
                outline_box(draw, box(path[-1]), mark_theme, max(5, cell_px // 16), inset=inset + 3)
                insets[path[-1]] = inset + max(5, cell_px // 16) + 9
            else:
                # The end square is empty before the move: lit, as it would be under the piece.
                _light_square(draw, box(path[-1]), mark_theme, inset)
                insets[path[-1]] = inset + max(6, cell_px // 7)
        # The chain's links from ring to ring, in number order, in the move's colour.
        radius = cell_px / 2 - 2
        for (_, a), (_, b) in itertools.pairwise(event.removed):
            (ax, ay), (bx, by) = center(a), center(b)
            length = math.hypot(bx - ax, by - ay)
            ux, uy = (bx - ax) / length, (by - ay) / length
            sx, sy = _aside((ax, ay), (bx, by), _shared(links, index, frozenset((a, b))) * 7)
            ends = [(ax + ux * radius + sx, ay + uy * radius + sy), (bx - ux * radius + sx, by - uy * radius + sy)]
            draw.line(ends, fill=mark_theme.mark_edge, width=max(7, cell_px // 8))
            draw.line(ends, fill=mark_theme.mark, width=max(3, cell_px // 20))


def _draw_moves_over(card: Image.Image, grid: Grid, marks: Sequence[tuple[QuerniEvent, Theme]], theme: Theme) -> None:
    """Draw over the board each move's chain: each piece it removes as its ghost, ringed unless it is the moved one."""
    draw = ImageDraw.Draw(card)
    cell_px = grid.cell
    piece_px = piece_size(theme)
    ring = max(5, cell_px // 12)
    reaches: dict[int, float] = {}  # square -> radius of the next ring on it
    ghosts: set[int] = set()
    for event, mark_theme in marks:
        for number, cell in event.removed:
            x, y = grid.center(cell % WIDTH, cell // WIDTH)
            if cell not in ghosts:
                ghosts.add(cell)
                paste_centered(card, ghost_sprite(event.player, number, piece_px, theme), (x, y))
            if number == event.piece and event.path and cell == event.path[-1]:
                continue  # the moved piece: its thick outline is drawn
            reach = reaches.get(cell, cell_px / 2 - 2)
            draw.ellipse((x - reach, y - reach, x + reach, y + reach), outline=mark_theme.mark_edge, width=ring + 4)
            draw.ellipse(
                (x - reach + 2, y - reach + 2, x + reach - 2, y + reach - 2), outline=mark_theme.mark, width=ring
            )
            reaches[cell] = reach - ring - 5
