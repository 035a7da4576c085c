"""Animated replays: a whole game as one GIF that Discord plays inline on desktop and phones.

:func:`replay_gif` takes the positions of a game from the start to the end and
returns GIF bytes (same inputs, same bytes): one frame per ply, drawn by
:func:`render.render_picture` with the last move marked as on the live boards,
a longer hold on the final position (whose live board already shows the
result), and a caption band under each board ("Move 12 of 80: place b2").

Size, so the longest games stay under Discord's 10 MiB attachment limit:

* **Smaller frames.**  The 720-pixel card is scaled (box filter) to fit
  540 x 960, a phone screen's 9:16 shape, so even four-player Azul shows whole.
* **One palette.**  Every board of a game already uses one palette; the GIF
  keeps it as its only colour table, cut to 63 colours so index 63 is free for
  transparency (Azul's 128 colours become 63 by dropping one of each nearest
  pair: a sixth smaller, no visible change).
* **Changed regions only.**  Each frame after the first is cropped to the box
  of pixels that changed, and unchanged pixels inside it are transparent, so
  they compress to long runs.  Frames are never disposed: each is drawn over
  the last.  The file is assembled here (Pillow only LZW-encodes each region)
  so that every ply keeps its frame (Pillow merges identical frames), the one
  colour table is global and the layout does not depend on Pillow's heuristics.

On a 141-ply four-player Azul game (``bench.replay_speed``): 13.8 MB as full
frames, 4.5 MB storing changed regions, 2.9 MB scaled, 2.4 MB with 63 colours.

* **Sampling.**  At most ``max_frames`` plies get a frame.  A longer game shows
  every k-th ply, k = ceil(plies / max_frames), always with the start and the
  final position, and every frame's caption band says so on a second line
  ("every 2nd move shown").
  If the file would still exceed ``max_bytes``, k doubles until it fits, so
  the bound holds for any game the engines allow.

Time: a frame is drawn straight in the GIF's palette.  The first in full (:func:`draw_frame`, then
``quantize``); after it only the tiles of the scaled board whose source pixels changed are scaled and
mapped again, or taken back from a look they had a few plies before
(:class:`render.replay_tiles.BoardTiles`: the same pixels as scaling and mapping the whole board), and
the caption band is drawn alone.

>>> from engines import GAMES
>>> states = [GAMES["pond"].new(seed=7, variant="mini")]
>>> for move in ("place b2", "place c2", "place c3"):
...     states.append(states[-1].play(move))
>>> gif = replay_gif(states, players=["Ana", "Bo"])
>>> gif[:6], gif == replay_gif(states, players=["Ana", "Bo"])
(b'GIF89a', True)
"""

from __future__ import annotations

import functools
import math
import struct
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageChops, ImageDraw

from engines import GAMES, GameState
from i18n.catalog import DEFAULT, npgettext, pgettext
from render import render_picture
from render.replay_tiles import BoardTiles, Box
from render.text import draw_text, ellipsize
from render.theme import DEFAULT_THEME, RGB, Theme

FRAME_MS = 700  # one ply
START_MS = 1500  # the empty board, to take in the players
FINAL_MS = 5000  # the final position and the result
MAX_FRAMES = 300  # plies with a frame; Pond's default move limit fits whole
MAX_BYTES = 9 * 1024 * 1024  # under Discord's 10 MiB attachment limit, with room to spare
FRAME_BOX = (540, 960)  # a phone screen's 9:16, at three quarters of the card's width
GIF_COLOURS = 63  # the palette; index 63 is the transparent one
_TABLE_BITS = 6  # 2**6 = 64 colour-table entries


@dataclass(frozen=True, slots=True)
class Layout:
    """Where things go in every frame: the board's scale and size, and the caption band below it."""

    width: int
    height: int
    board_height: int
    scale: float
    font: int


def ordinal(number: int) -> str:
    """Return ``2nd``, ``3rd``, ``11th``, ``22nd`` …

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st']
    """
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def sampling_step(plies: int, max_frames: int = MAX_FRAMES) -> int:
    """Return k, so that every k-th ply gets a frame and no more than ``max_frames`` do.

    >>> sampling_step(300), sampling_step(301), sampling_step(576), sampling_step(0)
    (1, 2, 2, 1)
    """
    return max(1, math.ceil(plies / max(1, max_frames)))


def shown_plies(plies: int, step: int) -> list[int]:
    """Return the plies that get a frame: the start (0), every ``step``-th ply, and the last one.

    >>> shown_plies(7, 3), shown_plies(6, 3), shown_plies(2, 1)
    ([0, 3, 6, 7], [0, 3, 6], [0, 1, 2])
    """
    shown = list(range(0, plies + 1, step))
    if shown[-1] != plies:
        shown.append(plies)
    return shown


