"""Where everything sits on Summer's card: the square or hex board's cells, the card's rows, a badge's spot."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from render.draw import Grid, Point, player_row_height
from render.summer.sprites import HEX_PIECE_SHARE, PIECE_SHARE, weight_box
from render.theme import Theme

# Where the small marks sit, as a share of the cell's inscribed radius, up-left and up-right of centre.
CORNER = 0.64
LEGEND_LINE = 40
# Lines of the legend on an ordinary board; a marked board's has one more, for what its colours mean.
LEGEND_LINES = 4


@dataclass(frozen=True, slots=True)
class Board:
    """Where the cells of one board size and shape fall on the card.

    ``pitch`` is the distance between the centres of two cells side by side,
    ``radius`` the radius of the widest circle inside a cell's pad, ``centers``
    each cell's centre in the engine's cell order (rank 1 first).
    """

    size: int
    hexagonal: bool
    pitch: int
    left: int
    top: int
    width: int
    height: int
    radius: float
    centers: tuple[tuple[int, int], ...]

    @property
    def right(self) -> int:
        return self.left + self.width

    @property
    def bottom(self) -> int:
        return self.top + self.height

    @property
    def frame(self) -> int:
        """Return the width of the frame around the cells."""
        return max(4, self.pitch // 20)

    @property
    def grid(self) -> Grid:
        """Return the square grid (square boards only)."""
        return Grid(self.size, self.size, self.pitch, self.left, self.top)

    @property
    def hex_radius(self) -> float:
        """Return a hexagon's circumradius (centre to corner)."""
        return self.pitch / math.sqrt(3)

    def hexagon(self, cell: int, shrink: float = 0.0) -> list[Point]:
        """Return the corners of ``cell``'s hexagon, ``shrink`` pixels inside it."""
        x, y = self._exact_center(cell)
        return [(x + dx, y + dy) for dx, dy in hexagon_points(self.hex_radius - shrink)]

    def _exact_center(self, cell: int) -> Point:
        rank, file = divmod(cell, self.size)
        if not self.hexagonal:
            cx, cy = self.centers[cell]
            return float(cx), float(cy)
        r = self.hex_radius
        # Odd rows sit half a cell to the right; rows are 1.5 circumradii apart.
        return self.left + self.pitch * (file + 0.5 + 0.5 * (rank % 2)), self.top + r + (self.size - 1 - rank) * 1.5 * r

    def corner(self, cell: int, side: int, below: bool = False) -> tuple[int, int]:
        """Return the point up-left (``side`` -1) or up-right (+1) of a cell's centre where small marks go.

        ``below`` gives the points down-left and down-right instead.
        """
        x, y = self.centers[cell]
        offset = self.radius * CORNER
        return round(x + side * offset), round(y + offset if below else y - offset)


def hexagon_points(radius: float) -> list[Point]:
    """Return the corners of a pointed-top hexagon of circumradius ``radius`` around ``(0, 0)``."""
    return [(radius * math.cos(math.radians(a)), radius * math.sin(math.radians(a))) for a in range(-90, 270, 60)]


def make_board(size: int, hexagonal: bool, left: int, top: int, room: int) -> Board:
    """Lay out a ``size`` x ``size`` board ``room`` pixels wide from ``left``, from ``top`` down."""
    if not hexagonal:
        cell = room // size
        grid = Grid(size, size, cell, left + (room - cell * size) // 2, top)
        centers = tuple(grid.center(c % size, c // size) for c in range(size * size))
        gap = max(2, cell // 40)
        return Board(size, False, cell, grid.left, top, grid.width, grid.height, cell / 2 - gap, centers)
    # An even whole pitch puts every centre on a whole pixel across, so the pasted cells line up.
    pitch = int(room / (size + 0.5)) // 2 * 2
    radius = pitch / math.sqrt(3)
    width = math.ceil(pitch * (size + 0.5))
    height = math.ceil(2 * radius + 1.5 * radius * (size - 1))
    board_left = left + (room - width) // 2
    shell = Board(size, True, pitch, board_left, top, width, height, 0.0, ())
    exact = [shell._exact_center(c) for c in range(size * size)]
    centers = tuple((round(x), round(y)) for x, y in exact)
    inset = max(2.0, pitch / 40)  # the gap between neighbouring pads, as on the square board
    return Board(size, True, pitch, board_left, top, width, height, pitch / 2 - inset, centers)


@dataclass(frozen=True, slots=True)
class Layout:
    """Where each part of the card goes for one board size, shape and theme."""

    width: int
    height: int
    header_top: int
    status_top: int
    caption_top: int
    board: Board
    legend_top: int


@functools.cache
def layout(size: int, hexagonal: bool, theme: Theme, extra: int = 0, keys: bool = False) -> Layout:
    """Compute the card layout for a ``size`` x ``size`` square or hex board.

    ``extra`` pixels are added above the board when the status and caption need more lines than one each;
    ``keys``: a marked board's legend has room for a line more, for its colours, whatever it marks.
    """
    width, pad = theme.width, theme.padding
    header_top = pad
    status_top = header_top + 2 * player_row_height(theme) + 6
    caption_top = status_top + theme.font_body + 14
    # Rank numbers on the left, goal flags on the right, the same room on both sides keeps the board centred.
    side_room = theme.font_coordinate + 20
    top_room = theme.font_coordinate + 18 if hexagonal else 0  # the hex board has letters on top as well
    board_top = caption_top + theme.font_small + 26 + top_room + extra
    board = make_board(size, hexagonal, pad + side_room, board_top, width - 2 * pad - 2 * side_room)
    legend_top = board.bottom + theme.font_coordinate + 34
    height = legend_top + (LEGEND_LINES + keys) * LEGEND_LINE + pad
    return Layout(width, height, header_top, status_top, caption_top, board, legend_top)


@functools.cache
def _sizes(size: int, hexagonal: bool, theme: Theme) -> tuple[int, int, int, int, int]:
    """Return the pixel sizes of a piece, a cell symbol, a chip, a badge and the ±1 type on this board."""
    radius = layout(size, hexagonal, theme).board.radius
    piece = round(2 * radius * (HEX_PIECE_SHARE if hexagonal else PIECE_SHARE))
    symbol = round(radius * 1.05)
    chip = max(14, round(radius * 0.62))
    badge = max(18, round(radius * 0.74))
    pill = max(14, min(theme.font_small, round(radius * 0.62)))
    return piece, symbol, chip, badge, pill


def mark_spot(
    board: Board, cell: int, weight: int, diameter: int, mark: tuple[int, int], side: int, below: bool
) -> tuple[int, int]:
    """Return where a badge, pill or chip of ``mark`` (width, height) goes on a piece: up (or down), to ``side``.

    It sits at the cell's corner point, moved out until it clears the piece's weight, so that it never covers
    the number; the badge (right) and the pill or chip (left) stay apart on either side of the centre line.
    """
    x, y = board.centers[cell]
    offset = board.radius * CORNER
    _, half_height = weight_box(weight, diameter)
    dy = max(offset, half_height + mark[1] / 2 + 2)
    dx = max(offset, mark[0] / 2 + 2)
    return round(x + side * dx), round(y + dy if below else y - dy)
