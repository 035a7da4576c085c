"""Summer's whole card: its texts, the player rows, the board composed over the terrain, and its palette."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from PIL import Image, ImageDraw

import i18n
from engines.summer import SEATS, SummerState, owner_of
from i18n.catalog import pgettext
from i18n.summer import header_facts
from render.draw import (
    PlayerRow,
    draw_lines,
    draw_player_rows,
    draw_status,
    palette_from_cards,
    paste_centered,
    pill_sprite,
)
from render.legend import Key
from render.summer.layout import _sizes, layout, mark_spot
from render.summer.marks import Marks, Proposal, _arrow, _draw_proposals, _draw_proposals_over, _outline_cell
from render.summer.sprites import (
    BADGE_COLLIDED,
    BADGE_MERGED,
    MINUS,
    badge_sprite,
    chip_sprite,
    cross_sprite,
    ghost_sprite,
    piece_sprite,
)
from render.summer.static import terrain_card
from render.text import ellipsize, fit_size, text_width, wrap
from render.theme import Theme


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
    legend: tuple[Key, ...] | None = None,
) -> Image.Image:
    """Draw one card: header, status, caption, the pieces and the marks (and any moves proposed on it, whose
    colours ``legend`` explains)."""
    extra = text_extra(caption, theme)
    lay = layout(size, hexagonal, theme, extra, legend is not None)
    board = lay.board
    card = terrain_card(size, hexagonal, mode, terrain, theme, locale, extra, legend).copy()
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
