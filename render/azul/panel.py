"""A player's panel on Azul's card: pattern lines, wall, floor, the name, the score and the last move's marks."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from PIL import Image, ImageDraw

from engines.azul import MARKER, TILING, WALL, AzulEvent, AzulState, Board, Placement, ScoreStep
from i18n.catalog import npgettext, pgettext
from i18n.common import ordinal
from render.azul.layout import (
    PANEL_ACTIVE,
    PANEL_IDLE,
    PANEL_LEFT,
    Layout,
    PanelLayout,
    _paste,
    _ring,
    _shift,
    panel_base,
)
from render.azul.sprites import DASH, NUMBER_FONT, PILL_FONT, _gain_pill, _plain_pill, marker_sprite, tile_sprite
from render.draw import draw_name_chip
from render.text import draw_text, text_width
from render.theme import Theme


@dataclass(frozen=True, slots=True)
class Marks:
    """What the last ply did to one player's board, as its event tells it."""

    line_spaces: tuple[int, ...] = ()  # spaces (from the wall side) of the pattern line the tiles went to
    line: int = 0  # that line (1..5), 0 for none
    floor_spaces: tuple[int, ...] = ()  # floor spaces that received the marker or tiles
    marker_held: bool = False  # the marker was taken onto a full floor: ring it by the name
    placed: tuple[Placement, ...] = ()
    step: ScoreStep | None = None  # how the ply changed the score (wall tiles, floor penalty, bonus)
    discarded: tuple[int, ...] = ()  # pattern lines whose tiles had no wall space and fell to the floor

    @property
    def gain(self) -> int:
        """Return what the ply's wall tiles scored."""
        return self.step.gain if self.step is not None else 0

    @property
    def penalty(self) -> int:
        """Return the floor points lost as the round ended (0 when the floor was not charged)."""
        return self.step.penalty if self.step is not None else 0

    @property
    def bonus(self) -> int:
        """Return the end-of-game bonus (0 before the end)."""
        return self.step.bonus if self.step is not None else 0


def board_marks(state: AzulState, player: int, event: AzulEvent) -> Marks:
    """Read from ``event`` where the last ply put tiles on ``player``'s board and what it did to the score."""
    placed = tuple(p for p in event.placements if p.player == player)
    discarded = tuple(d.row for d in event.discards if d.player == player)
    marks = Marks(placed=placed, step=event.score_step(player), discarded=discarded)
    move = event.move
    if move is None or event.player != player:
        return marks
    if move.source == WALL:
        # The line's tiles left it for the wall: ring the whole line.
        return replace(marks, line=move.line, line_spaces=tuple(range(move.line)))
    line_spaces = event.line_spaces()
    # The round's end emptied the floor: nothing is left there to ring, and the marker went back to the centre.
    floor_spaces = () if event.round_ended else event.floor_spaces()
    held = event.marker_held and not event.round_ended
    return replace(marks, line=move.line if line_spaces else 0, line_spaces=line_spaces, floor_spaces=floor_spaces,
                   marker_held=held)  # fmt: skip


def _panel_kind(state: AzulState, player: int) -> str:
    if player in state.left:
        return PANEL_LEFT
    return PANEL_ACTIVE if state.outcome() is None and state.turn == player else PANEL_IDLE


def _draw_panel(
    card: Image.Image,
    lay: Layout,
    state: AzulState,
    player: int,
    name: str,
    event: AzulEvent | None,
    theme: Theme,
    locale: str = "en",
    fit: bool = True,
    choices: bool = True,
) -> None:
    """Draw one player's panel: tiles, name, score, tags, and the marks of the last ply.

    With ``choices``, a grey-wall line to tile shows the wall spaces it may go to (a picture of moves
    proposed on it marks those moves instead).
    """
    dx, dy = lay.panel_left, lay.panel_tops[player]
    kind = _panel_kind(state, player)
    card.paste(panel_base(kind, state.grey_wall, theme), (dx, dy))
    draw = ImageDraw.Draw(card)
    marks = board_marks(state, player, event) if event is not None else Marks()
    if choices and state.phase == TILING and state.turn == player:
        _draw_wall_choices(draw, lay.panel, state, dx, dy, theme)
    _draw_tiles(card, lay.panel, state.boards[player], dx, dy, theme)
    _draw_column(card, draw, lay.panel, state, player, name, kind, marks, dx, dy, theme, locale, fit)
    _draw_marks(draw, lay.panel, marks, dx, dy, theme)


