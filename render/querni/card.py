"""Querni's whole card: its texts, player rows and draw counter, the pieces composed on the static card, its palette."""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import replace

from PIL import Image, ImageDraw

import i18n
from engines.querni import COLOUR, HEIGHT, NUMBER, PIECES, WIDTH, QuerniEvent, QuerniMove, QuerniState, piece_value
from i18n.catalog import pgettext
from i18n.querni import board_counter_text
from render.draw import (
    PlayerRow,
    draw_player_rows,
    draw_status,
    outline_box,
    palette_from_cards,
    paste_arrow,
    paste_centered,
    status_height,
)
from render.legend import Key
from render.querni.layout import Layout, _light_square, layout, piece_size, static_card
from render.querni.marks import _draw_moves_over, _draw_moves_under
from render.querni.sprites import blank_sprite, ghost_sprite, piece_sprite
from render.text import draw_text, fit_size
from render.theme import Theme

# Up to this many plies, the draw counter's bar has one segment per ply.
SEGMENTED_COUNTER = 60
# The widest a player's name may be in the status line, in pixels at the body size.
STATUS_NAME_WIDTH = 230


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
    legend: tuple[Key, ...] | None = None,
) -> Image.Image:
    """Draw one card: header rows, status, draw counter, the pieces of ``board``, the marks of ``event`` and of
    ``marks`` (moves of ``state`` not played, each with the theme of its mark colour, which ``legend`` explains)."""
    extra = max(0, status_height(theme.width, status, theme) - theme.font_body)
    lay = layout(theme, extra, legend is not None)
    grid = lay.grid
    card = static_card(theme, locale, extra, legend).copy()
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
