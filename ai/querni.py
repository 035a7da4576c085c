"""What the search knows about Querni: links between consecutive numbers, safe removals.

* A *link* is a pair of consecutive numbers of one colour standing close: king
  neighbours make a chain at once, two or three squares apart are a move or two
  away.  The evaluation counts removed pieces plus links, for each side.
* A removal is *safe* when every run of numbers it leaves is at least three
  long (or, under ``isolation="no_triple_left"``, when some run of three is
  left); an unsafe removal loses at once.  Priors try winning and safe removals
  first, then moves that gain links, and unsafe removals last.
* Rollouts take the largest safe removal when there is one and otherwise the
  best of a few random moves by link gain: a uniformly random Querni player
  strands its own pieces within a few turns, which tells the search nothing.

>>> from engines import querni
>>> state = querni.new(layout={"c3": "B1", "d4": "B2", "e4": "B3", "j7": "R1"})
>>> removal_safety(state, state.parse_move("x1-3")) == WINS
True
>>> removal_safety_for(0b11111, 2, 4, any_stranded=True) == STRANDS  # 1 and 5 would be left alone
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ai.knowledge import Knowledge, Reward, soft_reward
from engines import querni
from engines.rng import Rng

PIECES = querni.PIECES
WIDTH = querni.WIDTH
CELLS = querni.CELLS

# What a link between numbers n and n + 1 is worth by the king distance of their squares.
LINK_VALUE = (0.0, 1.0, 0.45, 0.2, 0.08)

STRANDS, SAFE, WINS = querni.STRANDS, querni.SAFE, querni.WINS

DISTANCE = tuple(
    tuple(max(abs(a % WIDTH - b % WIDTH), abs(a // WIDTH - b // WIDTH)) for b in range(CELLS)) for a in range(CELLS)
)
LINK_BY_DISTANCE = tuple(tuple(LINK_VALUE[d] if d < len(LINK_VALUE) else 0.0 for d in row) for row in DISTANCE)

_SAFETY: dict[tuple[int, int, int, bool], int] = {}


# The rules' own judgement of a removal (stranding), from the engine: this module only remembers answers.
present_mask = querni.present_numbers


def removal_safety(state: querni.QuerniState, move: Any) -> int:
    """Return whether ``move``'s removal strands the mover's pieces, is safe, or wins; SAFE without a removal."""
    if move.lo < 0:
        return SAFE
    player = state.to_move
    assert player is not None
    mask = present_mask(state.where(), player)
    return removal_safety_for(mask, move.lo, move.hi, state.isolation == "any_stranded")


def removal_safety_for(mask: int, lo: int, hi: int, any_stranded: bool) -> int:
    """Judge a removal from a present-numbers mask, remembering every answer."""
    key = (mask, lo, hi, any_stranded)
    found = _SAFETY.get(key)
    if found is None:
        isolation = "any_stranded" if any_stranded else "no_triple_left"
        found = _SAFETY[key] = querni.judge_removal(mask, lo, hi, isolation)
    return found


def link_total(where: Sequence[int], player: int) -> float:
    """Sum the link values of ``player``'s consecutive numbers still on the board."""
    base = player * PIECES
    total = 0.0
    here = where[base + 1]
    for n in range(2, PIECES + 1):
        there = where[base + n]
        if here >= 0 and there >= 0:
            total += LINK_BY_DISTANCE[here][there]
        here = there
    return total


def link_gain(where: Sequence[int], board: Sequence[int], player: int, frm: int, to: int) -> float:
    """Return how much moving the piece on ``frm`` to ``to`` changes its links to its number's neighbours."""
    n = board[frm] - player * PIECES
    base = player * PIECES
    gain = 0.0
    if n > 1 and where[base + n - 1] >= 0:
        other = where[base + n - 1]
        gain += LINK_BY_DISTANCE[to][other] - LINK_BY_DISTANCE[frm][other]
    if n < PIECES and where[base + n + 1] >= 0:
        other = where[base + n + 1]
        gain += LINK_BY_DISTANCE[to][other] - LINK_BY_DISTANCE[frm][other]
    return gain


