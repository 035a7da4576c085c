"""Toy's knowledge for the computer: a pile that is a multiple of ``most + 1`` is lost for the player to move."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ai.knowledge import Knowledge, Reward
from engines.rng import Rng
from tests.toy.engine import ToyState


class ToyKnowledge(Knowledge[ToyState]):
    """Evaluate by the rule of the game: whoever faces a multiple of ``most + 1`` loses with best play."""

    rollout_depth = 0
    has_rollout_policy = True

    def evaluate(self, state: ToyState) -> Reward:
        mover = state.to_move if state.to_move is not None else 0
        losing = state.stones % (state.most + 1) == 0
        mine = 0.1 if losing else 0.9
        return (mine, 1 - mine) if mover == 0 else (1 - mine, mine)

    def rollout_move(self, state: ToyState, moves: Sequence[Any], rng: Rng) -> Any:
        best = state.stones % (state.most + 1)
        return best if best in moves else moves[rng.below(len(moves))]


# The knowledge :func:`ai.knowledge.knowledge_for` finds for this game.
KNOWLEDGE = ToyKnowledge
# The levels' own budgets fit (see ai.LEVELS), except that easy samples more loosely still.
LEVEL_SETTINGS: dict[str, dict[str, Any]] = {"easy": {"temperature": 2.0}}