def sampling_note(step: int, locale: str = DEFAULT) -> str:
    """The caption of a sampled replay ("every 3rd move shown"), empty when every move is shown."""
    if step == 1:
        return ""
    if locale == DEFAULT:
        return f"every {ordinal(step)} move shown"
    return pgettext(locale, "replay", "every {nth} move shown", nth=step)


def caption(ply: int, plies: int, move: str | None, locale: str = DEFAULT) -> str:
    """The left part of a frame's caption band.

    >>> caption(0, 40, None), caption(12, 40, "place b2"), caption(40, 40, None)
    ('Start: 40 moves', 'Move 12 of 40: place b2', 'Move 40 of 40')
    """
    if ply == 0:
        return npgettext(locale, "replay", "Start: {n} move", "Start: {n} moves", plies)
    text = pgettext(locale, "replay", "Move {ply} of {plies}", ply=ply, plies=plies)
    return pgettext(locale, "replay", "{position}: {move}", position=text, move=move) if move else text


def replay_gif(
    states: Sequence[GameState],
    *,
    players: Sequence[str] | None = None,
    moves: Sequence[str] | None = None,
    theme: Theme = DEFAULT_THEME,
    frame_ms: int = FRAME_MS,
    start_ms: int = START_MS,
    final_ms: int = FINAL_MS,
    max_frames: int = MAX_FRAMES,
    max_bytes: int = MAX_BYTES,
    box: tuple[int, int] = FRAME_BOX,
    locale: str = DEFAULT,
) -> bytes:
    """Return the game through ``states`` (start to end) as an animated GIF; same inputs, same bytes.

    ``players`` are display names in seat order (as for :func:`render.render`);
    ``moves`` (one text per ply, ``len(states) - 1`` of them) go in the captions; ``locale`` is the
    language of the boards and the captions.
    """
    if not states:
        raise ValueError("A replay needs at least the starting position.")
    plies = len(states) - 1
    if moves is not None and len(moves) != plies:
        raise ValueError(f"{plies} plies need {plies} move texts, not {len(moves)}.")
    step = sampling_step(plies, max_frames)
    while True:
        gif = _encode(states, players, moves, theme, step, (frame_ms, start_ms, final_ms), max_bytes, box, locale)
        if gif is not None:
            return gif
        step *= 2  # ends: at step >= plies there are two frames, far under any sensible budget


def _encode(
    states: Sequence[GameState],
    players: Sequence[str] | None,
    moves: Sequence[str] | None,
    theme: Theme,
    step: int,
    delays: tuple[int, int, int],
    max_bytes: int,
    box: tuple[int, int],
    locale: str = DEFAULT,
) -> bytes | None:
    """Encode the replay showing every ``step``-th ply; ``None`` as soon as it grows past ``max_bytes``."""
    plies = len(states) - 1
    shown = shown_plies(plies, step)
    frame_ms, start_ms, final_ms = delays
    first = render_picture(states[0], players=players, theme=theme, locale=locale)
    palette, table = gif_palette(_palette_key(first.palette, first.image))
    note = sampling_note(step, locale)
    layout = frame_layout(first.image.size, theme, box, lines=2 if note else 1)
    title = GAMES[states[0].game].title if states[0].game in GAMES else states[0].game
    comment = f"Tabula replay of {title}: {plies} move{'' if plies == 1 else 's'}" + (f", {note}" if note else "")
    writer = _GifWriter(layout.width, layout.height, table, comment)
    frames = _Frames(layout, theme, palette, note)
    for index, ply in enumerate(shown):
        picture = first if ply == 0 else render_picture(states[ply], players=players, theme=theme, locale=locale)
        move = moves[ply - 1] if moves is not None and ply > 0 else None
        frame = frames.draw(picture.image, caption(ply, plies, move, locale))
        delay = final_ms if ply == plies else start_ms if index == 0 else frame_ms
        writer.add(frame, delay)
        if writer.size > max_bytes:
            return None
    return writer.finish()


