"""Fonts and text helpers: committed fonts, loaded lazily, safe for threads, for names in any script.

The main font is DejaVu Sans Bold, committed under ``render/assets/`` so that
every machine draws the same pixels (a system font would differ between
machines, and Pillow's bundled default lacks even accented Latin letters).
Pillow's layout engine is pinned to the basic one, because Raqm needs the
FriBiDi system library, which a fresh machine may lack, and would change glyph
placement.

Player names come from Discord and may be written in any script.  Characters
the main font lacks are drawn from committed fallback fonts, cut from Debian's
font packages by ``tools/subset_fonts.py`` (see ``render/assets/FONTS.md``):
Noto Sans Arabic, Hebrew, Devanagari and Thai, Noto Sans CJK (kana, Hangul and
the everyday ideographs) and Symbola's emoji, drawn in the text's colour.  A run
of fallback text is shaped by HarfBuzz (``uharfbuzz``: Arabic letters join,
Devanagari vowel signs reorder and conjuncts form, Thai marks stack) and laid out
right to left where the Unicode bidirectional algorithm says so; each shaped
glyph is then drawn by Pillow's basic layout through the private code point the
subsetting script mapped it to.  The text around a name is English, so every
line reads left to right and an Arabic or Hebrew name is one right-to-left run
inside it.

Nothing is loaded until it is needed, and text the main font draws alone (every
Latin name, every caption) takes the same single Pillow call as before; the
fallback fonts are opened only for a character the main font lacks.  A character
no bundled font has (a private-use or unassigned code point, a rare ideograph) is
dropped; a name with nothing left is replaced by its seat's name by the caller.

>>> clean_text("  Ana  🎲 ")
'Ana 🎲'
>>> clean_text("\\ue000\\U000f0001 Bo")
'Bo'
>>> clean_text("\\ue000")
''
>>> ellipsize("Bartholomew the Magnificent", 24, 200)
'Bartholome…'
>>> short = ellipsize("محمد بن عبد العزيز آل سعود", 24, 120)
>>> short[:-2], short[-2:] == ELLIPSIS + "\\u200f"  # a right-to-left mark keeps the ellipsis with the Arabic
('محمد بن', True)
>>> text_width("محمد", 24) > 0 and text_width("李小龍", 24) > 0
True
"""

from __future__ import annotations

import functools
import io
import math
import threading
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, NamedTuple

from PIL import Image, ImageDraw, ImageFont

from render.masks import draw_line

if TYPE_CHECKING:
    import uharfbuzz

FONT_FILE = "DejaVuSans-Bold.ttf"
ELLIPSIS = "…"
# tools/subset_fonts.py maps glyph id N of every fallback font to U+F0000 + N (Private Use Area-A).
GLYPH_PUA = 0xF0000
MAIN = 0  # index of the main font; fallback font i is index i + 1


@dataclass(frozen=True, slots=True)
class FallbackFont:
    """A committed fallback font and the size factor that matches its letters to the main font's."""

    file: str
    scale: float = 1.0


FALLBACK_FONTS: tuple[FallbackFont, ...] = (
    FallbackFont("NotoSansArabicUI-Bold-subset.ttf"),
    FallbackFont("NotoSansHebrew-Bold-subset.ttf"),
    FallbackFont("NotoSansDevanagariUI-Bold-subset.ttf"),
    FallbackFont("NotoSansThaiUI-Bold-subset.ttf"),
    FallbackFont("NotoSansCJKjp-Bold-subset.otf"),
    FallbackFont("Symbola-emoji-subset.ttf"),
)

# Zero-width characters that only change how their neighbours are shaped (joiners,
# variation selectors): kept with the run they follow, dropped after main-font text.
JOINERS = frozenset("\u200c\u200d") | frozenset(chr(code) for code in range(0xFE00, 0xFE10))
# Skin-tone modifiers: a one-colour emoji cannot show them, and alone they draw a swatch.
SKIN_TONES = frozenset(chr(code) for code in range(0x1F3FB, 0x1F400))
_MIRRORED = str.maketrans("()[]{}<>«»‹›", ")(][}{><»«›‹")
_STRONG_RTL = frozenset(("R", "AL"))

