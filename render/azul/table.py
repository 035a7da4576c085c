"""The factories and the centre on Azul's card, with the last take's ring and ghosts."""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from engines.azul import CENTRE, WALL, AzulEvent, AzulMove, AzulState
from i18n.catalog import pgettext
from render.azul.layout import Box, Layout, _paste, _paste_label, _ring, factory_tile_boxes
from render.azul.sprites import (
    DISC_FILL,
    NUMBER_FONT,
    _blend,
    _label_pill,
    ghost_marker_sprite,
    ghost_sprite,
    marker_sprite,
    ring_sprite,
    tile_sprite,
)
from render.text import draw_text, text_width
from render.theme import Theme


def _take_of(event: AzulEvent | None) -> tuple[AzulMove, AzulEvent] | None:
    """Return the last ply's take and its event, or ``None`` if it was no take (or is not to be marked)."""
    if event is None or event.move is None or event.move.source == WALL:
        return None
    return event.move, event


def _draw_table(
    card: Image.Image, lay: Layout, state: AzulState, event: AzulEvent | None, theme: Theme, locale: str = "en"
) -> None:
    """Draw the factories' tiles, the centre's groups and the marker, and the source of the last take."""
    draw = ImageDraw.Draw(card)
    size = lay.factory_tile
    take = _take_of(event)
    for number, tiles in enumerate(state.factories, start=1):
        boxes = factory_tile_boxes(lay, number)
        if take is not None and take[0].source == number:
            # The source display: a ring, its label back over the ring, ghosts of the taken tiles inside.
            cx, cy = lay.factories[number - 1]
            ring = ring_sprite(lay.disc + 10, 4, theme)
            card.paste(ring, (cx - ring.width // 2, cy - ring.height // 2), ring)
            _paste_label(card, lay, number, theme)
            for box in boxes[: take[1].taken]:
                _paste(card, ghost_sprite(take[0].colour, size, theme), box)
        colours = [colour for colour in range(5) for _ in range(tiles[colour])]
        for colour, box in zip(colours, boxes, strict=False):
            _paste(card, tile_sprite(colour, size, theme), box)

    # The centre: the marker first while it is there, then one group per colour, in colour order.
    _, y0, x1, y1 = lay.centre_box
    mid = (y0 + y1) // 2
    tile = size - 2
    count_font = theme.font_coordinate
    from_centre = take is not None and take[0].source == CENTRE
    marker_here = state.marker < 0 and state.outcome() is None
    # A ghost marker only while the real one is not back for a new round.
    ghost_marker = from_centre and take is not None and take[1].marker and not marker_here
    counts = list(state.centre)
    ghost_colour = take[0].colour if from_centre and take is not None else -1
    if take is not None and ghost_colour >= 0:
        counts[ghost_colour] = take[1].taken  # all of that colour went: the centre has none of it now
    marker_box, groups = centre_places(lay, counts, marker_here or ghost_marker, theme)
    if marker_box is not None:
        _paste(card, ghost_marker_sprite(tile, theme) if ghost_marker else marker_sprite(tile, theme), marker_box)
        if ghost_marker:
            _ring(draw, [marker_box], theme, grow=4, width=2)
    for colour, text, box in groups:
        ghost = colour == ghost_colour
        _paste(
            card, (ghost_sprite if ghost else tile_sprite)(colour, tile, theme), (box[0], box[1], box[0] + tile, box[3])
        )
        ink = _blend(DISC_FILL, theme.text, 0.5) if ghost else theme.text
        draw_text(draw, (box[0] + tile + 4, mid + 1), text, count_font, ink, anchor="lm")
        if ghost:
            _ring(draw, [box], theme, grow=5, width=2)
    # The bag and the lid, in small print at the right end of the centre's tray.
    small = NUMBER_FONT - 2
    bag = pgettext(locale, "board", "bag {n}", n=state.bag_count)
    lid = pgettext(locale, "board", "lid {n}", n=state.lid_count)
    draw_text(draw, (x1 - 22, mid - 2), bag, small, theme.text, anchor="rs")
    draw_text(draw, (x1 - 22, mid + 2), lid, small, theme.text, anchor="rt")


def centre_places(
    lay: Layout, counts: Sequence[int], marker: bool, theme: Theme
) -> tuple[Box | None, list[tuple[int, str, Box]]]:
    """Return where the centre's parts go: the marker's box, and a ``(colour, count text, box)`` per group.

    The marker comes first (if ``marker``), then each colour with tiles in ``counts``, in colour order; a
    group's box holds its tile and its count.
    """
    x0, y0, _, y1 = lay.centre_box
    mid = (y0 + y1) // 2
    tile = lay.factory_tile - 2
    count_font = theme.font_coordinate
    x = x0 + 12 + _label_pill("c", theme).width + 16
    marker_box = None
    if marker:
        marker_box = (x, mid - tile // 2, x + tile, mid + tile // 2)
        x += tile + 14
    groups = []
    for colour, count in enumerate(counts):
        if not count:
            continue
        text = f"×{count}"
        end = x + tile + 4 + math.ceil(text_width(text, count_font))
        groups.append((colour, text, (x, mid - tile // 2, end, mid + tile // 2)))
        x = end + 16
    return marker_box, groups
