"""Azul's board picture.

The card shows, top to bottom: a status line (the round and who is to move, or
the result), a line saying what the last ply did, the factory displays
(``f1``.. as in the move notation) and the centre (``c``: one tile per colour
with its count, and the first-player marker while it is there), then one panel
per player, and a key to the tile letters.

A player's panel holds the pattern lines (numbered 1 to 5, filling from the
right towards the wall), the wall (on the coloured side its empty spaces show
their colour faintly; on the grey side their column number), the name in the
seat's chip, the score, and the floor line with the penalty printed over each
space.  The player to move has a lighter panel with an amber bar and a
``to move`` tag; a player who left has a darker panel and a ``left`` tag.

Tiles are double-coded for colour-blind players and greyscale: each carries its
letter (``B`` blue, ``Y`` yellow, ``R`` red, ``K`` black, ``W`` white), and the
five fills differ in lightness as well as hue.  The marker is a round token
marked ``1``, never a square tile.

The last ply is marked by shape: an amber ring around the factory (or the centre
group) the tiles came from, with faded ghosts of the taken tiles; an amber ring
around the pattern-line and floor spaces they went to; a ring around every tile
that went to a wall this ply, the floor penalty over the emptied floor
(``−2 floor``) and, at the end, the bonus.  The score line then shows the sum
that makes the new score, ``5 +7 −2 = 10`` (gains in amber); when the floor
took more than the player had, it reads ``3 +1 −14 → 0`` and the caption says
that scores stop at 0.  During a
grey-wall tiling the line to tile and its legal wall spaces are outlined in amber
with their column numbers.

A review's board (``marks=``) shows the position before a move with moves marked
on it, each in its own mark colour (the move played amber, a better one blue):
a ring round the factory (or the centre's group, and the marker) and round each
tile the take would lift, and on the mover's panel a ring round the pattern-line
and floor spaces the tiles would fill (or, tiling a grey wall, the line and the
wall space).  What the move would set off — wall tiling at the round's end,
points, penalties — is not drawn.  A later move's ring goes further out round a
source it shares and further in within a target it shares.

>>> from engines import GAMES
>>> state = GAMES["azul"].new(players=4, seed=3).play("f1 yellow 1")
>>> picture = render_azul(state, players=("Ana", "Bo", "Cy", "Dee"), last_move=True)
>>> picture.image.mode, picture.image.size
('RGB', (720, 1402))
>>> last_text(state, ("Ana", "Bo", "Cy", "Dee"))
'Bo took 2 yellow from f1 → line 1 (1 to floor).'

"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, NamedTuple

from PIL import Image, ImageDraw

import i18n
from engines.azul import (
    CENTRE,
    EMPTY5,
    EMPTY_BOARD,
    FACTORIES,
    FLOOR_PENALTIES,
    FLOOR_SPACES,
    LETTERS,
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
    ScoreStep,
    Termination,
    wall_free,
)
from engines.azul import from_json as azul_from_json
from engines.azul import new as new_azul
from engines.base import Outcome
from i18n.azul import colour_name, seat
from i18n.catalog import npgettext, pgettext
from i18n.common import ordinal
from render.draw import (
    Ellipse,
    Layer,
    Picture,
    Poly,
    blend_sprite,
    build_palette,
    display_name,
    draw_lines,
    draw_name_chip,
    draw_status,
    new_card,
    outline_box,
    paint_sprite,
    pill_sprite,
    with_opacity,
)
from render.text import draw_text, ellipsize, fit_size, text_width, wrap
from render.theme import DEFAULT_THEME, RGB, Theme

if TYPE_CHECKING:  # the gallery's types, for gallery() at the end
    from render.gallery import Showcase

# Tile colours in engine order (blue, yellow, red, black, white).  Their lightness differs as well as their hue
# (greyscale ~83, 196, 130, 30, 238), and each tile also carries its letter.
TILE_FILL: tuple[RGB, ...] = ((30, 90, 190), (246, 200, 46), (232, 92, 60), (30, 30, 34), (240, 238, 228))
TILE_INK: tuple[RGB, ...] = ((250, 250, 250), (30, 24, 6), (36, 10, 4), (236, 236, 236), (30, 30, 34))
# Black and blue need a light edge to stand out on the dark panels; the others a darker shade of themselves.
TILE_EDGE: tuple[RGB, ...] = ((120, 160, 230), (150, 112, 10), (120, 36, 20), (150, 150, 158), (120, 118, 108))
MARKER_FILL: RGB = (250, 246, 236)
MARKER_EDGE: RGB = (24, 24, 26)
MARKER_INK: RGB = (24, 24, 26)
# The factory discs and the centre's tray.
DISC_FILL: RGB = (40, 100, 112)
DISC_EDGE: RGB = (24, 68, 78)
# Empty spaces: pattern lines and floor, and the grey wall.
SLOT_FILL: RGB = (33, 36, 42)
SLOT_EDGE: RGB = (84, 90, 100)
GREY_SPACE: RGB = (92, 96, 104)
# How strongly an empty coloured-wall space shows its colour, and its letter.
FAINT_FILL = 0.2
FAINT_LETTER = 0.3
# Ghosts of the tiles taken in the last ply.
GHOST_OPACITY = 0.38
# The card has room for more shades than the default palette: five tiles, their faint and ghost forms.
PNG_COLOURS = 128
DASH = "\u2212"  # a real minus sign: '-' looks like a hyphen next to digits
# Font sizes: pills (points, tags), factory and centre labels, pattern-line and column numbers, floor penalties.
PILL_FONT = 20
LABEL_FONT = 21
NUMBER_FONT = 20
PENALTY_FONT = 20
# Over the floor's narrow spaces the penalties take an en dash: U+2212 is too wide for "−2" to fit with a gap.
FLOOR_DASH = "\u2013"


@functools.cache
def azul_theme(theme: Theme) -> Theme:
    """Return ``theme`` with a palette large enough for the tiles, their faint spaces and ghosts."""
    return replace(theme, name=f"{theme.name}+azul", png_colours=max(theme.png_colours, PNG_COLOURS))


def _blend(a: RGB, b: RGB, t: float) -> RGB:
    """Return the colour ``t`` of the way from ``a`` to ``b``."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


