"""What the renderer remembers changes no pixel: remembered text masks, bounded caches and the replay's scaler.

Each board is drawn with the caches as the bot runs them and again with text drawn the uncached way (Pillow's
``ImageDraw.text``, as before the masks were remembered): the PNG bytes must be the same.  The replay's scaler,
which rescales only what changed between boards, must give the pixels of scaling each whole board.
"""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageDraw

import render.masks as masks
import render.text as text_module
from engines import GAMES, GameState
from render import render
from render.text import draw_text

GAMES_DRAWN = [name for name in sorted(GAMES) if name not in ("nim", "toy")]
NAMES = ("Ana", "Bartholomew", "Chidi", "Dagny")


def random_positions(game: str, count: int, seed: int) -> list[GameState]:
    """Return ``count`` positions of one random game and its continuations, the start excluded."""
    rng = random.Random(seed)
    spec = GAMES[game]
    found: list[GameState] = []
    while len(found) < count:
        state = spec.new(players=spec.min_players + (len(found) % 2) * (spec.max_players > 2), seed=len(found))
        history = []
        while state.legal_moves() and len(history) < 60:
            state = state.play(rng.choice(state.legal_moves()))
            history.append(state)
        found.extend(rng.sample(history, min(3, len(history))))
    return found[:count]


def _uncached_text(
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
    """Draw a line the way the renderer did before it remembered masks: Pillow's ``ImageDraw.text``."""
    font = text_module._pillow_font(index, size)
    draw.text(xy, text, font=font, fill=fill, anchor=anchor, stroke_width=stroke, stroke_fill=stroke_fill)


@pytest.mark.parametrize("game", GAMES_DRAWN)
def test_boards_are_the_same_with_and_without_remembered_text(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    states = random_positions(game, 4, seed=len(game))
    locales = ("en", "ru", "fr")
    cached = [render(state, players=NAMES[: state.players], locale=locales[i % 3]) for i, state in enumerate(states)]
    monkeypatch.setattr(text_module, "_pillow_text", _uncached_text)
    plain = [render(state, players=NAMES[: state.players], locale=locales[i % 3]) for i, state in enumerate(states)]
    assert cached == plain


@pytest.mark.parametrize("mode", ["RGB", "RGBA"])
def test_remembered_text_blends_as_pillow_draws(mode: str) -> None:
    rng = random.Random(5)
    texts = ["Ana to move", "+3", "Ход Аны · ход 12", "À Éloïse de jouer", "f1", "×9", "Bartholomew"]
    for _ in range(40):
        words, size = rng.choice(texts), rng.choice((19, 21, 25, 30))
        xy = (rng.uniform(5, 150), rng.uniform(5, 40))
        anchor = rng.choice(("ls", "mm", "lm", "mt", "rm"))
        stroke = rng.choice((0, 0, 2))
        canvases = [Image.new(mode, (320, 80), (40, 90, 120, 200)[: len(mode)]) for _ in range(2)]
        draw_text(ImageDraw.Draw(canvases[0]), xy, words, size, (250, 200, 30), anchor=anchor, stroke=stroke,
                  stroke_fill=(10, 10, 10) if stroke else None)  # fmt: skip
        _uncached_text(ImageDraw.Draw(canvases[1]), xy, words, 0, size, (250, 200, 30), anchor, stroke,
                       (10, 10, 10) if stroke else None)  # fmt: skip
        assert canvases[0].tobytes() == canvases[1].tobytes(), (words, size, xy, anchor, stroke)


def test_text_cache_stays_within_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(masks, "CACHE_BYTES", 20_000)
    canvas = Image.new("RGB", (400, 60))
    draw = ImageDraw.Draw(canvas)
    for number in range(200):
        draw_text(draw, (10.25, 30.5), f"Player {number} scores {number * 7}", 25, (255, 255, 255), anchor="lm")
        assert masks.cache_bytes() <= 20_000
    assert masks.cache_bytes() > 5_000  # it still remembers the latest lines
