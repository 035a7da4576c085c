"""Text masks, remembered: a card's lines of text are rasterised once and only blended afterwards.

Pillow's ``ImageDraw.text`` rasterises a line into a mask (FreeType, the costly part) and blends the ink through
it with ``draw_bitmap``.  The mask depends only on the text, font, size, anchor, stroke and the fractional part of
the position, so :func:`draw_line` rasterises it once, by letting ``ImageDraw.text`` draw into a recorder, and
remembers the blends; each card then makes the same ``draw_bitmap`` calls Pillow would have made: the same pixels.

The cache holds at most :data:`CACHE_BYTES` of mask pixels (least recently used lines go first); text larger than
:data:`REMEMBERED_SIZE` (a sprite's supersampled text, drawn once into a sprite that is kept) is not remembered.

>>> from PIL import Image, ImageDraw
>>> from render.text import font
>>> cards = [Image.new("RGB", (200, 40), (38, 42, 49)) for _ in range(2)]
>>> ImageDraw.Draw(cards[0]).text((10.5, 20), "Ana", font=font(25), fill=(238, 238, 232), anchor="lm")
>>> draw_line(ImageDraw.Draw(cards[1]), (10.5, 20), "Ana", font(25), (0, 25), (238, 238, 232), "lm")
>>> cards[0].tobytes() == cards[1].tobytes()
True
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from typing import Any

from PIL import Image, ImageDraw, ImageFont

Stroke = tuple[int, ...] | None
Blends = tuple[tuple[int, int, Any, int], ...]
# (text, font key, image mode, fraction of a pixel, anchor, (fill, stroke width, stroke fill))
Key = tuple[str, tuple[int, int], str, tuple[float, float], str, tuple[tuple[int, ...], int, Stroke]]

CACHE_BYTES = 8 * 1024 * 1024  # the masks' pixels kept at most (a thousand lines or more of card text)
REMEMBERED_SIZE = 64  # larger text is drawn at the sprites' supersampled size, into sprites that are kept anyway
_lock = threading.Lock()  # guards the cache; callers hold the FreeType lock of render.text around rasterising
_masks: OrderedDict[Key, tuple[Blends, int]] = OrderedDict()  # least recently used first
_held = 0


class _Recorder:
    """Stands in for a drawing's core to record the ``draw_bitmap`` calls ``ImageDraw.text`` makes (the rest is the
    core's own: the ink, for instance)."""

    def __init__(self, core: object) -> None:
        self.core = core
        self.calls: list[tuple[int, int, Any, int]] = []

    def __getattr__(self, name: str) -> object:
        return getattr(self.core, name)

    def draw_bitmap(self, xy: tuple[int, int], mask: Any, ink: int) -> None:
        self.calls.append((xy[0], xy[1], mask, ink))


def cache_bytes() -> int:
    """Return the bytes of mask pixels the cache holds now (at most :data:`CACHE_BYTES`)."""
    return _held


def _blends(key: Key, font: ImageFont.FreeTypeFont) -> Blends:
    """Return the ``(dx, dy, mask, ink)`` blends Pillow makes to draw a line a fraction of a pixel from ``(0, 0)``."""
    global _held
    with _lock:
        found = _masks.get(key)
        if found is not None:
            _masks.move_to_end(key)
            return found[0]
        text, _, mode, start, anchor, (fill, stroke, stroke_fill) = key
        draw = ImageDraw.Draw(Image.new(mode, (1, 1)))
        recorder = _Recorder(draw.draw)
        draw.draw = recorder
        draw.text(start, text, font=font, fill=fill, anchor=anchor, stroke_width=stroke, stroke_fill=stroke_fill)
        blends = tuple(recorder.calls)
        cost = sum(mask.size[0] * mask.size[1] for _, _, mask, _ in blends) + 64
        _masks[key] = (blends, cost)
        _held += cost
        while _held > CACHE_BYTES and len(_masks) > 1:
            _, (_, dropped) = _masks.popitem(last=False)
            _held -= dropped
        return blends


def draw_line(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    font: ImageFont.FreeTypeFont,
    font_key: tuple[int, int],
    fill: tuple[int, ...],
    anchor: str,
    stroke: int = 0,
    stroke_fill: tuple[int, ...] | None = None,
) -> None:
    """Draw one line exactly as ``draw.text`` does with ``font`` (named by ``font_key``), from remembered masks."""
    if "\n" in text or draw.mode not in ("RGB", "RGBA", "L") or font_key[1] > REMEMBERED_SIZE:
        draw.text(xy, text, font=font, fill=fill, anchor=anchor, stroke_width=stroke, stroke_fill=stroke_fill)
        return
    (fx, x), (fy, y) = math.modf(xy[0]), math.modf(xy[1])
    for dx, dy, mask, ink in _blends((text, font_key, draw.mode, (fx, fy), anchor, (fill, stroke, stroke_fill)), font):
        draw.draw.draw_bitmap((int(x) + dx, int(y) + dy), mask, ink)
