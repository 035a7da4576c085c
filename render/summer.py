"""Summer's board picture.

The card shows, top to bottom: one row per player (name chip in the seat's
colours, pieces on the board and how many have arrived, the goal-row total and
what the last ply changed in it, whose turn it is or who won), a status line
(whose turn, Black's one last move once White has arrived, or the result and
why), a line saying what the last move did, the board with its coordinates, and
a legend with the game's mode.

The board is square, or hexagonal: rows of pointed-top hexagons, rank 1 and
every second rank after it (1, 3, 5…) straight, ranks 2, 4, 6… shifted half a
cell to the right, as the rules and the notation say.  File letters run along the bottom (and along the top of the hex
board, whose columns slant), rank numbers up the left side; a flag in each
side's colours marks the row that side is racing to.

Cells differ by symbol as well as colour: plus cells are light green with a
``+``, minus cells dark violet with a ``−``, the two start rows plain slate.  A
piece standing on a plus or minus cell carries a small chip with the symbol, so
the cell's kind stays readable under it.  Pieces are discs with their weight
in large type, cream with a near-black edge (White) or near-black with a cream
edge (Black), so the sides stay apart in greyscale.

The last ply is marked by shape: a thin amber outline and an arrow from the
cell the piece left, a thick outline on the cell it went to, and a badge for
what happened there: two joined rings (merged), a burst (collided, including a
field-mode win), a cross over a faded ghost (removed: equal weights, or a
weight brought to 0), and a ``+1`` or ``−1`` pill when the cell changed the
mover's weight.  The badge and the pill sit clear of the piece's weight, which
they never cover.  A caption that does not fit on one line wraps to a second
one and the board moves down to make room.

A review's board (``marks=``) shows the position before a move with moves marked
on it, each in its own mark colour (the move played amber, a better one blue):
the same outlines, an arrow running between the two pieces' weights (the piece
has not left yet) and a merged or collided badge where it would meet a piece.
What the move would remove or change (ghosts, ``±1``) is not drawn.  A later
move on a cell an earlier one outlines rings the piece there instead.

>>> from engines import GAMES
>>> state = GAMES["summer"].new(size=3, weights=[1, 2, 3], black_weights=[3, 1, 2], terrain=["...", "+-+", "..."])
>>> state = state.play("c1-b2")
>>> picture = render_summer(state, players=("Ana", "Bo"), last_move=True)
>>> picture.image.mode, picture.image.width
('RGB', 720)
>>> last_move_text(state, ("Ana", "Bo"))
'Ana c1-b2 (3): −1 → 2'
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

import i18n
from engines.summer import DESTROYED, MERGED, MOVED, SEATS, SummerEvent, SummerState, owner_of
from i18n.catalog import pgettext
from i18n.summer import header_facts
from render.draw import (
    FILE_LETTERS,
    Ellipse,
    Grid,
    Layer,
    Picture,
    PlayerRow,
    Point,
    Poly,
    Shape,
    display_name,
    draw_grid,
    draw_lines,
    draw_player_rows,
    draw_status,
    new_card,
    outline_box,
    paint_sprite,
    palette_from_cards,
    paste_arrow,
    paste_centered,
    pill_sprite,
    player_row_height,
    with_opacity,
)
from render.text import draw_text, ellipsize, fit_size, text_width, wrap
from render.theme import DEFAULT_THEME, RGB, Theme

if TYPE_CHECKING:  # the gallery's types, for gallery() at the end
    from render.gallery import Showcase

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
# Where the small marks sit, as a share of the cell's inscribed radius, up-left and up-right of centre.
CORNER = 0.64
LEGEND_LINE = 40
LEGEND_LINES = 4

# Badges for what the last ply did on its target cell.
BADGE_MERGED = "merged"
BADGE_COLLIDED = "collided"


# -- board geometry -----------------------------------------------------------------------------------------------


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


# -- layout -------------------------------------------------------------------------------------------------------


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
def layout(size: int, hexagonal: bool, theme: Theme, extra: int = 0) -> Layout:
    """Compute the card layout for a ``size`` x ``size`` square or hex board.

    ``extra`` pixels are added above the board when the status and caption need more lines than one each.
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
    height = legend_top + LEGEND_LINES * LEGEND_LINE + pad
    return Layout(width, height, header_top, status_top, caption_top, board, legend_top)


