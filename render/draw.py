"""Drawing parts shared by every game's picture.

* **Sprites** are described as a few shapes in a 100 x 100 box
  (:class:`Ellipse`, :class:`Poly`, :class:`Blob`), painted in layers (outline,
  fill, details) at :attr:`Theme.supersample` times the final size and scaled
  down once for smooth edges.  Callers cache the results; images in a cache are
  never drawn into, only pasted from, so rendering stays thread-safe.
* **Board grids** (:class:`Grid`) give each cell's box and centre, with file
  letters along the bottom and rank numbers up the side, rank 1 at the bottom.
* **Marks** of the last move: a cell outline, an arrow, a round badge, a pill
  with short text (``+1``).
* **Player rows** for the header: name chip in the seat's colours, the seat's
  icon, small facts (eggs left), the score against the target with a bar, and
  who is to move or who won.
* **PNG encoding** to a small palette image.

>>> grid = Grid(files=4, ranks=4, cell=100, left=50, top=20)
>>> grid.box(0, 0), grid.center(3, 3)
((50, 320, 150, 420), (400, 70))
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from PIL import Image, ImageChops, ImageDraw

from render.png import palette_png
from render.text import clean_text, draw_text, ellipsize, fit_size, text_width, wrap
from render.theme import RGB, Theme

RGBA = tuple[int, int, int, int]
Box = tuple[int, int, int, int]
Point = tuple[float, float]

# -- sprite shapes --------------------------------------------------------------------------------------------------


class Ellipse(NamedTuple):
    """An ellipse centred on ``(cx, cy)`` with radii ``rx`` and ``ry``, in 100-unit box coordinates."""

    cx: float
    cy: float
    rx: float
    ry: float


class Poly(NamedTuple):
    """A filled polygon, in 100-unit box coordinates."""

    points: tuple[Point, ...]


class Blob(NamedTuple):
    """A tapering stroke: a chain of circles ``(x, y, r)`` painted as one smooth shape."""

    circles: tuple[tuple[float, float, float], ...]


Shape = Ellipse | Poly | Blob


def _paint(draw: ImageDraw.ImageDraw, shapes: Iterable[Shape], scale: float, grow: float, fill: RGB | RGBA) -> None:
    """Paint ``shapes`` scaled by ``scale``, each grown outward by ``grow`` pixels (for outlines)."""
    for shape in shapes:
        if isinstance(shape, Ellipse):
            cx, cy, rx, ry = (v * scale for v in shape)
            draw.ellipse((cx - rx - grow, cy - ry - grow, cx + rx + grow, cy + ry + grow), fill=fill)
        elif isinstance(shape, Poly):
            points = [(x * scale, y * scale) for x, y in shape.points]
            draw.polygon(points, fill=fill)
            if grow > 0:
                # A closed, round-jointed line of width 2*grow centred on the edges grows the polygon by ``grow``.
                draw.line([*points, points[0], points[1]], fill=fill, width=round(2 * grow), joint="curve")
                for x, y in points:
                    draw.ellipse((x - grow, y - grow, x + grow, y + grow), fill=fill)
        else:
            for x, y, r in shape.circles:
                x, y, r = x * scale, y * scale, r * scale + grow
                draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)


class Layer(NamedTuple):
    """Shapes painted in one colour; ``grow`` (in 100-unit box units) thickens them, for outlines."""

    shapes: tuple[Shape, ...]
    colour: RGB | RGBA
    grow: float = 0.0


def paint_sprite(size: int, layers: Sequence[Layer], supersample: int) -> Image.Image:
    """Paint ``layers`` into a ``size`` x ``size`` RGBA sprite with smooth edges."""
    big = size * supersample
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    scale = big / 100
    for layer in layers:
        _paint(draw, layer.shapes, scale, layer.grow * scale, layer.colour)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def with_opacity(sprite: Image.Image, opacity: float) -> Image.Image:
    """Return a copy of an RGBA ``sprite`` whose alpha is multiplied by ``opacity``."""
    faded = sprite.copy()
    faded.putalpha(sprite.getchannel("A").point(lambda a: round(a * opacity)))
    return faded


def paste_centered(image: Image.Image, sprite: Image.Image, center: Point) -> None:
    """Paste an RGBA ``sprite`` onto ``image`` with its centre at ``center``."""
    x = round(center[0] - sprite.width / 2)
    y = round(center[1] - sprite.height / 2)
    blend_sprite(image, sprite, (x, y))


def blend_sprite(image: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
    """Do ``image.paste(sprite, xy, sprite)`` for an RGBA ``sprite`` on an RGB or RGBA ``image``: the same blend,
    without Pillow's checks and conversions, which cost more than blending a small sprite (boards paste dozens)."""
    if sprite.mode != "RGBA" or image.mode not in ("RGB", "RGBA") or image.readonly:
        image.paste(sprite, xy, sprite)
        return
    core = sprite.im
    image.im.paste(core, (xy[0], xy[1], xy[0] + sprite.width, xy[1] + sprite.height), core)