# -- sprites ---------------------------------------------------------------------------------------------------------


def _rounded_square(half: float, radius: float, steps: int = 6) -> Poly:
    """Return a square of half-side ``half`` centred in the 100-unit box, its corners rounded by ``radius``."""
    points = []
    inner = half - radius
    for quarter, (sx, sy) in enumerate(((1, 1), (-1, 1), (-1, -1), (1, -1))):
        cx, cy = 50 + sx * inner, 50 + sy * inner
        for i in range(steps + 1):
            angle = math.pi / 2 * (quarter + i / steps)
            points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return Poly(tuple(points))


TILE_SHAPE = (_rounded_square(47, 13),)


def _letter_size(size: int) -> int:
    return max(12, round(size * 0.56))


@functools.cache
def tile_sprite(colour: int, size: int, theme: Theme) -> Image.Image:
    """Return a tile of ``colour`` with its letter, ``size`` pixels square; cached, never drawn into."""
    sprite = paint_sprite(
        size,
        [Layer(TILE_SHAPE, TILE_EDGE[colour]), Layer((_rounded_square(41, 9),), TILE_FILL[colour])],
        theme.supersample,
    )
    # The letter is drawn at the final size rather than scaled down, so its strokes stay sharp.
    draw_text(
        ImageDraw.Draw(sprite), (size / 2, size / 2 + 1), LETTERS[colour].upper(), _letter_size(size),
        TILE_INK[colour], anchor="mm",
    )  # fmt: skip
    return sprite


@functools.cache
def ghost_sprite(colour: int, size: int, theme: Theme) -> Image.Image:
    """Return a faded tile: one taken from here in the last ply."""
    return with_opacity(tile_sprite(colour, size, theme), GHOST_OPACITY)


@functools.cache
def marker_sprite(size: int, theme: Theme) -> Image.Image:
    """Return the first-player marker: a round cream token marked ``1`` (round, so never taken for a tile)."""
    sprite = paint_sprite(
        size, [Layer((Ellipse(50, 50, 48, 48),), MARKER_EDGE), Layer((Ellipse(50, 50, 42, 42),), MARKER_FILL)],
        theme.supersample,
    )  # fmt: skip
    draw_text(ImageDraw.Draw(sprite), (size / 2, size / 2 + 1), "1", _letter_size(size), MARKER_INK, anchor="mm")
    return sprite