# -- sprites ------------------------------------------------------------------------------------------------------


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
def _sizes(size: int, hexagonal: bool, theme: Theme) -> tuple[int, int, int, int, int]:
    """Return the pixel sizes of a piece, a cell symbol, a chip, a badge and the ±1 type on this board."""
    radius = layout(size, hexagonal, theme).board.radius
    piece = round(2 * radius * (HEX_PIECE_SHARE if hexagonal else PIECE_SHARE))
    symbol = round(radius * 1.05)
    chip = max(14, round(radius * 0.62))
    badge = max(18, round(radius * 0.74))
    pill = max(14, min(theme.font_small, round(radius * 0.62)))
    return piece, symbol, chip, badge, pill


# -- the parts that do not change during a game ------------------------------------------------------------------


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
def static_card(size: int, hexagonal: bool, mode: str, theme: Theme, locale: str = "en", extra: int = 0) -> Image.Image:
    """Return what never changes in a game: background, coordinates, goal flags and legend."""
    lay = layout(size, hexagonal, theme, extra)
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
    _draw_legend(card, lay, mode, theme, locale)
    return card


def _draw_legend(card: Image.Image, lay: Layout, mode: str, theme: Theme, locale: str = "en") -> None:
    """Draw what the cells, flags and marks mean, the collision mode and how pieces move."""
    icon = 30
    y = lay.legend_top + LEGEND_LINE // 2
    outline = Image.new("RGBA", (icon, icon), (0, 0, 0, 0))
    outline_box(ImageDraw.Draw(outline), (0, 0, icon, icon), theme, 3, inset=1)
    lines: list[list[tuple[tuple[Image.Image, ...], str]]] = [
        [
            ((swatch_sprite(True, icon, theme),), pgettext(locale, "board", "plus: +1")),
            ((swatch_sprite(False, icon, theme),), pgettext(locale, "board", "minus: {minus}1", minus=MINUS)),
            ((flag_sprite(0, icon, theme), flag_sprite(1, icon, theme)), pgettext(locale, "board", "goal rows")),
        ],
        [
            ((outline,), pgettext(locale, "board", "last move")),
            ((badge_sprite(BADGE_MERGED, icon, theme),), pgettext(locale, "board", "merged")),
            ((badge_sprite(BADGE_COLLIDED, icon, theme),), pgettext(locale, "board", "collided")),
            ((removed_icon(icon, theme),), pgettext(locale, "board", "removed")),
        ],
        [((), mode_line(mode, locale))],
        [((), move_line(lay.board.hexagonal, locale))],
    ]
    for parts in lines:
        _legend_line(card, parts, y, theme)
        y += LEGEND_LINE


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
    size: int, hexagonal: bool, mode: str, terrain: tuple[int, ...], theme: Theme, locale: str = "en", extra: int = 0
) -> Image.Image:
    """Return the static card with this game's cells painted: plus, minus and start rows."""
    lay = layout(size, hexagonal, theme, extra)
    card = static_card(size, hexagonal, mode, theme, locale, extra).copy()
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


# -- texts --------------------------------------------------------------------------------------------------------


def _seat(seat: int) -> str:
    return SEATS[seat].capitalize()


def status_text(state: SummerState, names: Sequence[str], locale: str = "en") -> str:
    """Return the status line: whose turn it is (and Black's last move), or the result and why (see :mod:`i18n`)."""
    return i18n.status_text(state, names, locale)


def caption_names(names: Sequence[str], theme: Theme) -> list[str]:
    """Return the names shortened for the caption, so that what the move did is never cut."""
    return [ellipsize(name, theme.font_small, theme.width * 0.24) for name in names]