# -- board grid -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Grid:
    """A rectangular board of square cells; file 0 is on the left and rank 0 (rank 1) at the bottom."""

    files: int
    ranks: int
    cell: int
    left: int
    top: int

    @property
    def width(self) -> int:
        return self.files * self.cell

    @property
    def height(self) -> int:
        return self.ranks * self.cell

    @property
    def right(self) -> int:
        return self.left + self.width

    @property
    def bottom(self) -> int:
        return self.top + self.height

    def box(self, file: int, rank: int) -> Box:
        """Return the pixel box ``(x0, y0, x1, y1)`` of a cell (``x1``/``y1`` exclusive)."""
        x0 = self.left + file * self.cell
        y0 = self.top + (self.ranks - 1 - rank) * self.cell
        return (x0, y0, x0 + self.cell, y0 + self.cell)

    def center(self, file: int, rank: int) -> tuple[int, int]:
        """Return the pixel centre of a cell."""
        x0, y0, x1, y1 = self.box(file, rank)
        return ((x0 + x1) // 2, (y0 + y1) // 2)


FILE_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def draw_grid(
    image: Image.Image,
    grid: Grid,
    theme: Theme,
    *,
    coordinates: bool = True,
    fill: Callable[[int, int], RGB] | None = None,
) -> None:
    """Draw a board frame, cell pads, and the file letters and rank numbers.

    The pads are checkered in the theme's two cell colours unless ``fill``
    gives each cell's colour from its ``(file, rank)``.
    """
    draw = ImageDraw.Draw(image)
    frame = max(4, grid.cell // 20)
    draw.rounded_rectangle(
        (grid.left - frame, grid.top - frame, grid.right + frame - 1, grid.bottom + frame - 1),
        radius=frame * 2,
        fill=theme.board_frame,
    )
    gap = max(2, grid.cell // 40)
    for rank in range(grid.ranks):
        for file in range(grid.files):
            x0, y0, x1, y1 = grid.box(file, rank)
            checker = theme.cell if (file + rank) % 2 else theme.cell_alt
            colour = fill(file, rank) if fill is not None else checker
            draw.rounded_rectangle(
                (x0 + gap, y0 + gap, x1 - gap - 1, y1 - gap - 1),
                radius=grid.cell // 10,
                fill=colour,
                outline=theme.cell_edge,
                width=1,
            )
    if not coordinates:
        return
    size = theme.font_coordinate
    for file in range(grid.files):
        x = grid.left + file * grid.cell + grid.cell // 2
        draw_text(draw, (x, grid.bottom + frame + 6), FILE_LETTERS[file], size, theme.coordinate, anchor="mt")
    for rank in range(grid.ranks):
        _, y = grid.center(0, rank)
        draw_text(draw, (grid.left - frame - 10, y), str(rank + 1), size, theme.coordinate, anchor="rm")


# -- marks ----------------------------------------------------------------------------------------------------------


def outline_box(draw: ImageDraw.ImageDraw, box: Box, theme: Theme, width: int, *, inset: int = 0) -> None:
    """Outline ``box`` with a mark-coloured ring edged in a dark line, readable on light and dark cells."""
    x0, y0, x1, y1 = box[0] + inset, box[1] + inset, box[2] - inset - 1, box[3] - inset - 1
    radius = max(4, (x1 - x0) // 9)
    draw.rounded_rectangle((x0, y0, x1, y1), radius=radius, outline=theme.mark_edge, width=width + 4)
    draw.rounded_rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), radius=radius - 2, outline=theme.mark, width=width)


def half_outline_box(image: Image.Image, box: Box, theme: Theme, width: int, *, inset: int = 0) -> None:
    """Outline ``box`` as :func:`outline_box` does, on its lower right half only.

    The half lies below the diagonal from the box's top right corner to its bottom left: drawn over a full outline
    of another colour, the square shows both colours where there is no room for one outline inside the other.
    """
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    layer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    outline_box(ImageDraw.Draw(layer), (0, 0, w, h), theme, width, inset=inset)
    half = Image.new("L", (w, h), 0)
    ImageDraw.Draw(half).polygon(((w, 0), (w, h), (0, h)), fill=255)
    image.paste(layer, (x0, y0), ImageChops.multiply(layer.getchannel("A"), half))


@functools.cache
def arrow_sprite(dx: int, dy: int, width: int, theme: Theme) -> tuple[Image.Image, tuple[int, int]]:
    """Return an arrow from ``(0, 0)`` to ``(dx, dy)`` and the pixel in the sprite where ``(0, 0)`` falls.

    The arrow starts with a dot (where the piece came from), runs as a shaft and
    ends with a head whose point is at ``(dx, dy)``; it is mark-coloured with a
    thin dark edge, so it reads on light and dark cells alike.  Cached per
    vector, so a board's few distinct moves are drawn once each.
    """
    ss = theme.supersample
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    nx, ny = -uy, ux
    head = width * 2.6
    half = width / 2
    base = length - head
    tip = (dx, dy)
    shaft = (
        (nx * half, ny * half),
        (ux * base + nx * half, uy * base + ny * half),
        (ux * base - nx * half, uy * base - ny * half),
        (-nx * half, -ny * half),
    )
    wing = head * 0.62
    head_poly = (
        tip,
        (ux * base + nx * wing, uy * base + ny * wing),
        (ux * base - nx * wing, uy * base - ny * wing),
    )
    dot = width * 0.95
    edge = max(2.0, width * 0.22)
    margin = wing + edge + 4
    xs = [0.0, float(dx)]
    ys = [0.0, float(dy)]
    left, top = min(xs) - margin, min(ys) - margin
    w = math.ceil(max(xs) + margin - left)
    h = math.ceil(max(ys) + margin - top)
    image = Image.new("RGBA", (w * ss, h * ss), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)

    def shift(points: Iterable[Point]) -> tuple[Point, ...]:
        return tuple((x - left, y - top) for x, y in points)

    shapes: tuple[Shape, ...] = (
        Poly(shift(shaft)),
        Poly(shift(head_poly)),
        Blob(((-left, -top, dot),)),
    )
    _paint(draw, shapes, ss, edge * ss, theme.mark_edge)
    _paint(draw, shapes, ss, 0, theme.mark)
    sprite = image.resize((w, h), Image.Resampling.LANCZOS)
    return sprite, (round(-left), round(-top))


def paste_arrow(image: Image.Image, start: tuple[int, int], tip: tuple[int, int], width: int, theme: Theme) -> None:
    """Draw a last-move arrow from ``start`` to ``tip`` (pixel points) onto ``image``."""
    sprite, origin = arrow_sprite(tip[0] - start[0], tip[1] - start[1], width, theme)
    image.paste(sprite, (start[0] - origin[0], start[1] - origin[1]), sprite)


@functools.cache
def badge_sprite(kind: str, diameter: int, theme: Theme) -> Image.Image:
    """Return a round mark-coloured badge: ``"up"`` holds an upward chevron (a piece grew a face)."""
    chevron = Poly(((50, 24), (78, 56), (64, 66), (50, 50), (36, 66), (22, 56)))
    layers = [Layer((Ellipse(50, 50, 46, 46),), theme.mark_edge), Layer((Ellipse(50, 50, 38, 38),), theme.mark)]
    if kind == "up":
        layers.append(Layer((chevron,), theme.mark_edge))
    return paint_sprite(diameter, layers, theme.supersample)


@functools.lru_cache(maxsize=512)  # bounded: gains, tags and labels are a few short texts
def pill_sprite(text: str, size: int, fill: RGB, ink: RGB, border: RGB, theme: Theme) -> Image.Image:
    """Return a rounded pill holding short ``text`` (e.g. ``"+1"``), bordered in ``border``."""
    ss = theme.supersample
    width = math.ceil(text_width(text, size) + size * 0.9)
    height = math.ceil(size * 1.45)
    image = Image.new("RGBA", (width * ss, height * ss), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    edge = max(2, size // 8) * ss
    draw.rounded_rectangle((0, 0, width * ss - 1, height * ss - 1), radius=height * ss // 2, fill=border)
    draw.rounded_rectangle(
        (edge, edge, width * ss - 1 - edge, height * ss - 1 - edge), radius=height * ss // 2 - edge, fill=fill
    )
    draw_text(draw, (width * ss / 2, height * ss / 2), text, size * ss, ink, anchor="mm")
    return image.resize((width, height), Image.Resampling.LANCZOS)


# -- header: one row per player ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerRow:
    """What the header shows for one player.

    ``facts`` are small (icon, text) pairs such as eggs left; ``progress`` is
    ``(score, target)`` for the bar; ``gain`` is what the last ply added to the
    score (a loss shows as ``−2``); ``tag`` is a short word in a pill (``"to move"``,
    ``"wins"``, ``"draw"``); ``score_label`` is a word put before the score (``"goal"``).
    """

    name: str
    seat: int
    icon: Image.Image | None
    score: int
    target: int | None = None
    facts: tuple[tuple[Image.Image | None, str], ...] = ()
    gain: int = 0
    active: bool = False
    tag: str | None = None
    score_label: str = ""

    @property
    def score_text(self) -> str:
        """Return the score as the header shows it: ``7 / 10``, or ``goal 7`` with a label."""
        score = f"{self.score} / {self.target}" if self.target is not None else str(self.score)
        return f"{self.score_label} {score}" if self.score_label else score


def gain_text(gain: int) -> str:
    """Return a score change as its pill shows it: ``+2`` or ``−2`` (a true minus sign)."""
    return f"+{gain}" if gain >= 0 else f"\u2212{-gain}"


def display_name(name: str, fallback: str) -> str:
    """Return ``name`` stripped of undrawable characters, or ``fallback`` if nothing is left."""
    cleaned = clean_text(name)
    return cleaned if cleaned else fallback


def player_row_height(theme: Theme) -> int:
    """Return the height of one header row (two lines: the name, then the facts and score)."""
    return theme.font_body * 2 + 50


def draw_player_rows(image: Image.Image, rows: Sequence[PlayerRow], top: int, theme: Theme) -> int:
    """Draw one two-line header row per player from ``top``; return the y just below the last row."""
    draw = ImageDraw.Draw(image)
    pad = theme.padding
    left, right = pad, image.width - pad
    height = player_row_height(theme)
    y = top
    small = theme.font_small
    body = theme.font_body
    ink = theme.mark_edge
    gains = [pill_sprite(gain_text(row.gain), small, theme.mark, ink, ink, theme) for row in rows]
    gain_column = max((pill.width for row, pill in zip(rows, gains, strict=True) if row.gain), default=0)

    def columns(size: int) -> tuple[list[int], int]:
        facts = [
            max((icon.width + 4 if icon else 0) + math.ceil(text_width(text, size)) for icon, text in column)
            for column in zip(*(row.facts for row in rows), strict=False)
        ]
        score = max(
            math.ceil(text_width(f"{max(row.score, row.target or 0)} / {row.target}", size))
            if row.target is not None
            else math.ceil(text_width(row.score_text, size))
            for row in rows
        )
        return facts, score

    fact_columns, score_column = columns(body)
    # Line 2 without a bar must fit the row: long words (a language's, a big count) shrink it, never cut it.
    if rows and all(row.target is None for row in rows):
        room = right - 14 - (left + 38 + max((r.icon.width + 14 if r.icon else 0) for r in rows) + 4)
        while body > small and sum(fact_columns) + 22 * len(fact_columns) + score_column + 10 + gain_column > room:
            body -= 1
            fact_columns, score_column = columns(body)
    for row in rows:
        y0, y1 = y, y + height - 8
        mid = (y0 + y1) // 2
        draw.rounded_rectangle(
            (left, y0, right - 1, y1), radius=12, fill=theme.panel_active if row.active else theme.panel
        )
        if row.active:
            # A solid bar and a triangle on the left: whose turn it is, by shape as well as by colour.
            draw.rounded_rectangle((left, y0, left + 9, y1), radius=4, fill=theme.mark)
            draw.polygon([(left + 16, mid - 12), (left + 16, mid + 12), (left + 31, mid)], fill=theme.mark)
        x = left + 38
        if row.icon is not None:
            image.paste(row.icon, (x, mid - row.icon.height // 2), row.icon)
            x += row.icon.width + 14
        line1 = y0 + (y1 - y0) * 3 // 10 + 1
        line2 = y0 + (y1 - y0) * 73 // 100
        # Line 1: the name chip in the seat's colours, then the result tag.
        tag = pill_sprite(row.tag, small, theme.mark, theme.mark_edge, theme.mark_edge, theme) if row.tag else None
        room = right - 14 - x - (tag.width + 10 if tag else 0)
        chip_right = _draw_name_chip(draw, row, x, line1, room, theme)
        if tag is not None:
            image.paste(tag, (chip_right + 10, line1 - tag.height // 2), tag)
        # Line 2: facts (eggs left...), the score against the target, what the last ply gained, a bar.
        # Every row uses the same columns so the bars line up and can be compared at a glance.
        cursor = x + 4
        for (icon, text), column in zip(row.facts, fact_columns, strict=False):
            start = cursor
            if icon is not None:
                image.paste(icon, (cursor, line2 - icon.height // 2), icon)
                cursor += icon.width + 4
            draw_text(draw, (cursor, line2), text, body, theme.text_muted, anchor="lm")
            cursor = start + column + 22
        draw_text(draw, (cursor, line2), row.score_text, body, theme.text, anchor="lm")
        cursor += score_column + 10
        if row.gain:
            gain = pill_sprite(gain_text(row.gain), small, theme.mark, theme.mark_edge, theme.mark_edge, theme)
            image.paste(gain, (cursor, line2 - gain.height // 2), gain)
        cursor += gain_column + 10
        if row.target is not None:
            _draw_progress(draw, row, cursor, min(right - 16, cursor + 200), line2, theme)
        y += height
    return y


def _draw_name_chip(draw: ImageDraw.ImageDraw, row: PlayerRow, x: int, mid: int, room: float, theme: Theme) -> int:
    """Draw the player's name on a chip in the seat's own fill, edge and ink colours; return its right edge."""
    seat = row.seat % len(theme.seat_fill)
    size = theme.font_body
    text = ellipsize(row.name, size, max(room - 24, 24))
    width = math.ceil(text_width(text, size)) + 24
    half = size * 3 // 4 + 2
    draw.rounded_rectangle(
        (x, mid - half, x + width, mid + half),
        radius=half,
        fill=theme.seat_fill[seat],
        outline=theme.seat_edge[seat],
        width=2,
    )
    draw_text(draw, (x + width / 2, mid + 1), text, size, theme.seat_text[seat], anchor="mm")
    return x + width


def draw_name_chip(draw: ImageDraw.ImageDraw, name: str, seat: int, x: int, mid: int, room: float, theme: Theme) -> int:
    """Draw ``name`` on the chip of the player rows, in ``seat``'s colours, within ``room`` pixels; return its right."""
    return _draw_name_chip(draw, PlayerRow(name, seat, None, 0), x, mid, room, theme)


def _draw_progress(draw: ImageDraw.ImageDraw, row: PlayerRow, x0: int, x1: int, mid: int, theme: Theme) -> None:
    """Draw the score bar from ``x0`` to ``x1``: one segment per point while the target is small."""
    target = max(1, row.target or 1)
    width, height = x1 - x0, 14
    if width < 24:
        return
    y0 = mid - height // 2
    filled = min(row.score, target)
    if target <= 15:
        gap = 3
        seg = (width - gap * (target - 1)) / target
        for i in range(target):
            sx0 = x0 + i * (seg + gap)
            colour = theme.text if i < filled else theme.background
            draw.rectangle((round(sx0), y0, round(sx0 + seg) - 1, y0 + height - 1), fill=colour)
    else:
        draw.rectangle((x0, y0, x1 - 1, y0 + height - 1), fill=theme.background)
        if filled:
            draw.rectangle((x0, y0, x0 + round(width * filled / target) - 1, y0 + height - 1), fill=theme.text)


def draw_status(image: Image.Image, text: str, y: int, theme: Theme, *, size: int | None = None) -> int:
    """Draw one centred status line (whose turn, or the result) with its top at ``y``.

    A long line is shrunk a little first; if it still does not fit (a long language), it wraps to a second
    line at the small size, in the same room: what the status says is never cut (only a name may be, by the
    caller's ellipsis).  Return the y just below the text.
    """
    draw = ImageDraw.Draw(image)
    room = image.width - 2 * theme.padding
    size = fit_size(text, size or theme.font_body, room, theme.font_small)
    if text_width(text, size) <= room:
        draw_text(draw, (image.width / 2, y), text, size, theme.text, anchor="mt")
        return y + size
    lines = wrap(text, theme.font_small, room)
    draw_lines(draw, lines, (image.width / 2, y), theme.font_small, room, theme.text)
    return y + len(lines) * (theme.font_small + 2)


def status_height(image_width: int, text: str, theme: Theme, *, size: int | None = None) -> int:
    """Return how tall :func:`draw_status` draws ``text`` on a card ``image_width`` wide (one line or wrapped)."""
    room = image_width - 2 * theme.padding
    size = fit_size(text, size or theme.font_body, room, theme.font_small)
    if text_width(text, size) <= room:
        return size
    return len(wrap(text, theme.font_small, room)) * (theme.font_small + 2)


def draw_lines(
    draw: ImageDraw.ImageDraw,
    lines: Sequence[str],
    top: tuple[float, float],
    size: int,
    room: float,
    ink: tuple[int, int, int],
    *,
    step: int | None = None,
) -> None:
    """Draw ``lines`` centred under each other from ``top`` (x is the centre), ``step`` pixels apart."""
    x, y = top
    step = step or size + 2
    for line in lines:
        draw_text(draw, (x, y), ellipsize(line, size, room), size, ink, anchor="mt")
        y += step


# -- output ---------------------------------------------------------------------------------------------------------


class Picture(NamedTuple):
    """A drawn card: the RGB ``image``, and the ``"P"`` image whose palette its PNG uses (``None``: adaptive)."""

    image: Image.Image
    palette: Image.Image | None = None


def new_card(width: int, height: int, theme: Theme) -> Image.Image:
    """Return an opaque RGB card filled with the theme's background."""
    return Image.new("RGB", (width, height), theme.background)


def build_palette(sample: Image.Image, theme: Theme) -> Image.Image:
    """Return a ``"P"`` image holding a palette of the theme's size made from the colours of ``sample``."""
    palette = sample.quantize(colors=theme.png_colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    # Settle the palette now: a cached image must never change, even lazily, once threads share it.
    palette.load()
    return palette


def palette_from_cards(cards: Sequence[Image.Image], theme: Theme) -> Image.Image:
    """Build one palette from sample cards laid side by side (every colour a game's images can hold)."""
    sample = Image.new("RGB", (sum(card.width for card in cards), max(card.height for card in cards)))
    left = 0
    for card in cards:
        sample.paste(card, (left, 0))
        left += card.width
    return build_palette(sample, theme)


def encode_png(picture: Picture, theme: Theme) -> bytes:
    """Map the picture to its palette (or an adaptive one) and return PNG bytes (:mod:`render.png`); deterministic."""
    if picture.palette is not None:
        quantised = picture.image.quantize(palette=picture.palette, dither=Image.Dither.NONE)
    else:
        quantised = picture.image.quantize(
            colors=theme.png_colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
    return palette_png(quantised, theme.png_deflate_level)
