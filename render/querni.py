"""Querni's board picture.

The card shows, top to bottom: one row per player (name chip in the seat's
colour, the seat's piece shape, pieces removed out of 16 with a bar, whose turn
it is or who won), a status line, the draw counter as text and as a bar of one
segment per ply (while the game is on), the 10x7 board with its coordinates
(rank 1 at the bottom, blue's side), and a legend of the marks. A game lost by
stranding rings the stranded pieces in amber.

Seats differ by shape as well as colour: blue pieces are discs, red pieces
rounded squares.  Blue is a light sky blue with dark numbers and a dark edge,
red a deep red with cream numbers and a cream edge, so the seats stay apart in
greyscale and for colour-blind players, and each number reads on its own fill.
Querni names its seats by colour, so the card always uses these two colours,
whatever the theme's first two seat colours are.

The last ply is marked by shape: a thin amber outline on the square the piece
left, an arrow for every step or jump of its path (each jump landing starts the
next arrow with a dot), a thick outline on the square it reached, and each
piece of a chain removed in that ply as a faded ghost with its number, the
ghosts joined in number order.

A review draws moves that were not played the same way, on the position before them (``marks``), each in its own
mark colour (the played move amber, the better one blue): the outline of the start, the arrows of the path, the
lit end square (the moved piece's ghost in a thick outline if it leaves in the chain), and each piece of the chain
it would remove as its ghost in a ring, the rings joined in number order.  Where two moves meet, the second's lit
square or ring sits inside the first's, its start outline covers half of the first's, and an arrow or link they
share runs twice, side by side.

>>> from engines import GAMES
>>> state = GAMES["querni"].new(seed=4).play("b2-b3")
>>> picture = render_querni(state, players=("Ana", "Bo"), last_move=True)
>>> picture.image.mode, picture.image.size
('RGB', (720, 888))
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

import i18n
from engines.querni import (
    COLOUR,
    HEIGHT,
    NUMBER,
    PIECES,
    SEATS,
    WIDTH,
    QuerniEvent,
    QuerniMove,
    QuerniState,
    piece_value,
)
from i18n.catalog import pgettext
from i18n.querni import board_counter_text
from render.draw import (
    Ellipse,
    Grid,
    Layer,
    Picture,
    PlayerRow,
    Poly,
    Shape,
    arrow_sprite,
    display_name,
    draw_grid,
    draw_player_rows,
    draw_status,
    half_outline_box,
    new_card,
    outline_box,
    paint_sprite,
    palette_from_cards,
    paste_arrow,
    paste_centered,
    player_row_height,
    status_height,
    with_opacity,
)
from render.text import draw_text, ellipsize, fit_size, text_width
from render.theme import DEFAULT_THEME, RGB, Theme

if TYPE_CHECKING:  # the gallery's types, for gallery() at the end
    from render.gallery import Showcase

# Seat colours: fill, edge, number ink.  Blue is light and red dark, so greyscale keeps them apart.
BLUE_FILL: RGB = (124, 184, 255)
BLUE_EDGE: RGB = (12, 26, 54)
BLUE_INK: RGB = (8, 20, 44)
RED_FILL: RGB = (178, 34, 44)
RED_EDGE: RGB = (252, 232, 222)
RED_INK: RGB = (255, 247, 240)

# Pieces take this share of a cell's side, leaving room for the outlines of the last move.
PIECE_SHARE = 0.84
# Removed pieces are shown as ghosts at this opacity for one ply.
GHOST_OPACITY = 0.42
# Outline thickness of a piece, in units of its 100-unit sprite box.
OUTLINE = 4.5
# Room left of the board for the rank numbers (the board's right side needs none).
RANK_ROOM = 30
# Up to this many plies, the draw counter's bar has one segment per ply.
SEGMENTED_COUNTER = 60
# The widest a player's name may be in the status line, in pixels at the body size.
STATUS_NAME_WIDTH = 230


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


# -- pieces ----------------------------------------------------------------------------------------------------------


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


# -- layout ----------------------------------------------------------------------------------------------------------


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
def layout(theme: Theme, extra: int = 0) -> Layout:
    """Compute the card layout: the 10x7 board as wide as the card allows, the rank numbers on its left.

    ``extra`` pixels go under the status line when it wraps to a second line (a longer language): the card grows
    rather than let it run into the draw counter.
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
    height = legend_mid + 22 + pad
    return Layout(width, height, header_top, status_top, counter_top, counter_bar, grid, legend_mid)


def piece_size(theme: Theme) -> int:
    """Return the side of a piece sprite on the board."""
    return round(layout(theme).grid.cell * PIECE_SHARE)


