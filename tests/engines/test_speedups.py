"""The engines' fast paths agree with the plain ways of doing the same thing."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bench import engine_speed
from engines import azul, querni
from engines.base import positional_replace, slot_constructor
from engines.querni import generate
from engines.rng import Rng


@dataclass(frozen=True, slots=True)
class _Point:
    x: int
    y: int
    label: str = ""
    _cache: tuple[int, ...] | None = field(default=None, compare=False)


def test_positional_replace_sets_the_named_fields_and_empties_caches() -> None:
    point = _Point(1, 2, "a", _cache=(9,))
    move = positional_replace(_Point, "y label")
    moved = move(point, 5, "b")
    assert moved == _Point(1, 5, "b")
    assert moved._cache is None
    assert point == _Point(1, 2, "a")  # the original is untouched
    with pytest.raises(ValueError, match="no field 'z'"):
        positional_replace(_Point, "x z")


def test_positional_replace_may_set_a_cache_field() -> None:
    keep = positional_replace(_Point, "x _cache")
    assert keep(_Point(1, 2), 3, (4,))._cache == (4,)


def test_slot_constructor_builds_what_the_class_builds() -> None:
    make = slot_constructor(_Point)
    built = make(1, 2, "c", (3,))
    assert built == _Point(1, 2, "c", (3,))
    assert built._cache == (3,)
    assert type(built) is _Point


def _reference_fill(
    bag: tuple[int, ...], lid: tuple[int, ...], rng: int, factories: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], int]:
    """Fill factories the way the engine did before Rng.below was inlined."""
    generator = Rng(rng)
    bag_list, lid_list = list(bag), list(lid)
    in_bag = sum(bag_list)
    filled = []
    for _ in range(factories):
        tiles = [0] * 5
        for _ in range(azul.FACTORY_SIZE):
            if not in_bag:
                in_bag = sum(lid_list)
                if not in_bag:
                    break
                bag_list, lid_list = lid_list, [0] * 5
            pick = generator.below(in_bag)
            colour = 0
            while pick >= bag_list[colour]:
                pick -= bag_list[colour]
                colour += 1
            bag_list[colour] -= 1
            tiles[colour] += 1
            in_bag -= 1
        filled.append(tuple(tiles))
    return tuple(filled), tuple(bag_list), tuple(lid_list), generator.state


def test_azul_fill_factories_draws_the_generators_stream() -> None:
    draw = random.Random(32)
    for _ in range(300):
        bag = tuple(draw.randint(0, 20) for _ in range(5))
        lid = tuple(draw.randint(0, 20 - n) for n in bag)
        rng = draw.getrandbits(64)
        factories = draw.choice((5, 7, 9))
        assert azul.fill_factories(bag, lid, rng, factories) == _reference_fill(bag, lid, rng, factories)


def _querni_positions(games: int) -> list[querni.QuerniState]:
    draw = random.Random(5)
    positions = []
    for seed in range(games):
        state = querni.new(seed=seed)
        while state.outcome() is None:
            positions.append(state)
            moves = state.legal_moves()
            state = state.play(moves[draw.randrange(len(moves))])
    return positions


def test_querni_jump_areas_reach_what_a_flood_fill_per_piece_reaches() -> None:
    for state in _querni_positions(12):
        area = [-1] * querni.CELLS
        members: list[list[int]] = []
        for cell, value in enumerate(state.board):
            if value:
                assert generate._area_ends(state.board, cell, area, members) == generate._ends(state.board, cell)


def test_engine_speed_compares_two_checkouts_round_by_round() -> None:
    here = Path(engine_speed.__file__).resolve().parent.parent
    rows = engine_speed.compare(here, rounds=2, seconds=0.02, games=["pond"])
    assert [row["configuration"] for row in rows] == [
        f"pond {players}p " + (" ".join(f"{k}={v}" for k, v in config.items()) or "default")
        for players, config in engine_speed.configs("pond")
    ]
    for row in rows:
        assert len(row["other"]) == len(row["here"]) == 2
        low, high = row["ratio_range"]
        assert 0 < low <= row["ratio_median"] <= high
