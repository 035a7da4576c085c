"""Tournament formats, pure: Swiss and round-robin pairings from the library, tables of 3 and 4, standings."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.core import tournament_formats as f


def simulate(format: str, players: int, rounds: int, seed: int = 1, withdraw: dict[int, int] | None = None):
    """Play a whole two-player event with random results; return every round's tables and the points."""
    rng = random.Random(seed)
    numbers = {1000 + n: n for n in range(1, players + 1)}
    playing = list(numbers)
    played: list[list[tuple[tuple[int, ...], list[float] | None]]] = []
    every: list[list[tuple[int, ...]]] = []
    for number in range(1, rounds + 1):
        for user, after in (withdraw or {}).items():
            if after == number - 1 and user in playing:
                playing.remove(user)
        history, met = f.two_player_history(numbers, played)
        tables = f.pair_two_player(format, numbers, playing, history, met, number, rounds)
        every.append(tables)
        games = []
        for table in tables:
            if len(table) == 1:
                games.append((table, [f.BYE_POINTS]))
            else:
                won = rng.choice([1.0, 0.5, 0.0])
                games.append((table, [won, 1.0 - won]))
        played.append(games)
    return every, played


@pytest.mark.parametrize("players", [2, 3, 7, 8, 13])
def test_swiss_pairs_everyone_once_a_round_never_twice_the_same_pair_with_one_bye_at_most(players: int) -> None:
    rounds = f.default_rounds(f.SWISS, players)
    every, _ = simulate(f.SWISS, players, rounds, seed=players)
    met: set[frozenset[int]] = set()
    byes: list[int] = []
    for tables in every:
        seated = [user for table in tables for user in table]
        assert sorted(seated) == sorted(set(seated)) and len(seated) == players
        assert sum(1 for t in tables if len(t) == 1) == players % 2
        for table in tables:
            if len(table) == 1:
                byes.append(table[0])
                continue
            pair = frozenset(table)
            assert pair not in met, "a repeat pairing"
            met.add(pair)
    assert len(byes) == len(set(byes)), "a bye twice"


def test_swiss_balances_the_first_seat_like_colours() -> None:
    every, _ = simulate(f.SWISS, 16, 5, seed=3)
    firsts = {user: 0 for user in range(1001, 1017)}
    for tables in every:
        for table in tables:
            if len(table) == 2:
                firsts[table[0]] += 1
    assert all(1 <= count <= 4 for count in firsts.values())  # five games: two or three first, never all


@pytest.mark.parametrize(("format", "players"), [(f.ROUND_ROBIN, 6), (f.ROUND_ROBIN, 5), (f.DOUBLE_ROUND_ROBIN, 4)])
def test_round_robin_follows_berger_tables_everyone_meets_everyone(format: str, players: int) -> None:
    rounds = f.default_rounds(format, players)
    every, _ = simulate(format, players, rounds)
    meetings: dict[frozenset[int], int] = {}
    for tables in every:
        for table in tables:
            if len(table) == 2:
                meetings[frozenset(table)] = meetings.get(frozenset(table), 0) + 1
    users = range(1001, 1001 + players)
    times = 2 if format == f.DOUBLE_ROUND_ROBIN else 1
    assert {pair: times for pair in map(frozenset, itertools.combinations(users, 2))} == meetings
    # FIDE Berger round 1 for six players: 1-6, 2-5, 3-4.
    if players == 6:
        assert sorted(tuple(sorted(t)) for t in every[0]) == [(1001, 1006), (1002, 1005), (1003, 1004)]


def test_a_round_robin_game_against_a_withdrawn_player_is_a_bye_for_the_other() -> None:
    every, _ = simulate(f.ROUND_ROBIN, 4, 3, withdraw={1004: 1})
    for tables in every[1:]:
        assert all(1004 not in table for table in tables)
        assert sum(1 for t in tables if len(t) == 1) == 1  # the one who would have met 1004


def test_a_swiss_field_shrinks_when_a_player_withdraws() -> None:
    every, _ = simulate(f.SWISS, 6, 4, withdraw={1002: 2})
    assert all(1002 not in user for tables in every[2:] for user in tables)
    assert sum(len(t) for t in every[3]) == 5