@functools.lru_cache(maxsize=12)  # bounded: sizes x languages x themes in use (about 3-4 MB each)
def static_card(theme: Theme, locale: str = "en", extra: int = 0) -> Image.Image:
    """Return the parts of the card that never change: background, board, coordinates, legend."""
    lay = layout(theme, extra)
    card = new_card(lay.width, lay.height, theme)
    draw_grid(card, lay.grid, theme)
    _draw_legend(card, lay, theme, locale)
    return card


def _draw_legend(card: Image.Image, lay: Layout, theme: Theme, locale: str = "en") -> None:
    """Draw what the marks of the last move mean, as one centred line of icons and words."""
    draw = ImageDraw.Draw(card)
    icon = 40
    start = Image.new("RGBA", (icon, icon), (0, 0, 0, 0))
    outline_box(ImageDraw.Draw(start), (0, 0, icon, icon), theme, 3, inset=2)
    end = Image.new("RGBA", (icon, icon), (0, 0, 0, 0))
    _light_square(ImageDraw.Draw(end), (0, 0, icon, icon), theme)
    arrow, _ = arrow_sprite(46, 0, 8, theme)
    parts = [
        (start, pgettext(locale, "board", "from")),
        (end, pgettext(locale, "board", "to")),
        (arrow, pgettext(locale, "board", "path")),
        (ghost_sprite(0, 7, icon, theme), pgettext(locale, "board", "removed")),
    ]
    size = theme.font_small
    gap, spacing = 8, 24
    # A longer language may need the words a little smaller to keep the legend on one line.
    while size > 15 and sum(item.width + gap + text_width(text, size) + spacing for item, text in parts) > card.width:
        size -= 1
    widths = [item.width + gap + math.ceil(text_width(text, size)) for item, text in parts]
    x = (card.width - sum(widths) - spacing * (len(parts) - 1)) // 2
    y = lay.legend_mid
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


# -- one frame -------------------------------------------------------------------------------------------------------


def status_text(state: QuerniState, names: Sequence[str], locale: str = "en") -> str:
    """Return the status line: whose turn it is, or the result and, briefly, why the game ended (see :mod:`i18n`)."""
    return i18n.status_text(state, names, locale)


def _rows(
    state: QuerniState, names: Sequence[str], event: QuerniEvent | None, theme: Theme, locale: str = "en"
) -> list[PlayerRow]:
    """Return the header rows: the seat's shape, name, pieces removed out of 16, turn or result."""
    result = state.outcome()
    rows = []
    for seat in (0, 1):
        tag = None
        if result is not None:
            if result.is_draw:
                tag = pgettext(locale, "board", "draw")
            elif seat in result.winners:
                tag = pgettext(locale, "board", "winner")
        gain = len(event.removed) if event is not None and event.player == seat else 0
        rows.append(
            PlayerRow(
                name=names[seat],
                seat=seat,
                icon=blank_sprite(seat, 54, theme),
                score=state.removed[seat],
                target=PIECES,
                facts=((None, pgettext(locale, "board", "removed")),),
                gain=gain,
                active=result is None and state.turn == seat,
                tag=tag,
            )
        )
    return rows


def _draw_counter(card: Image.Image, lay: Layout, state: QuerniState, theme: Theme, locale: str = "en") -> None:
    """Draw the draw counter: the engine's sentence, and a bar that fills one segment per ply."""
    draw = ImageDraw.Draw(card)
    text = board_counter_text(state, locale)
    size = fit_size(text, theme.font_small, card.width - 2 * theme.padding, 15)
    draw_text(draw, (card.width / 2, lay.counter_top), text, size, theme.text_muted, anchor="mt")
    x0, y0, x1, y1 = lay.counter_bar
    limit = state.draw_limit
    filled = min(state.counter, limit)
    # The last few plies before a draw are amber, so a coming draw is seen before it happens.
    warn = max(0, limit - 5)
    if limit <= SEGMENTED_COUNTER:
        gap = 3 if limit <= 40 else 2
        seg = (x1 - x0 - gap * (limit - 1)) / limit
        for i in range(limit):
            sx = x0 + i * (seg + gap)
            colour = (theme.mark if i >= warn else theme.text) if i < filled else theme.panel
            draw.rectangle((round(sx), y0, round(sx + seg) - 1, y1 - 1), fill=colour)
    else:
        draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=theme.panel)
        if filled:
            colour = theme.mark if filled > warn else theme.text
            draw.rectangle((x0, y0, x0 + round((x1 - x0) * filled / limit) - 1, y1 - 1), fill=colour)