class QuerniKnowledge(Knowledge[querni.QuerniState]):
    """Querni's evaluation, priors and rollout policy."""

    rollout_depth = 6
    has_rollout_policy = True
    # Querni's turns are many (every move, alone and with each removal): let the best priors compete first.
    widening = 1.0
    # One removed piece and one full link, in the evaluation's units (logistic units).
    removed_weight = 0.45
    link_weight = 0.25
    # A move's prior gains this much per unit of link gain.
    link_prior = 0.12
    # Random moves a rollout compares by link gain when it has no safe removal.
    rollout_samples = 3

    def evaluate(self, state: querni.QuerniState) -> Reward:
        where = state.where()
        removed = state.scores()
        margins = [self.removed_weight * removed[p] + self.link_weight * link_total(where, p) for p in (0, 1)]
        return soft_reward(margins)

    def priors(
        self, state: querni.QuerniState, moves: Sequence[Any], children: Sequence[querni.QuerniState] | None
    ) -> list[float]:
        player = state.to_move
        assert player is not None
        where = state.where()
        board = state.board
        mask = present_mask(where, player)
        any_stranded = state.isolation == "any_stranded"
        out = []
        for frm, to, lo, hi in moves:
            gain = link_gain(where, board, player, frm, to) if frm >= 0 else 0.0
            if lo >= 0:
                verdict = removal_safety_for(mask, lo, hi, any_stranded)
                if verdict == WINS:
                    prior = 1.0
                elif verdict == STRANDS:
                    prior = 0.0
                else:
                    prior = min(0.95, 0.7 + 0.02 * (hi - lo + 1) + 0.05 * gain)
            elif frm >= 0:
                prior = min(0.68, max(0.05, 0.5 + self.link_prior * gain))
            else:
                prior = 0.1  # a pass
            out.append(prior)
        return out

    def rollout_move(self, state: querni.QuerniState, moves: Sequence[Any], rng: Rng) -> Any:
        player = state.to_move
        assert player is not None
        where = state.where()
        mask = present_mask(where, player)
        any_stranded = state.isolation == "any_stranded"
        best = None
        best_size = 0
        plain = []
        for move in moves:
            if move.lo >= 0:
                verdict = removal_safety_for(mask, move.lo, move.hi, any_stranded)
                if verdict == WINS:
                    return move
                size = move.hi - move.lo
                if verdict == SAFE and (size > best_size or (size == best_size and rng.below(2))):
                    best, best_size = move, size
            elif move.frm >= 0:
                plain.append(move)
        if best is not None:
            return best
        if not plain:
            return moves[rng.below(len(moves))]
        board = state.board
        pick = plain[rng.below(len(plain))]
        pick_gain = link_gain(where, board, player, pick.frm, pick.to)
        for _ in range(self.rollout_samples - 1):
            other = plain[rng.below(len(plain))]
            gain = link_gain(where, board, player, other.frm, other.to)
            if gain > pick_gain:
                pick, pick_gain = other, gain
        return pick


# The knowledge :func:`ai.knowledge.knowledge_for` finds for this game.
KNOWLEDGE = QuerniKnowledge


# Where the levels' own budgets do not fit Querni (see ai.LEVELS), set by paired tournaments (bench.tournament):
# its search learns fastest of all, and many deals are won by one seat whoever sits there, so easy also
# samples its moves more loosely, to stay beatable.
LEVEL_SETTINGS: dict[str, dict[str, Any]] = {
    "easy": {"iterations": 10, "temperature": 2.0},
    "medium": {"iterations": 100},
}

# Playouts per position when the computer reviews a finished game (ai.review): about 0.2–0.5 s a position on
# one core of a small machine, so a whole game is reviewed in well under a minute.
REVIEW_ITERATIONS = 500
# The self-played games the shipped puzzles are mined from (ai.puzzle_set), taken in turn: every option set a
# server can start, played loosely (easy, sometimes against medium) so that chances are thrown away as people do.
PUZZLE_SETUPS: tuple[dict[str, Any], ...] = (
    {"options": {}},
    {"options": {"isolation": "no_triple_left"}},
    {"options": {}, "levels": ("easy", "medium")},
    {"options": {"isolation": "no_triple_left"}, "levels": ("medium", "easy")},
)
