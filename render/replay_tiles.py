"""A replay's boards, scaled and in the GIF's palette, kept up to date tile by tile.

A replay frame is the board scaled down (Pillow's box filter) and mapped to the GIF's palette
(``quantize``, no dithering).  From one ply to the next most of the board is the same, and much of
what changes only goes back to a look it had a few plies before: a player's row lit while it is
their turn, a cell's last-move mark drawn and then gone again.  So :class:`BoardTiles` cuts the
scaled board into tiles of :data:`TILE` pixels a side and, per ply, redoes only the tiles whose
source pixels changed; a tile whose source pixels are again what they were in one of its last
:data:`VERSIONS` looks takes that look's palette indices back instead of being scaled and mapped
again.

Same pixels as scaling and mapping the whole board:

* **Scaling.**  Each tile is ``resize(tile_size, BOX, box=...)`` of the whole board, its box being
  the tile's output pixels times the scale.  The box filter averages the source pixels whose
  centres fall in each output pixel's box; a tile's boxes are the whole board's, up to the last
  bits of a float, which matter only where a pixel centre lies exactly on a box edge.  Rather than
  argue about that, :func:`tile_grid` scales a pseudo-random pattern of each board size both ways
  once and cuts an axis into tiles only where the two agree (any other source pixel in a box would
  change its mean somewhere along a row of random pixels).
* **Mapping.**  ``quantize`` with a palette maps each pixel by its colour alone, so a tile maps as
  it would inside the whole frame.
* **Which tiles.**  A tile reads the source pixels of its box widened to whole pixels and by one
  more each side (its *window*); a tile is redone when any pixel of its window changed, and a look
  is reused only when its whole window matches.

Tiles are compared and scaled through Pillow's core image objects (``image.im``), as
:func:`render.draw.blend_sprite` does: a ply touches a hundred tiles, and the Python around each
call costs more than the call.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PIL import Image

if TYPE_CHECKING:
    from PIL._imaging import ImagingCore

Box = tuple[int, int, int, int]

TILE = 24  # output pixels across the short side: smaller tiles redo less area but cost more calls
VERSIONS = 6  # looks remembered per tile (a tile's window is a few KB)


Resize = tuple[tuple[int, int], tuple[float, float, float, float]]  # Pillow's resize: size and box


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile: its output pixels, the source pixels it reads, and how to scale it (see :func:`tile_grid`)."""

    box: Box  # in the scaled board
    window: Box  # in the source board
    steps: tuple[Resize, ...]  # resizes, each of the one before (the first of the board)
    crop: Box | None  # then this part of the last one


@functools.lru_cache(maxsize=32)
def tile_grid(source: tuple[int, int], size: tuple[int, int], tile: int = TILE) -> tuple[tuple[Tile, ...], ...]:
    """Return the tiles of a ``source``-sized board scaled to ``size``, row by row, each with the cheapest way
    to scale it that gives the pixels of scaling the whole board.

    Pillow scales along one axis, rounds to whole values, then along the other, and picks the order by the
    work each would take, so a tile scaled alone may go the other way.  The ways, cheapest first: one resize
    of the tile's box; two, along each axis in the whole board's order; two, scaling the whole length of an
    axis whose box edges fall on pixel centres (where a float's last bits decide, as at exactly half-way).
    Each is tried on a pattern (see the module docstring); the first that matches is kept.
    """
    pattern = _pattern(source)
    whole = pattern.resize(size, Image.Resampling.BOX)
    across_first = _across_first(pattern, size)
    # Tiles twice as long along the axis scaled second: Pillow then scales them in the board's order.
    width, height = (tile, 2 * tile) if across_first else (2 * tile, tile)
    rows = []
    for v0 in range(0, size[1], height):
        row = []
        for u0 in range(0, size[0], width):
            box = (u0, v0, min(size[0], u0 + width), min(size[1], v0 + height))
            wanted = whole.crop(box).tobytes()
            for steps, crop in _ways(source, size, box, across_first):
                if _scale(pattern, steps, crop).tobytes() == wanted:
                    break
            else:  # pragma: no cover - the last way scales the whole board
                raise AssertionError("scaling the whole board differs from itself")
            row.append(Tile(box, _window(source, size, box), steps, crop))
        rows.append(tuple(row))
    return tuple(rows)


