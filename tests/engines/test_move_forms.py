"""Every game's move description agrees with its legal moves, on random positions of every configuration.

Walking a legal move's fields through ``complete`` one at a time reaches it; every walk ``complete`` offers
ends on a legal move; the fields read back into the same move through the engine's own ``parse_move``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engines import GAMES, GameSpec, InvalidMoveText
from engines.azul import MOVES as AZUL_MOVES
from engines.azul import new as new_azul
from engines.moves import MoveForm, read_cell
from engines.querni.moves import read_chain
from tests.toy.engine import SPEC as TOY

SPECS = {**GAMES, TOY.name: TOY}
CASES = [
    pytest.param(name, players, config, id=f"{name}-{players}p-{'-'.join(f'{k}={v}' for k, v in config.items())}")
    for name, spec in sorted(SPECS.items())
    for players in sorted({spec.min_players, spec.max_players})
    for config in spec.test_configs
]


def positions(spec: GameSpec, players: int, config: dict[str, Any], seed: int, count: int) -> list[Any]:
    """Return ``count`` positions of one random game, spread over its length (the game replayed with one seed)."""
    rng = random.Random(seed)
    state = spec.new(players=players, seed=seed, **config)
    seen = [state]
    while state.legal_moves() and len(seen) < 400:
        state = state.play(rng.choice(state.legal_moves()))
        seen.append(state)
    playing = [s for s in seen if s.legal_moves()]
    return [playing[i * len(playing) // count] for i in range(count)]


def walks(form: MoveForm, state: Any, kind: str) -> set[tuple[tuple[str, str], ...]]:
    """Return every complete choice of fields ``complete`` offers for ``kind``, field by field in order.

    An optional field may also be left out.
    """
    fields = form.kind(kind).fields
    found: set[tuple[tuple[str, str], ...]] = set()

    def walk(chosen: dict[str, str], index: int) -> None:
        if index == len(fields):
            found.add(tuple(chosen.items()))
            return
        field = fields[index]
        if field.optional:
            walk(chosen, index + 1)
        for value in form.complete(state, kind, chosen)[field.name]:
            walk({**chosen, field.name: value}, index + 1)

    walk({}, 0)
    return found


@pytest.mark.parametrize(("name", "players", "config"), CASES)
def test_completion_agrees_with_the_legal_moves(name: str, players: int, config: dict[str, Any]) -> None:
    spec = SPECS[name]
    form = spec.moves
    assert form is not None, f"{name} does not describe its moves"
    for seed in range(2):
        for state in positions(spec, players, config, seed, 3):
            legal = set(state.legal_moves())
            by_kind: dict[str, set[tuple[tuple[str, str], ...]]] = {}
            for move in legal:
                kind, fields = form.fields_of(state, move)
                by_kind.setdefault(kind, set()).add(tuple(fields.items()))
                # The fields, walked one at a time, are each offered by what came before them ...
                chosen: dict[str, str] = {}
                for field in form.kind(kind).fields:
                    if field.name not in fields:
                        assert field.optional, f"{kind} leaves out {field.name}, which is not optional"
                        continue
                    assert fields[field.name] in form.complete(state, kind, chosen)[field.name]
                    assert field.read(fields[field.name]) == fields[field.name], "a value reads as itself"
                    chosen[field.name] = fields[field.name]
                # ... and name the move again through the engine's reading.
                assert form.move_of(state, kind, fields) == move
            # Nothing else is offered: every walk through the offers ends on a legal move.
            for kind in by_kind:
                assert walks(form, state, kind) == by_kind[kind]
            assert set(by_kind) <= {kind.name for kind in form.kinds}


def test_an_azul_take_is_read_as_either_reader_read_it() -> None:
    """The engine reads a take the way the bot's options did too: ``mid``, ``floor line``, a bare factory."""
    state = new_azul(players=2, seed=16, first_player=0)
    take = state.legal_moves()[0]
    assert AZUL_MOVES.move_of(state, "take", {"source": "1", "colour": "Blue", "line": "1"}) == take
    assert AZUL_MOVES.move_of(state, "take", {"source": "f1", "colour": "b", "line": "floor line"}).line == 6
    assert state.parse_move("f1 blue floor line") == state.parse_move("f1 blue floor")
    read = AZUL_MOVES.read("take", {"source": "mid", "colour": "blues", "line": "line 4 (4 of 4 free)"})
    assert read == {"source": "c", "colour": "blue", "line": "4"}
    assert AZUL_MOVES.read("take", {"source": "Factory 3 · 2 red", "colour": "k", "line": "floor line"}) == {
        "source": "f3",
        "colour": "black",
        "line": "floor",
    }
    assert AZUL_MOVES.read("wall", {"line": "line 3", "column": "c2"}) == {"line": "3", "column": "2"}
    assert AZUL_MOVES.read("take", {"source": "f", "colour": "purple", "line": "seven"}) == {}


def test_an_unreadable_field_narrows_nothing_and_plays_as_the_engine_reads_it() -> None:
    state = new_azul(players=2, seed=16, first_player=0)
    offered = AZUL_MOVES.complete(state, "take", {"colour": "purple"})
    assert offered["source"] == AZUL_MOVES.complete(state, "take", {})["source"]
    with pytest.raises(InvalidMoveText, match="not a tile colour"):
        AZUL_MOVES.move_of(state, "take", {"source": "f1", "colour": "purple", "line": "1"})


def test_cells_and_chains_are_read_leniently() -> None:
    assert [read_cell(text) for text in ("B 2", "b02", "c3 · piece 4", "b", "22")] == ["b2", "b2", "c3", None, None]
    assert [read_chain(text) for text in ("4-7", "x 7..4", "remove 4 to 7", "x4", "4-7-9")] == [
        "4-7",
        "4-7",
        "4-7",
        None,
        None,
    ]
