"""Marks on Summer's board: the last move's (outlines, arrow, badges) and a review's or a hint's moves."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engines.summer import DESTROYED, MERGED, MOVED, SummerEvent, SummerState
from render.draw import outline_box, paste_arrow, paste_centered
from render.summer.layout import Board, mark_spot
from render.summer.sprites import BADGE_COLLIDED, BADGE_MERGED, badge_sprite, ring_sprite, weight_box
from render.theme import Theme


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
