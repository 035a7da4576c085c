"""Properties every registered game keeps, on positions hypothesis draws: notation, saves, records, replays.

A position is drawn as a game from ``engines.GAMES``, a player count, one of its ``test_configs``,
a seed, and a random walk of legal moves (a walk seed and a length), so hypothesis shrinks a
failure to the shortest walk and the simplest seed that still shows it.  The conformance test
plays whole random games and samples three moves a ply; these check every legal move of every
position on the walk.

The examples are the same on every run (the ``repeatable`` profile, tests/conftest.py); run with
``--hypothesis-profile=explore`` to search further.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import GAMES, GameSpec, GameState
from engines.record import format_record, new_record, parse_record, replay

NAMES = sorted(GAMES)
# Long enough to reach the end of most games (Pond stops at 300 plies; Azul's games take ~100).
MAX_PLIES = 320


@dataclass(frozen=True)
class Walk:
    """A game started from its settings, and the states and move texts of a random walk through it."""

    spec: GameSpec
    players: int
    config: dict[str, Any]
    seed: int
    states: tuple[GameState, ...]
    texts: tuple[str, ...]

    def start(self) -> GameState:
        return self.spec.new(players=self.players, seed=self.seed, **self.config)


@st.composite
def walks(draw: st.DrawFn, name: str) -> Walk:
    """A reachable position of game ``name``: its settings drawn, then up to MAX_PLIES random legal moves."""
    spec = GAMES[name]
    players = draw(st.integers(spec.min_players, spec.max_players), label="players")
    config = dict(draw(st.sampled_from(spec.test_configs), label="config"))
    seed = draw(st.integers(0, 2**63 - 1), label="seed")
    plies = draw(st.integers(0, MAX_PLIES), label="plies")
    chooser = random.Random(draw(st.integers(0, 2**32 - 1), label="walk seed"))
    state = spec.new(players=players, seed=seed, **config)
    states, texts = [state], []
    while len(texts) < plies and (moves := state.legal_moves()):
        move = chooser.choice(moves)
        texts.append(state.move_text(move))
        state = state.play(move)
        states.append(state)
    return Walk(spec, players, config, seed, tuple(states), tuple(texts))


def repeatable(test: Any) -> Any:
    """No complaint that drawing is slow: the walk is played while drawing, and its length varies a lot.

    How many examples (few: each is a walk of up to MAX_PLIES plies) and the missing deadline come
    from the profile (tests/conftest.py)."""
    return settings(suppress_health_check=[HealthCheck.too_slow])(test)


@pytest.mark.parametrize("name", NAMES)
@repeatable
@given(data=st.data())
def test_every_legal_move_has_one_text_that_parses_back_to_it(name: str, data: st.DataObject) -> None:
    walk = data.draw(walks(name))
    for state in walk.states:
        moves = state.legal_moves()
        texts = [state.move_text(move) for move in moves]
        assert len(set(texts)) == len(texts), "two legal moves share a text"
        for move, text in zip(moves, texts, strict=True):
            assert text == text.strip().lower() and text, text
            assert state.parse_move(text) == move, text
            assert state.parse_move(f" {text.upper()}  ") == move, text


@pytest.mark.parametrize("name", NAMES)
@repeatable
@given(data=st.data())
def test_every_reachable_state_saves_and_loads_exactly(name: str, data: st.DataObject) -> None:
    walk = data.draw(walks(name))
    for state in walk.states:
        saved = json.loads(json.dumps(state.to_json()))
        assert saved == state.to_json(), "a save must be JSON-safe"
        loaded = walk.spec.from_json(saved)
        assert loaded == state and loaded.to_json() == saved
        assert loaded.legal_moves() == state.legal_moves() and loaded.outcome() == state.outcome()
    last = walk.states[-1]
    if last.outcome() is None:
        # A player leaving is part of the save too (two players: the game ends; more: the others play on).
        seat = data.draw(st.integers(0, walk.players - 1), label="leaving seat")
        left = last.forfeit(seat)
        assert walk.spec.from_json(json.loads(json.dumps(left.to_json()))) == left


@pytest.mark.parametrize("name", NAMES)
@repeatable
@given(data=st.data())
def test_seed_and_move_texts_replay_the_same_game(name: str, data: st.DataObject) -> None:
    walk = data.draw(walks(name))
    assert walk.start() == walk.states[0], "the same settings must start the same game"
    again = walk.start()
    for text, state in zip(walk.texts, walk.states[1:], strict=True):
        again = again.play(text)
        assert again == state and again.to_json() == state.to_json()
    record = new_record(name, walk.texts, options=walk.config, seed=walk.seed, players=walk.players)
    assert parse_record(format_record(record)) == record, "a match record must read back as written"
    assert replay(record) == list(walk.states), "a record must replay through the same positions"