def _draw_wall_choices(
    draw: ImageDraw.ImageDraw, panel: PanelLayout, state: AzulState, dx: int, dy: int, theme: Theme
) -> None:
    """Outline the grey-wall line to tile and the wall spaces it may go to, with their column numbers in amber."""
    # Plain amber outlines, without the dark edge of the last ply's rings: a choice to make, not a move made.
    line = state.pending_line()
    spaces = panel.lines[line - 1]
    boxes = [_shift((spaces[-1][0], spaces[0][1], spaces[0][2], spaces[0][3]), dx, dy)]
    for column in state.wall_columns(state.turn, line):
        boxes.append(_shift(panel.wall[line - 1][column - 1], dx, dy))
        box = boxes[-1]
        # The column number is what ``/azul wall`` asks for.
        middle = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 1)
        draw_text(draw, middle, str(column), NUMBER_FONT, theme.mark, anchor="mm")
    for x0, y0, x1, y1 in boxes:
        draw.rounded_rectangle((x0 - 3, y0 - 3, x1 + 2, y1 + 2), radius=6, outline=theme.mark, width=3)


def _draw_tiles(card: Image.Image, panel: PanelLayout, board: Board, dx: int, dy: int, theme: Theme) -> None:
    """Draw a board's pattern-line, wall and floor tiles (and the marker on the floor)."""
    cell = panel.wall[0][0][2] - panel.wall[0][0][0]
    floor_cell = panel.floor[0][2] - panel.floor[0][0]
    for row in range(5):
        colour, count = board.line_colours[row], board.line_counts[row]
        for i in range(count):
            _paste(card, tile_sprite(colour, cell, theme), _shift(panel.lines[row][i], dx, dy))
        for column in range(5):
            tile = board.wall[5 * row + column]
            if tile >= 0:
                _paste(card, tile_sprite(tile, cell, theme), _shift(panel.wall[row][column], dx, dy))
    for i, tile in enumerate(board.floor):
        sprite = marker_sprite(floor_cell, theme) if tile == MARKER else tile_sprite(tile, floor_cell, theme)
        _paste(card, sprite, _shift(panel.floor[i], dx, dy))


