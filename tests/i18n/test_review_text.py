"""The review's words in en/ru/fr: the graph's alt text, the costly moves, the summaries, the thresholds."""

from __future__ import annotations

import itertools

import pytest

import i18n
from ai.review import BLUNDER, INACCURACY, MISTAKE
from i18n.review import (
    ALT_LIMIT,
    costly_move_line,
    graph_alt_text,
    lead_segments,
    move_words,
    percent,
    summary_line,
    thresholds_text,
    value_axis,
    verdict_word,
)
from tests.review_samples import NAMES, sample, synthetic

LOCALES = ("en", "ru", "fr")
# How each language says the measure of a game of two players, and of three or four.
MEASURE = {
    ("en", 2): "chance to win",
    ("ru", 2): "шанс на победу",
    ("fr", 2): "chances de gagner",
    ("en", 4): "expected standing",
    ("ru", 4): "ожидаемое место",
    ("fr", 4): "classement attendu",
}
MOVE_WORD = {"en": "move {n}", "ru": "ход {n}", "fr": "coup {n}"}


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("players", [2, 4])
def test_the_alt_text_says_the_lead_the_turning_points_and_the_end(players: int, locale: str) -> None:
    _, moves, review = sample(players)
    names = NAMES[:players]
    text = graph_alt_text(review, names, locale)
    assert 0 < len(text) < ALT_LIMIT
    assert review.turning_points()
    for ply in review.turning_points():
        judged = next(j for j in review.judgements if j.ply == ply)
        verdict = verdict_word(judged.verdict or "", locale)
        said = f"{MOVE_WORD[locale].format(n=ply + 1)} ({names[judged.player]}, {verdict}"
        assert said in text
    for name, value in zip(names, review.curve()[-1], strict=True):
        assert f"{name} {percent(value)}" in text
    assert str(len(moves)) in text
    if locale != "en":
        assert "Graph of" not in text and "Turning points" not in text
    english = graph_alt_text(review, names, "en")
    assert ("expected standing" in english) == (players > 2)


def test_a_long_game_counts_the_changes_of_lead_and_long_names_stay_within_the_limit() -> None:
    swinging = synthetic([0.6, 0.6] * 30)
    segments = lead_segments(swinging)
    assert len(segments) > 6
    text = graph_alt_text(swinging, ["Ana", "Bo"])
    assert f"changed hands {len(segments) - 1} times" in text
    names = ["A" * 400, "B" * 400]
    assert len(graph_alt_text(swinging, names, "ru")) <= ALT_LIMIT


def test_who_led_is_split_where_the_leader_changes() -> None:
    review = synthetic([0.0, 0.0, 0.4, 0.0, 0.0])
    segments = lead_segments(review)
    assert [seat for seat, _, _ in segments][-1] is not None
    assert segments[0][1] == 1 and segments[-1][2] == 5
    assert all(a[2] + 1 == b[1] for a, b in itertools.pairwise(segments))


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("players", [2, 4])
def test_a_costly_move_names_the_move_the_better_one_and_the_change(players: int, locale: str) -> None:
    states, _, review = sample(players)
    names = list(NAMES[:players])
    lines = 0
    for seat in range(players):
        for judged in review.costliest(seat):
            before = states[judged.ply]
            line = costly_move_line(review, judged, before, names, locale)
            assert str(judged.ply + 1) in line.split()[1]  # "Move 14," / "Ход 14" / "Coup 14,"
            assert verdict_word(judged.verdict or "", locale) in line
            assert move_words(before, judged.played, names, locale) in line
            assert move_words(before, judged.best, names, locale, named=False) in line
            assert (
                f"{MEASURE[locale, min(players, 4)]} {percent(judged.best_value)} → {percent(judged.played_value)}"
                in line
            )
            assert names[seat] in line
            lines += 1
    assert lines >= players


