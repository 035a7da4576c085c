"""Names in any script: drawn from the bundled fallback fonts, shaped, laid out in the right direction."""

from __future__ import annotations

import doctest
import subprocess
import sys
import unicodedata

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont

import render.text as text
from engines import GAMES
from render import render, render_image
from render.draw import display_name
from render.text import (
    ELLIPSIS,
    FALLBACK_FONTS,
    MAIN,
    clean_text,
    draw_text,
    ellipsize,
    font_for,
    has_glyph,
    layout,
    text_width,
)
from tests import ROOT

# One name per script players' names are written in, and which committed font must draw it.
NAMES = {
    "arabic": ("محمد عبد الله", "NotoSansArabicUI-Bold-subset.ttf"),
    "persian": ("می\u200cخواهم", "NotoSansArabicUI-Bold-subset.ttf"),
    "hebrew": ("דוד כהן", "NotoSansHebrew-Bold-subset.ttf"),
    "devanagari": ("प्रियंका चोपड़ा", "NotoSansDevanagariUI-Bold-subset.ttf"),
    "thai": ("สมชาย นิ้ว", "NotoSansThaiUI-Bold-subset.ttf"),
    "chinese": ("李小龍", "NotoSansCJKjp-Bold-subset.otf"),
    "japanese": ("さくら 桜子", "NotoSansCJKjp-Bold-subset.otf"),
    "korean": ("김민준 똠", "NotoSansCJKjp-Bold-subset.otf"),
    "emoji": ("🎲🔥🦄", "Symbola-emoji-subset.ttf"),
}


def font_file(index: int | None) -> str | None:
    return None if index is None else "main" if index == MAIN else FALLBACK_FONTS[index - 1].file


def glyphs_of(sample: str, size: int = 24) -> list[str]:
    """Return the glyphs (private code points) of ``sample``'s single shaped run, left to right."""
    (piece,) = layout(sample, size).pieces
    return [glyph.char for glyph in piece.glyphs]


def ink_rows(pillow_font: ImageFont.FreeTypeFont, char: str, dy: float) -> tuple[int, int]:
    """Return the top and bottom rows of ``char``'s ink, drawn on a baseline at y = 100."""
    canvas = Image.new("L", (200, 200))
    ImageDraw.Draw(canvas).text((100, 100 + dy), char, font=pillow_font, fill=255, anchor="ls")
    _, top, _, bottom = ink_box(canvas)
    return top, bottom


def ink_box(image: Image.Image) -> tuple[int, int, int, int]:
    box = image.convert("L").getbbox()
    assert box is not None
    return box


@pytest.mark.parametrize("script", sorted(NAMES))
def test_each_script_is_kept_and_drawn_by_its_font(script: str) -> None:
    name, file = NAMES[script]
    assert clean_text(name) == name
    assert display_name(name, "Dark") == name
    letters = [ch for ch in name if unicodedata.category(ch)[0] in "LS"]  # letters and emoji, not marks
    assert {font_file(font_for(ch)) for ch in letters} == {file}
    assert text_width(name, 25) > 10 * len(name.split())


@pytest.mark.parametrize("script", sorted(NAMES))
def test_each_script_stays_within_a_latin_line_height(script: str) -> None:
    name, _ = NAMES[script]
    ascent, descent = text.font(25).getmetrics()
    canvas = Image.new("L", (500, 100))
    draw_text(ImageDraw.Draw(canvas), (10, 60), name + " Ágjy", 25, (255,))
    _, top, _, bottom = ink_box(canvas)
    assert 60 - top <= ascent + 1 and bottom - 60 <= descent + 2  # so a name fits its chip


@pytest.mark.parametrize("script", sorted(NAMES))
def test_each_script_is_drawn_instead_of_the_seat_name(script: str) -> None:
    name, _ = NAMES[script]
    state = GAMES["pond"].new(seed=1).play("place b2")
    seat_named = render_image(state)
    named = render_image(state, players=[name, "Bo"])
    other = render_image(state, players=["Zed", "Bo"])
    assert ImageChops.difference(named, seat_named).getbbox() is not None
    assert ImageChops.difference(named, other).getbbox() is not None
    # The name is ink, not an empty chip: drawn alone, it covers a fair share of its box.
    canvas = Image.new("L", (400, 60))
    draw_text(ImageDraw.Draw(canvas), (10, 40), name, 25, (255,))
    left, top, right, bottom = ink_box(canvas)
    assert right - left > 20 and bottom - top > 10
    assert sum(canvas.histogram()[128:]) > 80


