"""Cut the fallback fonts under ``render/assets/`` from Debian's font packages.

Run once by hand (fontTools is needed here only, never at run time)::

    apt-get download fonts-noto-core=20201225-1 fonts-noto-ui-core=20201225-1 \
        fonts-noto-cjk=1:20220127+repack1-1 fonts-symbola=2.60-1.1
    for deb in fonts-*.deb; do dpkg-deb -x "$deb" /tmp/fonts; done
    pip install 'fonttools==4.*'
    python tools/subset_fonts.py /tmp/fonts

Each font keeps only the blocks a player name needs from it (see ``FONTS``), and
every glyph it keeps is also mapped to a code point in Supplementary Private Use
Area-A (``U+F0000 + glyph id``).  The renderer shapes a run with HarfBuzz, which
answers in glyph ids, and then asks Pillow's basic layout to draw each glyph by
that private code point, so Pillow needs no Raqm (whose FriBiDi is a system
library a fresh machine may lack).  The renderer never draws a private-use
character a name brings (``unicodedata`` category ``Co`` is never drawable), so
these extra mappings cannot show up by accident.

The CJK font keeps kana, all 11,172 Hangul syllables, CJK punctuation, full-width
forms and the ideographs of GB 2312, JIS X 0208 and Big5 level 1 (about 13,000,
the characters in everyday Chinese, Japanese and Korean use), so it is about
3.6 MB instead of 20 MB.  Arabic, Devanagari and Thai come in Noto's UI
variants, whose marks and descenders stay within the height of a Latin line
(Arabic's descent is 7 px at 25 px instead of 12 px), so a name fits its chip.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont, newTable
from fontTools.ttLib.tables._c_m_a_p import CmapSubtable

GLYPH_PUA = 0xF0000  # the renderer's render.text.GLYPH_PUA: glyph id N is drawn as U+F0000 + N
ASSETS = Path(__file__).resolve().parent.parent / "render" / "assets"
NOTO = "usr/share/fonts/truetype/noto"

ASCII = range(0x20, 0x7F)
# Dotted circle (HarfBuzz shows a stray combining mark on it), joiners and direction marks.
SHAPING = [0x25CC, 0x200C, 0x200D, 0x200E, 0x200F, 0x00A0]


def blocks(*spans: tuple[int, int]) -> set[int]:
    """Return every code point of the inclusive ``spans``."""
    return {code for first, last in spans for code in range(first, last + 1)}


def two_byte(encoding: str, first: int = 0, last: int = 0xFFFF) -> set[int]:
    """Return the CJK ideographs that ``encoding`` writes in two bytes, between byte values ``first`` and ``last``."""
    found = set()
    for code in range(0x4E00, 0xA000):
        try:
            encoded = chr(code).encode(encoding)
        except UnicodeEncodeError:
            continue
        if len(encoded) == 2 and first <= int.from_bytes(encoded, "big") <= last:
            found.add(code)
    return found


def cjk_unicodes() -> set[int]:
    """Return what the CJK subset keeps: everyday ideographs, kana, Hangul, CJK punctuation, full-width forms."""
    ideographs = two_byte("gb2312") | two_byte("shift_jis") | two_byte("big5", 0xA440, 0xC67E)  # Big5 level 1
    return ideographs | blocks(
        (0x3000, 0x30FF),  # CJK punctuation, hiragana, katakana
        (0x3130, 0x318F),  # Hangul compatibility jamo
        (0x31F0, 0x31FF),  # katakana phonetic extensions
        (0xAC00, 0xD7A3),  # Hangul syllables
        (0xFF00, 0xFFEF),  # half-width and full-width forms
    )


def emoji_unicodes() -> set[int]:
    """Return the emoji and pictograph blocks the symbol font keeps, less what the main font already draws."""
    main = set(TTFont(ASSETS / "DejaVuSans-Bold.ttf").getBestCmap())
    return (
        blocks(
            (0x2300, 0x23FF),  # technical: ⌚ ⏰ ⏳
            (0x2600, 0x27BF),  # miscellaneous symbols, dingbats: ☀ ♥ ✨
            (0x2B00, 0x2BFF),  # arrows and stars: ⭐ ⬛
            (0x1F000, 0x1F0FF),  # mahjong and playing cards: 🀄 🃏
            (0x1F1E6, 0x1F1FF),  # regional indicators (flags show as their letters)
            (0x1F300, 0x1F6FF),  # pictographs, emoticons, transport
            (0x1F900, 0x1F9FF),  # supplemental symbols and pictographs
        )
        - main
    )


@dataclass(frozen=True)
class FontJob:
    """One subset: where it comes from, what it keeps, where it goes."""

    source: str  # path inside the unpacked packages
    output: str  # file name under render/assets
    unicodes: frozenset[int]
    layout: bool  # keep the OpenType shaping tables (Arabic joining, Indic reordering, mark placement)
    hinting: bool
    font_number: int = 0


FONTS = [
    FontJob(
        f"{NOTO}/NotoSansArabicUI-Bold.ttf",
        "NotoSansArabicUI-Bold-subset.ttf",
        frozenset(blocks((0x0600, 0x06FF), (0x0750, 0x077F), (0x08A0, 0x08FF), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF)))
        | frozenset(ASCII)
        | frozenset(SHAPING),
        layout=True,
        hinting=True,
    ),
    FontJob(
        f"{NOTO}/NotoSansHebrew-Bold.ttf",
        "NotoSansHebrew-Bold-subset.ttf",
        frozenset(blocks((0x0590, 0x05FF), (0xFB1D, 0xFB4F))) | frozenset(ASCII) | frozenset(SHAPING),
        layout=True,
        hinting=True,
    ),
    FontJob(
        f"{NOTO}/NotoSansDevanagariUI-Bold.ttf",
        "NotoSansDevanagariUI-Bold-subset.ttf",
        frozenset(blocks((0x0900, 0x097F), (0xA8E0, 0xA8FF), (0x1CD0, 0x1CFF))) | frozenset(SHAPING),
        layout=True,
        hinting=True,
    ),
    FontJob(
        f"{NOTO}/NotoSansThaiUI-Bold.ttf",
        "NotoSansThaiUI-Bold-subset.ttf",
        frozenset(blocks((0x0E00, 0x0E7F))) | frozenset(SHAPING),
        layout=True,
        hinting=True,
    ),
    FontJob(
        "usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
        "NotoSansCJKjp-Bold-subset.otf",
        frozenset(cjk_unicodes()),
        layout=False,
        hinting=False,
        font_number=0,  # the collection's Japanese face
    ),
    FontJob(
        "usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf",
        "Symbola-emoji-subset.ttf",
        frozenset(emoji_unicodes()),
        layout=False,
        hinting=False,
    ),
]


def map_glyphs_to_pua(font: TTFont) -> None:
    """Add a Unicode full-repertoire cmap that also maps glyph id N to ``GLYPH_PUA + N``."""
    mapping = dict(font.getBestCmap())
    order = font.getGlyphOrder()
    if len(order) > 0xFFFFE - GLYPH_PUA:
        raise SystemExit(f"{len(order)} glyphs do not fit in Private Use Area-A")
    for glyph_id, name in enumerate(order):
        mapping[GLYPH_PUA + glyph_id] = name
    full = CmapSubtable.newSubtable(12)
    full.platformID, full.platEncID, full.language, full.cmap = 3, 10, 0, mapping
    bmp = CmapSubtable.newSubtable(4)
    bmp.platformID, bmp.platEncID, bmp.language = 3, 1, 0
    bmp.cmap = {code: name for code, name in mapping.items() if code <= 0xFFFF}
    table = newTable("cmap")
    table.tableVersion, table.tables = 0, [bmp, full]
    font["cmap"] = table


def cut(root: Path, job: FontJob) -> Path:
    """Subset one font and write it under render/assets; return the path written."""
    options = subset.Options()
    options.layout_features = ["*"] if job.layout else []
    options.hinting = job.hinting
    options.notdef_outline = True
    options.name_IDs = ["*"]  # keep the copyright and licence records
    options.name_languages = ["*"]
    font = TTFont(root / job.source, fontNumber=job.font_number, recalcTimestamp=False)  # same input, same bytes
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(job.unicodes))
    subsetter.subset(font)
    map_glyphs_to_pua(font)
    out = ASSETS / job.output
    font.save(out)
    return out


def main(argv: Iterable[str] | None = None) -> int:
    """Cut every font in ``FONTS`` from the packages unpacked under the given root."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path, help="folder where the .deb files were unpacked (dpkg-deb -x)")
    args = parser.parse_args(list(argv) if argv is not None else None)
    for job in FONTS:
        out = cut(args.root, job)
        print(f"{out.name}: {out.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