def test_the_played_move_is_the_games_own_chat_line_and_the_better_one_drops_the_name() -> None:
    states, _, review = sample(2)
    judged = review.costliest(0)[0]
    before = states[judged.ply]
    played = move_words(before, judged.played, ["Ana", "Bo"])
    full = i18n.summary_text(before.play(before.parse_move(judged.played)), ["Ana", "Bo"])
    assert full.startswith(played) and played.startswith("Ana ")
    for locale in LOCALES:
        better = move_words(before, judged.best, ["Ana", "Bo"], locale, named=False)
        assert better and "Ana" not in better and not better.startswith((":", " "))
    line = costly_move_line(review, judged, before, ["Ana", "Bo"])
    assert line.startswith(f"Move {judged.ply + 1}, {judged.verdict}: {played} — better: ")


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        ("en", "Ana: average loss 16\u00a0% per move · 1 inaccuracy, 2 mistakes, 5 blunders"),
        ("ru", "Ana: средняя потеря 16\u00a0% за ход · 1 неточность, 2 ошибки, 5 зевков"),
        ("fr", "Ana : perte moyenne de 16\u00a0% par coup · 1 imprécision, 2 erreurs, 5 gaffes"),
    ],
)
def test_the_summary_counts_each_verdict_in_the_languages_plural(locale: str, expected: str) -> None:
    # Seat 0 plays the even plies: 1 inaccuracy, 2 mistakes, 5 blunders and 2 good moves.
    own = [INACCURACY, MISTAKE, MISTAKE, BLUNDER, BLUNDER, BLUNDER, BLUNDER, BLUNDER, 0.0, 0.0]
    review = synthetic([loss for mine in own for loss in (mine, 0.0)])
    summary = review.summary(0)
    assert (summary.inaccuracies, summary.mistakes, summary.blunders) == (1, 2, 5)
    assert round(summary.average_loss * 100) == 16
    assert summary_line(review, 0, "Ana", locale) == expected


def test_russian_counts_take_their_three_forms_and_french_its_singular_for_zero() -> None:
    review = synthetic([INACCURACY] * 21 + [0.0] * 21, players=1)
    assert "21 неточность" in summary_line(review, 0, "Ana", "ru")
    review = synthetic([MISTAKE] * 22, players=1)
    assert "22 ошибки" in summary_line(review, 0, "Ana", "ru") and "0 зевков" in summary_line(review, 0, "Ana", "ru")
    assert "0 gaffe," not in summary_line(review, 0, "Ana", "fr") and summary_line(review, 0, "Ana", "fr").endswith(
        "0 gaffe"
    )
    assert summary_line(review, 0, "Ana").endswith("0 inaccuracies, 22 mistakes, 0 blunders")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_summaries_of_a_real_review_say_its_numbers(players: int) -> None:
    _, _, review = sample(players)
    for seat in range(players):
        summary = review.summary(seat)
        line = summary_line(review, seat, NAMES[seat])
        assert line.startswith(f"{NAMES[seat]}: average loss {percent(summary.average_loss)} per move")
        assert f"{summary.mistakes} mistake" in line and f"{summary.blunders} blunder" in line


@pytest.mark.parametrize("locale", LOCALES)
def test_the_thresholds_are_said_from_the_reviews_constants(locale: str) -> None:
    text = thresholds_text(locale)
    for threshold in (INACCURACY, MISTAKE, BLUNDER):
        assert percent(threshold) in text
    assert "\n" not in text
    if locale != "en":
        assert text != thresholds_text("en")
        assert value_axis(4, locale) != value_axis(4, "en") and value_axis(2, locale) != value_axis(2, "en")


@pytest.mark.parametrize("locale", LOCALES)
def test_a_move_that_ends_a_round_is_said_without_the_rounds_scoring(locale: str) -> None:
    states, moves, _ = sample(3)
    names = list(NAMES[:3])
    ending = [i for i in range(len(moves)) if states[i + 1].last_event.round_ended]
    assert ending
    for index in ending:
        before, move = states[index], moves[index]
        mover = names[before.to_move]
        full = i18n.summary_text(states[index + 1], names, locale)
        said = move_words(before, move, names, locale)
        assert full.startswith(said) and ". " not in said and len(said) < len(full) and mover in said
        nameless = move_words(before, move, names, locale, named=False)
        assert said.endswith(nameless) and mover not in nameless