def test_arabic_letters_join_and_read_right_to_left() -> None:
    # Lam then alef become one ligature glyph.
    assert len(glyphs_of("لا")) == 1
    # A joined letter is drawn with a different glyph from the same letter alone.
    alone = glyphs_of("ه")[0]
    assert alone not in glyphs_of("مهم")
    # Right to left: the first letter typed is the rightmost glyph.
    ba, ta = glyphs_of("ب")[0], glyphs_of("ت")[0]
    assert glyphs_of("ب ت") == [ta, glyphs_of("ب ت")[1], ba]


def test_hebrew_reads_right_to_left_inside_an_english_line() -> None:
    alef, bet = glyphs_of("א")[0], glyphs_of("ב")[0]
    assert glyphs_of("אב") == [bet, alef]
    line = layout("אב to move", 25)
    hebrew, english = line.pieces[0], line.pieces[-1]
    assert hebrew.font != MAIN and hebrew.rtl and hebrew.dx == 0
    assert english == english._replace(font=MAIN, text="to move", rtl=False) and english.dx > 20


def test_numbers_in_a_hebrew_name_keep_their_order() -> None:
    line = layout("דוד 12", 25)
    digits = next(piece for piece in line.pieces if "1" in piece.text)
    word = next(piece for piece in line.pieces if "ד" in piece.text)
    assert digits.text == "12" and not digits.rtl and word.rtl
    assert digits.dx < word.dx  # the number the name ends with is at its left end


def test_devanagari_vowel_sign_i_is_drawn_before_its_consonant() -> None:
    ka = glyphs_of("क")[0]
    shaped = glyphs_of("कि")
    assert len(shaped) == 2 and shaped[1] == ka and shaped[0] != ka
    # A conjunct: ka + virama + ssa is not the three glyphs drawn side by side.
    assert len(glyphs_of("क्ष")) < 3


def test_thai_marks_stack_above_their_consonant() -> None:
    (piece,) = layout("นิ้", 30).pieces
    base, vowel, tone = piece.glyphs
    # Both marks sit over the consonant (zero advance), the tone mark above the vowel sign.
    assert vowel.x == tone.x and base.x < vowel.x
    thai = text._fallback_font(piece.font, 30)
    vowel_top, vowel_bottom = ink_rows(thai, vowel.char, vowel.y)
    tone_bottom = ink_rows(thai, tone.char, tone.y)[1]
    base_top = ink_rows(thai, base.char, base.y)[0]
    assert tone_bottom <= vowel_top + 2 and vowel_bottom <= base_top + 2


def test_what_no_font_draws_falls_back() -> None:
    private_use, plane_15, unassigned, rare = "\ue000", "\U000f0041", "\u0378", "\U00020000"
    for char in (private_use, plane_15, unassigned, rare):
        assert not has_glyph(char)
    assert display_name(private_use + plane_15 + unassigned + rare, "Dark") == "Dark"
    assert display_name("\u200d\ufe0f", "Dark") == "Dark"  # joiners alone draw nothing
    assert display_name(f"Ana{private_use} 李", "Dark") == "Ana 李"
    # A private code point that a fallback font maps to a glyph is still never drawn from a name.
    assert font_for(plane_15) is None and clean_text(plane_15 * 3) == ""


def test_skin_tones_are_dropped_and_emoji_kept() -> None:
    assert clean_text("👍🏽 Bo") == "👍 Bo"
    assert has_glyph("😀") and has_glyph("🎲")


def test_a_name_the_seat_replaced_before_now_renders() -> None:
    state = GAMES["azul"].new(players=2, seed=3)
    assert render(state, players=["🎲🎲", "Player 2"]) != render(state)
    assert render(state, players=["\ue000\ue001", "Player 2"]) == render(state)