def frame_layout(size: tuple[int, int], theme: Theme, box: tuple[int, int], lines: int = 1) -> Layout:
    """Fit the board and a caption band of ``lines`` lines into ``box``, never enlarging the board."""
    width, height = size
    scale = min(1.0, box[0] / width)
    font = max(12, round(theme.font_body * box[0] / theme.width))
    band = lines * round(font * 1.3) + 2 * max(4, font // 3)
    if height * scale + band > box[1]:
        scale = (box[1] - band) / height
    board_width, board_height = round(width * scale), round(height * scale)
    return Layout(board_width, board_height + band, board_height, scale, font)


def draw_frame(board: Image.Image, layout: Layout, theme: Theme, caption: str, note: str = "") -> Image.Image:
    """Draw one frame: the scaled board, then the caption band: ``caption``, and ``note`` on a second line."""
    frame = Image.new("RGB", (layout.width, layout.height), theme.panel)
    size = (round(board.width * layout.scale), round(board.height * layout.scale))
    if size != board.size:
        board = board.resize(size, Image.Resampling.BOX)
    if board.width > layout.width or board.height > layout.board_height:
        # A later position drew a larger card than the first one: fit it into the same frame.
        fit = min(layout.width / board.width, layout.board_height / board.height)
        board = board.resize((round(board.width * fit), round(board.height * fit)), Image.Resampling.BOX)
    frame.paste(theme.background, (0, 0, layout.width, layout.board_height))
    frame.paste(board, ((layout.width - board.width) // 2, 0))
    _draw_caption(ImageDraw.Draw(frame), layout, theme, caption, note)
    return frame


def _draw_caption(draw: ImageDraw.ImageDraw, layout: Layout, theme: Theme, caption: str, note: str) -> None:
    """Write ``caption``, and ``note`` on a second line, in the band under the board."""
    pad = max(6, layout.font // 2)
    lines = [(caption, theme.text), (note, theme.mark)] if note else [(caption, theme.text)]
    line_height = (layout.height - layout.board_height) / len(lines)
    for number, (text, colour) in enumerate(lines):
        middle = layout.board_height + line_height * (number + 0.5)
        if number == 0 and len(lines) > 1:
            middle += line_height * 0.12  # the band's padding: pull the two lines together
        elif number == 1:
            middle -= line_height * 0.12
        text = ellipsize(text, layout.font, layout.width - 2 * pad)
        draw_text(draw, (pad, round(middle)), text, layout.font, colour, anchor="lm")


class _Frames:
    """Draws a replay's frames straight in the GIF's palette: a frame in full, then only the board's tiles that
    changed (:class:`render.replay_tiles.BoardTiles`) and the caption band.  A card of another size than the last
    one is drawn in full the first time, and from its tiles' looks (whatever changed since) when it comes back.

    The pixels are those of :func:`draw_frame` then ``quantize``: the band is drawn on a canvas of the frame's
    size, its text where :func:`draw_frame` puts it, and a caption whose ink would reach above the band (over
    the board) gets a frame drawn in full.
    """

    def __init__(self, layout: Layout, theme: Theme, palette: Image.Image, note: str) -> None:
        self.layout, self.theme, self.palette, self.note = layout, theme, palette, note
        self.frame: Image.Image | None = None
        # Per size of card: its tiles, and the ones the frame shows now (None: the frame was drawn whole).
        self.tiles: dict[tuple[int, int], BoardTiles] = {}
        self.shown: BoardTiles | None = None
        background = Image.new("RGB", (1, 1), theme.background).quantize(palette=palette, dither=Image.Dither.NONE)
        self.background = background.tobytes()[0]  # its palette index
        self.canvas = Image.new("RGB", (layout.width, layout.height), theme.panel)
        self.canvas.paste(theme.background, (0, 0, layout.width, layout.board_height))
        # Rows above the band that a caption must leave alone: far more than any line of text reaches.
        self.guard = (0, max(0, layout.board_height - 4 * layout.font), layout.width, layout.board_height)
        self.clean = self.canvas.crop(self.guard).getextrema()

    def draw(self, board: Image.Image, caption: str) -> Image.Image:
        """Return the frame of ``board`` with ``caption`` (palette indices; the next call changes it in place)."""
        layout = self.layout
        band = self._band(caption)
        tiles = self.tiles.get(board.size)
        if band is not None and tiles is not None and self.frame is not None:
            if tiles is self.shown:
                tiles.update(board)
            else:
                # The card changed size: its background, then every tile (mostly looks it had before).
                self.frame.paste(self.background, (0, 0, layout.width, layout.board_height))
                tiles.redraw(board, self.frame)
                self.shown = tiles
            self.frame.paste(band, (0, layout.board_height))
            return self.frame
        frame = draw_frame(board, layout, self.theme, caption, self.note)
        self.frame = frame.quantize(palette=self.palette, dither=Image.Dither.NONE)
        size = (round(board.width * layout.scale), round(board.height * layout.scale))
        self.shown = None
        # Tiles start from a frame whose board is all board: not one with a caption over it.
        if band is not None and size[0] <= layout.width and size[1] <= layout.board_height:
            tiles = BoardTiles(board, size, self.palette, self.frame, ((layout.width - size[0]) // 2, 0))
            self.tiles[board.size] = self.shown = tiles
        return self.frame

    def _band(self, caption: str) -> Image.Image | None:
        """Return the caption band in palette indices, or None if the caption's ink reaches above the band."""
        layout, canvas = self.layout, self.canvas
        canvas.paste(self.theme.panel, (0, layout.board_height, layout.width, layout.height))
        _draw_caption(ImageDraw.Draw(canvas), layout, self.theme, caption, self.note)
        if canvas.crop(self.guard).getextrema() != self.clean:
            canvas.paste(self.theme.background, (0, 0, layout.width, layout.board_height))
            return None
        band = canvas.crop((0, layout.board_height, layout.width, layout.height))
        return band.quantize(palette=self.palette, dither=Image.Dither.NONE)


def _palette_key(palette: Image.Image | None, image: Image.Image) -> bytes:
    """The colours of the board's shared palette (or of the first frame, for a board without one), as RGB bytes."""
    if palette is None:
        palette = image.quantize(colors=GIF_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    colours = palette.getpalette() or []
    return bytes(colours[: 3 * 256])


@functools.lru_cache(maxsize=32)
def gif_palette(colours: bytes) -> tuple[Image.Image, bytes]:
    """Return the ``"P"`` image to quantise frames with, and the GIF's 64-entry colour table.

    Distinct colours are kept in order; while there are more than 63, the later
    colour of the closest remaining pair is dropped (its pixels go to a near
    neighbour).  Entry 63 of the table is the transparent one.
    """
    unique: list[RGB] = []
    for i in range(0, len(colours) - 2, 3):
        colour = (colours[i], colours[i + 1], colours[i + 2])
        if colour not in unique:
            unique.append(colour)
    if len(unique) > GIF_COLOURS:
        pairs = sorted(
            (sum((a - b) ** 2 for a, b in zip(unique[i], unique[j], strict=True)), i, j)
            for i in range(len(unique))
            for j in range(i + 1, len(unique))
        )
        dropped: set[int] = set()
        for _, i, j in pairs:
            if len(unique) - len(dropped) <= GIF_COLOURS:
                break
            if i not in dropped and j not in dropped:
                dropped.add(j)
        unique = [colour for index, colour in enumerate(unique) if index not in dropped]
    flat = b"".join(bytes(colour) for colour in unique)
    palette = Image.new("P", (1, 1))
    palette.putpalette(flat)
    palette.load()
    filler = unique[0] if unique else (0, 0, 0)
    table = flat + bytes(filler) * ((1 << _TABLE_BITS) - len(unique))
    return palette, table


class _GifWriter:
    """Write a looping GIF89a frame by frame: one global colour table, changed regions only."""

    transparent = (1 << _TABLE_BITS) - 1
    unchanged = [transparent] + [0] * 255  # a difference of 0 to the transparent index, any other to 0

    def __init__(self, width: int, height: int, table: bytes, comment: str) -> None:
        self.width, self.height = width, height
        flags = 0x80 | ((_TABLE_BITS - 1) << 4) | (_TABLE_BITS - 1)  # global table, its size, colour depth
        header = b"GIF89a" + struct.pack("<HHBBB", width, height, flags, 0, 0) + table
        loop = b"\x21\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", 0) + b"\x00"  # loop forever
        text = comment.encode("ascii", "replace")[:255]
        self.parts: list[bytes] = [header, loop, b"\x21\xfe" + bytes([len(text)]) + text + b"\x00"]
        self.size = sum(len(part) for part in self.parts)
        self.previous: Image.Image | None = None

    def add(self, frame: Image.Image, delay_ms: int) -> None:
        """Append ``frame`` (mode ``"P"``, indices into the table) shown for ``delay_ms``, storing only what
        changed."""
        if self.previous is None:
            bbox: Box = (0, 0, self.width, self.height)
            part, transparent = frame, False
        else:
            diff = ImageChops.difference(self.previous, frame)
            found = diff.getbbox()
            if found is None:  # nothing changed: one transparent pixel
                bbox, part = (0, 0, 1, 1), Image.new("P", (1, 1), self.transparent)
            else:
                bbox = found
                # Unchanged pixels become the transparent index, above every colour's: the lighter of the two wins.
                part = ImageChops.lighter(frame.crop(bbox), diff.crop(bbox).point(self.unchanged))
            transparent = True
        self.previous = frame.copy()
        left, top, right, bottom = bbox
        # Graphic control: disposal 1 (keep the frame under the next one), the delay in 1/100 s, transparency.
        flags = (1 << 2) | int(transparent)
        index = self.transparent if transparent else 0
        control = b"\x21\xf9\x04" + bytes([flags]) + struct.pack("<H", round(delay_ms / 10)) + bytes([index, 0])
        descriptor = b"\x2c" + struct.pack("<HHHHB", left, top, right - left, bottom - top, 0)
        data = bytes([_TABLE_BITS]) + part.tobytes("gif", "P", _TABLE_BITS, 0) + b"\x00"
        for piece in (control, descriptor, data):
            self.parts.append(piece)
            self.size += len(piece)

    def finish(self) -> bytes:
        """Return the whole file."""
        return b"".join(self.parts) + b"\x3b"
