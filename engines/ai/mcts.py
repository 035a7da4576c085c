"""Monte Carlo tree search over the engine contract, for 2 to 4 players.

The search needs only ``legal_moves()``, ``play()``, ``to_move``, ``outcome()``,
``scores()`` and ``players``; what it knows about a particular game comes from a
:class:`~engines.ai.knowledge.Knowledge`.

* Selection: UCT with progressive bias (a move's prior fades as its visits grow)
  and optional progressive widening (only the best-prior moves of a young node
  compete, more as it is visited).
* Rewards are max^n vectors, one float per player: each node keeps the total
  reward of the player who moved into it, so each player maximises their own.
* Simulation: a rollout of at most ``rollout_depth`` plies (the game's rollout
  policy), then the game's evaluation; finished games are scored from
  ``Outcome.places``.
* A solver marks nodes whose value is exact: a finished game, or a node where
  the mover has a move to an exact sole win (reward 1), or where every move is
  exact.  So an immediate win is found at once and a move that lets the
  opponent win at once is recognised as such.
* Determinism: all chance comes from one :class:`~engines.rng.Rng`; with an
  iteration budget the same seed gives the same move.  A time budget reads the
  injected ``clock`` between iterations and every few rollout plies.

>>> from engines import pond
>>> state = pond.new(variant="mini")
>>> result = search(state, iterations=50, seed=1)
>>> result.iterations, result.move in state.legal_moves()
(50, True)
"""

from __future__ import annotations

import gc
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engines.ai.knowledge import Knowledge, Reward, knowledge_for, reward_from_outcome
from engines.base import GameState
from engines.rng import Rng

Clock = Callable[[], float]

# How many rollout plies pass between two looks at the clock: a ply costs a few
# microseconds, so this keeps the overshoot of a time budget far below 1 ms.
CLOCK_EVERY_PLIES = 16