# FreeType faces are not safe to use from two threads at once, and the bot renders
# in worker threads: every call that rasterises, measures or shapes text holds this lock.
_FREETYPE_LOCK = threading.RLock()


@functools.cache
def _asset_bytes(name: str) -> bytes:
    """Read a committed font file once."""
    return resources.files("render").joinpath("assets", name).read_bytes()


@functools.cache
def _font_bytes() -> bytes:
    """Read the main font file once."""
    return _asset_bytes(FONT_FILE)


@functools.cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """Return the project font at ``size`` pixels, loaded once per size."""
    with _FREETYPE_LOCK:
        return ImageFont.truetype(io.BytesIO(_font_bytes()), size, layout_engine=ImageFont.Layout.BASIC)


@functools.cache
def _fallback_font(index: int, size: int) -> ImageFont.FreeTypeFont:
    """Return fallback font ``index`` (1-based) at ``size`` pixels, scaled to match the main font."""
    spec = FALLBACK_FONTS[index - 1]
    with _FREETYPE_LOCK:
        data = io.BytesIO(_asset_bytes(spec.file))
        return ImageFont.truetype(data, round(size * spec.scale), layout_engine=ImageFont.Layout.BASIC)


def _pillow_font(index: int, size: int) -> ImageFont.FreeTypeFont:
    """Return the Pillow font for font ``index`` (``MAIN`` or a fallback) at ``size``."""
    return font(size) if index == MAIN else _fallback_font(index, size)


@functools.cache
def _shaper(index: int) -> uharfbuzz.Font:
    """Return HarfBuzz's view of fallback font ``index``, at its design units."""
    import uharfbuzz  # imported on first use: Latin text never needs it

    with _FREETYPE_LOCK:
        return uharfbuzz.Font(uharfbuzz.Face(_asset_bytes(FALLBACK_FONTS[index - 1].file)))


@functools.cache
def _coverage(index: int) -> frozenset[int]:
    """Return the code points fallback font ``index`` draws (its private glyph mappings left out)."""
    with _FREETYPE_LOCK:
        return frozenset(code for code in _shaper(index).face.unicodes if code < GLYPH_PUA)


@functools.cache
def _missing_glyph() -> bytes:
    """Return the bitmap the main font draws for a character it lacks (its .notdef box)."""
    with _FREETYPE_LOCK:
        mask = font(32).getmask("\ue000")  # a private-use code point no font maps
        return bytes(mask) + repr(mask.size).encode()


@functools.lru_cache(maxsize=8192)  # bounded: names may bring any of Unicode's characters
def _main_has(char: str) -> bool:
    """Tell whether the main font has a glyph for ``char``."""
    with _FREETYPE_LOCK:
        mask = font(32).getmask(char)
        return bytes(mask) + repr(mask.size).encode() != _missing_glyph()


@functools.lru_cache(maxsize=8192)
def font_for(char: str) -> int | None:
    """Return the font that draws ``char``: ``MAIN``, a fallback's index, or ``None`` if none can.

    The main font is asked first; the fallbacks only for what it lacks, and for
    right-to-left letters, which the main font has but cannot join.
    """
    if char.isspace():
        return MAIN
    if unicodedata.category(char)[0] in "CZ" or char in SKIN_TONES:  # controls, private use, unassigned
        return None
    rtl = unicodedata.bidirectional(char) in _STRONG_RTL
    if not rtl and _main_has(char):
        return MAIN
    code = ord(char)
    for index in range(1, len(FALLBACK_FONTS) + 1):
        if code in _coverage(index):
            return index
    return MAIN if _main_has(char) else None


def has_glyph(char: str) -> bool:
    """Tell whether a bundled font can draw ``char`` (spaces count as drawable)."""
    return font_for(char) is not None


