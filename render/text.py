"""Fonts and text helpers: one committed font, loaded lazily, safe for threads.

The font is DejaVu Sans Bold, committed under ``render/assets/`` so that every
machine draws the same pixels (a system font would differ between machines,
and Pillow's bundled default lacks even accented Latin letters).  It is read
on first use and cached; the layout engine is pinned to Pillow's basic one,
because Raqm may or may not be installed and would change glyph placement.

Player names come from Discord and may hold anything: characters the font
cannot draw (emoji, CJK) are dropped rather than shown as empty boxes.

>>> clean_text("  Ana  🎲 ")
'Ana'
>>> ellipsize("Bartholomew the Magnificent", 24, 200)
'Bartholome…'
"""

from __future__ import annotations

import functools
import io
import threading
import unicodedata
from importlib import resources

from PIL import ImageDraw, ImageFont

FONT_FILE = "DejaVuSans-Bold.ttf"
ELLIPSIS = "…"

# FreeType faces are not safe to use from two threads at once, and the bot renders
# in worker threads: every call that rasterises or measures text holds this lock.
_FREETYPE_LOCK = threading.RLock()


@functools.cache
def _font_bytes() -> bytes:
    """Read the committed font file once."""
    return resources.files("render").joinpath("assets", FONT_FILE).read_bytes()


@functools.cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """Return the project font at ``size`` pixels, loaded once per size."""
    with _FREETYPE_LOCK:
        return ImageFont.truetype(io.BytesIO(_font_bytes()), size, layout_engine=ImageFont.Layout.BASIC)


@functools.cache
def _missing_glyph() -> bytes:
    """Return the bitmap the font draws for a character it lacks (its .notdef box)."""
    with _FREETYPE_LOCK:
        mask = font(32).getmask("\ue000")  # a private-use code point no font maps
        return bytes(mask) + repr(mask.size).encode()


@functools.lru_cache(maxsize=8192)  # bounded: names may bring any of Unicode's characters
def has_glyph(char: str) -> bool:
    """Tell whether the font can draw ``char`` (spaces count as drawable)."""
    if char.isspace():
        return True
    if unicodedata.category(char)[0] in "CZ":  # controls, format marks, separators
        return False
    with _FREETYPE_LOCK:
        mask = font(32).getmask(char)
        return bytes(mask) + repr(mask.size).encode() != _missing_glyph()


def clean_text(text: str) -> str:
    """Drop characters the font cannot draw and squeeze runs of spaces."""
    return " ".join("".join(ch for ch in str(text) if has_glyph(ch)).split())


def text_width(text: str, size: int) -> float:
    """Return the advance width of ``text`` at ``size`` pixels."""
    with _FREETYPE_LOCK:
        return font(size).getlength(text)


def ellipsize(text: str, size: int, max_width: float) -> str:
    """Return ``text``, shortened with an ellipsis if it is wider than ``max_width``."""
    if text_width(text, size) <= max_width:
        return text
    low, high = 0, len(text)
    # Binary search on the longest prefix that still fits with the ellipsis.
    while low < high:
        mid = (low + high + 1) // 2
        if text_width(text[:mid].rstrip() + ELLIPSIS, size) <= max_width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + ELLIPSIS if low else ELLIPSIS


def fit_size(text: str, size: int, max_width: float, minimum: int) -> int:
    """Return the largest font size from ``size`` down to ``minimum`` at which ``text`` fits."""
    while size > minimum and text_width(text, size) > max_width:
        size -= 1
    return size


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, ...],
    *,
    anchor: str = "ls",
    stroke: int = 0,
    stroke_fill: tuple[int, ...] | None = None,
) -> None:
    """Draw ``text`` at ``xy`` with the project font (``anchor`` as in Pillow, e.g. ``"mm"``)."""
    with _FREETYPE_LOCK:
        draw.text(xy, text, font=font(size), fill=fill, anchor=anchor, stroke_width=stroke, stroke_fill=stroke_fill)