def _ways(
    source: tuple[int, int], size: tuple[int, int], box: Box, across_first: bool
) -> list[tuple[tuple[Resize, ...], Box | None]]:
    """The ways to scale the tile ``box`` of the scaled board, cheapest first, ending with the whole board."""
    u0, v0, u1, v1 = box
    sx, sy = source[0] / size[0], source[1] / size[1]
    x0, y0, x1, y1 = _window(source, size, box)
    one: Resize = ((u1 - u0, v1 - v0), (u0 * sx, v0 * sy, u1 * sx, v1 * sy))
    ways: list[tuple[tuple[Resize, ...], Box | None]] = [((one,), None)]
    for whole_across, whole_down in ((False, False), (False, True), (True, False), (True, True)):
        # Along each axis: the tile's part, or the whole length (then cut to the tile).
        a0, a1, b0, b1 = (0, size[0], 0, source[0]) if whole_across else (u0, u1, x0, x1)
        c0, c1, d0, d1 = (0, size[1], 0, source[1]) if whole_down else (v0, v1, y0, y1)
        first: Resize
        second: Resize
        if across_first:
            # Along the rows, over the source rows the second pass reads; then down, within those rows.
            first = ((a1 - a0, d1 - d0), (a0 * sx, float(d0), a1 * sx, float(d1)))
            second = ((a1 - a0, c1 - c0), (0.0, c0 * sy - d0, float(a1 - a0), c1 * sy - d0))
        else:
            first = ((b1 - b0, c1 - c0), (float(b0), c0 * sy, float(b1), c1 * sy))
            second = ((a1 - a0, c1 - c0), (a0 * sx - b0, 0.0, a1 * sx - b0, float(c1 - c0)))
        crop = (u0 - a0, v0 - c0, u1 - a0, v1 - c0)
        ways.append(((first, second), None if crop == (0, 0, a1 - a0, c1 - c0) else crop))
    return ways


def _window(source: tuple[int, int], size: tuple[int, int], box: Box) -> Box:
    """The source pixels that the output pixels ``box`` read: their box widened to whole pixels, and one more."""
    sx, sy = source[0] / size[0], source[1] / size[1]
    u0, v0, u1, v1 = box
    return (
        max(0, math.floor(u0 * sx) - 1),
        max(0, math.floor(v0 * sy) - 1),
        min(source[0], math.ceil(u1 * sx) + 1),
        min(source[1], math.ceil(v1 * sy) + 1),
    )


def _scale(board: Image.Image, steps: tuple[Resize, ...], crop: Box | None) -> Image.Image:
    """Apply ``steps`` (then ``crop``) to ``board``."""
    image = board
    for size, box in steps:
        image = image.resize(size, Image.Resampling.BOX, box=box)
    return image.crop(crop) if crop else image


def _across_first(board: Image.Image, size: tuple[int, int]) -> bool:
    """Tell whether Pillow scales ``board`` (a pattern) to ``size`` along the rows first."""
    across = board.resize((size[0], board.height), Image.Resampling.BOX).resize(size, Image.Resampling.BOX)
    return across.tobytes() == board.resize(size, Image.Resampling.BOX).tobytes()