def test_ellipsis_stays_with_right_to_left_text_and_cuts_whole_letters() -> None:
    name = "محمد بن عبد العزيز آل سعود"
    short = ellipsize(name, 24, 120)
    assert short.endswith(ELLIPSIS + "\u200f") and text_width(short, 24) <= 120
    line = layout(short + " to move", 24)
    ellipsis = next(piece for piece in line.pieces if ELLIPSIS in piece.text)
    arabic = next(piece for piece in line.pieces if piece.font != MAIN)
    assert ellipsis.dx < arabic.dx  # at the Arabic's left end, where its reader finishes
    devanagari = "नमस्ते प्रिया"
    cuts = {ellipsize(devanagari, 25, width) for width in range(30, 140, 4)} - {devanagari, ELLIPSIS}
    assert len(cuts) >= 3
    for cut in cuts:
        kept = cut.removesuffix(ELLIPSIS)
        assert devanagari.startswith(kept) and unicodedata.combining(kept[-1]) != 9
        assert unicodedata.category(devanagari[len(kept)])[0] != "M"  # no vowel sign left behind


@pytest.mark.parametrize("anchor", ["lm", "mm", "rm", "ls", "mt", "rs"])
def test_anchors_place_mixed_text_like_pillow(anchor: str) -> None:
    sample = "Ana محمد 李"
    canvas = Image.new("L", (600, 120))
    draw_text(ImageDraw.Draw(canvas), (300, 60), sample, 25, (255,), anchor=anchor)
    left, top, right, bottom = ink_box(canvas)
    width = text_width(sample, 25)
    expected_left = 300 - {"l": 0, "m": width / 2, "r": width}[anchor[0]]
    assert abs(left - expected_left) <= 3 and abs(right - (expected_left + width)) <= 4
    if anchor[1] == "m":
        assert abs((top + bottom) / 2 - 60) <= 5
    elif anchor[1] == "t":
        assert top in (59, 60, 61)
    else:
        assert top < 60 < bottom and bottom - 60 <= 8  # only descenders go below the baseline


def test_outlined_text_draws_the_outline_around_every_letter() -> None:
    canvas = Image.new("RGB", (300, 80))
    draw_text(ImageDraw.Draw(canvas), (150, 40), "محمد 李", 30, (255, 255, 255), anchor="mm", stroke=2,
              stroke_fill=(255, 0, 0))  # fmt: skip
    colours = {colour for _, colour in canvas.getcolors(100_000) or []}
    assert (255, 255, 255) in colours and (255, 0, 0) in colours


def test_same_name_same_bytes_from_cold_caches() -> None:
    state = GAMES["pond"].new(seed=2).play("place b2")
    players = ["محمد عبد الله", "प्रियंका 李 🎲"]
    first = render(state, players=players)
    for cached in (text.layout, text._shape, text._run_mask, text.font_for):
        cached.cache_clear()
    assert render(state, players=players) == first


@pytest.mark.subprocess
def test_latin_names_never_open_the_fallback_fonts() -> None:
    code = (
        "import sys, render.text as t;"
        "print(t._asset_bytes.cache_info().currsize, 'uharfbuzz' in sys.modules);"
        "from engines import GAMES; from render import render;"
        "render(GAMES['pond'].new(seed=1).play('place b2'), players=['Zoë', 'Ана']);"
        "print(t._asset_bytes.cache_info().currsize, t._shaper.cache_info().currsize, 'uharfbuzz' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0", "False", "1", "0", "False"]


def test_every_bundled_font_has_its_licence() -> None:
    assets = ROOT / "render" / "assets"
    listed = (assets / "FONTS.md").read_text(encoding="utf-8")
    for spec in FALLBACK_FONTS:
        assert (assets / spec.file).is_file() and spec.file in listed
    assert (assets / "OFL-1.1.txt").is_file() and (assets / "Symbola-LICENSE.txt").is_file()


def test_the_text_module_examples_hold() -> None:
    failures, tried = doctest.testmod(text)
    assert failures == 0 and tried >= 8
