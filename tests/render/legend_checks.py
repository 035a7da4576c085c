"""What a marked board's legend says, checked the same way for every game (used by the ``test_marked_*`` files).

:func:`check_legend` draws one position as a review (with each of its marks, and both), a hint and a preview, and
reads back the legend's line of colours: the words each entry asks for and the colour of its key (recorded from
:func:`render.legend.key_words`), the samples drawn in those colours and no other on that line, and other words
drawn for the same colours.  The static cards are forgotten before each picture, so the legend is drawn anew.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from PIL import Image, ImageChops

import render.legend
from render import azul, pond, querni, render_marked, summer
from render.theme import DEFAULT_THEME as THEME

Box = tuple[int, int, int, int]
AMBER, BLUE = THEME.mark, THEME.better_mark
TOLERANCE = 24  # the marked picture's adaptive palette moves colours a little

#: Each kind of marked board: (meaning, a played move marked, a better one marked, the legend's entries in order).
LEGENDS: list[tuple[str, bool, bool, tuple[tuple[str, tuple[int, int, int]], ...]]] = [
    ("review", True, True, (("move played", AMBER), ("better move", BLUE))),
    ("review", True, False, (("move played", AMBER),)),
    ("review", False, True, (("better move", BLUE),)),
    ("hint", False, True, (("suggested move", BLUE),)),
    ("preview", True, False, (("your move", AMBER),)),
]


def forget_static_cards() -> None:
    """Forget every game's cached static cards (where the legends are drawn), so the next picture draws its own."""
    for cached in (pond.static_card, querni.static_card, summer.static_card, summer.terrain_card, azul.static_card):
        cached.cache_clear()


def decode(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB")


def count_near(image: Image.Image, colour: tuple[int, int, int]) -> int:
    """Count the pixels of ``image`` within TOLERANCE of ``colour`` in every channel."""
    bands = [
        band.point(lambda v, c=c: 255 if abs(v - c) <= TOLERANCE else 0)
        for band, c in zip(image.split(), colour, strict=True)
    ]
    return ImageChops.multiply(ImageChops.multiply(bands[0], bands[1]), bands[2]).histogram()[255]


def check_legend(
    monkeypatch: pytest.MonkeyPatch,
    state: Any,
    played: Any,
    better: Any,
    line: Box,
    locale: str,
    players: Sequence[str],
) -> None:
    """Check the legend's line of colours (``line``, the card's box of it) of ``state`` marked for each meaning."""
    asked: list[tuple[str, tuple[int, int, int]]] = []
    words = render.legend.key_words

    def recording(key: render.legend.Key, language: str) -> str:
        asked.append((key.words, key.theme.mark))
        return words(key, language)

    monkeypatch.setattr(render.legend, "key_words", recording)
    drawn = {}
    for meaning, with_played, with_better, entries in LEGENDS:
        asked.clear()
        forget_static_cards()
        marked = render_marked(
            state,
            played=played if with_played else None,
            better=better if with_better else None,
            meaning=meaning,
            players=players,
            locale=locale,
        )
        assert asked == list(entries), meaning
        strip = decode(marked).crop(line)
        for colour in (AMBER, BLUE):
            found = count_near(strip, colour)
            if any(wanted == colour for _, wanted in entries):
                assert found >= 60, (meaning, colour, found)
            else:
                assert found <= 5, (meaning, colour, found)
        drawn[meaning, with_played, with_better] = strip.tobytes()
    # The words are drawn: the same colour saying something else makes another line.
    assert drawn["preview", True, False] != drawn["review", True, False]
    assert drawn["hint", False, True] != drawn["review", False, True]


def check_fits(state: Any, played: Any, better: Any, line: Box, locale: str, players: Sequence[str]) -> None:
    """Check that the legend's line of colours of a review with both marks lies within the card's padding."""
    strip = decode(render_marked(state, played=played, better=better, players=players, locale=locale)).crop(line)
    ink = ImageChops.difference(strip, Image.new("RGB", strip.size, THEME.background)).convert("L")
    box = ink.point(lambda v: 255 if v > TOLERANCE else 0).getbbox()
    assert box is not None, "the line of colours is empty"
    assert THEME.padding <= box[0] and box[2] <= strip.width - THEME.padding, (locale, box)


def board_words(module: Any, draw: Callable[[], object]) -> list[str]:
    """Return the board words ``module`` asks for while ``draw()`` runs (every static card forgotten first)."""
    asked: list[str] = []
    words = module.pgettext

    def recording(language: str, context: str, text: str, **values: Any) -> str:
        asked.append(text)
        return str(words(language, context, text, **values))

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(module, "pgettext", recording)
        forget_static_cards()
        draw()
    return asked