def clean_text(text: str) -> str:
    """Drop characters no bundled font can draw and squeeze runs of spaces.

    Joiners and variation selectors stay between drawable characters (they shape
    Persian, Devanagari and emoji sequences); text with nothing visible left is ``""``.
    """
    text = unicodedata.normalize("NFC", str(text))
    kept = "".join(ch for ch in text if ch in JOINERS or has_glyph(ch))
    words = [word.strip("".join(JOINERS)) for word in kept.split()]
    return " ".join(word for word in words if word)


@functools.lru_cache(maxsize=4096)
def _is_simple(text: str) -> bool:
    """Tell whether the main font draws all of ``text`` left to right in one Pillow call."""
    return text.isascii() or all(
        font_for(ch) == MAIN and unicodedata.bidirectional(ch) not in _STRONG_RTL for ch in text
    )


# --- Bidirectional text -------------------------------------------------------------
#
# A reduced Unicode Bidirectional Algorithm (UAX #9) for one line whose paragraph
# direction is left to right: the text around a name is English.  clean_text has
# removed the explicit embedding and isolate controls, so rules X1–X10 have nothing
# to do; the weak (W1–W7), neutral (N1–N2), implicit (I1) and reordering (L1–L2)
# rules are applied as written.


def _bidi_levels(text: str) -> list[int]:
    """Return the embedding level of each character of ``text`` (0 left to right, 1 right to left, 2 numbers).

    >>> _bidi_levels("Ana")
    [0, 0, 0]
    >>> _bidi_levels("אב 12 x")
    [1, 1, 1, 2, 2, 0, 0]
    """
    types = [unicodedata.bidirectional(ch) or "L" for ch in text]
    types = ["ON" if t in ("BN", "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI") else t for t in types]
    previous = "L"  # the start of the line counts as left to right
    for i, kind in enumerate(types):  # W1: a combining mark takes its base's type
        if kind == "NSM":
            types[i] = previous
        else:
            previous = kind
    strong = "L"
    for i, kind in enumerate(types):  # W2 and W3: digits after Arabic letters are Arabic numbers
        if kind in ("L", "R", "AL"):
            strong = kind
        elif kind == "EN" and strong == "AL":
            types[i] = "AN"
    types = ["R" if kind == "AL" else kind for kind in types]
    for i in range(1, len(types) - 1):  # W4: one separator between two numbers of a kind
        before, kind, after = types[i - 1], types[i], types[i + 1]
        if (before == after == "EN" and kind in ("ES", "CS")) or (before == after == "AN" and kind == "CS"):
            types[i] = before
    for i, kind in enumerate(types):  # W5: terminators (%, $) beside European digits
        if kind == "EN":
            j = i - 1
            while j >= 0 and types[j] == "ET":
                types[j] = "EN"
                j -= 1
            j = i + 1
            while j < len(types) and types[j] == "ET":
                types[j] = "EN"
                j += 1
    types = ["ON" if kind in ("ES", "ET", "CS") else kind for kind in types]  # W6
    strong = "L"
    for i, kind in enumerate(types):  # W7: European digits after left-to-right text are left to right
        if kind in ("L", "R"):
            strong = kind
        elif kind == "EN" and strong == "L":
            types[i] = "L"
    i = 0
    while i < len(types):  # N1 and N2: neutrals take their surroundings' direction, else the line's
        if types[i] not in ("B", "S", "WS", "ON"):
            i += 1
            continue
        end = i
        while end < len(types) and types[end] in ("B", "S", "WS", "ON"):
            end += 1
        before = "L" if i == 0 else ("R" if types[i - 1] in ("R", "EN", "AN") else "L")
        after = "L" if end == len(types) else ("R" if types[end] in ("R", "EN", "AN") else "L")
        for j in range(i, end):
            types[j] = before if before == after else "L"
        i = end
    levels = [1 if kind == "R" else 2 if kind in ("EN", "AN") else 0 for kind in types]  # I1
    end = len(text)
    while end > 0 and text[end - 1].isspace():  # L1: trailing spaces take the line's level
        end -= 1
        levels[end] = 0
    return levels