def _draw_column(
    card: Image.Image,
    draw: ImageDraw.ImageDraw,
    panel: PanelLayout,
    state: AzulState,
    player: int,
    name: str,
    kind: str,
    marks: Marks,
    dx: int,
    dy: int,
    theme: Theme,
    locale: str = "en",
    fit: bool = True,
) -> None:
    """Draw the right-hand column: the name chip (and the marker held off the floor), the score, the tags.

    With ``fit``, pills too wide for the column are drawn a little smaller (the palette's made-up cards do not).
    """
    left, right = dx + panel.column_left, dx + panel.column_right
    board = state.boards[player]
    result = state.outcome()
    holds_marker = state.marker == player and MARKER not in board.floor and result is None and kind != PANEL_LEFT
    token = marker_sprite(30, theme)
    room = right - left - (token.width + 8 if holds_marker else 0)
    chip_right = draw_name_chip(draw, name, player, left, dy + panel.name_mid, room, theme)
    if holds_marker:
        token_box = (chip_right + 8, dy + panel.name_mid - 15, chip_right + 38, dy + panel.name_mid + 15)
        _paste(card, token, token_box)
        if marks.marker_held:
            _ring(draw, [token_box], theme, grow=4, width=2)

    # A player who left keeps their score as it was: no sum.
    change = None if player in state.left else marks.step
    _draw_score(card, draw, left, right, dy + panel.score_mid, board.score, change, kind, theme, locale)
    if marks.penalty:
        # The floor was charged and emptied as the round ended: say what it cost, over the floor itself.
        pill = _plain_pill(pgettext(locale, "board", "{minus}{n} floor", minus=DASH, n=marks.penalty), theme)
        floor_box = (panel.floor[0][0], panel.floor[0][1], panel.floor[-1][2], panel.floor[0][3])
        _paste(card, pill, _shift(floor_box, dx, dy))

    tags: list[tuple[bool, str]] = []  # (amber?, text)
    place = result.places[player] if result is not None and result.places else 1
    if player in state.left:
        # Leavers rank after everyone who stayed: once the game is over, say where.
        if result is None:
            tags.append((False, pgettext(locale, "board", "left")))
        else:
            tags.append((False, pgettext(locale, "board", "{place} · left", place=ordinal(place, locale))))
    elif result is not None:
        if player in result.winners:
            tags.append((True, pgettext(locale, "board", "winner")))
        else:
            tags.append((False, ordinal(place, locale)))
    elif state.turn == player:
        if state.phase == TILING:
            tags.append((True, pgettext(locale, "board", "to choose")))
        else:
            tags.append((True, pgettext(locale, "board", "to move")))
    if marks.bonus:
        tags.append((True, pgettext(locale, "board", "+{n} bonus", n=marks.bonus)))
    # Longer words (another language) make the pills a little smaller rather than run off the panel.
    size = PILL_FONT
    while True:
        pills = [(_gain_pill if amber else _plain_pill)(text, theme, size) for amber, text in tags]
        if not fit or size <= PILL_FONT - 6 or sum(pill.width + 6 for pill in pills) - 6 <= right - left:
            break
        size -= 1
    x = left
    for pill in pills:
        card.paste(pill, (x, dy + panel.tag_mid - pill.height // 2), pill)
        x += pill.width + 6


def score_parts(change: ScoreStep | None, score: int) -> list[tuple[str, str]]:
    """Return the score line's small parts before the score itself, as ``(text, kind)``: the sum that makes it.

    ``kind`` is ``"was"`` (the score before), ``"gain"`` (``+7``, wall tiles and bonus), ``"loss"`` (``−4``,
    the floor) or ``"sign"`` (``=``, or ``→`` when the floor took the score to 0 and stopped there).  Without a
    change the line is the score alone.

    >>> score_parts(ScoreStep(5, 7, 4, 0, 8, False), 8)
    [('5', 'was'), ('+7', 'gain'), ('−4', 'loss'), ('=', 'sign')]
    >>> score_parts(ScoreStep(3, 2, 14, 0, 0, True), 0)
    [('3', 'was'), ('+2', 'gain'), ('−14', 'loss'), ('→', 'sign')]
    """
    if change is None:
        return []
    parts: list[tuple[str, str]] = []
    if change.before is not None:
        parts.append((str(change.before), "was"))
    if change.gain:
        parts.append((f"+{change.gain}", "gain"))
    if change.penalty:
        parts.append((f"{DASH}{change.penalty}", "loss"))
    if change.bonus:
        parts.append((f"+{change.bonus}", "gain"))
    parts.append(("\u2192" if change.clipped else "=", "sign"))
    return parts


def _draw_score(
    card: Image.Image,
    draw: ImageDraw.ImageDraw,
    left: int,
    right: int,
    mid: int,
    score: int,
    change: ScoreStep | None,
    kind: str,
    theme: Theme,
    locale: str,
) -> None:
    """Draw the score line: the sum of the last ply's changes (``5 +7 −4 =``) in small print, then the score.

    The parts shrink to fit the column; the unit (``pts``) goes first when room runs short.
    """
    parts = score_parts(change, score)
    big = theme.font_title
    unit = npgettext(locale, "board", "pts", "pts", score)
    text = str(score)
    size, gap = theme.font_coordinate, 6
    room = right - left - 8

    def width(size: int, big: int, with_unit: bool) -> int:
        small = sum(math.ceil(text_width(part, size)) + gap for part, _ in parts)
        tail = math.ceil(text_width(unit, theme.font_small)) + 6 if with_unit else 0
        return small + math.ceil(text_width(text, big)) + tail

    # Room runs short: first the unit goes, then the score and the sum get smaller, the sum never below 18 px.
    with_unit = width(size, big, True) <= room
    while not with_unit and width(size, big, False) > room and (size > 18 or big > theme.font_body):
        if big > theme.font_body and size <= theme.font_small:
            big -= 1
        else:
            size -= 1
    colours = {"was": theme.text_muted, "gain": theme.mark, "loss": theme.text, "sign": theme.text_muted}
    x = left + 4
    for part, part_kind in parts:
        draw_text(draw, (x, mid + 2), part, size, colours[part_kind], anchor="lm")
        x += math.ceil(text_width(part, size)) + gap
    ink = theme.text_muted if kind == PANEL_LEFT else theme.text
    draw_text(draw, (x, mid), text, big, ink, anchor="lm")
    if with_unit:
        x += math.ceil(text_width(text, big)) + 6
        draw_text(draw, (x, mid + 2), unit, theme.font_small, theme.text_muted, anchor="lm")


def _draw_marks(draw: ImageDraw.ImageDraw, panel: PanelLayout, marks: Marks, dx: int, dy: int, theme: Theme) -> None:
    """Ring where the last ply put tiles on this board (pattern line, floor, wall); cross out discarded lines."""
    if marks.line_spaces:
        _ring(draw, [_shift(panel.lines[marks.line - 1][i], dx, dy) for i in marks.line_spaces], theme)
    if marks.floor_spaces:
        _ring(draw, [_shift(panel.floor[i], dx, dy) for i in marks.floor_spaces], theme, grow=4, width=2)
    for placement in marks.placed:
        _ring(draw, [_shift(panel.wall[placement.row - 1][placement.column - 1], dx, dy)], theme, grow=4, width=2)
    for line in marks.discarded:
        # A grey-wall line with no legal space: its tiles fell to the floor.
        boxes = [_shift(box, dx, dy) for box in panel.lines[line - 1]]
        x0, x1, y = boxes[-1][0] + 6, boxes[0][2] - 6, (boxes[0][1] + boxes[0][3]) // 2
        draw.line((x0, y, x1, y), fill=theme.mark_edge, width=7)
        draw.line((x0, y, x1, y), fill=theme.mark, width=3)
