"""The arena's pure part: outcomes by place, streak points, standings and their tie-breaks, and whom to pair."""

from __future__ import annotations

import random

import pytest

from bot.core import arena
from bot.core.arena import DRAW, LOSS, WIN, Game, Waiting


@pytest.mark.parametrize(
    ("places", "expected"),
    [
        ([1, 2], [WIN, LOSS]),
        ([2, 1], [LOSS, WIN]),
        ([1, 1], [DRAW, DRAW]),
        ([1, 2, 3], [WIN, DRAW, LOSS]),
        ([1, 2, 3, 4], [WIN, DRAW, DRAW, LOSS]),
        ([1, 1, 3], [DRAW, DRAW, LOSS]),  # a shared first place is no win
        ([1, 2, 2], [WIN, LOSS, LOSS]),  # a shared last place is a loss
        ([3, 3, 3], [DRAW, DRAW, DRAW]),
    ],
)
def test_outcomes_by_place(places: list[int], expected: list[str]) -> None:
    assert arena.outcomes(places) == expected


@pytest.mark.parametrize(
    ("results", "points"),
    [
        ("WWW", [2, 2, 4]),
        ("WWWWL", [2, 2, 4, 4, 0]),
        ("WWDW", [2, 2, 2, 2]),  # a draw on a streak counts double and ends it
        ("WWLWWW", [2, 2, 0, 2, 2, 4]),
        ("DDDD", [1, 1, 1, 1]),
        ("WDWW", [2, 1, 2, 2]),
        ("", []),
    ],
)
def test_streak_points(results: str, points: list[int]) -> None:
    assert arena.streak_points(list(results)) == points


def test_streak_points_match_a_recount_on_random_sheets() -> None:
    rng = random.Random(3)
    for _ in range(500):
        results = [rng.choice((WIN, DRAW, LOSS)) for _ in range(rng.randrange(0, 30))]
        expected = []
        for i, outcome in enumerate(results):
            fire = i >= 2 and results[i - 1] == WIN and results[i - 2] == WIN
            base = {WIN: 2, DRAW: 1, LOSS: 0}[outcome]
            expected.append(base * 2 if fire else base)
        assert arena.streak_points(results) == expected
        assert arena.on_fire(results) == (len(results) >= 2 and results[-2:] == [WIN, WIN])


def test_standings_points_then_fewer_games_then_wins() -> None:
    entrants = [(1, "Ana", 1, False), (2, "Bo", 2, False), (3, "Cy", 3, True), (4, "Dee", 4, False)]
    games = [
        Game((1, 2), (1, 2)),  # Ana 2
        Game((3, 4), (1, 1)),  # Cy 1, Dee 1
        Game((1, 3), (2, 1)),  # Cy 2 (3), Ana 0
        Game((2, 4), (1, 1)),  # Bo 1, Dee 1 (2)
        Game((4, 2), None),  # running: nothing
        Game((1, 4), (1, 2), void=True),  # void: nothing
    ]
    lines = arena.standings(entrants, games)
    assert [(line.user_id, line.points, line.tiebreaks, line.rank) for line in lines] == [
        (3, 3.0, (2.0, 1.0), 1),
        (1, 2.0, (2.0, 1.0), 2),
        (4, 2.0, (2.0, 0.0), 3),
        (2, 1.0, (2.0, 0.0), 4),
    ]
    assert lines[0].results == ("D1", "W2") and lines[0].withdrawn  # paused
    # The same points from fewer games rank higher; equal in everything, the rank is shared.
    tied = arena.standings([(1, "Ana", 1, False), (2, "Bo", 2, False)], [Game((1, 2), (1, 1))])
    assert [line.rank for line in tied] == [1, 1]


def test_two_player_pairing_is_by_rank_and_avoids_the_last_opponent() -> None:
    waiting = [Waiting(u, u, 0.0) for u in range(1, 7)]
    assert arena.pair_two(waiting) == [(1, 2), (3, 4), (5, 6)]
    rematch = [Waiting(1, 1, 0.0, frozenset({2})), Waiting(2, 2, 0.0, frozenset({1})), *waiting[2:4]]
    assert arena.pair_two(rematch) == [(1, 3), (2, 4)]
    # Alone together, the two who just met play again (nobody else is free).
    assert arena.pair_two(rematch[:2]) == [(1, 2)]
    # Odd: whoever became free last waits.
    odd = [Waiting(1, 1, 5.0), Waiting(2, 2, 9.0), Waiting(3, 3, 1.0)]
    assert arena.pair_two(odd) == [(1, 3)]
    assert arena.pair_two(odd[:1]) == []


def test_the_first_seat_goes_to_whoever_had_it_less() -> None:
    waiting = [Waiting(1, 1, 0.0, firsts=3, games=4), Waiting(2, 2, 0.0, firsts=1, games=4)]
    assert arena.pair_two(waiting) == [(2, 1)]


@pytest.mark.parametrize(("count", "sizes"), [(3, [3]), (4, [4]), (5, [4]), (6, [3, 3]), (7, [4, 3]), (8, [4, 4]),
                                              (9, [3, 3, 3]), (10, [4, 3, 3]), (13, [4, 3, 3, 3])])  # fmt: skip
def test_tables_of_four_and_three(count: int, sizes: list[int]) -> None:
    waiting = [Waiting(u, u, float(u)) for u in range(1, count + 1)]
    tables, later = arena.seat_tables(waiting, now=100.0, others_playing=True)
    assert [len(t) for t in tables] == sizes and later is None
    seated = [u for t in tables for u in t]
    assert len(seated) == len(set(seated))
    if count == 5:
        assert 5 not in seated  # the one freed last waits for the next table


def test_two_alone_wait_for_a_third_then_play() -> None:
    two = [Waiting(1, 1, 10.0), Waiting(2, 2, 12.0)]
    assert arena.seat_tables(two, now=20.0, others_playing=True) == ([], 12.0 + arena.TWO_AFTER)
    assert arena.seat_tables(two, now=32.0, others_playing=True)[0] == [(1, 2)]
    assert arena.seat_tables(two, now=13.0, others_playing=False)[0] == [(1, 2)]  # nobody else can come
    assert arena.pair(two[:1], seats=4, now=99.0, others_playing=False) == ([], None)


def test_the_same_table_is_not_seated_twice_running_while_others_are_free() -> None:
    last = {1: {2, 3, 4}, 2: {1, 3, 4}, 3: {1, 2, 4}, 4: {1, 2, 3}}
    waiting = [Waiting(u, u, 0.0, frozenset(last.get(u, set()))) for u in range(1, 8)]
    tables, _ = arena.seat_tables(waiting, now=0.0, others_playing=True)
    assert {frozenset(t) for t in tables} & {frozenset({1, 2, 3, 4})} == set()
    assert sorted(u for t in tables for u in t) == list(range(1, 8))
    # Alone, the same four sit together again.
    assert [set(t) for t in arena.seat_tables(waiting[:4], now=0.0, others_playing=True)[0]] == [{1, 2, 3, 4}]
