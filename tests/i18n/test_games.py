"""The game texts and the board pictures in Russian and French.

Every game's result, chat line, status line and caption reads Russian or French in those languages, with each
language's plural forms; every picture differs from the English one; and every text a player needs fits the
width it is drawn in (wrapped to a second line where it must, never cut with an ellipsis).
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from functools import cache
from typing import Any

import pytest

import i18n
from engines import GAMES
from engines.querni import QuerniState
from i18n.catalog import npgettext
from i18n.querni import counter_text
from render import render, render_image
from render.azul import azul_theme
from render.querni import querni_theme
from render.text import ELLIPSIS, fit_size, text_width, wrap
from render.theme import DEFAULT_THEME, Theme
from tests import FIXTURES

NAMES = ("Ана", "Bo", "Cy", "Dee")
CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)
# Words of the English texts that no Russian or French text should still hold.
ENGLISH = re.compile(
    r"\b(wins|win|to move|ply|plies|Round|Draw|took|moved|placed|resigned|ran out|removed|the|and|from|into|left)\b"
)


@cache
def positions() -> list[Any]:
    """One position of each game per kind of moment: the start, the middle and each kind of ending."""
    with open(FIXTURES / "saves_v1.json", encoding="utf-8") as handle:
        entries = json.load(handle)
    found: dict[tuple[Any, ...], Any] = {}
    for entry in entries:
        state = GAMES[entry["game"]].from_json(entry["state"])
        outcome = state.outcome()
        moment = outcome.termination if outcome else ("start" if not entry["log"] else "mid")
        key = (entry["game"], entry["players"], str(moment), entry["config"].get("board"), entry["config"].get("size"))
        found.setdefault(key, state)
    return list(found.values())


def ids(state: Any) -> str:
    outcome = state.outcome()
    return f"{state.game}-{state.players}p-{outcome.termination if outcome else state.ply}"


def theme_for(game: str) -> Theme:
    if game == "azul":
        return azul_theme(DEFAULT_THEME)
    if game == "querni":
        return querni_theme(DEFAULT_THEME)
    return DEFAULT_THEME


def fits(text: str, size: int, width: float, *, lines: int = 1) -> bool:
    """Tell whether ``text`` fits ``width`` at ``size`` in at most ``lines`` lines, as the pictures wrap it."""
    wrapped = [text] if text_width(text, size) <= width else wrap(text, size, width)
    return len(wrapped) <= lines and all(text_width(line, size) <= width for line in wrapped)


def test_the_fit_helper_can_fail() -> None:
    assert fits("Ана to move", 21, 400)
    assert not fits("Ана to move · move 12 · move limit 300 " * 3, 21, 400, lines=2)


@pytest.mark.parametrize("locale", ["ru", "fr"])
@pytest.mark.parametrize("state", positions(), ids=ids)
def test_every_text_of_every_game_is_translated_and_fits_its_place(state: Any, locale: str) -> None:
    names = NAMES[: state.players]
    theme = theme_for(state.game)
    room = theme.width - 2 * theme.padding
    status = i18n.status_text(state, names, locale)
    assert status != i18n.status_text(state, names) and not ENGLISH.search(status), status
    summary = i18n.summary_text(state, names, locale)
    assert summary != i18n.summary_text(state, names) and not ENGLISH.search(summary), summary
    if locale == "ru":
        assert CYRILLIC.search(status.replace(NAMES[0], "")), status
    if state.outcome() is not None:
        result = i18n.result_text(state, names, locale)
        assert result != i18n.result_text(state, names) and not ENGLISH.search(result), result
    # The status line: one line at the body size or a little smaller, else two lines at the small size.
    size = fit_size(status, theme.font_body, room, theme.font_small)
    assert fits(status, size, room) or fits(status, theme.font_small, room, lines=2 if state.game != "azul" else 3)
    caption = i18n.caption_text(state, names, locale)
    if state.game == "summer":
        assert caption and fits(caption, fit_size(caption, theme.font_small, room, 16), room), caption
    elif state.game == "azul":
        size = fit_size(caption, theme.font_small, room, 16)
        assert fits(caption, size, room, lines=2), caption
    elif state.game == "querni":
        counter = counter_text(state, locale)
        assert CYRILLIC.search(counter) if locale == "ru" else "sans retrait" in counter
        assert fits(counter, fit_size(counter, theme.font_small, room, 15), room), counter
    assert ELLIPSIS not in status + caption


@pytest.mark.parametrize("state", positions()[::4], ids=ids)
def test_every_picture_differs_in_each_language_and_english_is_the_default(state: Any) -> None:
    names = NAMES[: state.players]
    english = render(state, players=names)
    assert render(state, players=names, locale="en") == english
    assert render(state, players=names, locale="de") == english  # a language Tabula does not speak
    russian, french = render(state, players=names, locale="ru"), render(state, players=names, locale="fr")
    assert len({english, russian, french}) == 3
    # The same card size: a translation may only add a line of text, never change the board.
    assert render_image(state, players=names, locale="ru").width == render_image(state, players=names).width


def test_the_default_names_are_the_seats_in_the_language() -> None:
    state = GAMES["pond"].new(variant="mini").play("place b2")
    assert i18n.summary_text(state, locale="ru") == "Светлые: яйцо на b2."
    assert i18n.summary_text(state, locale="fr") == "Clair pond un œuf en b2."
    assert i18n.seat_labels(GAMES["azul"].new(players=3, seed=1), "fr") == ["Joueur 1", "Joueur 2", "Joueur 3"]


@pytest.mark.parametrize(
    ("n", "russian", "french"),
    [
        (0, "0 полуходов без снятия", "0 demi-coup sans retrait"),
        (1, "1 полуход без снятия", "1 demi-coup sans retrait"),
        (2, "2 полухода без снятия", "2 demi-coups sans retrait"),
        (5, "5 полуходов без снятия", "5 demi-coups sans retrait"),
        (11, "11 полуходов без снятия", "11 demi-coups sans retrait"),
        (21, "21 полуход без снятия", "21 demi-coups sans retrait"),
        (22, "22 полухода без снятия", "22 demi-coups sans retrait"),
        (25, "25 полуходов без снятия", "25 demi-coups sans retrait"),
    ],
)
def test_counts_in_game_texts_take_each_language_s_plural_form(n: int, russian: str, french: str) -> None:
    start = GAMES["querni"].new(seed=4, draw_count="moves")
    assert isinstance(start, QuerniState)
    state = replace(start, counter=n)
    assert counter_text(state, "ru").startswith(russian)
    assert counter_text(state, "fr").startswith(french)
    assert counter_text(state).startswith(f"{n} plies without a removal")  # English as it always was


@pytest.mark.parametrize(
    ("n", "russian"),
    [(1, "1 ряд"), (2, "2 ряда"), (5, "5 рядов"), (21, "21 ряд"), (22, "22 ряда"), (25, "25 рядов")],
)
def test_azul_and_summer_counts_decline_in_russian(n: int, russian: str) -> None:
    assert npgettext("ru", "game:azul", "{n} row", "{n} rows", n) == russian
    tiles = npgettext("ru", "game:azul", "{n} blue", "{n} blue", n)
    assert tiles == f"{n} {'синюю' if n % 10 == 1 and n != 11 else 'синих'}"
    # Summer's header counts are worded so that they need no declension ("1 у цели", "5 у цели").
    assert npgettext("ru", "board", "{n} on goal", "{n} on goal", n) == f"{n} у цели"
    assert npgettext("ru", "board", "{n} in play", "{n} in play", n) == f"{n} в игре"


def test_a_ply_of_azul_is_told_in_whole_translated_sentences() -> None:
    state = GAMES["azul"].new(players=2, seed=16, first_player=0)
    after = state.play(state.legal_moves()[0])
    russian = i18n.summary_text(after, ["Ана", "Bo"], "ru")
    french = i18n.summary_text(after, ["Ана", "Bo"], "fr")
    assert russian.startswith("Ана: ") and ("из центра" in russian or "с фабрики" in russian)
    assert french.startswith("Ана prend ") and ("sur la fabrique" in french or "au centre" in french)
    assert not re.search(r"\b(took|from|into|line)\b", russian + french)


@pytest.mark.parametrize("game", ["pond", "querni", "summer"])
def test_status_lines_count_moves_in_the_players_words_not_plies(game: str) -> None:
    """Players count moves: "move 14" / "ход 14" / "coup 14", never the jargon "ply" / "полуход" / "demi-coup"."""
    state = GAMES[game].new(seed=1)
    for move in state.legal_moves()[:1]:
        state = state.play(move)
    words = {"en": ("move 2", "ply"), "ru": ("ход 2", "полуход"), "fr": ("coup 2", "demi-coup")}
    for locale, (said, jargon) in words.items():
        line = i18n.status_text(state, ("Ana", "Bo"), locale)
        assert said in line and jargon not in line, (locale, line)