@pytest.mark.parametrize(
    ("players", "sizes"), [(3, [3]), (4, [4]), (5, [3, 2]), (6, [3, 3]), (7, [4, 3]), (9, [3, 3, 3]), (10, [4, 3, 3])]
)
def test_tables_split_the_field_without_byes(players: int, sizes: list[int]) -> None:
    assert f.table_sizes(players) == sizes
    ranked = list(range(1, players + 1))
    tables = f.pair_tables(ranked, {})
    assert [len(t) for t in tables] == sizes
    assert sorted(u for t in tables for u in t) == ranked
    assert set(tables[0]) == set(ranked[: sizes[0]])  # the leaders sit together


def test_table_first_seat_goes_to_who_sat_first_least() -> None:
    assert f.pair_tables([1, 2, 3, 4], {1: 2, 2: 1, 3: 0, 4: 1}) == [(3, 2, 4, 1)]


def test_place_points_weigh_tables_of_three_and_four_alike() -> None:
    four = [f.place_points([1, 2, 3, 4], seat, f.TABLE_WIN_POINTS) for seat in range(4)]
    three = [f.place_points([1, 2, 3], seat, f.TABLE_WIN_POINTS) for seat in range(3)]
    assert four == [3.0, 2.0, 1.0, 0.0] and three == [3.0, 1.5, 0.0]
    assert [f.place_points([1, 1, 3], seat, 3.0) for seat in range(3)] == [2.25, 2.25, 0.0]


def test_standings_compute_buchholz_and_sonneborn_berger() -> None:
    entrants = [(1, "Ana", 1, False), (2, "Bo", 2, False), (3, "Cy", 3, False), (4, "Dee", 4, True)]
    games = [
        f.Played(1, (1, 2), (1, 2)),  # Ana beats Bo
        f.Played(1, (3, 4), (1, 1)),  # Cy and Dee draw
        f.Played(2, (1, 3), (1, 1)),  # Ana and Cy draw
        f.Played(2, (2,), (1,)),  # Bo's bye (Dee withdrew)
    ]
    lines = f.standings(f.SWISS, entrants, games, 3)
    # Cy and Bo have a point each; Cy met stronger opponents (Buchholz 2 against Bo's 1.5: a bye adds none).
    assert [(line.name, line.points) for line in lines] == [("Ana", 1.5), ("Cy", 1.0), ("Bo", 1.0), ("Dee", 0.5)]
    ana, cy, bo, dee = lines
    assert ana.tiebreaks == (2.0, 1.0 * 1 + 1.0 * 0.5)  # Buchholz Bo 1 + Cy 1; SB: beat Bo (1), drew Cy (½ × 1)
    assert cy.tiebreaks == (1.5 + 0.5, 1.5 * 0.5 + 0.5 * 0.5)
    assert bo.tiebreaks == (1.5, 0.0) and [line.rank for line in lines] == [1, 2, 3, 4]
    assert ana.results == ("W", "D", "-") and bo.results == ("L", "B", "-") and dee.withdrawn


def test_table_standings_break_ties_by_game_points_and_void_games_score_nothing() -> None:
    entrants = [(u, str(u), u, False) for u in (1, 2, 3, 4)]
    games = [
        f.Played(1, (1, 2, 3, 4), (1, 2, 3, 4), (40, 30, 20, 10)),
        f.Played(2, (4, 3, 2, 1), (1, 2, 3, 4), (50, 35, 25, 12)),
        f.Played(3, (1, 2, 3, 4), (1, 1, 1, 1), (0, 0, 0, 0), void=True),
    ]
    lines = f.standings(f.TABLES, entrants, games, 3)
    assert [line.points for line in lines] == [3.0, 3.0, 3.0, 3.0]
    assert [line.user_id for line in lines] == [4, 2, 3, 1]  # game points 60, 55, 55, 52; then Buchholz, number
    assert lines[0].results == ("4", "1", "-")


def test_default_rounds() -> None:
    assert f.default_rounds(f.SWISS, 64) == 7 and f.default_rounds(f.SWISS, 3) == 2
    assert f.default_rounds(f.ROUND_ROBIN, 6) == 5 and f.default_rounds(f.DOUBLE_ROUND_ROBIN, 5) == 10
    assert f.number_text(2.5) == "2½" and f.number_text(0.5) == "½" and f.number_text(3.0) == "3"
