"""What the search knows about Summer: the race to the goal rows, and the weight it brings.

The game ends as soon as one side has every piece on its goal row (after one
last Black ply if White got there first), and only weight on a goal row
scores.  So the evaluation models the race:

* each side needs ``D`` more forward moves to bring every piece home (the sum
  of its travelling pieces' distances);
* the side that gets home first (counting who moves next) scores all its
  weight, a travelling piece slightly discounted for the risks on its way;
* the other side has only as many moves as the race leaves it, and brings home
  what fits in them, best weight per move first, besides what has arrived.

The difference goes through a logistic scaled to the board's total weight.
Priors are the evaluation one ply ahead (the search reuses those positions as
the children), so winning collisions and good merges are tried first, and with
progressive widening only the best of a turn's forty-odd moves compete at first.
Rollouts are short and lean forward: of two random moves the one that advances
more is played.

>>> from engines import summer
>>> state = summer.new(size=3, weights=[1, 2, 3], black_weights=[3, 1, 2], terrain=["...", "+-+", "..."])
>>> SummerKnowledge().evaluate(state)
(0.5, 0.5)
>>> expected_totals(state)
(5.4, 5.4)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ai.knowledge import Knowledge, Reward, soft_reward
from engines.rng import Rng
from engines.summer import SummerState

# A travelling piece of the side that wins the race counts for this share of its weight,
# less RISK_PER_RANK for every rank it still has to cross.
TRAVEL_SHARE = 1.0
RISK_PER_RANK = 0.05


def _fill(pieces: list[tuple[int, int]], budget: int) -> float:
    """Return the weight of travelling ``(weight, distance)`` pieces that ``budget`` moves bring home, best first."""
    total = 0.0
    for weight, distance in sorted(pieces, key=lambda p: (-p[0] / p[1], p[1])):
        if distance <= budget:
            budget -= distance
            total += weight * (TRAVEL_SHARE - RISK_PER_RANK * distance)
    return total


def expected_totals(state: SummerState) -> tuple[float, float]:
    """Estimate each side's final weight on its goal row by the race model above."""
    board = state.board
    # The engine's table of the ranks each side's piece on a cell still has to cross.
    white_distance, black_distance = state.geometry.goal_distance
    home = [0.0, 0.0]
    travelling: tuple[list[tuple[int, int]], list[tuple[int, int]]] = ([], [])
    for cell, value in enumerate(board):
        if value > 0:
            distance = white_distance[cell]
            if distance:
                travelling[0].append((value, distance))
            else:
                home[0] += value
        elif value < 0:
            distance = black_distance[cell]
            if distance:
                travelling[1].append((-value, distance))
            else:
                home[1] -= value
    need = [sum(d for _, d in travelling[0]), sum(d for _, d in travelling[1])]
    mover = state.to_move
    other = 1 - mover if mover is not None else 0
    # The side to move finishes first on equal needs.  If White finishes first Black still gets a
    # last ply; if Black does, the game ends at once.
    if mover is None:
        first = 0 if need[0] <= need[1] else 1
        budget = 0
    elif need[mover] <= need[other]:
        first = mover
        budget = need[mover] - (1 if mover == 1 else 0)
    else:
        first = other
        budget = need[other] + (1 if other == 0 else 0)
    second = 1 - first
    totals = [0.0, 0.0]
    totals[first] = home[first] + sum(w * (TRAVEL_SHARE - RISK_PER_RANK * d) for w, d in travelling[first])
    totals[second] = home[second] + _fill(travelling[second], budget)
    return (round(totals[0], 6), round(totals[1], 6))


class SummerKnowledge(Knowledge[SummerState]):
    """Summer's evaluation, priors and rollout policy."""

    rollout_depth = 6
    priors_use_children = True
    has_rollout_policy = True
    # About forty moves a turn, most of them poor: let the best priors compete first (this beat
    # plain UCT in the tournament).
    widening = 1.0
    # The logistic's unit, as a share of the board's total starting weight (per side).
    scale_share = 0.12

    def evaluate(self, state: SummerState) -> Reward:
        white, black = expected_totals(state)
        scale = max(1.0, self.scale_share * sum(state.weights))
        return soft_reward([white / scale, black / scale])

    def priors(
        self, state: SummerState, moves: Sequence[Any], children: Sequence[SummerState] | None
    ) -> list[float] | None:
        if children is None:
            return None
        return self.lookahead_priors(state, children, 2)

    def rollout_move(self, state: SummerState, moves: Sequence[Any], rng: Rng) -> Any:
        distance = state.geometry.goal_distance[state.turn]
        first = moves[rng.below(len(moves))]
        second = moves[rng.below(len(moves))]
        # A forward move brings the piece one rank nearer its goal row; a sideways one none.
        if distance[second.frm] - distance[second.to] > distance[first.frm] - distance[first.to]:
            return second
        return first


# The knowledge :func:`ai.knowledge.knowledge_for` finds for this game.
KNOWLEDGE = SummerKnowledge


# Where the levels' own budgets do not fit Summer (see ai.LEVELS), set by paired tournaments (bench.tournament):
# a playout teaches the search more here than in Pond, so medium needs fewer of them.
LEVEL_SETTINGS: dict[str, dict[str, Any]] = {"medium": {"iterations": 50}}

# Playouts per position when the computer reviews a finished game (ai.review): about 0.2–0.5 s a position on
# one core of a small machine, so a whole game is reviewed in well under a minute.
REVIEW_ITERATIONS = 2000
# Playouts per position when mining puzzles (ai.puzzles): half a review's, since every position of every
# finished game is looked at and a candidate is searched three times over (the search, its confirmation at
# twice the budget, the line); a puzzle's solution is a clear choice, which a smaller search already sees.
PUZZLE_ITERATIONS = 1000
# The self-played games the shipped puzzles are mined from (ai.puzzle_set), taken in turn: every option set a
# server can start, played loosely (easy, sometimes against medium) so that chances are thrown away as people do.
PUZZLE_SETUPS: tuple[dict[str, Any], ...] = (
    {"options": {"board": "square"}},
    {"options": {"board": "hex"}},
    {"options": {"board": "square", "mode": "field"}, "levels": ("easy", "medium")},
    {"options": {"board": "hex", "mode": "field"}},
    {"options": {"board": "square"}, "levels": ("medium", "easy")},
)