def _visual_order(levels: Sequence[int]) -> list[int]:
    """Return the indexes of items at ``levels`` in display order (rule L2).

    >>> _visual_order([0, 1, 1, 2, 2, 1, 0])
    [0, 5, 3, 4, 2, 1, 6]
    """
    order = list(range(len(levels)))
    for level in range(max(levels, default=0), 0, -1):
        i = 0
        while i < len(order):
            if levels[order[i]] < level:
                i += 1
                continue
            end = i
            while end < len(order) and levels[order[end]] >= level:
                end += 1
            order[i:end] = reversed(order[i:end])
            i = end
    return order


# --- Layout ---------------------------------------------------------------------------


class Glyph(NamedTuple):
    """One shaped glyph: its private code point and its pen position from the run's origin, in pixels."""

    char: str
    x: float
    y: float


class Piece(NamedTuple):
    """A run of one font at ``dx`` from the line's origin: main-font text, or a shaped fallback run.

    ``text`` is what Pillow draws for main-font text (already in display order)
    and the logical text of a shaped run, whose ``glyphs`` say what to draw.
    """

    font: int
    text: str
    rtl: bool
    dx: float
    glyphs: tuple[Glyph, ...] = ()


class Line(NamedTuple):
    """A laid-out line: its pieces left to right and its advance width."""

    pieces: tuple[Piece, ...]
    width: float


def _runs(text: str) -> list[tuple[int, int, str]]:
    """Split ``text`` into runs of one font and one level, in logical order: ``(font, level, text)``."""
    levels = _bidi_levels(text)
    runs: list[tuple[int, int, str]] = []
    previous: int | None = None
    for char, level in zip(text, levels, strict=True):
        weak = unicodedata.bidirectional(char) not in ("L", "R", "AL") or unicodedata.category(char)[0] == "M"
        sticky = weak and previous is not None and previous != MAIN and ord(char) in _coverage(previous)
        if char in JOINERS:
            chosen = previous if previous != MAIN else None  # the basic layout cannot use a joiner
        elif sticky:
            chosen = previous  # marks and punctuation stay in the run they belong to
        else:
            chosen = font_for(char)
        if chosen is None:
            continue
        if runs and runs[-1][0] == chosen and runs[-1][1] == level:
            runs[-1] = (chosen, level, runs[-1][2] + char)
        else:
            runs.append((chosen, level, char))
        previous = chosen
    return runs


@functools.lru_cache(maxsize=2048)
def _shape(index: int, text: str, rtl: bool, size: int) -> tuple[tuple[Glyph, ...], float]:
    """Shape ``text`` in fallback font ``index`` at ``size``; return its glyphs from x = 0 and its advance."""
    import uharfbuzz

    shaper = _shaper(index)
    buffer = uharfbuzz.Buffer()
    buffer.add_str(text)
    buffer.guess_segment_properties()
    buffer.direction = "rtl" if rtl else "ltr"
    uharfbuzz.shape(shaper, buffer)
    scale = round(size * FALLBACK_FONTS[index - 1].scale) / shaper.face.upem
    glyphs: list[Glyph] = []
    x = 0.0
    for info, position in zip(buffer.glyph_infos, buffer.glyph_positions, strict=True):
        glyphs.append(Glyph(chr(GLYPH_PUA + info.codepoint), x + position.x_offset * scale, -position.y_offset * scale))
        x += position.x_advance * scale
    return tuple(glyphs), x