def _compose(
    theme: Theme,
    rows: Sequence[PlayerRow],
    status: str,
    state: QuerniState,
    board: Sequence[int],
    event: QuerniEvent | None,
    locale: str = "en",
    marks: Sequence[tuple[QuerniEvent, Theme]] = (),
) -> Image.Image:
    """Draw one card: header rows, status, draw counter, the pieces of ``board``, the marks of ``event`` and of
    ``marks`` (moves of ``state`` not played, each with the theme of its mark colour)."""
    extra = max(0, status_height(theme.width, status, theme) - theme.font_body)
    lay = layout(theme, extra)
    grid = lay.grid
    card = static_card(theme, locale, extra).copy()
    draw = ImageDraw.Draw(card)
    draw_player_rows(card, rows, lay.header_top, theme)
    draw_status(card, status, lay.status_top, theme)
    if state.result is None:
        # Once the game is over the draw counter no longer matters: the status line says how it ended.
        _draw_counter(card, lay, state, theme, locale)

    def center(cell: int) -> tuple[int, int]:
        return grid.center(cell % WIDTH, cell // WIDTH)

    def box(cell: int) -> tuple[int, int, int, int]:
        return grid.box(cell % WIDTH, cell // WIDTH)

    cell_px = grid.cell
    piece_px = piece_size(theme)
    # Marks under the pieces: outlines at the cell edges, and arrows that pass under the jumped pieces.
    if event is not None and event.path:
        path = event.path
        outline_box(draw, box(path[0]), theme, max(3, cell_px // 40), inset=3)
        arrow_width = max(7, cell_px // 9)
        for i in range(len(path) - 1):
            start, end = center(path[i]), center(path[i + 1])
            dx, dy = end[0] - start[0], end[1] - start[1]
            # Stop short of the landing: at the piece's edge for the last one, before the next dot otherwise.
            share = 0.38 if i == len(path) - 2 else 0.2
            back = cell_px * share / math.hypot(dx, dy)
            paste_arrow(card, start, (round(end[0] - dx * back), round(end[1] - dy * back)), arrow_width, theme)
        if board[path[-1]]:
            # The piece on the end square would hide an outline, so the whole square lights up instead.
            _light_square(draw, box(path[-1]), theme)
        else:
            # The piece went on to leave in a chain: its ghost shows inside a thick outline.
            outline_box(draw, box(path[-1]), theme, max(5, cell_px // 16), inset=3)

    if event is not None and len(event.removed) > 1:
        # The chain's links from ghost to ghost, in number order: it read as a chain a moment ago.
        radius = piece_px / 2
        for (_, a), (_, b) in itertools.pairwise(event.removed):
            (ax, ay), (bx, by) = center(a), center(b)
            length = math.hypot(bx - ax, by - ay)
            ux, uy = (bx - ax) / length, (by - ay) / length
            ends = [(ax + ux * radius, ay + uy * radius), (bx - ux * radius, by - uy * radius)]
            draw.line(ends, fill=theme.seat_edge[event.player], width=max(7, cell_px // 8))
            draw.line(ends, fill=theme.seat_fill[event.player], width=max(3, cell_px // 20))
    if marks:
        _draw_moves_under(card, grid, marks)

    for cell, value in enumerate(board):
        if value:
            paste_centered(card, piece_sprite(COLOUR[value], NUMBER[value], piece_px, theme), center(cell))

    if event is not None:
        for number, cell in event.removed:
            paste_centered(card, ghost_sprite(event.player, number, piece_px, theme), center(cell))
    if marks:
        _draw_moves_over(card, grid, marks, theme)
    # A game lost by stranding: a ring round each stranded piece shows which numbers lost it.
    ring, reach = max(5, cell_px // 12), cell_px / 2 - 1
    for cell in stranded_cells(state, board):
        x, y = center(cell)
        draw.ellipse((x - reach, y - reach, x + reach, y + reach), outline=theme.mark, width=ring)
    return card


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


def stranded_cells(state: QuerniState, board: Sequence[int]) -> list[int]:
    """Return the squares of ``board`` holding the pieces whose stranding lost the game (none otherwise)."""
    wanted = {piece_value(colour, number) for colour in (0, 1) for number in state.stranded(colour)}
    return [cell for cell, value in enumerate(board) if value and value in wanted]


@functools.cache
def palette(theme: Theme) -> Image.Image:
    """Return the fixed PNG palette for Querni cards of one theme, built once.

    The palette comes from made-up cards holding every piece, ghosts of both
    seats, every mark, tag and chip, so no real card needs a colour it lacks.
    """
    start = QuerniState(0, None, "any_stranded", 30, "plies", tuple([0] * (WIDTH * HEIGHT)), (0, 0), 0, 0, 0)
    board = [0] * (WIDTH * HEIGHT)
    for value in range(1, 2 * PIECES + 1):
        board[value - 1 + (value > PIECES) * 4] = value
    ghosts = tuple((n, 50 + n % 8) for n in range(1, 4))
    cards = []
    for seat in (0, 1):
        event = QuerniEvent(seat, QuerniMove(44, 46, 1, 3), 5, (44, 46, 66, 64), ghosts, 28)
        counter = replace(start, counter=28, turn=1 - seat, ply=1)
        rows = [
            PlayerRow(name, s, blank_sprite(s, 54, theme), 9, PIECES, ((None, "removed"),), 3, s == seat, tag)
            for s, (name, tag) in enumerate((("Blue player", "winner" if seat else None), ("Red player", "draw")))
        ]
        cards.append(_compose(theme, rows, "Blue player (blue) to move · ply 30", counter, board, event))
    return palette_from_cards(cards, theme)


def render_querni(
    state: QuerniState,
    *,
    players: Sequence[str] | None = None,
    last_move: bool = True,
    theme: Theme = DEFAULT_THEME,
    locale: str = "en",
    marks: Sequence[tuple[QuerniEvent, Theme]] = (),
) -> Picture:
    """Draw a Querni position (see the module docstring for what the card shows).

    ``marks`` are moves of ``state`` to show as the events they would make, each in its theme's mark colour
    (a review's played and better move); the header claims none of them.
    """
    theme = querni_theme(theme)
    marks = tuple((event, querni_theme(mark_theme)) for event, mark_theme in marks)
    names = tuple(
        display_name(players[i] if players and i < len(players) else "", SEATS[i].capitalize()) for i in (0, 1)
    )
    event = state.last if last_move else None
    # Long names are cut in the status line, so that what happens after them stays readable.
    status = status_text(state, tuple(ellipsize(name, theme.font_body, STATUS_NAME_WIDTH) for name in names), locale)
    rows = _rows(state, names, event, theme, locale)
    # The pieces a marked move would remove show as ghosts, as those of a last move do (drawn with its marks).
    leaving = {cell for mark, _ in marks for _, cell in mark.removed}
    board = tuple(0 if cell in leaving else value for cell, value in enumerate(state.board))
    image = _compose(theme, rows, status, state, board, event, locale, marks)
    return Picture(image, palette(theme))


# -- the gallery (render.gallery finds this by the game's name) ------------------------------------------------------

# A hand-placed start with few pieces: random play soon clears a side.
GALLERY_CLEARING = {"c3": "B1", "d4": "B2", "e4": "B3", "f4": "B4", "h6": "R1", "i6": "R2", "j6": "R3", "j7": "R4"}


def _gallery_kind(state: QuerniState) -> str | None:
    """Name the situation a running position shows: what its last ply did."""
    event = state.last
    if event is None:
        return None
    if event.removed and event.piece:
        return "last-move-and-removal"
    if event.removed:
        return "last-removal"
    if event.jumped:
        return "last-jump" if len(event.jumped) == 1 else "last-jumps"
    return "last-step" if event.piece else None


def gallery() -> Showcase:
    """Return Querni's boards in the gallery: every mark, and every ending (a hand-placed start for one)."""
    from render.gallery import Board, Showcase

    return Showcase(
        kind=_gallery_kind,  # type: ignore[arg-type]
        boards=(
            Board("standard", 2, {},
                  ("last-step", "last-jump", "last-jumps", "last-removal", "last-move-and-removal", "end-stranded"),
                  texts=True, quick=True),
            Board("no-triple", 2, {"isolation": "no_triple_left"}, ("end-no_triple",), games=200),
            Board("custom", 2, {"layout": GALLERY_CLEARING}, ("end-cleared",), games=100),
        ),
        limit=({"draw_plies": 4}, "end-no_removal"),
        quick=("start",),
        busy=("last-move-and-removal",),
        ends=("end-stranded", "end-forfeit"),
    )  # fmt: skip


# What the rendering benchmark (bench.render_speed) draws: (players, options).
BENCH_CONFIGS: tuple[tuple[int, dict[str, object]], ...] = ((2, {}),)

# What the replay benchmark (bench.replay_speed) builds: nothing.  The draw rule ends a game after 30 plies without
# a removal and each of at most ten removals resets it, so a game is never longer than 11 x 30 = 330 plies:
# shorter than the other games' worst cases.
REPLAY_CASES: tuple[tuple[str, int, dict[str, object], bool, tuple[int, ...], bool], ...] = ()