class Node:
    """One position in the tree, reached by ``move`` from its parent."""

    __slots__ = (
        "children",
        "exact",
        "move",
        "mover",
        "next_states",
        "prior",
        "proven",
        "state",
        "total",
        "untried",
        "visits",
    )

    def __init__(self, move: Any, state: GameState, mover: int, prior: float) -> None:
        self.move = move
        self.state = state
        self.mover = mover  # the player who played ``move``; ``total`` is their reward
        self.prior = prior
        self.visits = 0
        self.total = 0.0
        self.children: list[Node] = []
        # Moves not yet made into children, best prior last so that ``pop()`` takes it.
        self.untried: list[tuple[float, int, Any]] | None = None
        self.next_states: list[GameState] | None = None
        self.exact: Reward | None = None  # a known value: a finished game, a horizon, or a solved node
        self.proven = False  # ``exact`` is the game-theoretic value (not a horizon estimate)


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a search found: the chosen move and a few figures about the tree."""

    move: Any
    iterations: int
    root_visits: tuple[tuple[Any, int, float], ...]  # (move, visits, mean reward for the mover)
    proven: bool  # the root's value is exact


def search(
    state: GameState,
    *,
    iterations: int,
    seed: int = 0,
    knowledge: Knowledge | None = None,
    exploration: float = 0.7,
    prior_weight: float = 1.0,
    widening: float | None = None,
    temperature: float = 0.0,
    rollout_depth: int | None = -1,
    clock: Clock | None = None,
    deadline: float | None = None,
) -> SearchResult:
    """Search ``state`` and return the chosen move with some statistics.

    ``iterations`` caps the playouts; ``deadline`` (a ``clock()`` reading) stops
    earlier.  ``temperature`` 0 plays the most visited move; above 0 it samples
    moves in proportion to ``visits ** (1 / temperature)`` (a weaker, livelier
    player).  ``rollout_depth`` -1 keeps the knowledge's own depth.
    """
    moves = state.legal_moves()
    if not moves:
        raise ValueError("The game is over: there is no move to choose.")
    if deadline is not None and clock is None:
        raise ValueError("A deadline needs a clock.")
    know = knowledge if knowledge is not None else knowledge_for(state.game)
    rng = Rng(seed)
    if len(moves) == 1:
        return SearchResult(moves[0], 0, ((moves[0], 0, 0.0),), False)
    depth = know.rollout_depth if rollout_depth == -1 else rollout_depth
    depth = know.max_rollout_plies if depth is None else min(depth, know.max_rollout_plies)
    tree = _Tree(know, rng, exploration, prior_weight, widening, depth, clock, deadline)
    # The tree holds no reference cycles, so reference counting frees it all.  The
    # cyclic collector would stop the search for tens of milliseconds to walk
    # thousands of young nodes, breaking tight time budgets, so it is paused until
    # the tree is gone (freed before it resumes, so it never walks it).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _run(tree, state, iterations, temperature, rng, clock, deadline)
    finally:
        if collecting:
            gc.enable()


def _run(
    tree: _Tree,
    state: GameState,
    iterations: int,
    temperature: float,
    rng: Rng,
    clock: Clock | None,
    deadline: float | None,
) -> SearchResult:
    """Grow the tree from ``state`` until a budget runs out; return the choice (the tree dies here)."""
    root = Node(None, state, -1, 0.0)
    done = 0
    while done < iterations:
        if deadline is not None and clock is not None and clock() >= deadline:
            break
        tree.iterate(root)
        done += 1
        if root.proven:
            break
    move = _final_choice(root, temperature, rng)
    stats = tuple(
        (child.move, child.visits, child.total / child.visits if child.visits else 0.0) for child in root.children
    )
    return SearchResult(move, done, stats, root.proven)


class _Tree:
    """The mutable parts of one search, kept together so the hot loop reads locals."""

    def __init__(
        self,
        know: Knowledge,
        rng: Rng,
        exploration: float,
        prior_weight: float,
        widening: float | None,
        depth: int,
        clock: Clock | None,
        deadline: float | None,
    ) -> None:
        self.know = know
        self.rng = rng
        self.exploration = exploration
        self.prior_weight = prior_weight
        self.widening = widening
        self.depth = depth
        self.clock = clock
        self.deadline = deadline

    # -- one iteration ----------------------------------------------------------

    def iterate(self, root: Node) -> None:
        """Select a path, expand one node, simulate from it and back the reward up."""
        path = [root]
        node = root
        while True:
            if node.exact is not None:
                reward = node.exact
                break
            if node.untried is None:
                self._open(node)
                if node.exact is not None:
                    reward = node.exact
                    break
            untried = node.untried
            assert untried is not None
            if untried and (self.widening is None or len(node.children) < self._width(node.visits)):
                child = self._expand(node)
                path.append(child)
                reward = child.exact if child.exact is not None else self._rollout(child.state)
                break
            node = self._select(node)
            path.append(node)
        for visited in path:
            visited.visits += 1
            if visited.mover >= 0:
                visited.total += reward[visited.mover]
        self._solve(path)

    def _width(self, visits: int) -> int:
        """How many children a node with ``visits`` may have under progressive widening."""
        assert self.widening is not None
        return 2 + int(self.widening * math.sqrt(visits))

    def _open(self, node: Node) -> None:
        """Prepare a node's moves when it is first passed through (or mark it exact)."""
        state = node.state
        outcome = state.outcome()
        if outcome is not None:
            node.exact = reward_from_outcome(outcome, state.players)
            node.proven = True
            node.untried = []
            return
        know = self.know
        moves = state.legal_moves()
        children = [state.play(move) for move in moves] if know.priors_use_children else None
        priors = know.priors(state, moves, children)
        # Ties between equal priors are broken by the seed, so that the search
        # does not always prefer the first move in sorted order.
        keys = [self.rng.bits() for _ in moves]
        if priors is None:
            order = sorted(range(len(moves)), key=lambda i: keys[i])
            node.untried = [(0.5, i, moves[i]) for i in order]
        else:
            order = sorted(range(len(moves)), key=lambda i: (priors[i], keys[i]))
            node.untried = [(priors[i], i, moves[i]) for i in order]
        node.next_states = children

    def _expand(self, node: Node) -> Node:
        """Make the best untried move of ``node`` into a child."""
        assert node.untried is not None
        prior, index, move = node.untried.pop()
        if node.next_states is not None:
            after = node.next_states[index]
            if not node.untried:
                node.next_states = None  # every child now holds its own state
        else:
            after = node.state.play(move)
        mover = node.state.to_move
        assert mover is not None
        child = Node(move, after, mover, prior)
        node.children.append(child)
        outcome = after.outcome()
        if outcome is not None:
            child.exact = reward_from_outcome(outcome, after.players)
            child.proven = True
            child.untried = []
        elif self.know.has_horizon and self.know.horizon(after):
            # Beyond a horizon lies chance the player cannot see: the evaluation is all we know.
            child.exact = self.know.evaluate(after)
            child.untried = []
        return child

    def _select(self, node: Node) -> Node:
        """Pick the child with the best UCT score plus progressive bias."""
        log_n = math.log(node.visits + 1)
        c = self.exploration
        w = self.prior_weight
        best = node.children[0]
        best_score = -math.inf
        for child in node.children:
            n = child.visits
            if child.proven:
                # An exact child needs no exploration: its value is its score.
                assert child.exact is not None
                score = child.exact[child.mover]
            else:
                score = child.total / n + c * math.sqrt(log_n / n) + w * child.prior / (n + 1)
            if score > best_score:
                best, best_score = child, score
        return best

    def _rollout(self, state: GameState) -> Reward:
        """Play the rollout policy for up to ``depth`` plies, then evaluate."""
        know = self.know
        rng = self.rng
        policy = know.rollout_move if know.has_rollout_policy else None
        horizon = know.horizon if know.has_horizon else None
        clock, deadline = self.clock, self.deadline
        for ply in range(self.depth):
            moves = state.legal_moves()
            if not moves:
                break
            if horizon is not None and ply and horizon(state):
                return know.evaluate(state)
            if deadline is not None and ply % CLOCK_EVERY_PLIES == CLOCK_EVERY_PLIES - 1:
                assert clock is not None
                if clock() >= deadline:
                    break
            move = policy(state, moves, rng) if policy is not None else moves[rng.below(len(moves))]
            state = state.play(move)
        outcome = state.outcome()
        if outcome is not None:
            return reward_from_outcome(outcome, state.players)
        return know.evaluate(state)

    # -- the solver ---------------------------------------------------------------

    def _solve(self, path: list[Node]) -> None:
        """Propagate exact values up ``path``: a sole win for the mover, or every move exact."""
        for i in range(len(path) - 1, 0, -1):
            child, parent = path[i], path[i - 1]
            if not child.proven or parent.proven:
                return
            player = parent.state.to_move
            assert player is not None and child.exact is not None
            if child.exact[player] >= 1.0:
                parent.exact = child.exact
            elif parent.untried or not all(c.proven for c in parent.children):
                return
            else:
                parent.exact = max(parent.children, key=lambda c: c.exact[player] if c.exact else 0.0).exact
            parent.proven = True


