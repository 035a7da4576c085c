"""Puzzle ratings: Glicko-2 for the player and the puzzle alike, as Lichess rates its puzzles.

A player's first try at a puzzle is one game between them: the player wins when they solve it, the puzzle wins
when they fail.  Both sides are rated from the other's values before the try, each as a rating period with one
game (the kept library ``glicko2`` does the maths); later tries at the same puzzle are not rated, so nobody
climbs by learning answers.  Players start at 1500 with a deviation of 350 (nothing known yet), a puzzle at its
own first guess (``ai.puzzles.first_rating``) with a deviation of :data:`~bot.storage.puzzle_store.PUZZLE_RD`.

>>> player, puzzle = rate((1500.0, 350.0, 0.06), (1500.0, 300.0, 0.06), solved=True)
>>> player[0] > 1500 > puzzle[0], player[1] < 350, puzzle[1] < 300
(True, True, True)
"""

from __future__ import annotations

import glicko2

from bot.storage.puzzle_store import Glicko

#: No rating leaves these bounds (a puzzle nobody solves must not sink without end, nor a player run away).
FLOOR = 400.0
CEILING = 3500.0
#: The deviation never falls below this: a rating always keeps room to move.
MIN_RD = 45.0


def _updated(side: Glicko, other: Glicko, score: float) -> Glicko:
    """``side`` after one game against ``other`` scoring ``score`` (1 a win, 0 a loss)."""
    rated = glicko2.Player(rating=side[0], rd=side[1], vol=side[2])
    rated.update_player([other[0]], [other[1]], [score])
    rating = min(CEILING, max(FLOOR, float(rated.getRating())))
    return rating, max(MIN_RD, float(rated.getRd())), float(rated.vol)


def rate(player: Glicko, puzzle: Glicko, solved: bool) -> tuple[Glicko, Glicko]:
    """The player's and the puzzle's (rating, deviation, volatility) after the player's first try at it."""
    score = 1.0 if solved else 0.0
    return _updated(player, puzzle, score), _updated(puzzle, player, 1.0 - score)


def shown(rating: float) -> int:
    """A rating as players see it: a whole number."""
    return round(rating)


__all__ = ["CEILING", "FLOOR", "MIN_RD", "rate", "shown"]
