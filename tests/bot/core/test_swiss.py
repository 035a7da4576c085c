"""Swiss pairings of any size, checked by an independent reading of the rounds.

Every event here is played with random results, and what was paired is judged by :func:`audit`, which reads only
the tables and the results (never the pairing systems' own state): everyone still in plays once a round, no pair
meets twice, nobody has two byes, and the first seat is balanced like colours under FIDE's absolute rules.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from caissify_pairings import generate_pairings

from bot.core import swiss
from bot.core import tournament_formats as f

Tables = list[tuple[int, ...]]
Results = list[tuple[tuple[int, ...], list[float]]]


def play(
    players: int, rounds: int, *, seed: int = 1, system: str | None = None, withdraw: dict[int, int] | None = None
) -> tuple[list[Tables], list[Results], list[str], list[list[int]]]:
    """Play an event with random results: every round's tables, results, system, and who was still in.

    A round that cannot be paired ends the event early, as the tournament service does.
    """
    rng = random.Random(seed)
    numbers = {10**17 + n: n for n in range(1, players + 1)}
    playing = list(numbers)
    every: list[Tables] = []
    results: list[Results] = []
    systems: list[str] = []
    fields: list[list[int]] = []
    for number in range(1, rounds + 1):
        playing = [user for user in playing if (withdraw or {}).get(user, rounds) >= number]
        history, _ = f.two_player_history(numbers, results)
        try:
            paired = f.pair_swiss(numbers, playing, history, number, rounds, system)
        except swiss.SwissError:
            break
        every.append(paired.tables)
        systems.append(paired.system)
        fields.append(list(playing))
        games: Results = []
        for table in paired.tables:
            won = rng.choice([1.0, 0.5, 0.0])
            games.append((table, [f.BYE_POINTS] if len(table) == 1 else [won, 1.0 - won]))
        results.append(games)
    return every, results, systems, fields


def audit(
    every: Sequence[Tables], results: Sequence[Results], fields: Sequence[Sequence[int]], *, strict_colours: bool
) -> dict[str, int]:
    """Check the rounds from their tables and results alone; return counts of the colour rules' soft misses.

    Absolute, always: each player still in sits once a round, no pair twice, no second bye, one bye at most a
    round and only with an odd field.  Colours (the first seat): after each round no player's firsts and
    seconds differ by more than two and nobody had the same seat three games running; FIDE lifts both for
    the final round's topscorers (over half the points).  With ``strict_colours`` a miss fails the check.
    """
    met: set[frozenset[int]] = set()
    byes: dict[int, int] = {}
    seats: dict[int, list[bool]] = {}
    points: dict[int, float] = {}
    misses = {"difference": 0, "three_running": 0}
    last = len(every)
    for number, (tables, games, still) in enumerate(zip(every, results, fields, strict=True), 1):
        seated = [user for table in tables for user in table]
        assert sorted(seated) == sorted(still), f"round {number}: not everyone still in plays exactly once"
        alone = [table[0] for table in tables if len(table) == 1]
        assert len(alone) == len(still) % 2, f"round {number}: {len(alone)} byes for {len(still)} players"
        for user in alone:
            byes[user] = byes.get(user, 0) + 1
            assert byes[user] == 1, f"round {number}: a second bye for {user}"
        most = number - 1  # the points a player could have before this round
        for table in tables:
            if len(table) == 1:
                continue
            pair = frozenset(table)
            assert pair not in met, f"round {number}: {sorted(pair)} meet again"
            met.add(pair)
            for seat, user in enumerate(table):
                history = seats.setdefault(user, [])
                history.append(seat == 0)
                topscorer = number == last and points.get(user, 0.0) > most / 2
                if topscorer:
                    continue
                firsts = sum(history)
                if abs(2 * firsts - len(history)) > 2:
                    misses["difference"] += 1
                if len(history) >= 3 and history[-1] == history[-2] == history[-3]:
                    misses["three_running"] += 1
        for table, earned in games:
            for user, got in zip(table, earned, strict=True):
                points[user] = points.get(user, 0.0) + got
    if strict_colours:
        assert misses == {"difference": 0, "three_running": 0}, misses
    return misses


@pytest.mark.parametrize(("players", "rounds", "seed"), [(7, 6, 1), (12, 8, 2), (33, 9, 3), (64, 7, 4), (101, 8, 5)])
def test_dutch_pairs_fields_up_to_its_limit_validly(players: int, rounds: int, seed: int) -> None:
    every, results, systems, fields = play(players, rounds, seed=seed)
    audit(every, results, fields, strict_colours=True)
    assert set(systems) == {swiss.DUTCH}


def test_dutch_pairs_a_shrinking_field() -> None:
    withdraw = {10**17 + 3: 2, 10**17 + 8: 3, 10**17 + 11: 3}  # out after rounds 2, 3, 3
    every, results, _, fields = play(15, 7, seed=6, withdraw=withdraw)
    audit(every, results, fields, strict_colours=True)
    assert [len(field) for field in fields] == [15, 15, 14, 12, 12, 12, 12]


@pytest.mark.parametrize(("players", "rounds", "seed"), [(513, 10, 1), (1001, 11, 2), (2000, 12, 3)])
def test_fast_swiss_pairs_big_fields_validly(players: int, rounds: int, seed: int) -> None:
    every, results, systems, fields = play(players, rounds, seed=seed)
    misses = audit(every, results, fields, strict_colours=False)
    assert set(systems) == {swiss.FAST}
    # Lichess's Fast system gives up a colour rule rather than search: rarely, and never past a difference of 2.
    assert misses["difference"] == 0
    assert misses["three_running"] <= players // 100


@pytest.mark.parametrize(("players", "seed"), [(9, 1), (10, 2), (20, 3), (41, 4)])
def test_fast_swiss_completes_small_fields_to_the_last_round_it_can(players: int, seed: int) -> None:
    """In a small field the greedy passes leave players unpaired: the matching over the last pairs completes
    the round, or (no pairing left without a repeat) the round is refused; never a repeat or a second bye."""
    every, results, _, fields = play(players, players - 1, seed=seed, system=swiss.FAST)
    assert len(every) >= players // 2
    misses = audit(every, results, fields, strict_colours=False)
    assert misses["difference"] <= players // 4


def test_the_switch_between_the_systems() -> None:
    assert swiss.system_for(swiss.DUTCH_MOST_PLAYERS) == swiss.DUTCH
    assert swiss.system_for(swiss.DUTCH_MOST_PLAYERS + 1) == swiss.FAST
    # The size that decides is the round's field: entrants who withdrew do not count.
    numbers = {n: n for n in range(1, 516)}
    history, _ = f.two_player_history(numbers, [])
    assert f.pair_swiss(numbers, list(numbers)[:9], history, 1, 5).system == swiss.DUTCH


def test_round_one_is_the_dutch_split_in_both_systems() -> None:
    numbers = {n: n for n in range(1, 11)}
    history, _ = f.two_player_history(numbers, [])
    dutch = f.pair_swiss(numbers, list(numbers), history, 1, 4, swiss.DUTCH).tables
    fast = f.pair_swiss(numbers, list(numbers), history, 1, 4, swiss.FAST).tables
    # The top half meets the bottom half; the first seat alternates down the boards (initial colour: first).
    assert dutch == fast == [(1, 6), (7, 2), (3, 8), (9, 4), (5, 10)]


def caissify_round_one(players: int) -> Tables:
    """Round 1 by caissify-pairings' Dutch engine (cross-validated against bbpPairings)."""
    field = [
        {"id": n, "name": str(n), "score": 0.0, "rating": 3000 - n, "starting_number": n, "color_hist": []}
        for n in range(1, players + 1)
    ]
    found = generate_pairings("dutch", field, set(), 1, 5, bye_value=1.0, max_byes_per_player=1)
    return [tuple(u for u in (row["white_id"], row.get("black_id")) if u is not None) for row in found]