def status_names(names: Sequence[str], theme: Theme) -> list[str]:
    """Return the names shortened for the status line, so that its end (why, the move limit) is never cut."""
    return [ellipsize(name, theme.font_body, theme.width * 0.3) for name in names]


def last_move_text(state: SummerState, names: Sequence[str] | None = None, locale: str = "en") -> str:
    """Return one short line saying what the last ply did, e.g. ``Ana c1-b2: merged 3 + 5 = 8, −1 → 7``."""
    return i18n.caption_text(state, names, locale)


def caption_lines(caption: str, theme: Theme) -> tuple[int, list[str]]:
    """Return the caption's type size and lines: one line, a little smaller if need be, else two at the usual size.

    Nothing is cut: the names in it are shortened beforehand (the header shows them in full).
    """
    if not caption:
        return theme.font_small, []
    room = theme.width - 2 * theme.padding
    size = fit_size(caption, theme.font_small, room, 18)
    if text_width(caption, size) <= room:
        return size, [caption]
    return theme.font_small, wrap(caption, theme.font_small, room)


def text_extra(caption: str, theme: Theme) -> int:
    """Return the pixels the card grows by above the board for a caption wrapped to more lines.

    A status on two lines pushes the caption into the gap above the board (as it always did); each further
    caption line makes room for itself.
    """
    size, lines = caption_lines(caption, theme)
    return max(0, len(lines) - 1) * (size + 2)


# -- one frame ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Marks:
    """What to mark for one ply: the cells, a badge, a ±1 pill, and a ghost of a removed piece."""

    frm: int
    to: int
    badge: str | None = None
    modifier: int = 0
    ghost: tuple[int, int] | None = None  # (seat, weight) of the piece removed on ``to``


def marks_of(state: SummerState) -> Marks | None:
    """Return the marks of the last ply, or ``None`` at the start."""
    event = state.last
    if event is None:
        return None
    frm, to = event.move
    # A removal shows as a crossed-out ghost rather than a badge; a merge or collision keeps its badge.
    badge = {MERGED: BADGE_MERGED, DESTROYED: None, MOVED: None}.get(event.action, BADGE_COLLIDED)
    # The engine says which piece left the board there (and whose it was, at what weight).
    return Marks(frm, to, badge, event.modifier, event.removed_piece)


def goal_gains(state: SummerState) -> tuple[int, int]:
    """Return how much the last ply changed each side's goal-row total (the engine says)."""
    return state.goal_gains()


def _rows(
    state: SummerState, names: Sequence[str], gains: tuple[int, int], theme: Theme, locale: str = "en"
) -> list[PlayerRow]:
    """Return the header rows: disc, name, pieces left and on the goal row, goal-row weight, turn or result."""
    result = state.outcome()
    goals = state.goal_totals()
    rows = []
    for seat in (0, 1):
        left, home, label = header_facts(state, seat, locale)
        tag = None
        if result is not None:
            if len(result.winners) > 1:
                tag = pgettext(locale, "board", "draw")
            elif seat in result.winners:
                tag = pgettext(locale, "board", "winner")
        elif seat == 1 and state.black_last_move:
            tag = pgettext(locale, "board", "last move")
        rows.append(
            PlayerRow(
                name=names[seat],
                seat=seat,
                icon=piece_sprite(seat, 0, 54, theme),
                score=goals[seat],
                facts=((piece_sprite(seat, 0, 26, theme), left), (None, home)),
                gain=gains[seat],
                active=result is None and state.to_move == seat,
                tag=tag,
                score_label=label,
            )
        )
    return rows


def _outline_cell(draw: ImageDraw.ImageDraw, board: Board, cell: int, width: int, theme: Theme, inset: int = 0) -> None:
    """Outline a cell with the amber last-move ring edged in a dark line, ``inset`` pixels further in."""
    if not board.hexagonal:
        rank, file = divmod(cell, board.size)
        outline_box(draw, board.grid.box(file, rank), theme, width, inset=4 + inset)
        return
    shrink = 4 + inset + width / 2
    for colour, line in ((theme.mark_edge, width + 4), (theme.mark, width)):
        points = board.hexagon(cell, shrink)
        draw.line([*points, points[0], points[1]], fill=colour, width=round(line), joint="curve")