@functools.lru_cache(maxsize=1024)
def _run_mask(index: int, text: str, rtl: bool, size: int) -> tuple[Image.Image, int, int]:
    """Draw a shaped run once into a mask; return it and its top-left corner from the run's origin on the baseline."""
    pillow = _fallback_font(index, size)
    glyphs, _ = _shape(index, text, rtl, size)
    boxes = [pillow.getbbox(glyph.char, anchor="ls") for glyph in glyphs]
    left = math.floor(min((box[0] + glyph.x for box, glyph in zip(boxes, glyphs, strict=True)), default=0)) - 1
    top = math.floor(min((box[1] + glyph.y for box, glyph in zip(boxes, glyphs, strict=True)), default=0)) - 1
    right = math.ceil(max((box[2] + glyph.x for box, glyph in zip(boxes, glyphs, strict=True)), default=0)) + 1
    bottom = math.ceil(max((box[3] + glyph.y for box, glyph in zip(boxes, glyphs, strict=True)), default=0)) + 1
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    draw = ImageDraw.Draw(mask)
    for glyph in glyphs:
        draw.text((glyph.x - left, glyph.y - top), glyph.char, font=pillow, fill=255, anchor="ls")
    return mask, left, top


@functools.lru_cache(maxsize=4096)
def layout(text: str, size: int) -> Line:
    """Lay out ``text`` at ``size`` pixels: fonts chosen per character, fallback runs shaped, bidi reordered."""
    with _FREETYPE_LOCK:
        if _is_simple(text):
            return Line((Piece(MAIN, text, False, 0.0),), font(size).getlength(text))
        runs = _runs(text)
        pieces: list[Piece] = []
        x = 0.0
        for position in _visual_order([level for _, level, _ in runs]):
            index, level, run = runs[position]
            rtl = level % 2 == 1
            if index == MAIN:
                shown = run[::-1].translate(_MIRRORED) if rtl else run
                pieces.append(Piece(MAIN, shown, rtl, x))
                x += font(size).getlength(shown)
                continue
            glyphs, advance = _shape(index, run, rtl, size)
            pieces.append(Piece(index, run, rtl, x, glyphs))
            x += advance
        return Line(tuple(pieces), x)


@functools.lru_cache(maxsize=8192)  # bounded: a few floats per entry (names, scores, status lines)
def text_width(text: str, size: int) -> float:
    """Return the advance width of ``text`` at ``size`` pixels."""
    if _is_simple(text):
        with _FREETYPE_LOCK:
            return font(size).getlength(text)
    return layout(text, size).width


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
    # Never cut a letter from its marks or joiners (a vowel sign, a zero-width joiner), nor after a virama,
    # which would leave half of a conjunct.
    while 0 < low < len(text) and (
        unicodedata.category(text[low])[0] == "M" or text[low] in JOINERS or unicodedata.combining(text[low - 1]) == 9
    ):
        low -= 1
    if not low:
        return ELLIPSIS
    kept = text[:low].rstrip()
    strong = [unicodedata.bidirectional(ch) for ch in kept if unicodedata.bidirectional(ch) in ("L", "R", "AL")]
    # After right-to-left letters the ellipsis belongs to them: a right-to-left mark puts it at their left end,
    # where their reader looks for the rest of the name.
    return kept + ELLIPSIS + ("\u200f" if strong and strong[-1] != "L" else "")


def wrap(text: str, size: int, max_width: float, separators: Sequence[str] = (" · ", " ")) -> list[str]:
    """Split ``text`` into lines no wider than ``max_width``, breaking at the first kind of ``separators`` that works.

    Breaks at `` · `` (between the parts of a status line) before plain spaces; a word wider than the
    line stays whole on a line of its own (the caller may still shrink or ellipsize it).

    >>> wrap("Ana to move · ply 3", 25, 10_000), wrap("Ana to move · ply 3", 25, 200)
    (['Ana to move · ply 3'], ['Ana to move', 'ply 3'])
    """
    if text_width(text, size) <= max_width:
        return [text]
    for separator in separators:
        words = text.split(separator)
        if len(words) == 1:
            continue
        lines: list[str] = []
        current = words[0]
        for word in words[1:]:
            joined = current + separator + word
            if text_width(joined, size) <= max_width:
                current = joined
            else:
                lines.append(current)
                current = word
        lines.append(current)
        if all(text_width(line, size) <= max_width for line in lines):
            return [line.strip() for line in lines]
        # Try the finer separator on the whole text.
    words = text.split(" ")
    lines = []
    current = words[0]
    for word in words[1:]:
        if text_width(current + " " + word, size) <= max_width:
            current += " " + word
        else:
            lines.append(current)
            current = word
    lines.append(current)
    return lines


