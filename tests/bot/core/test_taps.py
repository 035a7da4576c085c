"""The steps of a move by taps, walked from each engine's move description (no Discord here)."""

from __future__ import annotations

import random

import pytest

import i18n
from bench.taps import SETUPS, Setup
from bot.commands.taps import CHOICES_MAX, PICK, PLAY
from bot.core.taps import BadPath, joined, split, walk
from engines import GAMES

LANGUAGES = ("en", "ru", "fr")


def positions(setup: Setup, games: int = 1, seed: int = 5):  # type: ignore[no-untyped-def]
    """Positions of random games of ``setup`` (every one until the end)."""
    spec = GAMES[setup.game]
    rng = random.Random(seed)
    for game in range(games):
        state = spec.new(players=setup.people + setup.computers, seed=game + seed, **setup.options)
        while state.outcome() is None:
            yield state
            state = state.play(rng.choice(state.legal_moves()))


@pytest.mark.parametrize("setup", SETUPS, ids=[s.label for s in SETUPS])
def test_every_legal_move_is_reached_by_taps_within_discords_limits(setup: Setup) -> None:
    form = GAMES[setup.game].moves
    assert form is not None
    most = {"pond": 2, "azul": 2, "summer": 2, "querni": 3}[setup.game]  # choices, before Play
    for number, state in enumerate(positions(setup)):
        reached = {}
        pending = [()]
        while pending:
            step = walk(state, form, pending.pop())
            if step.complete:
                reached[state.move_text(step.move)] = step.taps
                continue
            assert 1 <= len(step.choices) <= CHOICES_MAX
            assert len({choice.token for choice in step.choices}) == len(step.choices)
            if number % 7 == 0:  # words for every choice, in every language, fit a menu's option
                for language in LANGUAGES:
                    for choice in step.choices:
                        words = i18n.texts_for(state.game).choice(state, choice.kind, choice.fields, language)
                        assert 0 < len(words) <= 100, words
            for choice in step.choices:
                path = (*step.path, choice.token)
                PICK.build(part=3, match=2**62, version=10**8, path=joined(step.path))  # fits a custom ID
                PLAY.build(match=2**62, version=10**8, path=joined(path))
                pending.append(path)
        assert set(reached) == {state.move_text(move) for move in state.legal_moves()}
        assert 1 <= max(reached.values()) <= most


def test_a_single_legal_move_is_still_one_tap() -> None:
    state = GAMES["azul"].new(players=2, seed=4)
    rng = random.Random(2)
    while len(state.legal_moves()) > 1:
        state = state.play(rng.choice(state.legal_moves()))
    if state.outcome() is not None:
        pytest.skip("this game ended before a lone move")
    step = walk(state, GAMES["azul"].moves, ())
    assert not step.complete and len(step.choices) == 1
    assert walk(state, GAMES["azul"].moves, (step.choices[0].token,)).taps == 1


def test_a_path_from_another_position_or_made_up_is_refused() -> None:
    form = GAMES["summer"].moves
    state = GAMES["summer"].new(seed=1)
    with pytest.raises(BadPath):
        walk(state, form, ("move,z9",))
    with pytest.raises(BadPath):
        split("move,b1//")
    assert split("move,c1/c2") == ("move,c1", "c2")
    assert walk(state, form, split("move,c1/c2")).move == state.parse_move("c1-c2")