@pytest.mark.parametrize("players", [4, 5, 8, 11, 16, 27])
def test_round_one_agrees_with_the_library_used_before(players: int) -> None:
    numbers = {n: n for n in range(1, players + 1)}
    history, _ = f.two_player_history(numbers, [])
    assert sorted(f.pair_two_player(f.SWISS, numbers, list(numbers), history, set(), 1, 5)) == sorted(
        caissify_round_one(players)
    )


def rounds_of(*rounds: Sequence[tuple[tuple[int, ...], list[float]]]) -> list[Results]:
    return [[(table, list(points)) for table, points in games] for games in rounds]


def test_the_higher_ranked_player_gets_their_colour_when_both_want_the_same() -> None:
    """FIDE E.4, where the library used before got it the wrong way round: the seats reach py4swiss as they were."""
    played = rounds_of(
        [((1, 4), [0.0, 1.0]), ((5, 2), [1.0, 0.0]), ((3, 6), [0.5, 0.5])],
        [((6, 1), [1.0, 0.0]), ((2, 3), [1.0, 0.0]), ((4, 5), [0.5, 0.5])],
    )
    numbers = {n: n for n in range(1, 7)}
    history, met = f.two_player_history(numbers, played)
    tables = f.pair_two_player(f.SWISS, numbers, list(numbers), history, met, 3, 4)
    # 4 (1½) and 2 (1) both sat second then first, so both would sit second now: 4 ranks higher and does.
    # 3 (½) and 1 (0) both would sit first: 3 does.
    assert (2, 4) in tables and (3, 1) in tables