@functools.cache
def ghost_marker_sprite(size: int, theme: Theme) -> Image.Image:
    """Return a faded marker: taken from the centre in the last ply."""
    return with_opacity(marker_sprite(size, theme), GHOST_OPACITY)


@functools.cache
def disc_sprite(diameter: int, theme: Theme) -> Image.Image:
    """Return a factory display: a disc with a darker rim."""
    return paint_sprite(
        diameter, [Layer((Ellipse(50, 50, 49, 49),), DISC_EDGE), Layer((Ellipse(50, 50, 45.5, 45.5),), DISC_FILL)],
        theme.supersample,
    )  # fmt: skip


@functools.cache
def ring_sprite(diameter: int, width: int, theme: Theme) -> Image.Image:
    """Return an amber ring edged in dark lines, ``diameter`` across: the last ply's source display."""
    unit = 100 / diameter  # one output pixel in box units
    outer = 50 - unit / 2
    layers = [
        Layer((Ellipse(50, 50, outer, outer),), theme.mark_edge),
        Layer((Ellipse(50, 50, outer - 2 * unit, outer - 2 * unit),), theme.mark),
        Layer((Ellipse(50, 50, outer - (2 + width) * unit, outer - (2 + width) * unit),), theme.mark_edge),
        # Painting transparency cuts the hole: the disc and its tiles show through.
        Layer((Ellipse(50, 50, outer - (4 + width) * unit, outer - (4 + width) * unit),), (0, 0, 0, 0)),
    ]
    return paint_sprite(diameter, layers, theme.supersample)


def _gain_pill(text: str, theme: Theme, size: int = PILL_FONT) -> Image.Image:
    """Return an amber pill for points gained (``+5``, ``+19 bonus``)."""
    return pill_sprite(text, size, theme.mark, theme.mark_edge, theme.mark_edge, theme)


def _plain_pill(text: str, theme: Theme, size: int = PILL_FONT) -> Image.Image:
    """Return a dark pill with light text (``−2 floor``, ``2nd``, ``left``)."""
    return pill_sprite(text, size, theme.background, theme.text, theme.text_muted, theme)


def _label_pill(text: str, theme: Theme) -> Image.Image:
    """Return the label of a factory or the centre (``f3``, ``c``), in the move notation."""
    return pill_sprite(text, LABEL_FONT, theme.text, theme.background, theme.background, theme)


# -- layout ----------------------------------------------------------------------------------------------------------

Box = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class PanelLayout:
    """Where the parts of one player's panel go, relative to the panel's top left corner."""

    width: int
    height: int
    lines: tuple[tuple[Box, ...], ...]  # lines[row][i]: space i of pattern line row + 1, from the right (the wall side)
    wall: tuple[tuple[Box, ...], ...]  # wall[row][column]
    floor: tuple[Box, ...]
    column_left: int  # the right-hand column: name, score, tags, floor
    column_right: int
    name_mid: int
    score_mid: int
    tag_mid: int
    floor_label_mid: int


@dataclass(frozen=True, slots=True)
class Layout:
    """Where each part of the card goes for one number of players and theme."""

    width: int
    height: int
    status_top: int
    last_top: int
    factories: tuple[tuple[int, int], ...]  # disc centres
    disc: int  # disc diameter
    factory_tile: int
    centre_box: Box
    panel: PanelLayout
    panel_tops: tuple[int, ...]
    panel_left: int
    legend_mid: int


def _scaled(value: float, theme: Theme) -> int:
    return round(value * theme.width / 720)


