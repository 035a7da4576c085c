"""One conformance test over every registered game, on random games to the end."""

from __future__ import annotations

import importlib
import json
import random
from enum import StrEnum

import pytest

from engines import GAMES, GameError, GameSpec, Outcome
from engines.base import FORFEIT, TIMEOUT
from i18n import result_text, status_text, summary_text


def termination_codes(name: str) -> type[StrEnum]:
    """Return a game's termination enum, found by its name."""
    return importlib.import_module(f"engines.{name}").Termination


def check_event(state: object) -> None:
    """The last ply's event is frozen, JSON-safe and rebuilds exactly from its JSON."""
    event = state.last_event  # type: ignore[attr-defined]
    if event is None:
        return
    # A frozen dataclass raises FrozenInstanceError, a named tuple (Azul's: one per ply, cheaper to build)
    # AttributeError, of which FrozenInstanceError is a kind.
    with pytest.raises(AttributeError):
        event.player = 1 - event.player
    data = event.to_json()
    assert json.loads(json.dumps(data)) == data, "an event's JSON must be JSON-safe"
    assert type(event).from_json(json.loads(json.dumps(data))) == event, "an event must rebuild from its JSON"


CASES = [
    pytest.param(
        name, players, config, id=f"{name}-{players}p-{'-'.join(f'{k}={v}' for k, v in config.items()) or 'default'}"
    )
    for name, spec in sorted(GAMES.items())
    for players in range(spec.min_players, spec.max_players + 1)
    for config in spec.test_configs
]

# About 3,300 random games to the end across all games and configurations.
GAMES_PER_CASE = 150


def play_random_game(spec: GameSpec, players: int, config: dict, seed: int) -> None:
    rng = random.Random(seed)
    start = spec.new(players=players, seed=seed, **config)
    state = start
    texts: list[str] = []
    while True:
        moves = state.legal_moves()
        assert isinstance(moves, tuple)
        assert list(moves) == sorted(moves), "legal moves must be sorted"
        assert len(set(moves)) == len(moves), "legal moves must be unique"
        assert (state.outcome() is None) == bool(moves), "outcome is set exactly when no move is left"
        assert (state.to_move is None) == (not moves)
        scores = state.scores()
        assert isinstance(scores, tuple) and len(scores) == players
        saved = state.to_json()
        assert json.loads(json.dumps(saved)) == saved, "to_json must be JSON-safe"
        rebuilt = spec.from_json(json.loads(json.dumps(saved)))
        assert rebuilt == state and rebuilt.to_json() == saved, "the JSON round trip must be exact"
        assert rebuilt.legal_moves() == moves
        if not moves:
            break
        for move in rng.sample(moves, min(3, len(moves))):
            text = state.move_text(move)
            assert text == text.lower().strip()
            assert state.parse_move(text) == move
            assert state.parse_move("  " + text.upper() + " ") == move
        move = rng.choice(moves)
        before = state.to_json()
        after = state.play(move)
        assert state.to_json() == before, "play must not change the old state"
        assert after.ply == state.ply + 1, "every ply counts"
        assert after.last_event is not None and after.last_event.player == state.to_move
        check_event(after)
        assert summary_text(after) and status_text(after)
        texts.append(state.move_text(move))
        state = after
    outcome = state.outcome()
    assert isinstance(outcome, Outcome)
    assert outcome.winners and result_text(state)
    codes = termination_codes(spec.name)
    assert isinstance(outcome.termination, codes) and outcome.termination not in (FORFEIT, TIMEOUT)
    assert outcome.to_json()["termination"] == str(outcome.termination)
    assert state.ply == len(texts) and start.ply == 0
    assert outcome.scores == state.scores()
    assert len(outcome.places) == players and min(outcome.places) == 1
    assert {i for i, place in enumerate(outcome.places) if place == 1} == set(outcome.winners)
    with pytest.raises(GameError):
        state.play(texts[-1] if texts else "pass")
    replayed = spec.new(players=players, seed=seed, **config)
    for text in texts:
        replayed = replayed.play(text)
    assert replayed == state and replayed.to_json() == state.to_json(), "seed + move texts must rebuild the game"
    assert start.to_json() == spec.new(players=players, seed=seed, **config).to_json()


@pytest.mark.conformance
@pytest.mark.parametrize(("name", "players", "config"), CASES)
def test_random_games_follow_the_contract(name: str, players: int, config: dict) -> None:
    spec = GAMES[name]
    for seed in range(GAMES_PER_CASE):
        play_random_game(spec, players, config, seed)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_forfeit_ends_a_two_player_game_for_the_other(name: str) -> None:
    spec = GAMES[name]
    state = spec.new(players=2, seed=3)
    ended = state.forfeit(0)
    outcome = ended.outcome()
    assert outcome is not None and outcome.winners == (1,) and outcome.places == (2, 1)
    assert outcome.termination == FORFEIT and isinstance(outcome.termination, termination_codes(name))
    assert result_text(ended, ["Ana", "Bo"]) == "Ana resigned."
    assert ended.legal_moves() == () and ended.to_move is None and ended.ply == state.ply
    assert state.outcome() is None
    assert spec.from_json(ended.to_json()) == ended
    late = state.play(state.legal_moves()[0]).forfeit(1, TIMEOUT)
    outcome = late.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.termination == TIMEOUT
    assert result_text(late, ["Ana", "Bo"]) == "Bo ran out of time; Ana claimed the win."
    assert spec.from_json(late.to_json()) == late and late.to_json()["result"]["termination"] == "timeout"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_bad_options_are_refused_with_a_game_error(name: str) -> None:
    spec = GAMES[name]
    with pytest.raises(GameError):
        spec.new(players=2, seed=1, no_such_option=1)
    with pytest.raises(GameError):
        spec.new(players=spec.max_players + 1, seed=1)
    with pytest.raises(GameError):
        spec.new(players=2, seed=-1)