def test_a_bye_counts_as_a_float_down() -> None:
    """FIDE A.4: the bye was a float down, so its holder does not float down again in round 2."""
    played = rounds_of([((1, 4), [0.0, 1.0]), ((5, 2), [1.0, 0.0]), ((3, 6), [0.5, 0.5]), ((7,), [1.0])])
    numbers = {n: n for n in range(1, 8)}
    history, met = f.two_player_history(numbers, played)
    tables = f.pair_two_player(f.SWISS, numbers, list(numbers), history, met, 2, 4)
    # 4, 5 and 7 have a point: one of them must meet a player with less, and it is not 7.
    assert any(set(table) == {4, 7} for table in tables)


def test_a_round_that_cannot_be_paired_without_a_repeat_is_refused() -> None:
    """Six players who met everyone of the other three: left are two triangles, which no pairing covers."""
    draws = [0.5, 0.5]
    played = rounds_of(
        [((1, 4), draws), ((5, 2), draws), ((3, 6), draws)],
        [((5, 1), draws), ((2, 6), draws), ((4, 3), draws)],
        [((1, 6), draws), ((4, 2), draws), ((3, 5), draws)],
    )
    numbers = {n: n for n in range(1, 7)}
    history, _ = f.two_player_history(numbers, played)
    for system in (swiss.DUTCH, swiss.FAST):
        with pytest.raises(swiss.SwissError):
            f.pair_swiss(numbers, list(numbers), history, 4, 5, system)


def test_when_dutch_colour_rules_leave_no_pairing_the_fast_system_pairs_without_a_repeat() -> None:
    """1 and 2 sat first twice and have met everyone else: Dutch (C.3) may not pair them, nothing else is left."""
    draws = [0.5, 0.5]
    played = rounds_of(
        [((1, 3), draws), ((2, 4), draws)],
        [((1, 4), draws), ((2, 3), draws)],
    )
    numbers = {n: n for n in range(1, 5)}
    history, _ = f.two_player_history(numbers, played)
    paired = f.pair_swiss(numbers, list(numbers), history, 3, 3)
    assert paired.system == swiss.FAST and sorted(map(sorted, paired.tables)) == [[1, 2], [3, 4]]


def test_a_cancelled_game_still_forbids_a_rematch() -> None:
    played = rounds_of([((1, 2), [0.0, 0.0]), ((3, 4), [1.0, 0.0])])
    numbers = {n: n for n in range(1, 5)}
    history, _ = f.two_player_history(numbers, played)
    for system in (swiss.DUTCH, swiss.FAST):
        tables = f.pair_swiss(numbers, list(numbers), history, 2, 3, system).tables
        assert all(set(table) != {1, 2} for table in tables)
