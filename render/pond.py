"""Pond's board picture.

The card shows, top to bottom: one row per player (name chip in the seat's
colours, eggs left in the spawn, score against the target with a bar, whose
turn it is or who won), a status line, the board with its coordinates (rank 1
at the bottom), and a legend.

Pieces differ by shape, not only colour: an egg is an oval, a tadpole a round
head with a wavy tail, a frog a frog seen from above.  Light pieces are cream
with a near-black outline, dark pieces near-black with a cream outline, so the
seats stay apart in greyscale and for colour-blind players.

The last ply is marked by shape: a thick amber outline on the cell the piece
went to, a thin one and an arrow from the cell it left, an amber badge with a
chevron on each piece that grew a face, and for scored pieces a faded ghost of
the piece with a ``+1`` pill in its owner's colours.

A review draws moves that were not played the same way, on the position before them (``marks``): each move's
outlines and arrow in its own mark colour (the played move amber, the better one blue), a faded egg where an egg
would be placed, and the badges and ``+1`` pills (rimmed in the move's colour) of what it would grow and score;
where two moves meet on a cell, the second's outline sits inside the first's (on a piece's cell, over half of it)
and its badges and pills beside them.  Its legend says on a line of its own what each colour drawn means
(``move played``, ``better move``, or a hint's or a preview's words: :mod:`render.legend`) instead of ``last move``.

>>> from engines import GAMES
>>> state = GAMES["pond"].new(variant="mini").play("place b2")
>>> picture = render_pond(state, players=("Ana", "Bo"), last_move=True)
>>> picture.image.mode, picture.image.width
('RGB', 720)
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

import i18n
from engines.pond import EGG, FACE, FACES, OWNER, SEATS, PondEvent, PondMove, PondState
from i18n.catalog import pgettext
from render.draw import (
    Blob,
    Ellipse,
    Grid,
    Layer,
    Picture,
    PlayerRow,
    Poly,
    Shape,
    badge_sprite,
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
    pill_sprite,
    player_row_height,
    status_height,
    with_opacity,
)
from render.legend import Key, key_parts, shapes_theme
from render.text import draw_text, ellipsize, text_width
from render.theme import DEFAULT_THEME, RGB, Theme

if TYPE_CHECKING:  # the gallery's types, for gallery() at the end
    from render.gallery import Showcase

# Pieces take this share of a cell's side, leaving room for the marks around them.
PIECE_SHARE = 0.78
# Scored pieces are shown as ghosts at this opacity.
GHOST_OPACITY = 0.4
# How wide a name may be in the status line, in pixels at the body size (as on Querni's card).
STATUS_NAME_WIDTH = 230
# Outline thickness of a piece, in units of its 100-unit sprite box.
OUTLINE = 5.0
# The height of a line of the legend, in pixels.
LEGEND_LINE = 44


# -- piece shapes (100 x 100 box, y downwards) ---------------------------------------------------------------------


def _egg_outline() -> tuple[Shape, ...]:
    """Return an egg: an oval narrower at the top."""
    points = []
    for i in range(48):
        t = 2 * math.pi * i / 48
        x = 50 + 29 * math.cos(t) * (1 - 0.14 * math.sin(t))
        y = 53 - 38 * math.sin(t)
        points.append((x, y))
    return (Poly(tuple(points)),)


def _tadpole_outline() -> tuple[Shape, ...]:
    """Return a tadpole: a round head up-left and a tapering wavy tail down-right."""
    circles = []
    steps = 26
    for i in range(steps + 1):
        s = i / steps
        # Along the diagonal from the head to the corner, swaying sideways.
        along = 50 + 40 * s
        sway = 7 * math.sin(2 * math.pi * s * 1.2)
        x = along + sway * 0.707
        y = along - sway * 0.707
        circles.append((x, y, 12 * (1 - s) + 2.5))
    return (Blob(tuple(circles)), Ellipse(40, 40, 26, 24))


def _mirror(points: tuple[tuple[float, float], ...]) -> tuple[tuple[float, float], ...]:
    return tuple((100 - x, y) for x, y in points)


def _limb(points: tuple[tuple[float, float], ...], r0: float, r1: float) -> Blob:
    """Return a limb along a polyline whose thickness tapers from radius ``r0`` to ``r1``."""
    lengths = [math.dist(a, b) for a, b in itertools.pairwise(points)]
    total = sum(lengths)
    circles = []
    done = 0.0
    for ((ax, ay), (bx, by)), length in zip(itertools.pairwise(points), lengths, strict=True):
        steps = max(1, math.ceil(length / 1.5))
        for i in range(steps + 1):
            t = i / steps
            r = r0 + (r1 - r0) * (done + length * t) / total
            circles.append((ax + (bx - ax) * t, ay + (by - ay) * t, r))
        done += length
    return Blob(tuple(circles))


# Left limbs of a frog seen from above; the right ones are mirrored.
_BACK_LEG = ((38, 72), (12, 58), (10, 84), (21, 92))
_BACK_FOOT = ((21, 92), (7, 96))
_FRONT_LEG = ((36, 46), (20, 42), (14, 31))


def _frog_outline() -> tuple[Shape, ...]:
    """Return a frog seen from above, facing up: folded back legs, front legs, body, head and eye bumps."""
    limbs = []
    for points, r0, r1 in ((_BACK_LEG, 7.0, 4.0), (_BACK_FOOT, 4.0, 2.5), (_FRONT_LEG, 4.5, 3.0)):
        limbs.append(_limb(points, r0, r1))
        limbs.append(_limb(_mirror(points), r0, r1))
    return (
        *limbs,
        Ellipse(50, 60, 20, 25),
        Ellipse(50, 38, 22, 16),
        Ellipse(37, 26, 10, 10),
        Ellipse(63, 26, 10, 10),
    )


SHAPES: dict[str, tuple[Shape, ...]] = {"egg": _egg_outline(), "tadpole": _tadpole_outline(), "frog": _frog_outline()}

# Small touches that make each face read as a creature (or an egg), painted in the outline colour.
DETAILS: dict[str, tuple[Shape, ...]] = {
    "egg": (),
    "tadpole": (Ellipse(39.5, 27, 4.5, 4.5), Ellipse(27, 39.5, 4.5, 4.5)),
    "frog": (Ellipse(36, 25, 4.5, 4.5), Ellipse(64, 25, 4.5, 4.5)),
}
HIGHLIGHTS: dict[str, tuple[Shape, ...]] = {
    "egg": (Ellipse(39, 34, 6, 10),),
    "tadpole": (Ellipse(33, 47, 5, 7),),
    "frog": (Ellipse(42, 64, 4, 6), Ellipse(58, 70, 3, 4)),
}


def _blend(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


@functools.cache
def piece_sprite(value: int, size: int, theme: Theme) -> Image.Image:
    """Return the sprite of a piece value (1..6) at ``size`` pixels square; cached, never drawn into."""
    owner, face = OWNER[value], FACES[FACE[value]]
    fill, edge = theme.seat_fill[owner], theme.seat_edge[owner]
    shapes = SHAPES[face]
    layers = [
        Layer(shapes, edge, OUTLINE),
        Layer(shapes, fill),
        Layer(HIGHLIGHTS[face], _blend(fill, edge, 0.22)),
        Layer(DETAILS[face], edge),
    ]
    return paint_sprite(size, layers, theme.supersample)


@functools.cache
def ghost_sprite(value: int, size: int, theme: Theme) -> Image.Image:
    """Return a faded sprite of a piece that just scored."""
    return with_opacity(piece_sprite(value, size, theme), GHOST_OPACITY)


# -- layout -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Layout:
    """Where each part of the card goes for one board size and theme."""

    width: int
    height: int
    header_top: int
    row_height: int
    status_top: int
    grid: Grid
    legend_top: int


@functools.cache
def layout(size: int, theme: Theme, extra: int = 0, keys: bool = False) -> Layout:
    """Compute the card layout for a ``size`` x ``size`` board (``extra`` pixels more for a wrapped status line).

    ``keys``: a marked board's legend has room for a third line, for its colours (see :func:`_draw_legend`), so
    that the card is the same size whatever it marks.
    """
    width, pad = theme.width, theme.padding
    row_height = player_row_height(theme)
    header_top = pad
    status_top = header_top + 2 * row_height + 6
    coordinate_room = theme.font_coordinate + 20
    cell = (width - 2 * pad - 2 * coordinate_room) // size
    board_top = status_top + theme.font_body + 26 + extra
    left = (width - cell * size) // 2
    grid = Grid(size, size, cell, left, board_top)
    legend_top = grid.bottom + coordinate_room + 16
    height = legend_top + (3 if keys else 2) * LEGEND_LINE + pad
    return Layout(width, height, header_top, row_height, status_top, grid, legend_top)


@functools.lru_cache(maxsize=12)  # bounded: sizes x languages x themes in use (about 3-4 MB each)
def static_card(
    size: int, theme: Theme, locale: str = "en", extra: int = 0, legend: tuple[Key, ...] | None = None
) -> Image.Image:
    """Return the parts of the card that never change: background, board, coordinates, legend.

    ``legend`` is a marked board's (see :mod:`render.legend`), None an ordinary board's.
    """
    lay = layout(size, theme, extra, legend is not None)
    card = new_card(lay.width, lay.height, theme)
    draw_grid(card, lay.grid, theme)
    _draw_legend(card, lay, theme, locale, legend)
    return card


def _draw_legend(
    card: Image.Image, lay: Layout, theme: Theme, locale: str = "en", legend: Sequence[Key] | None = None
) -> None:
    """Draw the face cycle and the meaning of the marks, for players new to the picture.

    An ordinary board's marks are its last move's; a marked board (``legend``) says on a line of its own what each
    of its colours means, and draws the parts of its marks in the colour of its first.
    """
    draw = ImageDraw.Draw(card)
    small = theme.font_small
    icon = 40
    y = lay.legend_top + 20
    # Line 1: egg -> tadpole -> frog -> egg, with light pieces as icons.
    parts: list[tuple[Image.Image | None, str]] = [
        (piece_sprite(1, icon, theme), pgettext(locale, "board", "egg  →")),
        (piece_sprite(2, icon, theme), pgettext(locale, "board", "tadpole  →")),
        (piece_sprite(3, icon, theme), pgettext(locale, "board", "frog  →  egg")),
    ]
    _draw_centered_line(card, draw, parts, y, theme)
    # Line 2: the marks of the last move, or a marked board's colours and then (line 3) its marks' parts.
    y += LEGEND_LINE
    marks: list[tuple[Image.Image | None, str]] = []
    if legend is None:
        marks.append((_mark_sample(theme), pgettext(locale, "board", "last move")))
    elif legend:
        _draw_centered_line(card, draw, key_parts(legend, locale, _mark_sample), y, theme)
        y += LEGEND_LINE
    parts_theme = shapes_theme(legend, theme)
    marks += [
        (badge_sprite("up", 30, parts_theme), pgettext(locale, "board", "grew")),
        (
            pill_sprite("+1", small, theme.seat_fill[0], theme.seat_text[0], parts_theme.mark, theme),
            pgettext(locale, "board", "scored"),
        ),
    ]
    _draw_centered_line(card, draw, marks, y, theme)


def _mark_sample(theme: Theme) -> Image.Image:
    """Return the legend's sample of a move's mark: a cell outline in ``theme``'s mark colour."""
    icon = 40
    mark = Image.new("RGBA", (icon, icon), (0, 0, 0, 0))
    outline_box(ImageDraw.Draw(mark), (0, 0, icon, icon), theme, 4, inset=3)
    return mark