def _pattern(size: tuple[int, int]) -> Image.Image:
    """A fixed pseudo-random RGB image of ``size`` (a prime period, so that rows and columns differ)."""
    width, height = size
    period = bytes((i * 7919 + (i // 3) * 104729 + (i * i) % 65521) % 251 for i in range(8191))
    count = width * height * 3
    return Image.frombytes("RGB", size, (period * (count // len(period) + 1))[:count])


class BoardTiles:
    """The scaled board inside a frame of palette indices, brought up to each next board tile by tile.

    ``frame`` (mode ``"P"``) must show ``board`` scaled to ``size`` at ``offset`` and mapped to
    ``palette``; :meth:`update` changes it in place.
    """

    def __init__(
        self,
        board: Image.Image,
        size: tuple[int, int],
        palette: Image.Image,
        frame: Image.Image,
        offset: tuple[int, int],
    ) -> None:
        if frame.mode != "P" or board.mode != "RGB":
            raise ValueError(f"an RGB board and a palette frame are needed, not {board.mode} and {frame.mode}")
        self.size = board.size
        self.board = board
        self.frame = frame
        board.load()
        frame.load()
        palette.load()
        self._palette: ImagingCore = palette.im
        ox, oy = offset
        # Per row of tiles: its source rows, and per tile: the tile, its box in the frame, and its last looks,
        # newest (the one shown) first: (source window, palette indices).
        self._rows: list[tuple[int, int, list[tuple[Tile, Box, list[tuple[ImagingCore, ImagingCore]]]]]] = []
        for row in tile_grid(board.size, size):
            tiles = []
            for tile in row:
                u0, v0, u1, v1 = tile.box
                box = (u0 + ox, v0 + oy, u1 + ox, v1 + oy)
                tiles.append((tile, box, [(board.im.crop(tile.window), frame.im.crop(box))]))
            self._rows.append((row[0].window[1], row[0].window[3], tiles))

    def update(self, board: Image.Image) -> int | None:
        """Make the frame show ``board`` (the size of the first one); return the frame's top row of the tiles
        redone (None: none was)."""
        if board.size != self.size or board.mode != "RGB":
            raise ValueError(f"boards of a replay are {self.size} RGB, not {board.size} {board.mode}")
        previous, self.board = self.board, board
        board.load()
        new = board.im
        paste = self.frame.im.paste
        diff = new.chop_difference(previous.im)
        width = self.size[0]
        top = None
        for y0, y1, tiles in self._rows:
            found = diff.crop((0, y0, width, y1)).getbbox(False)
            if found is None:
                continue
            left, right = found[0], found[2]
            for tile, box, looks in tiles:
                x0, _, x1, _ = tile.window
                if x1 <= left or x0 >= right:
                    continue
                shown, indices = self._look(tile, new, looks)
                if shown:
                    continue
                paste(indices, box)
                if top is None:
                    top = box[1]
        return top

    def redraw(self, board: Image.Image, frame: Image.Image) -> None:
        """Draw ``board`` (this size) into ``frame``, whatever the frame showed there: every tile, as a look it
        had before or scaled and mapped anew; the frame is the one to update from now on."""
        if board.size != self.size or board.mode != "RGB" or frame.mode != "P":
            raise ValueError(f"boards of a replay are {self.size} RGB, not {board.size} {board.mode}")
        self.board, self.frame = board, frame
        board.load()
        frame.load()
        new, paste = board.im, frame.im.paste
        for _, _, tiles in self._rows:
            for tile, box, looks in tiles:
                paste(self._look(tile, new, looks)[1], box)

    def _look(
        self, tile: Tile, board: ImagingCore, looks: list[tuple[ImagingCore, ImagingCore]]
    ) -> tuple[bool, ImagingCore]:
        """The palette pixels of ``tile``'s window of ``board``, and whether they are the look shown now.

        Unchanged: the look shown; else an earlier look, or the tile scaled and mapped anew.  The look found
        moves to the front of ``looks``, which keeps the last :data:`VERSIONS`.
        """
        window = board.crop(tile.window)
        for index, (seen, indices) in enumerate(looks):  # noqa: B007 - the look found is used below
            if window.chop_difference(seen).getbbox(False) is None:
                break
        else:
            index, indices = len(looks), self._scale(tile, board)
            looks.append((window, indices))
        if index:
            looks.insert(0, looks.pop(index))
            del looks[VERSIONS:]
        return index == 0, indices

    def _scale(self, tile: Tile, board: ImagingCore) -> ImagingCore:
        """Return ``tile`` of ``board`` scaled and mapped to the palette."""
        scaled = board
        for size, source in tile.steps:
            scaled = scaled.resize(size, Image.Resampling.BOX, source)
        if tile.crop is not None:
            scaled = scaled.crop(tile.crop)
        mapped: ImagingCore = scaled.convert("P", Image.Dither.NONE, self._palette)  # Pillow's core returns Any
        return mapped
