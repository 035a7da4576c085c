"""Glicko-2 for puzzles: a first try moves the player and the puzzle the right way, by the right amounts."""

from __future__ import annotations

from bot.core.puzzle_ratings import CEILING, FLOOR, MIN_RD, rate

NEW = (1500.0, 350.0, 0.06)


def test_solving_raises_the_player_and_lowers_the_puzzle() -> None:
    player, puzzle = rate(NEW, (1500.0, 300.0, 0.06), solved=True)
    assert player[0] > 1500.0 > puzzle[0]
    assert player[1] < 350.0 and puzzle[1] < 300.0  # both are better known after a game


def test_failing_lowers_the_player_and_raises_the_puzzle() -> None:
    player, puzzle = rate(NEW, (1500.0, 300.0, 0.06), solved=False)
    assert player[0] < 1500.0 < puzzle[0]


def test_an_expected_result_moves_less_than_a_surprise() -> None:
    easy = rate(NEW, (1000.0, 300.0, 0.06), solved=True)[0][0] - 1500.0
    hard = rate(NEW, (2000.0, 300.0, 0.06), solved=True)[0][0] - 1500.0
    assert 0 < easy < hard


def test_a_settled_player_moves_less_than_a_new_one() -> None:
    settled = rate((1500.0, 60.0, 0.06), (1500.0, 300.0, 0.06), solved=True)[0][0] - 1500.0
    new = rate(NEW, (1500.0, 300.0, 0.06), solved=True)[0][0] - 1500.0
    assert 0 < settled < new


def test_ratings_and_deviations_stay_in_bounds() -> None:
    low, _ = rate((FLOOR, 350.0, 0.06), (CEILING, 45.0, 0.06), solved=False)
    assert low[0] == FLOOR
    sure = (1500.0, MIN_RD, 0.06)
    for _ in range(50):
        sure, _ = rate(sure, (1500.0, 45.0, 0.06), solved=True)
    assert sure[1] >= MIN_RD
