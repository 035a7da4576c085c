"""What the search knows about Pond: scored-piece difference, and moves that score first.

* Evaluation: the difference of scored pieces, through a logistic, so a lead of
  a few pieces is a strong but not certain advantage.
* Priors: the position after each move is known (a one-ply lookahead that the
  search reuses for the children), so a move that wins at once is tried first,
  then moves that score for the mover, and moves that score for the opponent last.
* Rollouts are short and random: Pond's sets come and go quickly, so the
  evaluation after a few plies beats a long random game.

>>> from engines import pond
>>> know = PondKnowledge()
>>> state = pond.new(variant="mini")
>>> know.evaluate(state)
(0.5, 0.5)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ai.knowledge import Knowledge, Reward, reward_from_outcome, soft_reward
from engines.pond import PondState


class PondKnowledge(Knowledge[PondState]):
    """Pond's evaluation and move priors."""

    rollout_depth = 8
    priors_use_children = True
    # One scored piece is worth this many logistic units in the evaluation.
    scored_weight = 0.5
    # A prior's step per piece of net gain on the move itself.
    gain_prior = 0.12
    # How much more a lead weighs as the leader nears the target (0: a lead weighs the same throughout).
    urgency = 0.0

    def evaluate(self, state: PondState) -> Reward:
        scored = state.scores()
        weight = self.scored_weight * (1.0 + self.urgency * max(scored) / state.target)
        return soft_reward([weight * scored[0], weight * scored[1]])

    def priors(
        self, state: PondState, moves: Sequence[Any], children: Sequence[PondState] | None
    ) -> list[float] | None:
        if children is None:
            return None
        player = state.to_move
        assert player is not None
        before = state.scores()
        mine, theirs = before[player], before[1 - player]
        out = []
        for child in children:
            outcome = child.outcome()
            if outcome is not None:
                out.append(reward_from_outcome(outcome, 2)[player])
                continue
            after = child.scores()
            net = (after[player] - mine) - (after[1 - player] - theirs)
            out.append(min(0.95, max(0.05, 0.5 + self.gain_prior * net)))
        return out


# The knowledge :func:`ai.knowledge.knowledge_for` finds for this game.
KNOWLEDGE = PondKnowledge


# The levels' own budgets fit Pond (see ai.LEVELS): a playout teaches the search least here.
LEVEL_SETTINGS: dict[str, dict[str, Any]] = {}

# Playouts per position when the computer reviews a finished game (ai.review): about 0.2–0.5 s a position on
# one core of a small machine, so a whole game is reviewed in well under a minute.
REVIEW_ITERATIONS = 2000
# The self-played games the shipped puzzles are mined from (ai.puzzle_set), taken in turn: every option set a
# server can start, played loosely (easy, sometimes against medium) so that chances are thrown away as people do.
PUZZLE_SETUPS: tuple[dict[str, Any], ...] = (
    {"options": {"variant": "standard"}},
    {"options": {"variant": "mini"}},
    {"options": {"variant": "standard"}, "levels": ("easy", "medium")},
    {"options": {"variant": "large"}},
    {"options": {"variant": "mini"}, "levels": ("medium", "easy")},
)
