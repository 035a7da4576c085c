"""Alt text for board images: at most 1,024 characters, with the scores and the whole position, in every language."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from engines import GAMES
from i18n.catalog import SUPPORTED, lookup
from i18n.describe import LIMIT, alt_text, position_forms, position_text, scores_text

# Discord display names are at most 32 characters: the longest names make the longest texts.
LONG_NAMES = ["Ž" * 32, "Ю" * 32, "É" * 32, "W" * 32]


def positions(game: str, players: int, options: dict[str, Any], seed: int, every: int = 1) -> Iterator[Any]:
    """Every ``every``-th position of a random game, to its end."""
    rng = random.Random(seed)
    state = GAMES[game].new(players=players, seed=seed, **options)
    while True:
        if state.ply % every == 0 or state.outcome() is not None:
            yield state
        if state.outcome() is not None:
            return
        state = state.play(rng.choice(state.legal_moves()))


LARGEST = [
    ("pond", 2, {"variant": "large"}, 1),
    ("azul", 4, {}, 3),
    ("querni", 2, {}, 1),
    ("summer", 2, {"size": 12}, 7),
]


@pytest.mark.parametrize(("game", "players", "options", "every"), LARGEST)
def test_alt_text_fits_and_holds_the_scores_and_the_position(
    game: str, players: int, options: dict[str, Any], every: int
) -> None:
    longest = 0
    for state in positions(game, players, options, seed=11, every=every):
        for language in SUPPORTED:
            text = alt_text(state, LONG_NAMES[:players], language)
            longest = max(longest, len(text))
            assert len(text) <= LIMIT
            assert scores_text(state, LONG_NAMES[:players], language) in text
            forms = position_forms(state, LONG_NAMES[:players], language)
            assert forms[0] == position_text(state, LONG_NAMES[:players], language)
            assert any(form in text for form in forms), (language, text)
    assert longest > 300  # the largest positions were reached


def test_alt_text_says_whose_turn_the_last_move_and_the_cells() -> None:
    state = GAMES["pond"].new(variant="mini").play("place b2")
    text = alt_text(state, ["Ana", "Bo"], "en")
    assert text.startswith("Bo") and "to move" in text.lower()
    assert "Ana placed an egg on b2." in text
    assert "Ana (Light): egg b2." in text and "Scores: Ana 0, Bo 0." in text


def test_alt_text_is_in_the_match_language() -> None:
    state = GAMES["azul"].new(players=2, seed=4)
    russian = alt_text(state, ["Аня", "Борис"], "ru")
    french = alt_text(state, ["Anne", "Bruno"], "fr")
    assert "Очки: Аня 0, Борис 0." in russian and "Фабрики:" in russian and "Centre" not in russian
    assert "Scores : Anne 0, Bruno 0." in french and "Fabriques :" in french


def test_every_alt_word_is_translated() -> None:
    import ast
    from pathlib import Path

    import i18n
    from i18n import describe

    # The alt words sit in i18n/describe.py and in each game's text module (its ``position``).
    sources = {Path(describe.__file__), *(Path(i18n.texts_for(game).__file__ or "") for game in GAMES)}
    keys = set()
    for source in sources:
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("pgettext", "npgettext"):
                context, message = node.args[1], node.args[2]
                if isinstance(context, ast.Constant) and context.value == "alt":
                    assert isinstance(message, ast.Constant)
                    keys.add(message.value)
    assert len(keys) > 20
    for language in ("ru", "fr"):
        missing = [key for key in keys if lookup(language, key, "alt") is None]
        assert not missing, (language, missing)
