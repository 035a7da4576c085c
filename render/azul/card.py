"""Azul's whole card: its texts, the table and panels composed on the static card, a review's moves, its palette."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import replace
from typing import NamedTuple

from PIL import Image, ImageDraw

import i18n
from engines.azul import (
    CENTRE,
    EMPTY5,
    EMPTY_BOARD,
    MARKER,
    OFFER,
    OVER,
    TILING,
    WALL,
    WALL_COLOUR,
    AzulEvent,
    AzulMove,
    AzulState,
    Board,
    Discard,
    Placement,
    Termination,
    wall_free,
)
from engines.base import Outcome
from render.azul.layout import Box, Layout, _paste_label, _ring, _shift, factory_tile_boxes, layout, static_card
from render.azul.panel import _draw_panel
from render.azul.sprites import DISC_FILL, ghost_marker_sprite, ghost_sprite, ring_sprite
from render.azul.table import _draw_table, centre_places
from render.draw import build_palette, draw_lines, draw_status
from render.legend import Key
from render.text import ellipsize, fit_size, text_width, wrap
from render.theme import Theme


def status_text(state: AzulState, names: Sequence[str], locale: str = "en") -> str:
    """Return the status line: the round and who is to move (or must choose a wall column), or the result."""
    return i18n.status_text(state, names, locale)


def last_text(state: AzulState, names: Sequence[str], locale: str = "en") -> str:
    """Return a short line saying what the last ply did (the bot's message says it in full; see :mod:`i18n`)."""
    return i18n.caption_text(state, names, locale)


class CardTexts(NamedTuple):
    """The card's two texts as drawn: the status and how many lines it takes, the caption's size and lines."""

    status: str
    status_lines: int
    caption_size: int
    caption: list[str]


def card_texts(
    state: AzulState, names: Sequence[str], theme: Theme, locale: str = "en", *, whole: bool = True
) -> CardTexts:
    """Return the status and the caption as the card draws them: each fits the card, wrapped rather than cut.

    Names are cut in both (the panels show them in full), so that what happens after them stays readable; a
    caption too long for one line even at 18 px wraps to more lines at the usual size (with ``whole=False``, for
    the palette's made-up cards, it is cut on one line instead).
    """
    room = theme.width - 2 * theme.padding
    status = status_text(state, [ellipsize(name, theme.font_body, 220) for name in names], locale)
    status_size = fit_size(status, theme.font_body, room, theme.font_small)
    status_lines = 1 if text_width(status, status_size) <= room else len(wrap(status, theme.font_small, room))
    text = last_text(state, [ellipsize(name, theme.font_small, 150) for name in names], locale)
    size = fit_size(text, theme.font_small, room, 18)
    if text_width(text, size) <= room:
        lines = [text]
    elif whole:
        # Two lines at the usual size read better on a phone than one line of small print.
        size = theme.font_small
        lines = wrap(text, size, room)
    else:
        lines = [ellipsize(text, size, room)]
    return CardTexts(status, status_lines, size, lines)


def _compose(
    state: AzulState,
    names: Sequence[str],
    event: AzulEvent | None,
    theme: Theme,
    locale: str = "en",
    *,
    whole: bool = True,
    proposals: Sequence[tuple[AzulEvent, Theme]] = (),
    legend: tuple[Key, ...] | None = None,
) -> Image.Image:
    """Draw one card for ``state``, marking ``event`` (or nothing), and the moves ``proposals`` would make (whose
    colours ``legend`` explains, under the key to the tiles).

    The status and the caption each take one line; one that does not fit even a little smaller wraps to more
    lines, and the card grows by what they need (see :func:`layout`), so nothing they say is cut.  The palette's
    made-up cards are drawn with ``whole=False`` (a long caption cut on one line, as before wrapping existed), so
    that the palette, and with it every English card, stays the same.
    """
    status, status_lines, size, lines = card_texts(state, names, theme, locale, whole=whole)
    room = theme.width - 2 * theme.padding
    extra = (status_lines - 1) * (theme.font_small + 2) + (len(lines) - 1) * (size + 2)
    lay = layout(state.players, theme, extra, legend is not None)
    card = static_card(state.players, theme, locale, extra, legend).copy()
    _draw_table(card, lay, state, event, theme, locale)
    for player in range(state.players):
        _draw_panel(card, lay, state, player, names[player], event, theme, locale, whole, not proposals)
    draw_status(card, status, lay.status_top, theme)
    draw = ImageDraw.Draw(card)
    top = lay.last_top + (status_lines - 1) * (theme.font_small + 2)
    draw_lines(draw, lines, (lay.width / 2, top), size, room, theme.text_muted)
    if proposals:
        _draw_proposals(card, lay, state, proposals, theme)
    return card


# How much further out (a source) or in (a target) a later move's rings go where an earlier one's are.
SOURCE_STEP = 9
TARGET_STEP = 8


def _draw_proposals(
    card: Image.Image, lay: Layout, state: AzulState, proposals: Sequence[tuple[AzulEvent, Theme]], card_theme: Theme
) -> None:
    """Mark moves on the position before them, each in its theme's mark colour (a review's played and better move).

    A take rings its source (the factory, or the colour's group in the centre and the marker) and each tile
    it would take, and on the mover's panel the pattern-line and floor spaces the tiles would fill; a grey-wall
    tiling rings the line and the wall space.  What the move would then set off (wall tiling at the round's
    end, points, penalties) is not drawn: it has not happened.  Where a later move's ring would lie on an
    earlier one's, it goes further out around a source and further in within a target, so both stay seen.
    """
    draw = ImageDraw.Draw(card)
    seen: dict[tuple[object, ...], int] = {}  # each ringed place: how many rings it has

    def ring(key: tuple[object, ...], boxes: Sequence[Box], theme: Theme, grow: int, width: int, step: int) -> None:
        count = seen.get(key, 0)
        seen[key] = count + 1
        _ring(draw, boxes, theme, grow=grow + step * count, width=width)

    for event, theme in proposals:
        move = event.move
        if move is None:
            continue
        dx, dy = lay.panel_left, lay.panel_tops[event.player]
        panel = lay.panel
        if move.source == WALL:
            spaces = [_shift(box, dx, dy) for box in panel.lines[move.line - 1]]
            ring(("line", move.line), spaces, theme, 5, 3, -TARGET_STEP)
            wall = _shift(panel.wall[move.line - 1][move.column - 1], dx, dy)
            ring(("wall", move.line, move.column), [wall], theme, 4, 2, -TARGET_STEP)
            continue
        if move.source == CENTRE:
            marker_box, groups = centre_places(
                lay, state.centre, state.marker < 0 and state.outcome() is None, card_theme
            )
            for colour, _, box in groups:
                if colour == move.colour:
                    ring(("centre", colour), [box], theme, 5, 2, SOURCE_STEP)
            if marker_box is not None and event.marker:
                ring(("marker",), [marker_box], theme, 4, 2, SOURCE_STEP)
        else:
            count = seen.get(("factory", move.source), 0)
            seen[("factory", move.source)] = count + 1
            cx, cy = lay.factories[move.source - 1]
            disc = ring_sprite(lay.disc + 10 + 2 * SOURCE_STEP * count, 4, theme)
            card.paste(disc, (cx - disc.width // 2, cy - disc.height // 2), disc)
            _paste_label(card, lay, move.source, theme)
            tiles = state.factories[move.source - 1]
            colours = [colour for colour in range(5) for _ in range(tiles[colour])]
            boxes = factory_tile_boxes(lay, move.source)
            for index, (colour, box) in enumerate(zip(colours, boxes, strict=False)):
                if colour == move.colour:
                    ring(("tile", move.source, index), [box], theme, 3, 2, -TARGET_STEP)
        if event.to_line:
            spaces = [_shift(panel.lines[move.line - 1][i], dx, dy) for i in event.line_spaces()]
            ring(("line", move.line), spaces, theme, 5, 3, -TARGET_STEP)
        floor = event.floor_spaces()
        if floor:
            ring(("floor",), [_shift(panel.floor[i], dx, dy) for i in floor], theme, 4, 2, -TARGET_STEP)


def _sample_states() -> list[AzulState]:
    """Return made-up positions that hold every tile, ghost, mark, tag and chip a real card can show."""
    wall = tuple(WALL_COLOUR[r][c] if (r + c) % 2 else -1 for r in range(5) for c in range(5))
    full = Board(88, (0, 1, 2, 3, 4), (1, 1, 2, 3, 2), wall, (MARKER, 0, 1, 2, 3, 4, 0), wall_free(wall))
    lines = Board(7, (2, -1, 4, 0, 1), (1, 0, 2, 4, 5), EMPTY_BOARD.wall, (3, 4), EMPTY_BOARD.free)
    boards = (full, lines, full, lines)
    factories = tuple((1, 1, 1, 1, 0) if i % 2 else (0, 1, 1, 1, 1) for i in range(9))
    placements = tuple(Placement(p, r + 1, c + 1, WALL_COLOUR[r][c], 9) for p in range(4) for r, c in ((0, 1), (1, 0)))
    take = AzulEvent(
        player=0,
        move=AzulMove(CENTRE, 3, 4),
        taken=3,
        to_line=1,
        to_floor=2,
        marker=True,
        placements=placements,
        round_ended=3,
        penalties=(14, 4, 0, 1),
        bonuses=((1, 1, 1),) * 4,
        line_start=2,
        # Made up as the palette has always been drawn: a sum without the score before, and the arrow.
        before=(65, None, 51, None),
        after=(88, 7, 88, 7),
        clipped=(False, True, False, True),
    )
    factory = AzulEvent(
        player=1, move=AzulMove(2, 1, 5), taken=2, to_line=2, discards=(Discard(1, 4, 0, 4),), line_start=3
    )
    over = Outcome((0,), (88, 7, 88, 7), Termination.WALL_ROW, (1, 3, 2, 4))
    ended = AzulState(
        players=4,
        seed=0,
        grey_wall=False,
        first_player=None,
        max_rounds=100,
        round=3,
        phase=OVER,
        turn=0,
        starter=0,
        rng=0,
        bag=EMPTY5,
        lid=EMPTY5,
        factories=factories,
        centre=(3, 2, 1, 0, 12),
        marker=1,
        boards=boards,
        left=(3,),
        result=over,
        last=take,
    )
    tiling = replace(
        ended, grey_wall=True, phase=TILING, turn=1, centre=(0, 0, 4, 5, 6), marker=0, result=None, last=factory
    )
    offer = replace(tiling, grey_wall=False, phase=OFFER, turn=2, marker=-1, last=factory._replace(discards=()))
    return [ended, tiling, offer]


@functools.cache
def palette(theme: Theme) -> Image.Image:
    """Return the fixed PNG palette for Azul cards of one theme, built once from made-up four-player cards.

    Mapping each card to a palette made in advance costs much less than building
    a palette per card; the sample cards hold every tile, faint space, ghost,
    mark, pill, tag and chip, so no real card needs a colour they lack.
    """
    names = ("Player one", "Player two", "Player three", "Player four")
    cards = [_compose(state, names, state.last, theme, whole=False) for state in _sample_states()]
    # A strip of every ghost on the factories' colour: one card shows only one colour's ghosts.
    lay = layout(4, theme)
    strip = Image.new("RGB", (6 * lay.factory_tile, lay.factory_tile), DISC_FILL)
    for k in range(5):
        ghost = ghost_sprite(k, lay.factory_tile, theme)
        strip.paste(ghost, (k * lay.factory_tile, 0), ghost)
    marker = ghost_marker_sprite(lay.factory_tile, theme)
    strip.paste(marker, (5 * lay.factory_tile, 0), marker)
    sample = Image.new("RGB", (sum(card.width for card in cards), max(card.height for card in cards) + strip.height))
    for i, card in enumerate(cards):
        sample.paste(card, (i * card.width, 0))
    sample.paste(strip, (0, sample.height - strip.height))
    return build_palette(sample, theme)