@functools.cache
def panel_layout(theme: Theme) -> PanelLayout:
    """Compute one player's panel: pattern lines and wall side by side, the name, score and floor on the right."""
    width = theme.width - 2 * theme.padding
    inset, numbers, gap_mid, gap_col, right_inset = 12, 20, 12, 14, 10
    cell, gap = _scaled(36, theme), _scaled(4, theme)
    block = 5 * cell + 4 * gap
    top = 12
    lines_left = inset + numbers
    wall_left = lines_left + block + gap_mid
    column_left = wall_left + block + gap_col
    column_right = width - right_inset
    floor_gap = 2
    floor_cell = min(cell, (column_right - column_left - (FLOOR_SPACES - 1) * floor_gap) // FLOOR_SPACES)
    lines = []
    wall = []
    for row in range(5):
        y0 = top + row * (cell + gap)
        # Line row + 1 has row + 1 spaces, numbered from the right: space 0 is next to the wall.
        lines.append(
            tuple(
                (x0, y0, x0 + cell, y0 + cell) for x0 in (lines_left + (4 - i) * (cell + gap) for i in range(row + 1))
            )
        )
        wall.append(tuple((x0, y0, x0 + cell, y0 + cell) for x0 in (wall_left + c * (cell + gap) for c in range(5))))
    bottom = top + block
    floor_top = bottom - floor_cell
    floor_left = column_right - FLOOR_SPACES * floor_cell - (FLOOR_SPACES - 1) * floor_gap
    floor = tuple(
        (x0, floor_top, x0 + floor_cell, bottom)
        for x0 in (floor_left + i * (floor_cell + floor_gap) for i in range(FLOOR_SPACES))
    )
    name_mid = top + theme.font_body * 3 // 4 + 4
    score_mid = name_mid + 46
    tag_mid = score_mid + 38
    return PanelLayout(
        width, bottom + top, tuple(lines), tuple(wall), floor, column_left, column_right, name_mid, score_mid,
        tag_mid, floor_top - PENALTY_FONT // 2 - 6,
    )  # fmt: skip


FACTORY_ROWS = {5: (5,), 7: (4, 3), 9: (5, 4)}


@functools.cache
def layout(players: int, theme: Theme, extra: int = 0) -> Layout:
    """Compute the card layout for ``players`` players: factories in rows of up to five, then a panel per player.

    ``extra`` pixels are added above the factories when the status or the caption wraps to more lines (a longer
    language): the card grows rather than cut what they say.
    """
    width, pad = theme.width, theme.padding
    status_top = 14
    last_top = status_top + theme.font_body + 10
    factories_top = last_top + theme.font_small + 14 + extra
    disc = _scaled(124, theme)
    spacing = (width - 2 * pad - 5 * disc) // 4
    centres: list[tuple[int, int]] = []
    y = factories_top
    for count in FACTORY_ROWS[FACTORIES[players]]:
        row_width = count * disc + (count - 1) * spacing
        x0 = (width - row_width) // 2
        centres.extend((x0 + i * (disc + spacing) + disc // 2, y + disc // 2) for i in range(count))
        y += disc + 8
    centre_box = (pad, y, width - pad, y + _scaled(60, theme))
    panel = panel_layout(theme)
    top = centre_box[3] + 14
    tops = tuple(top + p * (panel.height + 10) for p in range(players))
    legend_mid = tops[-1] + panel.height + 30
    height = legend_mid + 22 + pad
    return Layout(
        width, height, status_top, last_top, tuple(centres), disc, _scaled(40, theme), centre_box, panel, tops,
        pad, legend_mid,
    )  # fmt: skip


def factory_tile_boxes(lay: Layout, number: int) -> tuple[Box, ...]:
    """Return the four tile places of factory ``number`` (from 1): top left, top right, bottom left, bottom right."""
    cx, cy = lay.factories[number - 1]
    size, gap = lay.factory_tile, 5
    x0, y0 = cx - size - gap // 2, cy - size - gap // 2
    return tuple((x, y, x + size, y + size) for y in (y0, y0 + size + gap) for x in (x0, x0 + size + gap))


# -- the parts that never change -------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=12)  # bounded: sizes x languages x themes in use (about 3-4 MB each)
def static_card(players: int, theme: Theme, locale: str = "en", extra: int = 0) -> Image.Image:
    """Return the parts of the card that never change: background, factory discs and labels, the centre, the key."""
    lay = layout(players, theme, extra)
    card = new_card(lay.width, lay.height, theme)
    draw = ImageDraw.Draw(card)
    half = lay.disc // 2
    for number, (cx, cy) in enumerate(lay.factories, start=1):
        disc = disc_sprite(lay.disc, theme)
        card.paste(disc, (cx - half, cy - half), disc)
        _paste_label(card, lay, number, theme)
    x0, y0, _, y1 = lay.centre_box
    draw.rounded_rectangle(lay.centre_box, radius=(y1 - y0) // 2, fill=DISC_FILL, outline=DISC_EDGE, width=3)
    label = _label_pill(pgettext(locale, "board", "c"), theme)
    card.paste(label, (x0 + 12, (y0 + y1) // 2 - label.height // 2), label)
    _draw_key(card, lay, theme, locale)
    return card


def _draw_key(card: Image.Image, lay: Layout, theme: Theme, locale: str = "en") -> None:
    """Draw the key to the tile letters and the marker, as one centred line."""
    draw = ImageDraw.Draw(card)
    icon = 30
    parts: list[tuple[Image.Image, str]] = [(tile_sprite(k, icon, theme), colour_name(locale, k)) for k in range(5)]
    parts.append((marker_sprite(icon, theme), pgettext(locale, "board", "first player")))
    size, gap = theme.font_small, 6
    spacing = 16
    widths = [icon + gap + math.ceil(text_width(text, size)) for _, text in parts]
    while sum(widths) + spacing * (len(parts) - 1) > lay.width - 2 * theme.padding and size > 14:
        size -= 1
        widths = [icon + gap + math.ceil(text_width(text, size)) for _, text in parts]
    x = (lay.width - sum(widths) - spacing * (len(parts) - 1)) // 2
    for (sprite, text), part_width in zip(parts, widths, strict=True):
        card.paste(sprite, (x, lay.legend_mid - icon // 2), sprite)
        draw_text(draw, (x + icon + gap, lay.legend_mid), text, size, theme.text_muted, anchor="lm")
        x += part_width + spacing


PANEL_IDLE, PANEL_ACTIVE, PANEL_LEFT = "idle", "active", "left"


def _panel_fill(kind: str, theme: Theme) -> RGB:
    return {PANEL_IDLE: theme.panel, PANEL_ACTIVE: theme.panel_active, PANEL_LEFT: theme.background}[kind]


@functools.cache
def panel_base(kind: str, grey: bool, theme: Theme) -> Image.Image:
    """Return an empty player panel: its fill, line numbers, empty spaces, wall and floor with its penalties."""
    panel = panel_layout(theme)
    fill = _panel_fill(kind, theme)
    image = new_card(panel.width, panel.height, theme)
    draw = ImageDraw.Draw(image)
    edge = theme.text_muted if kind == PANEL_LEFT else fill
    draw.rounded_rectangle((0, 0, panel.width - 1, panel.height - 1), radius=14, fill=fill, outline=edge, width=1)
    if kind == PANEL_ACTIVE:
        # The same sign as the player rows of the other games: a solid bar on the left.
        draw.rounded_rectangle((0, 0, 8, panel.height - 1), radius=4, fill=theme.mark)
    cell = panel.wall[0][0][2] - panel.wall[0][0][0]
    radius = max(3, cell // 7)
    numbers = theme.text_muted
    for row in range(5):
        for x0, y0, x1, y1 in panel.lines[row]:
            draw.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius=radius, fill=SLOT_FILL, outline=SLOT_EDGE)
        x0, y0, _, y1 = panel.lines[row][-1]
        draw_text(draw, (x0 - 7, (y0 + y1) / 2 + 1), str(row + 1), NUMBER_FONT, numbers, anchor="rm")
        for column, (x0, y0, x1, y1) in enumerate(panel.wall[row]):
            if grey:
                space = _blend(fill, GREY_SPACE, 0.8)
                draw.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius=radius, fill=space)
                ink = _blend(space, theme.text, 0.35)
                draw_text(draw, ((x0 + x1) / 2, (y0 + y1) / 2 + 1), str(column + 1), NUMBER_FONT, ink, anchor="mm")
            else:
                colour = WALL_COLOUR[row][column]
                space = _blend(fill, TILE_FILL[colour], FAINT_FILL)
                draw.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius=radius, fill=space)
                ink = _blend(space, theme.text, FAINT_LETTER)
                draw_text(
                    draw, ((x0 + x1) / 2, (y0 + y1) / 2 + 1), LETTERS[colour].upper(), _letter_size(cell), ink,
                    anchor="mm",
                )  # fmt: skip
    for (x0, y0, x1, y1), penalty in zip(panel.floor, FLOOR_PENALTIES, strict=True):
        draw.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius=radius, fill=SLOT_FILL, outline=SLOT_EDGE)
        draw_text(
            draw, ((x0 + x1) / 2, panel.floor_label_mid), f"{FLOOR_DASH}{penalty}", PENALTY_FONT, numbers, anchor="mm"
        )
    return image


# -- texts -----------------------------------------------------------------------------------------------------------


def status_text(state: AzulState, names: Sequence[str], locale: str = "en") -> str:
    """Return the status line: the round and who is to move (or must choose a wall column), or the result."""
    return i18n.status_text(state, names, locale)


def last_text(state: AzulState, names: Sequence[str], locale: str = "en") -> str:
    """Return a short line saying what the last ply did (the bot's message says it in full; see :mod:`i18n`)."""
    return i18n.caption_text(state, names, locale)


# -- one frame -------------------------------------------------------------------------------------------------------


def _ring(draw: ImageDraw.ImageDraw, boxes: Sequence[Box], theme: Theme, *, grow: int = 5, width: int = 3) -> None:
    """Outline the smallest box holding ``boxes``, grown by ``grow`` pixels: the last ply's mark."""
    x0 = min(b[0] for b in boxes) - grow
    y0 = min(b[1] for b in boxes) - grow
    x1 = max(b[2] for b in boxes) + grow
    y1 = max(b[3] for b in boxes) + grow
    outline_box(draw, (x0, y0, x1, y1), theme, width)


def _shift(box: Box, dx: int, dy: int) -> Box:
    return (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)


def _paste(card: Image.Image, sprite: Image.Image, box: Box) -> None:
    """Paste ``sprite`` centred in ``box``."""
    x = (box[0] + box[2] - sprite.width) // 2
    y = (box[1] + box[3] - sprite.height) // 2
    blend_sprite(card, sprite, (x, y))


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


def _take_of(event: AzulEvent | None) -> tuple[AzulMove, AzulEvent] | None:
    """Return the last ply's take and its event, or ``None`` if it was no take (or is not to be marked)."""
    if event is None or event.move is None or event.move.source == WALL:
        return None
    return event.move, event


def _paste_label(card: Image.Image, lay: Layout, number: int, theme: Theme) -> None:
    """Paste factory ``number``'s label over the top left of its disc."""
    cx, cy = lay.factories[number - 1]
    half = lay.disc // 2
    label = _label_pill(f"f{number}", theme)
    card.paste(label, (cx - half - 8, cy - half - 6), label)


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
) -> Image.Image:
    """Draw one card for ``state``, marking ``event`` (or nothing), and the moves ``proposals`` would make.

    The status and the caption each take one line; one that does not fit even a little smaller wraps to more
    lines, and the card grows by what they need (see :func:`layout`), so nothing they say is cut.  The palette's
    made-up cards are drawn with ``whole=False`` (a long caption cut on one line, as before wrapping existed), so
    that the palette, and with it every English card, stays the same.
    """
    status, status_lines, size, lines = card_texts(state, names, theme, locale, whole=whole)
    room = theme.width - 2 * theme.padding
    extra = (status_lines - 1) * (theme.font_small + 2) + (len(lines) - 1) * (size + 2)
    lay = layout(state.players, theme, extra)
    card = static_card(state.players, theme, locale, extra).copy()
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


# -- moves marked on the position before them (a review's played and better moves, a hint) -------------------------

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


def render_azul(
    state: AzulState,
    *,
    players: Sequence[str] | None = None,
    last_move: bool = True,
    theme: Theme = DEFAULT_THEME,
    locale: str = "en",
    marks: Sequence[tuple[AzulEvent, Theme]] = (),
) -> Picture:
    """Draw an Azul position (see the module docstring for what the card shows).

    ``marks`` are moves to show on this position, each as the event it would make and the theme whose mark
    colour draws it (a review's played and better moves): where the tiles come from and where they would go.
    """
    theme = azul_theme(theme)
    names = tuple(
        display_name(players[i] if players and i < len(players) else "", seat(locale, i)) for i in range(state.players)
    )
    event = state.last if last_move else None
    return Picture(_compose(state, names, event, theme, locale, proposals=marks), palette(theme))


# -- the gallery (render.gallery finds this by the game's name) ------------------------------------------------------


def _gallery_kind(state: AzulState) -> str | None:
    """Name the situation a running position shows: what its last ply did, or the wall to choose."""
    event = state.last
    if event is None or event.move is None:
        return None
    if state.phase == "tiling":
        return "wall-choice"
    if event.round_ended:
        overflow = event.to_floor >= 2 and any(p >= 8 for p in event.penalties)
        return "round-end-floor" if overflow else "round-end"
    if event.marker:
        return "last-marker"
    if event.to_floor and event.move.line != 6:
        return "last-overflow"
    return "last-factory" if event.move.source > 0 else "last-centre"


def no_tiles_left() -> AzulState:
    """Return a four-player game ended because no tile was left to fill the factories (a safety rule).

    Random play never gets there: it needs 99 of the 100 tiles on the walls and pattern lines at once.  Seat ``s``
    (from 0) leaves wall column ``s`` empty, and each of its rows holds that column's colour on a pattern line short of
    full; the last tile waits in the centre for Dee, so the round ends with nothing to refill from.
    """
    on_lines = ({4: 4}, {1: 1, 4: 4}, {2: 2, 4: 4}, {4: 4})  # tiles on each pattern line (row from 0), by seat
    boards: list[dict[str, object]] = []
    for player, lines in enumerate(on_lines):
        colours = [[LETTERS[WALL_COLOUR[row][column]] for column in range(5)] for row in range(5)]
        boards.append(
            {
                "score": 10 * (player + 1),
                "lines": [colours[row][player] * lines.get(row, 0) for row in range(5)],
                "wall": ["".join("." if column == player else row[column] for column in range(5)) for row in colours],
                "floor": "",
            }
        )
    # The move before Dee's: Cy took two blue from f1 to line 3.
    last = {
        "player": 2,
        "move": [1, 0, 3, 0],
        "taken": 2,
        "to_line": 2,
        "to_floor": 0,
        "to_lid": 0,
        "marker": False,
        "placements": [],
        "discards": [],
        "round_ended": 0,
        "penalties": [],
        "bonuses": [],
        "left": "",
        "line_start": 0,
        "floor_start": 0,
        "marker_held": False,
        "before": [],
        "after": [],
        "clipped": [],
    }
    saved = new_azul(players=4, seed=3).to_json()
    saved.update(round=5, ply=60, turn=3, starter=0, bag=[0] * 5, lid=[0] * 5, centre=LETTERS[0], boards=boards)
    saved.update(factories=[""] * FACTORIES[4], last=last)
    return azul_from_json(saved).play(AzulMove(CENTRE, 0, 4, 0))


def gallery() -> Showcase:
    """Return Azul's boards in the gallery: two to four players, both walls, every mark and ending."""
    from render.gallery import Board, Showcase

    return Showcase(
        kind=_gallery_kind,  # type: ignore[arg-type]
        boards=(
            Board("2p-colour", 2, {},
                  ("last-factory", "last-centre", "last-marker", "last-overflow", "round-end", "end-wall_row")),
            Board("3p-colour", 3, {}, ("round-end", "end-wall_row")),
            Board("4p-colour", 4, {}, ("last-factory", "round-end-floor", "end-wall_row"), texts=True, quick=True,
                  staged=(("end-no_tiles", no_tiles_left),)),
            Board("4p-grey", 4, {"wall": "grey"}, ("wall-choice", "round-end", "end-wall_row")),
        ),
        limit=({"max_rounds": 1}, "end-round_limit"),
        quick=("start", "round-end-floor"),
        busy=("round-end-floor",),
        ends=("end-wall_row", "end-forfeit"),
    )  # fmt: skip


# What the rendering benchmark (bench.render_speed) draws: (players, options).
BENCH_CONFIGS: tuple[tuple[int, dict[str, object]], ...] = ((2, {}), (4, {}), (4, {"wall": "grey"}))

# What the replay benchmark (bench.replay_speed) builds: (case, players, options, staller plays, seeds, in a quick
# run).  Whole four-player games by random play, and the 100-round cap.
REPLAY_CASES: tuple[tuple[str, int, dict[str, object], bool, tuple[int, ...], bool], ...] = (
    ("azul 4p", 4, {}, False, (0, 1, 2, 3, 4), True),
    ("worst azul 4p 100-round cap", 4, {}, True, (1,), False),
)