def _final_choice(root: Node, temperature: float, rng: Rng) -> Any:
    """Pick the move to play from the root's children."""
    children = root.children
    player = root.state.to_move
    assert player is not None
    if not children:
        # No iteration ran (a zero budget): the best prior, else the first legal move.
        if root.untried:
            return root.untried[-1][2]
        return root.state.legal_moves()[0]
    if root.proven:
        assert root.exact is not None
        target = root.exact[player]
        for child in children:
            if child.proven and child.exact is not None and child.exact[player] >= target:
                return child.move
    # A move proven to lose is never chosen while another move remains in doubt.
    candidates = [c for c in children if not (c.proven and c.exact is not None and c.exact[player] <= 0.0)]
    if not candidates:
        candidates = children
    if temperature > 0.0:
        weights = [float(c.visits) ** (1.0 / temperature) for c in candidates]
        return _weighted_pick(candidates, weights, rng).move
    return max(candidates, key=lambda c: (c.visits, c.total / c.visits if c.visits else 0.0)).move


def _weighted_pick(items: Sequence[Node], weights: Sequence[float], rng: Rng) -> Node:
    """Pick one item with probability proportional to its weight, from the seeded generator."""
    total = sum(weights)
    if total <= 0.0:
        return items[rng.below(len(items))]
    point = rng.bits() / float(1 << 64) * total
    for item, weight in zip(items, weights, strict=True):
        point -= weight
        if point < 0.0:
            return item
    return items[-1]