def fit_size(text: str, size: int, max_width: float, minimum: int) -> int:
    """Return the largest font size from ``size`` down to ``minimum`` at which ``text`` fits."""
    while size > minimum and text_width(text, size) > max_width:
        size -= 1
    return size


def _baseline(line: Line, y: float, vertical: str, size: int) -> float:
    """Return the baseline's y for a line anchored at ``y`` by Pillow's ``vertical`` anchor letter."""
    if vertical in "tb":  # the top or bottom of the drawn text itself
        ink: list[float] = []
        for piece in line.pieces:
            if piece.font == MAIN and piece.text.strip():
                box = font(size).getbbox(piece.text, anchor="ls")
                ink.append(box[1] if vertical == "t" else box[3])
            elif piece.font != MAIN:
                mask, _, top = _run_mask(piece.font, piece.text, piece.rtl, size)
                ink.append(top if vertical == "t" else top + mask.height)
        if not ink:
            return y
        return y - (min(ink) if vertical == "t" else max(ink))
    main = font(size)  # ascender, middle, baseline, descender: the main font's metrics
    return y + main.getbbox("x", anchor="l" + vertical)[1] - main.getbbox("x", anchor="ls")[1]


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
    """Draw ``text`` at ``xy`` with the project fonts (``anchor`` as in Pillow, e.g. ``"mm"``)."""
    with _FREETYPE_LOCK:
        if _is_simple(text):
            _pillow_text(draw, xy, text, MAIN, size, fill, anchor, stroke, stroke_fill)
            return
        line = layout(text, size)
        x = xy[0] - {"l": 0.0, "m": line.width / 2, "r": line.width}[anchor[0]]
        y = _baseline(line, xy[1], anchor[1], size)
        if stroke:
            _draw_stroked(draw, line, (x, y), size, fill, stroke, stroke_fill or fill)
            return
        for piece in line.pieces:
            if piece.font == MAIN:
                _pillow_text(draw, (x + piece.dx, y), piece.text, MAIN, size, fill, "ls")
            else:
                mask, left, top = _run_mask(piece.font, piece.text, piece.rtl, size)
                draw.bitmap((round(x + piece.dx + left), round(y + top)), mask, fill=fill)


def _draw_stroked(
    draw: ImageDraw.ImageDraw,
    line: Line,
    origin: tuple[float, float],
    size: int,
    fill: tuple[int, ...],
    stroke: int,
    stroke_fill: tuple[int, ...],
) -> None:
    """Draw ``line`` with an outline: every stroke first, then every fill, so that no outline covers a letter."""
    x, y = origin
    for ink, width in ((stroke_fill, stroke), (fill, 0)):
        for piece in line.pieces:
            drawn = [(piece.text, 0.0, 0.0)] if piece.font == MAIN else [(g.char, g.x, g.y) for g in piece.glyphs]
            for char, gx, gy in drawn:
                _pillow_text(draw, (x + piece.dx + gx, y + gy), char, piece.font, size, ink, "ls", width, ink)


def _pillow_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    index: int,
    size: int,
    fill: tuple[int, ...],
    anchor: str,
    stroke: int = 0,
    stroke_fill: tuple[int, ...] | None = None,
) -> None:
    """Draw one line as ``draw.text`` does with font ``index`` (same pixels), from remembered masks (see
    :mod:`render.masks`)."""
    draw_line(draw, xy, text, _pillow_font(index, size), (index, size), fill, anchor, stroke, stroke_fill)