def _draw_centered_line(
    card: Image.Image, draw: ImageDraw.ImageDraw, parts: Sequence[tuple[Image.Image | None, str]], y: int, theme: Theme
) -> None:
    """Draw (icon, text) pairs as one centred line whose vertical middle is ``y``."""
    size = theme.font_small
    gap, spacing = 8, 26
    widths = [(icon.width + gap if icon else 0) + math.ceil(text_width(text, size)) for icon, text in parts]
    x = (card.width - sum(widths) - spacing * (len(parts) - 1)) // 2
    for (icon, text), width in zip(parts, widths, strict=True):
        if icon is not None:
            card.paste(icon, (x, y - icon.height // 2), icon)
            x += icon.width + gap
        draw_text(draw, (x, y), text, size, theme.text_muted, anchor="lm")
        x += width - (icon.width + gap if icon else 0) + spacing


# -- one frame ----------------------------------------------------------------------------------------------------


def status_text(state: PondState, names: Sequence[str], locale: str = "en") -> str:
    """Return the status line: whose turn it is, or the result and, briefly, why the game ended (see :mod:`i18n`)."""
    return i18n.status_text(state, names, locale)


def _rows(
    state: PondState, names: Sequence[str], event: PondEvent | None, theme: Theme, locale: str = "en"
) -> list[PlayerRow]:
    """Return the header rows: seat icon, name, eggs left, score against the target, turn or result."""
    result = state.outcome()
    rows = []
    for seat in (0, 1):
        tag = None
        if result is not None:
            if len(result.winners) > 1:
                tag = pgettext(locale, "board", "draw")
            elif seat in result.winners:
                tag = pgettext(locale, "board", "winner")
        rows.append(
            PlayerRow(
                name=names[seat],
                seat=seat,
                icon=piece_sprite(3 + 3 * seat, 58, theme),
                score=state.scored[seat],
                target=state.target,
                facts=((piece_sprite(EGG[seat], 30, theme), f"×{state.spawn[seat]}"),),
                gain=event.gains[seat] if event else 0,
                active=result is None and state.to_move == seat,
                tag=tag,
            )
        )
    return rows


def _compose(
    size: int,
    theme: Theme,
    rows: Sequence[PlayerRow],
    status: str,
    board: Sequence[int],
    event: PondEvent | None,
    locale: str = "en",
    marks: Sequence[tuple[PondEvent, Theme]] = (),
    legend: tuple[Key, ...] | None = None,
) -> Image.Image:
    """Draw one card: the header rows, the status line, the pieces, the marks of ``event`` and those of ``marks``
    (whose colours ``legend`` explains)."""
    # A status wrapped to two lines (a longer language) gets its own room above the board.
    extra = max(0, status_height(theme.width, status, theme) - theme.font_body)
    lay = layout(size, theme, extra, legend is not None)
    grid = lay.grid
    card = static_card(size, theme, locale, extra, legend).copy()
    draw = ImageDraw.Draw(card)
    draw_player_rows(card, rows, lay.header_top, theme)
    draw_status(card, status, lay.status_top, theme)

    def cell_xy(cell: int) -> tuple[int, int]:
        return cell % size, cell // size

    cell_px = grid.cell
    piece_px = round(cell_px * PIECE_SHARE)
    # Marks under the pieces: outlines sit at the cell edges, and the arrow passes under a hopped piece.
    if event is not None:
        if event.move.frm >= 0:
            outline_box(draw, grid.box(*cell_xy(event.move.frm)), theme, max(3, cell_px // 40), inset=4)
            start = grid.center(*cell_xy(event.move.frm))
            end = grid.center(*cell_xy(event.move.to))
            # Stop the arrow at the edge of the landing cell so it never hides the piece there.
            dx, dy = end[0] - start[0], end[1] - start[1]
            back = cell_px * 0.36 / math.hypot(dx, dy)
            tip = (round(end[0] - dx * back), round(end[1] - dy * back))
            paste_arrow(card, start, tip, max(8, cell_px // 11), theme)
        outline_box(draw, grid.box(*cell_xy(event.move.to)), theme, max(5, cell_px // 22), inset=4)
    if marks:
        _draw_moves_under(card, grid, marks)

    for cell, value in enumerate(board):
        if value:
            paste_centered(card, piece_sprite(value, piece_px, theme), grid.center(*cell_xy(cell)))

    # Marks over the pieces: ghosts of what scored, with a +1 in the owner's colours, and badges on what grew.
    if event is not None:
        for cell, value in event.scored:
            x0, y0, _, _ = grid.box(*cell_xy(cell))
            paste_centered(card, ghost_sprite(value, piece_px, theme), grid.center(*cell_xy(cell)))
            owner = OWNER[value]
            pill = pill_sprite(
                "+1", theme.font_small, theme.seat_fill[owner], theme.seat_text[owner], theme.mark, theme
            )
            card.paste(pill, (x0 + 8, y0 + 8), pill)
        badge = badge_sprite("up", max(24, cell_px // 4), theme)
        for cell in event.developed:
            _, y0, x1, _ = grid.box(*cell_xy(cell))
            card.paste(badge, (x1 - badge.width - 6, y0 + 6), badge)
    if marks:
        _draw_moves_over(card, grid, marks, theme)
    return card


def _draw_moves_under(card: Image.Image, grid: Grid, marks: Sequence[tuple[PondEvent, Theme]]) -> None:
    """Draw each move's outlines and arrow in its own mark colour, on the position before the moves.

    A second outline on an empty cell already outlined sits inside the first, on a piece's cell it covers half of
    the first, so both colours show; the arrows of two equal moves run side by side.
    """
    draw = ImageDraw.Draw(card)
    size, cell_px = grid.files, grid.cell
    insets: dict[int, int] = {}  # landing cell -> where the next outline on it starts, in from the cell's edge
    starts: set[int] = set()
    moves = [event.move for event, _ in marks]

    def ring(cell: int, width: int, mark_theme: Theme) -> None:
        inset = insets.get(cell, 4)
        outline_box(draw, grid.box(cell % size, cell // size), mark_theme, width, inset=inset)
        insets[cell] = inset + width + 6

    for index, (event, mark_theme) in enumerate(marks):
        move = event.move
        if move.frm >= 0:
            # On a start already outlined the piece leaves no room for a second outline inside: half of one, over it.
            box = grid.box(move.frm % size, move.frm // size)
            if move.frm in starts:
                half_outline_box(card, box, mark_theme, max(3, cell_px // 40), inset=4)
            else:
                outline_box(draw, box, mark_theme, max(3, cell_px // 40), inset=4)
            starts.add(move.frm)
            start = grid.center(move.frm % size, move.frm // size)
            end = grid.center(move.to % size, move.to // size)
            dx, dy = end[0] - start[0], end[1] - start[1]
            length, width = math.hypot(dx, dy), max(8, cell_px // 11)
            # The same move marked twice: the arrows run side by side, so neither hides the other.
            side = (index - (len(marks) - 1) / 2) * 1.6 * width if moves.count(move) > 1 else 0
            sx, sy = round(-dy / length * side), round(dx / length * side)
            back = cell_px * 0.36 / length
            tip = (round(end[0] - dx * back) + sx, round(end[1] - dy * back) + sy)
            paste_arrow(card, (start[0] + sx, start[1] + sy), tip, width, mark_theme)
        ring(move.to, max(5, cell_px // 22), mark_theme)


def _draw_moves_over(card: Image.Image, grid: Grid, marks: Sequence[tuple[PondEvent, Theme]], theme: Theme) -> None:
    """Draw over the pieces what each move would do: a faded egg where one is placed, badges and ``+1`` pills."""
    size, cell_px = grid.files, grid.cell
    piece_px = round(cell_px * PIECE_SHARE)
    pills: dict[int, int] = {}  # cell -> pills already on it (the next goes below them)
    badges: dict[int, int] = {}  # cell -> badges already on it (the next goes left of them)
    draw = ImageDraw.Draw(card)
    eggs: set[int] = set()
    for event, mark_theme in marks:
        to = event.move.to
        if event.move.frm < 0 and to not in eggs:
            # An egg placed: its faded egg on the empty cell, once (a moving piece has its arrow instead).
            eggs.add(to)
            paste_centered(card, ghost_sprite(event.actor, piece_px, theme), grid.center(to % size, to // size))
        for cell, value in event.scored:
            x0, y0, _, _ = grid.box(cell % size, cell // size)
            owner = OWNER[value]
            pill = pill_sprite(
                "+1", theme.font_small, theme.seat_fill[owner], theme.seat_text[owner], mark_theme.mark, theme
            )
            # A wide rim in the move's colour says which move scores the piece, the pill's fill for whom.
            x, y = x0 + 8, y0 + 8 + pills.get(cell, 0) * (pill.height + 8)
            rim = (x - 3, y - 3, x + pill.width + 2, y + pill.height + 2)
            draw.rounded_rectangle(rim, radius=pill.height // 2 + 3, fill=mark_theme.mark, outline=theme.mark_edge)
            card.paste(pill, (x, y), pill)
            pills[cell] = pills.get(cell, 0) + 1
        badge = badge_sprite("up", max(24, cell_px // 4), mark_theme)
        for cell in event.developed:
            _, y0, x1, _ = grid.box(cell % size, cell // size)
            card.paste(badge, (x1 - (badge.width + 4) * (badges.get(cell, 0) + 1) - 2, y0 + 6), badge)
            badges[cell] = badges.get(cell, 0) + 1


@functools.cache
def palette(size: int, theme: Theme) -> Image.Image:
    """Return the fixed PNG palette for Pond cards of one size and theme, built once.

    Mapping each card to a palette made in advance costs a tenth of building a
    palette per card.  The palette comes from a made-up card that holds every
    piece, ghost, mark, tag and chip, so no real card needs a colour it lacks.
    """
    board = [0] * (size * size)
    for value in range(1, 7):
        board[value - 1] = value
    board[13], board[14] = 2, 6
    event = PondEvent(1, PondMove(12, 14), 6, tuple(range(6)), tuple((5 + v, v) for v in range(1, 7)), (2, 3))
    names = ("Light player", "Dark player")
    cards = []
    for active, tags in ((0, (None, None)), (1, ("winner", None)), (None, ("draw", "draw"))):
        rows = [
            PlayerRow(names[seat], seat, piece_sprite(3 + 3 * seat, 58, theme), 7, 10,
                      ((piece_sprite(EGG[seat], 30, theme), "×9"),), seat + 1, active == seat, tags[seat])
            for seat in (0, 1)
        ]  # fmt: skip
        cards.append(_compose(size, theme, rows, "Light player to move · ply 1 · move limit 300", board, event))
    return palette_from_cards(cards, theme)


def render_pond(
    state: PondState,
    *,
    players: Sequence[str] | None = None,
    last_move: bool = True,
    theme: Theme = DEFAULT_THEME,
    locale: str = "en",
    marks: Sequence[tuple[PondEvent, Theme]] = (),
    legend: Sequence[Key] | None = None,
) -> Picture:
    """Draw a Pond position (see the module docstring for what the card shows).

    ``marks`` are moves of ``state`` to show as the events they would make, each in its theme's mark colour
    (a review's played and better move); the header claims none of them.  ``legend`` says what their colours
    mean (:func:`render.legend.legend_for`), in place of the legend's ``last move``; None for an ordinary board.
    """
    names = tuple(
        display_name(players[i] if players and i < len(players) else "", SEATS[i].capitalize()) for i in (0, 1)
    )
    event = state.last if last_move else None
    rows = _rows(state, names, event, theme, locale)
    # Long names are cut in the status line (the header shows them in full), so that what follows stays readable.
    status = status_text(state, tuple(ellipsize(name, theme.font_body, STATUS_NAME_WIDTH) for name in names), locale)
    keys = None if legend is None else tuple(legend)
    image = _compose(state.size, theme, rows, status, state.board, event, locale, marks, keys)
    return Picture(image, palette(state.size, theme))


# -- the gallery (render.gallery finds this by the game's name) ------------------------------------------------------


def _gallery_kind(state: PondState) -> str | None:
    """Name the situation a running position shows: what its last ply did."""
    event = state.last
    if event is None:
        return None
    if event.scored:
        return "last-scored"
    if event.developed:
        return "last-grew"
    return "last-egg" if event.move.frm < 0 else "last-move"


def gallery() -> Showcase:
    """Return Pond's boards in the gallery: each variant, every mark and every ending."""
    from render.gallery import Board, Showcase

    return Showcase(
        kind=_gallery_kind,  # type: ignore[arg-type]
        boards=(
            Board("standard", 2, {}, ("last-egg", "last-move", "last-grew", "last-scored", "end-target",
                  "end-elimination"), texts=True, quick=True),
            Board("mini", 2, {"variant": "mini"}, ("last-scored", "end-target")),
            Board("large", 2, {"variant": "large"}, ("last-grew", "end-target")),
        ),
        limit=({"max_plies": 12}, "end-move_limit"),
        quick=("start", "last-scored"),
        busy=("last-scored",),
        ends=("end-target", "end-forfeit"),
    )  # fmt: skip


# What the rendering benchmark (bench.render_speed) draws: (players, options).
BENCH_CONFIGS: tuple[tuple[int, dict[str, object]], ...] = ((2, {"variant": "standard"}), (2, {"variant": "large"}))

# What the replay benchmark (bench.replay_speed) builds: (case, players, options, staller plays, seeds, in a quick
# run).  A whole game run to a 100-ply limit (random games reach a target sooner), the default 300-ply move limit,
# and the option's extreme.
REPLAY_CASES: tuple[tuple[str, int, dict[str, object], bool, tuple[int, ...], bool], ...] = (
    ("pond 100 plies", 2, {"max_plies": 100}, True, (0,), True),
    ("worst pond 300-ply limit", 2, {}, True, (1,), True),
    ("worst pond max_plies=5000", 2, {"max_plies": 5000}, True, (1,), False),
)