def _arrow(card: Image.Image, board: Board, frm: int, to: int, theme: Theme) -> None:
    """Draw a move's arrow from the centre of ``frm`` up to the edge of the piece landing on ``to``."""
    start, end = board.centers[frm], board.centers[to]
    dx, dy = end[0] - start[0], end[1] - start[1]
    back = board.radius * 0.8 / math.hypot(dx, dy)
    tip = (round(end[0] - dx * back), round(end[1] - dy * back))
    paste_arrow(card, start, tip, max(6, board.pitch // 11), theme)


def _compose(
    size: int,
    hexagonal: bool,
    mode: str,
    terrain: tuple[int, ...],
    theme: Theme,
    rows: Sequence[PlayerRow],
    status: str,
    caption: str,
    board_values: Sequence[int],
    marks: Sequence[Marks],
    locale: str = "en",
    proposals: Sequence[Proposal] = (),
) -> Image.Image:
    """Draw one card: header, status, caption, the pieces and the marks (and any moves proposed on it)."""
    extra = text_extra(caption, theme)
    lay = layout(size, hexagonal, theme, extra)
    board = lay.board
    card = terrain_card(size, hexagonal, mode, terrain, theme, locale, extra).copy()
    draw = ImageDraw.Draw(card)
    draw_player_rows(card, rows, lay.header_top, theme)
    # A status line may shrink a little below the theme's small size before it is cut.
    below = draw_status(
        card, status, lay.status_top, theme, size=fit_size(status, theme.font_body, card.width - 2 * theme.padding, 18)
    )
    if caption:
        text_size, lines = caption_lines(caption, theme)
        # A status wrapped to two lines (a longer language) pushes the caption down into the gap above the board.
        top = max(lay.caption_top, below + 4)
        room = card.width - 2 * theme.padding
        draw_lines(draw, lines, (card.width / 2, top), text_size, room, theme.mark)
    piece_px, _, chip_px, badge_px, pill_px = _sizes(size, hexagonal, theme)
    centers = board.centers

    # Marks under the pieces: outlines at the cell edges, and the arrow up to the edge of the landing piece.
    for mark in marks:
        _outline_cell(draw, board, mark.frm, max(3, board.pitch // 40), theme)
        _arrow(card, board, mark.frm, mark.to, theme)
        _outline_cell(draw, board, mark.to, max(4, board.pitch // 20), theme)
    _draw_proposals(card, board, proposals)

    chips = (chip_sprite(False, chip_px, theme), chip_sprite(True, chip_px, theme))
    # Where the cell's ±1 was just applied, its pill replaces the chip.
    signed = {mark.to for mark in marks if mark.modifier}
    for cell, value in enumerate(board_values):
        if value:
            paste_centered(card, piece_sprite(owner_of(value), abs(value), piece_px, theme), centers[cell])
            if terrain[cell] and cell not in signed:
                chip = chips[terrain[cell] > 0]
                paste_centered(card, chip, mark_spot(board, cell, abs(value), piece_px, chip.size, -1, False))

    # Marks over the pieces: a ghost crossed out, the badge of what happened, the cell's ±1.
    for mark in marks:
        center = centers[mark.to]
        # The badge and pill sit on the side away from the arrow: below when the piece came down the board.
        below = centers[mark.frm][1] < center[1]
        if mark.ghost is not None:
            paste_centered(card, ghost_sprite(*mark.ghost, piece_px, theme), center)
            paste_centered(card, cross_sprite(round(piece_px * 0.8), theme), center)
        weight = abs(board_values[mark.to])
        if mark.badge is not None:
            badge = badge_sprite(mark.badge, badge_px, theme)
            paste_centered(card, badge, mark_spot(board, mark.to, weight, piece_px, badge.size, 1, below))
        if mark.modifier:
            text = "+1" if mark.modifier > 0 else f"{MINUS}1"
            pill = pill_sprite(text, pill_px, theme.mark, theme.mark_edge, theme.mark_edge, theme)
            paste_centered(card, pill, mark_spot(board, mark.to, weight, piece_px, pill.size, -1, below))
    _draw_proposals_over(card, board, proposals, board_values, piece_px, badge_px)
    return card


# -- moves marked on the position before them (a review's played and better moves, a hint) ------------------------


@dataclass(frozen=True, slots=True)
class Proposal:
    """A move drawn on the position before it, in its own mark colours: its cells, arrow and badge.

    ``badge`` says what would happen on the target (merged with an own piece, or collided with one of the
    other side's); ``shared_from`` / ``shared_to`` say an earlier proposal already outlines that cell, so
    this one rings the piece there instead.
    """

    frm: int
    to: int
    badge: str | None
    theme: Theme
    shared_from: bool = False
    shared_to: bool = False


def proposals_of(marks: Sequence[tuple[SummerEvent, Theme]]) -> tuple[Proposal, ...]:
    """Return the proposals for ``(event, mark theme)`` pairs: each event is what a move would do from here.

    Only what holds before the move is drawn: where the piece goes and whether it meets a piece there.  Its
    ±1 (the cell's chip shows it) and what it would remove are left out, since the pieces still stand.
    """
    proposals: list[Proposal] = []
    for event, mark_theme in marks:
        frm, to = event.move
        badge = None if event.resident == 0 else BADGE_MERGED if event.onto_own else BADGE_COLLIDED
        cells = {cell for earlier in proposals for cell in (earlier.frm, earlier.to)}
        proposals.append(Proposal(frm, to, badge, mark_theme, frm in cells, to in cells))
    return tuple(proposals)


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


def _draw_proposals(card: Image.Image, board: Board, proposals: Sequence[Proposal]) -> None:
    """Draw the proposals' cell outlines under the pieces (a cell an earlier one outlines is left to it)."""
    draw = ImageDraw.Draw(card)
    thin, thick = max(3, board.pitch // 40), max(4, board.pitch // 20)
    for proposal in proposals:
        if not proposal.shared_from:
            _outline_cell(draw, board, proposal.frm, thin, proposal.theme)
        if not proposal.shared_to:
            _outline_cell(draw, board, proposal.to, thick, proposal.theme)


# Where a badge may go on a piece, as mark_spot's (side, below): up right, down right, down left (up left
# holds the cell's chip).
BADGE_SPOTS = ((1, False), (1, True), (-1, True))


def _draw_proposals_over(
    card: Image.Image, board: Board, proposals: Sequence[Proposal], board_values: Sequence[int], piece_px: int,
    badge_px: int,
) -> None:  # fmt: skip
    """Draw over the pieces: a ring round a piece on a cell an earlier proposal outlines, the arrows, the badges.

    The moving piece still stands on its cell, so each arrow runs between the two pieces' weights, clear of
    them; a badge goes to the corner of its piece furthest from the arrows there.
    """
    centers = board.centers
    for proposal in proposals:
        ring = ring_sprite(piece_px + 6, max(3, board.pitch // 40), proposal.theme)
        for cell, shared in ((proposal.frm, proposal.shared_from), (proposal.to, proposal.shared_to)):
            if shared:
                paste_centered(card, ring, centers[cell])
    width = max(6, board.pitch // 11)
    for proposal in proposals:
        (x0, y0), (x1, y1) = centers[proposal.frm], centers[proposal.to]
        length = math.hypot(x1 - x0, y1 - y0)
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        start = _clear_of_weight(abs(board_values[proposal.frm]), piece_px, ux, uy) + width + 2
        end = length - _clear_of_weight(abs(board_values[proposal.to]), piece_px, ux, uy) - 2
        start, end = max(start, board.radius * 0.45), min(end, length - board.radius * 0.3)
        tail = (round(x0 + ux * start), round(y0 + uy * start))
        tip = (round(x0 + ux * end), round(y0 + uy * end))
        paste_arrow(card, tail, tip, width, proposal.theme)
    taken: set[tuple[int, int, bool]] = set()
    for proposal in proposals:
        if proposal.badge is None:
            continue
        cell = proposal.to
        x, y = centers[cell]
        # The directions the arrows leave this cell in, towards their other end.
        ways = [centers[p.frm if p.to == cell else p.to] for p in proposals if cell in (p.frm, p.to)]
        ways = [(wx - x, wy - y) for wx, wy in ways]

        def crowding(spot: tuple[int, bool], ways: list[tuple[int, int]] = ways) -> float:
            side, below = spot
            return max(((side * wx + (1 if below else -1) * wy) / math.hypot(wx, wy) for wx, wy in ways), default=0)

        free = [spot for spot in BADGE_SPOTS if (cell, *spot) not in taken] or list(BADGE_SPOTS)
        side, below = min(free, key=crowding)
        taken.add((cell, side, below))
        badge = badge_sprite(proposal.badge, badge_px, proposal.theme)
        weight = abs(board_values[cell])
        paste_centered(card, badge, mark_spot(board, cell, weight, piece_px, badge.size, side, below))


def _clear_of_weight(weight: int, diameter: int, ux: float, uy: float) -> float:
    """Return how far from a piece's centre a line in direction ``(ux, uy)`` leaves the box of its weight."""
    half_width, half_height = weight_box(weight, diameter)
    across = half_width / abs(ux) if ux else math.inf
    up = half_height / abs(uy) if uy else math.inf
    return min(across, up)


@functools.lru_cache(maxsize=2048)
def weight_box(weight: int, diameter: int) -> tuple[float, float]:
    """Return the half width and half height of a piece's weight as drawn on a disc of ``diameter`` (0: none)."""
    if not weight:
        return 0.0, 0.0
    text = str(weight)
    size = _weight_size(text, diameter)
    # Digits stand about 0.73 em tall in the bundled font.
    return text_width(text, size) / 2, size * 0.37 + 1


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


@functools.cache
def palette(size: int, hexagonal: bool, theme: Theme) -> Image.Image:
    """Return the fixed PNG palette for Summer cards of one size, shape and theme, built once.

    The palette comes from made-up cards that hold every kind of cell, piece,
    chip, badge, ghost, pill, tag and turn marker, so no real card needs a
    colour it lacks; mapping to a ready palette is far cheaper than building one.
    """
    cells = size * size
    terrain = tuple(0 if c < size or c >= cells - size else (1 if (c * 7 // 3) % 2 else -1) for c in range(cells))
    values = [0] * cells
    values[0], values[1], values[size], values[size + 1] = 3, -12, 7, -5
    values[cells - 1], values[cells - size], values[cells - 2 * size] = 1, -2, 140
    marks = [
        Marks(1, size + 1, BADGE_MERGED, 1),
        Marks(size + 2, 2 * size + 2, None, -1, (0, 4)),
        Marks(cells - 2, cells - size - 2, BADGE_COLLIDED, 0, (1, 9)),
    ]
    names = ("White player", "Black player")
    cards = []
    for active, tags in ((0, (None, "last move")), (1, ("winner", None)), (None, ("draw", "draw"))):
        rows = [
            PlayerRow(names[seat], seat, piece_sprite(seat, 0, 54, theme), 17, None,
                      ((piece_sprite(seat, 0, 26, theme), "9 in play"), (None, "all on goal")), 2 - 4 * seat,
                      active == seat, tags[seat], "score")
            for seat in (0, 1)
        ]  # fmt: skip
        caption = f"White c1-c2: merged 3 + 5 = 8, {MINUS}1 → 7"
        cards.append(
            _compose(size, hexagonal, "classic", terrain, theme, rows, "White player to move · ply 1", caption,
                     values, marks)
        )  # fmt: skip
    return palette_from_cards(cards, theme)


def render_summer(
    state: SummerState,
    *,
    players: Sequence[str] | None = None,
    last_move: bool = True,
    theme: Theme = DEFAULT_THEME,
    locale: str = "en",
    marks: Sequence[tuple[SummerEvent, Theme]] = (),
) -> Picture:
    """Draw a Summer position (see the module docstring for what the card shows).

    ``marks`` are moves to show on this position, each as the event it would make and the theme whose mark
    colour draws it (a review's played and better moves): outlines, an arrow and a badge, as for a last ply.
    """
    names = tuple(display_name(players[i] if players and i < len(players) else "", _seat(i)) for i in (0, 1))
    hexagonal = state.shape == "hex"
    last = marks_of(state) if last_move else None
    gains = goal_gains(state) if last_move else (0, 0)
    image = _compose(
        state.size,
        hexagonal,
        state.mode,
        state.terrain,
        theme,
        _rows(state, names, gains, theme, locale),
        status_text(state, status_names(names, theme), locale),
        last_move_text(state, caption_names(names, theme), locale) if last_move else "",
        state.board,
        [last] if last is not None else [],
        locale,
        proposals_of(marks),
    )
    return Picture(image, palette(state.size, hexagonal, theme))


# -- the gallery (render.gallery finds this by the game's name) ------------------------------------------------------

GALLERY_MARKS = (
    "last-moved", "last-merged", "last-collided", "last-destroyed", "last-zeroed",
    "last-moved-plus", "last-moved-minus", "last-merged-minus", "last-collided-plus",
)  # fmt: skip


def _gallery_kind(state: SummerState) -> str | None:
    """Name the situation a running position shows: what its last ply did, and on which terrain."""
    event = state.last
    if event is None:
        return None
    if event.zeroed:
        return "last-zeroed"
    if event.modifier:
        return f"last-{event.action}-{'plus' if event.modifier > 0 else 'minus'}"
    return f"last-{event.action}"


def gallery() -> Showcase:
    """Return Summer's boards in the gallery: square and hex, the smallest and largest, both modes."""
    from render.gallery import Board, Showcase

    return Showcase(
        kind=_gallery_kind,  # type: ignore[arg-type]
        boards=(
            Board("square-8", 2, {}, (*GALLERY_MARKS, "end-black_arrived", "end-last_move")),
            Board("hex-8", 2, {"board": "hex"}, (*GALLERY_MARKS, "end-black_arrived"), texts=True),
            Board("square-3", 2, {"size": 3}, ("last-moved", "end-black_gone", "end-white_gone"), games=200),
            Board("hex-12", 2, {"size": 12, "board": "hex"}, ("last-merged", "last-collided", "end-white_home"),
                  games=200, texts=True, quick=True),
            Board("square-12", 2, {"size": 12}, ("last-collided", "end-black_arrived"), games=12),
            Board("field-8", 2, {"mode": "field"}, ("last-field_win-plus", "end-black_arrived")),
        ),
        limit=({"max_plies": 10}, "end-move_limit"),
        quick=("start", "last-merged", "end-white_home"),
        busy=("last-merged-minus", "last-merged"),
        ends=("end-black_arrived", "end-white_home", "end-forfeit"),
    )  # fmt: skip


# What the rendering benchmark (bench.render_speed) draws: (players, options).
BENCH_CONFIGS: tuple[tuple[int, dict[str, object]], ...] = (
    (2, {}),
    (2, {"board": "hex"}),
    (2, {"size": 12}),
    (2, {"size": 12, "board": "hex"}),
)

# What the replay benchmark (bench.replay_speed) builds: (case, players, options, staller plays, seeds, in a quick
# run).  The largest board's move limit (4·N·N plies).
REPLAY_CASES: tuple[tuple[str, int, dict[str, object], bool, tuple[int, ...], bool], ...] = (
    ("worst summer 12x12 576-ply limit", 2, {"size": 12}, True, (1,), True),
)
